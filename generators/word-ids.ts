/**
 * Texts as interned integer ids, for the trajectory generator's inner loops
 * (`generators/benign-trajectory.ts`): a text's content words (`contentWords`) and its adjacent
 * word pairs (`wordBigrams`) as arrays of small integers, each id once, and `Marks`, an
 * id-indexed array of stamps that answers "is this id in that set" without hashing a string.
 * The ids stand for exactly the words and pairs of those two functions (same tokens, same
 * function-word list), so counts of shared and distinct words are the same as on the string
 * sets; only the cost differs.
 */
import { isFunctionWord, textTokens } from './calibration/features.js';

/** A text's content words and word pairs as interned ids (each once, in first-seen order). */
interface TextIds {
  /** Ids of `contentWords(text)`. */
  readonly words: Int32Array;
  /** Ids of `wordBigrams(text)` (a pair id stands for the two word ids in order). */
  readonly pairs: Int32Array;
}

/**
 * An id-indexed set of stamps: `next()` opens a fresh empty set, `add` / `has` mark and test an
 * id in it. Marking is O(1) and allocates nothing once the array has grown to the ids in use.
 */
export class Marks {
  private a = new Int32Array(4096);
  private stamp = 0;

  /** A fresh stamp: no id is marked with it yet. */
  next(): number {
    if (this.stamp === 0x7fffffff) {
      this.a.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }

  /** Marks `id` with `stamp`; true when it was not marked with it before. */
  add(id: number, stamp: number): boolean {
    if (id >= this.a.length) this.grow(id);
    if (this.a[id] === stamp) return false;
    this.a[id] = stamp;
    return true;
  }

  /** True when `id` is marked with `stamp`. */
  has(id: number, stamp: number): boolean {
    return id < this.a.length && this.a[id] === stamp;
  }

  /** Marks every id of `ids` with a fresh stamp and returns that stamp. */
  markAll(ids: Int32Array): number {
    const s = this.next();
    for (let i = 0; i < ids.length; i++) this.add(ids[i] as number, s);
    return s;
  }

  private grow(id: number): void {
    let n = this.a.length;
    while (n <= id) n *= 2;
    const b = new Int32Array(n);
    b.set(this.a);
    this.a = b;
  }
}

/** Word ids (token → id) and whether each id is a function word. */
const WORD_IDS = new Map<string, number>();
let functionWord = new Uint8Array(4096);
/**
 * Pair ids: an open-addressing table over (first word id, second word id), linear probing,
 * kept at most half full. `pairSlots[2k]`, `pairSlots[2k + 1]` hold slot k's two word ids
 * (first id + 1, so 0 marks a free slot) and `pairIdAt[k]` its pair id.
 */
let pairSlots = new Int32Array(1 << 15);
let pairIdAt = new Int32Array(1 << 14);
let pairCount = 0;
/** Ids per text (cleared when full, like `contentWords`' cache). */
const TEXT_IDS = new Map<string, TextIds>();
const TEXT_IDS_SIZE = 4096;
/** Word ids stay below this (far more than a case's words between two resets). */
const MAX_WORDS = 1 << 30;
/** Interned words or pairs past which `resetTextIdsIfFull` starts over (bounds memory over a long campaign). */
const RESET_AT = 1 << 14;

const SEEN_WORDS = new Marks();
const SEEN_PAIRS = new Marks();

/**
 * Forgets every id when the tables hold more than `RESET_AT` words or pairs. Call it only where
 * no id is held (between cases): ids handed out before a reset mean other words after it.
 */
export function resetTextIdsIfFull(): void {
  if (WORD_IDS.size <= RESET_AT && pairCount <= RESET_AT) return;
  WORD_IDS.clear();
  pairSlots = new Int32Array(1 << 15);
  pairIdAt = new Int32Array(1 << 14);
  pairCount = 0;
  TEXT_IDS.clear();
  functionWord = new Uint8Array(4096);
}

function wordId(token: string): number {
  let id = WORD_IDS.get(token);
  if (id === undefined) {
    id = WORD_IDS.size;
    if (id >= MAX_WORDS) throw new RangeError(`word-ids: more than ${MAX_WORDS} distinct words without a reset (resetTextIdsIfFull runs between cases)`);
    WORD_IDS.set(token, id);
    if (id >= functionWord.length) {
      const b = new Uint8Array(functionWord.length * 2);
      b.set(functionWord);
      functionWord = b;
    }
    functionWord[id] = isFunctionWord(token) ? 1 : 0;
  }
  return id;
}

/** The id of the word pair (a, b), interned on first sight. */
function pairId(a: number, b: number): number {
  let mask = pairIdAt.length - 1;
  let k = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & mask;
  for (;;) {
    const first = pairSlots[2 * k] as number;
    if (first === 0) break;
    if (first === a + 1 && pairSlots[2 * k + 1] === b) return pairIdAt[k] as number;
    k = (k + 1) & mask;
  }
  const id = pairCount++;
  if (pairCount * 2 > pairIdAt.length) {
    growPairs();
    mask = pairIdAt.length - 1;
    k = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & mask;
    while (pairSlots[2 * k] !== 0) k = (k + 1) & mask;
  }
  pairSlots[2 * k] = a + 1;
  pairSlots[2 * k + 1] = b;
  pairIdAt[k] = id;
  return id;
}

/** Doubles the pair table, re-placing every pair. */
function growPairs(): void {
  const oldSlots = pairSlots;
  const oldIds = pairIdAt;
  pairSlots = new Int32Array(oldSlots.length * 2);
  pairIdAt = new Int32Array(oldIds.length * 2);
  const mask = pairIdAt.length - 1;
  for (let j = 0; j < oldIds.length; j++) {
    const first = oldSlots[2 * j] as number;
    if (first === 0) continue;
    const b = oldSlots[2 * j + 1] as number;
    let k = (Math.imul(first - 1, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & mask;
    while (pairSlots[2 * k] !== 0) k = (k + 1) & mask;
    pairSlots[2 * k] = first;
    pairSlots[2 * k + 1] = b;
    pairIdAt[k] = oldIds[j] as number;
  }
}

/**
 * The content-word and word-pair ids of `text` (cached; do not mutate the arrays). Their
 * lengths are `contentWords(text).size` and `wordBigrams(text).size`.
 */
export function textIds(text: string): TextIds {
  const hit = TEXT_IDS.get(text);
  if (hit) return hit;
  const tokens = textTokens(text) ?? [];
  const words: number[] = [];
  const pairs: number[] = [];
  const ws = SEEN_WORDS.next();
  const ps = SEEN_PAIRS.next();
  let prev = -1;
  for (const t of tokens) {
    const id = wordId(t);
    if (functionWord[id] === 0 && SEEN_WORDS.add(id, ws)) words.push(id);
    if (prev >= 0) {
      const p = pairId(prev, id);
      if (SEEN_PAIRS.add(p, ps)) pairs.push(p);
    }
    prev = id;
  }
  const out: TextIds = { words: Int32Array.from(words), pairs: Int32Array.from(pairs) };
  if (TEXT_IDS.size >= TEXT_IDS_SIZE) TEXT_IDS.clear();
  TEXT_IDS.set(text, out);
  return out;
}

/** The union of id arrays, each id once (first-seen order). */
export function unionIds(parts: readonly Int32Array[]): Int32Array {
  const s = SEEN_WORDS.next();
  const out: number[] = [];
  for (const ids of parts) for (let i = 0; i < ids.length; i++) if (SEEN_WORDS.add(ids[i] as number, s)) out.push(ids[i] as number);
  return Int32Array.from(out);
}
