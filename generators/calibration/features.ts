/**
 * Guard-independent features of a benign memory entry, measured on real traces by
 * `npm run calibrate` (docs/calibration.md). None of these patterns is a guard's list: they
 * describe the text (does it name an omission, a secret or a precedent; is it a code literal,
 * a quoted request, a tool's option list; which language; how long), so that the natural
 * `benign` mix can carry each hard-negative kind at the rate real agent memory does.
 *
 * Patterns are written for this project and run on NFKC + lower-cased text.
 */

/**
 * Hard-negative kinds: benign entries that use words a memory guard watches for.
 * - `omission-prose`: prose that names skipping, ignoring or not checking something;
 * - `code-literal`: a code or config literal, CLI flag, log line or error message;
 * - `negated-policy`: advice or policy that forbids the act ("never skip verification");
 * - `quoted-request`: a user's request quoted in the agent's note;
 * - `tool-options`: tool output that lists or names options.
 */
export const VOCAB_KINDS = ['omission-prose', 'code-literal', 'negated-policy', 'quoted-request', 'tool-options'] as const;
type VocabKind = (typeof VOCAB_KINDS)[number];

/**
 * Every kind a benign template declares (`meta.kind`): `ordinary`, a vocabulary kind, text in
 * another language (`other-language`), or a long multi-paragraph reflection (`long-reflection`).
 */
export const BENIGN_KINDS = ['ordinary', ...VOCAB_KINDS, 'other-language', 'long-reflection'] as const;
export type BenignKind = (typeof BENIGN_KINDS)[number];

/** Words for leaving a step out, overriding it, or acting without a check (any tense). */
const OMISSION =
  /\b(?:skip(?:s|ped|ping)?|ignor(?:e|es|ed|ing)|bypass(?:es|ed|ing)?|disregard(?:s|ed|ing)?|overrid(?:e|es|ing|den)|overrode|circumvent(?:s|ed|ing)?|omit(?:s|ted|ting)?)\b|\bwithout (?:checking|verifying|verification|validating|validation|confirming|looking)\b|\b(?:no need to|don't|do not|never) (?:check|verify|validate|confirm)\b/;
/** Words for secrets and their disclosure. */
const SENSITIVE = /\b(?:passwords?|credentials?|api[ _-]?keys?|secrets?|access tokens?|disclos(?:e|es|ed|ing)|leak(?:s|ed|ing)?)\b/;
/** A cited precedent or an already-done claim. */
const PRECEDENT = /\b\d+ (?:prior|previous|earlier|past|consecutive) (?:runs|attempts|cycles|sessions|queries|orders)\b|\balready (?:been )?(?:verified|validated|checked|confirmed)\b|\bestablished (?:pattern|practice)\b/;

const CODE = /`[^`]+`|\b[a-z_]+=\S|--[a-z][a-z0-9-]+|\b[a-z]+_[a-z0-9_]+\b|\b[a-z_.]+\([^)]*\)|^\s*(?:warn|warning|error|info|debug)\b[:\]]|\b[a-z]+error\b|\[(?:warn|error|info)\]/m;
const QUOTED_REQUEST = /\b(?:user|shopper|customer|patient|clinician|requester|they) (?:asked|said|wrote|wants|requested|typed)\b|"[^"]{6,}"|“[^”]{6,}”/;
const TOOL_OPTIONS = /^(?:usage|options|flags|available options|parameters)\b|\boptions?:\s|\bflags?:\s/m;
const NEGATION_BEFORE = /\b(?:never|do not|don't|must not|should not|shouldn't|cannot|can't|not to)\b(?:\W+\w+){0,3}\W*$/;

/** Normalises like the guards' text matching does (NFKC, lower case), so one text reads one way. */
function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** True when the text uses words a memory guard watches for (omission, secrets, precedent). */
function hasGuardVocabulary(text: string): boolean {
  const t = normalise(text);
  return OMISSION.test(t) || SENSITIVE.test(t) || PRECEDENT.test(t);
}

/** Share of letters outside ASCII, in [0,1]; 0 for a text with no letters. */
function nonAsciiLetterShare(text: string): number {
  let letters = 0;
  let other = 0;
  for (const ch of text) {
    if (/\p{L}/u.test(ch)) {
      letters++;
      if (ch.charCodeAt(0) > 127) other++;
    }
  }
  return letters === 0 ? 0 : other / letters;
}

/** Common function words of English and of the other languages the generators write (es, de). */
const EN_WORDS = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'to', 'in', 'is', 'it', 'i', 'for', 'on', 'with', 'that', 'this', 'be', 'not', 'was', 'are', 'so', 'as', 'at', 'by', 'from', 'then', 'will', 'need', 'can']);
const OTHER_WORDS = new Set([
  'el', 'la', 'los', 'las', 'del', 'que', 'y', 'un', 'una', 'por', 'para', 'con', 'se', 'es', 'lo', 'su', 'al', 'como', 'pero', 'más',
  'der', 'die', 'das', 'und', 'ist', 'nicht', 'mit', 'für', 'ein', 'eine', 'den', 'dem', 'zu', 'auf', 'ich', 'wir', 'von', 'sich', 'auch', 'wurde',
]);

/**
 * True when the text is mostly not English: many non-ASCII letters (e.g. Chinese), or more
 * Spanish/German function words than English ones (at least three). Code, JSON and key-value
 * text with few function words counts as English.
 */
function isOtherLanguage(text: string): boolean {
  if (nonAsciiLetterShare(text) > 0.3) return true;
  const words = normalise(text).match(/[a-z\u00c0-\u024f']+/g) ?? [];
  let en = 0;
  let other = 0;
  for (const w of words) {
    if (EN_WORDS.has(w)) en++;
    else if (OTHER_WORDS.has(w)) other++;
  }
  return other >= 3 && other > en;
}

/** Characters at or above which an entry counts as a long multi-paragraph entry. */
const LONG_ENTRY_CHARS = 1500;

/**
 * The hard-negative kind of a vocabulary-bearing text (first that applies: tool options, code
 * literal, quoted request, negated policy, else omission prose); `undefined` when the text
 * uses no guard vocabulary.
 */
function vocabKind(text: string, traceType = ''): VocabKind | undefined {
  if (!hasGuardVocabulary(text)) return undefined;
  const t = normalise(text);
  if (TOOL_OPTIONS.test(t) || traceType === 'tool_output') return 'tool-options';
  if (CODE.test(t)) return 'code-literal';
  if (QUOTED_REQUEST.test(t)) return 'quoted-request';
  const m = OMISSION.exec(t) ?? SENSITIVE.exec(t) ?? PRECEDENT.exec(t);
  if (m && NEGATION_BEFORE.test(t.slice(0, m.index))) return 'negated-policy';
  return 'omission-prose';
}

/**
 * The kind of one real entry, as calibration counts it: `long-reflection` for entries of
 * `LONG_ENTRY_CHARS` or more, `other-language` for non-English text, else its vocabulary kind,
 * else `ordinary`.
 */
export function entryKind(text: string, traceType = ''): BenignKind {
  if (text.length >= LONG_ENTRY_CHARS) return 'long-reflection';
  if (isOtherLanguage(text)) return 'other-language';
  return vocabKind(text, traceType) ?? 'ordinary';
}

// ---------------------------------------------------------------- store context (trajectories)

/** Function words left out of the content-word sets (a short English list written for this project). */
const FUNCTION_WORDS = new Set(
  'a an the and or but of to in on at by for from with into is are was were be been it its this that these those i me my we our you your he his she her they them their so then than as not no can could will would should need needs must do does did has have had there here what which who if'.split(' '),
);

/** Content-word sets kept per text (cleared when full; it only saves time: trajectories compare each text many times). */
const WORDS_CACHE = new Map<string, Set<string>>();
const WORDS_CACHE_SIZE = 4096;

const ASCII = /^[\x00-\x7f]*$/;

/**
 * The lower-cased words (letters and digits, in order, repeats kept) that `contentWords` and
 * `wordBigrams` read a text as; `null` when it has none. Not cached.
 */
export function textTokens(text: string): string[] | null {
  // ASCII text (most of it): NFKC changes nothing and letters/digits are [a-z0-9], so the fast path gives the same words.
  return ASCII.test(text) ? text.toLowerCase().match(/[a-z0-9]+/g) : normalise(text).match(/[\p{L}\p{N}]+/gu);
}

/** True when `contentWords` leaves the (lower-cased) token out as a function word. */
export const isFunctionWord = (token: string): boolean => FUNCTION_WORDS.has(token);

/** Lower-cased words (letters and digits) of a text, function words left out (cached; do not mutate the set). */
export function contentWords(text: string): ReadonlySet<string> {
  const hit = WORDS_CACHE.get(text);
  if (hit) return hit;
  const tokens = textTokens(text);
  const words = new Set((tokens ?? []).filter((w) => !FUNCTION_WORDS.has(w)));
  if (WORDS_CACHE.size >= WORDS_CACHE_SIZE) WORDS_CACHE.clear();
  WORDS_CACHE.set(text, words);
  return words;
}

/**
 * Lexical overlap of two texts: the Jaccard index of their content-word sets, in [0,1] (0 when
 * both have no content word). A guard-independent measure of how much two memory entries say
 * in the same words.
 * @example lexicalOverlap('Now I take the apple.', 'Now I take the mug.') // 0.333…
 */
export function lexicalOverlap(a: string, b: string): number {
  return setOverlap(contentWords(a), contentWords(b));
}

/** Word-bigram sets kept per text (cleared when full), like `WORDS_CACHE`. */
const BIGRAMS_CACHE = new Map<string, Set<string>>();

/**
 * The adjacent word pairs of a text (lower-cased letters and digits, function words kept, so that
 * the order and the small words between content words count), cached; do not mutate the set.
 * @example wordBigrams('Now I take the apple.') // { 'now i', 'i take', 'take the', 'the apple' }
 */
export function wordBigrams(text: string): ReadonlySet<string> {
  const hit = BIGRAMS_CACHE.get(text);
  if (hit) return hit;
  const tokens = textTokens(text) ?? [];
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < tokens.length; i++) pairs.add(`${tokens[i]} ${tokens[i + 1]}`);
  if (BIGRAMS_CACHE.size >= WORDS_CACHE_SIZE) BIGRAMS_CACHE.clear();
  BIGRAMS_CACHE.set(text, pairs);
  return pairs;
}

/**
 * Sequence overlap of two texts: the Jaccard index of their word-bigram sets, in [0,1]. Of two
 * near-repeats with the same content-word overlap, one that keeps the other's sentence frame (a
 * template said again with new values) scores high, one that says the same things in other words
 * or keeps only one shared sentence scores low (docs/calibration.md, "Store structure").
 * @example sequenceOverlap('I need to search X.', 'I need to search Y.') // 0.6 (3 of 5 pairs)
 */
export function sequenceOverlap(a: string, b: string): number {
  return setOverlap(wordBigrams(a), wordBigrams(b));
}

/** The Jaccard index of two word sets, in [0,1] (0 when both are empty); `lexicalOverlap` on sets. */
export function setOverlap(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  const union = x.size + y.size - shared;
  return union === 0 ? 0 : shared / union;
}

/**
 * The entity tokens of a text (lower-cased): within each clause (cut at `. ! ? ; :` followed by
 * a space, and at line breaks), a word holding a digit (`1999`, `B07XYZ`), a capital after its
 * first character (`MRN`, `CamelCase`), or a capital initial when it is not the clause's first
 * word and has two letters or more (`Paris` in "born in Paris"; never the pronoun "I"). What a
 * step is *about*: names, ids, numbers.
 * @example entityTokens('Now I search Paris. It was 1999.') // { 'paris', '1999' }
 */
export function entityTokens(text: string): ReadonlySet<string> {
  const hit = ENTITY_CACHE.get(text);
  if (hit) return hit;
  const out = new Set<string>();
  for (const clause of text.normalize('NFKC').split(/(?<=[.!?;:])\s+|\n/)) {
    const tokens = clause.match(/[\p{L}\p{N}_'-]+/gu) ?? [];
    tokens.forEach((t, i) => {
      if (/\p{N}/u.test(t) || /\p{Lu}/u.test(t.slice(1)) || (i > 0 && t.length > 1 && /^\p{Lu}/u.test(t))) out.add(t.toLowerCase());
    });
  }
  if (ENTITY_CACHE.size >= WORDS_CACHE_SIZE) ENTITY_CACHE.clear();
  ENTITY_CACHE.set(text, out);
  return out;
}

/** Entity-token sets kept per text (cleared when full), like `WORDS_CACHE`. */
const ENTITY_CACHE = new Map<string, Set<string>>();

/** Entity-token Jaccard at or above which two near-repeats *share their entities*. */
const ENTITY_SHARE = 0.5;
/** Sequence overlap below which a near-repeat keeps *another frame* than what it repeats. */
const OTHER_FRAME = 0.4;

/**
 * True when two texts that are near-repeats are an *entity-sharing reframe*: both name entities
 * (`entityTokens`), those entities overlap by `ENTITY_SHARE` or more (Jaccard), and the word-pair
 * overlap (`sequenceOverlap`) is below `OTHER_FRAME`: the same things said in another sentence
 * frame (a search step, then the answer about the same entity), the opposite of a template twin,
 * which keeps the frame and changes the entities.
 */
export function isEntityReframe(a: string, b: string): boolean {
  const x = entityTokens(a);
  const y = entityTokens(b);
  return x.size > 0 && y.size > 0 && setOverlap(x, y) >= ENTITY_SHARE && sequenceOverlap(a, b) < OTHER_FRAME;
}

/** Content words at or below which an entry counts as a *short observation* ("desk is idle"). */
export const SHORT_WORDS = 6;

/**
 * True when a text is an *entity-free turn*: longer than a short observation (more than
 * `SHORT_WORDS` content words) and naming no entity (`entityTokens` finds nothing): a step said in
 * a fixed frame about nothing in particular, as service replies ("I can help you with that. First,
 * I need to authenticate your identity.") and code reflections ("The implementation is incorrect
 * because it does not handle ...") are.
 * @example isEntityFree('I can help you with that. First, I need to confirm your identity.') // true
 */
export function isEntityFree(text: string): boolean {
  return contentWords(text).size > SHORT_WORDS && entityTokens(text).size === 0;
}

/**
 * Overlap at or above which an earlier entry counts as a *near-repeat* of an entry (the same step
 * said again with other objects or numbers). On the bundled real sets, an entry with a near-repeat
 * in its store context is the entry a consensus guard keeps (docs/calibration.md, finding).
 */
export const NEAR_REPEAT_OVERLAP = 0.3;

/**
 * Near-repeat counts of entries checked in their store context (docs/calibration.md):
 * - `ownEligible`: entries with at least one earlier step of their own episode in the context;
 *   `ownRepeats`: of those, entries with a near-repeat among those steps;
 * - `otherEligible`: entries without an own-episode near-repeat that have entries of earlier
 *   episodes in the context; `otherRepeats`: of those, entries with a near-repeat among them.
 */
export interface NearRepeatCounts {
  n: number;
  ownEligible: number;
  ownRepeats: number;
  otherEligible: number;
  otherRepeats: number;
}

/** Zero counts. */
export function zeroNearRepeats(): NearRepeatCounts {
  return { n: 0, ownEligible: 0, ownRepeats: 0, otherEligible: 0, otherRepeats: 0 };
}

/**
 * Adds one checked entry to `counts`: its text, the texts of its context's own-episode steps and
 * of its context's earlier-episode entries. Mutates and returns `counts`.
 */
export function addNearRepeat(counts: NearRepeatCounts, text: string, own: readonly string[], other: readonly string[]): NearRepeatCounts {
  counts.n += 1;
  const near = (list: readonly string[]): boolean => list.some((t) => lexicalOverlap(text, t) >= NEAR_REPEAT_OVERLAP);
  let ownHit = false;
  if (own.length > 0) {
    counts.ownEligible += 1;
    ownHit = near(own);
    if (ownHit) counts.ownRepeats += 1;
  }
  if (!ownHit && other.length > 0) {
    counts.otherEligible += 1;
    if (near(other)) counts.otherRepeats += 1;
  }
  return counts;
}

// ---------------------------------------------------------------- store structure (repeat groups)

/**
 * Near-repeat similarity histogram: `SIMILARITY_BINS` bins of width 0.05 from
 * `NEAR_REPEAT_OVERLAP` (0.30) to 1.00; bin i holds similarities in [0.30 + 0.05 i, 0.35 + 0.05 i)
 * (the last bin includes 1).
 */
export const SIMILARITY_BINS = 14;
const BIN_WIDTH = 0.05;

/**
 * Sequence-overlap histogram of direct near-repeats: `SEQUENCE_BINS` bins of width 0.2 over
 * [0, 1]; bin i holds [0.2 i, 0.2 (i + 1)) (the last includes 1). It is kept jointly with the
 * similarity bin (the two move together: a near-repeat in more of the same words also keeps more
 * of their order), flattened as `similarityBin * SEQUENCE_BINS + sequenceBin`.
 */
export const SEQUENCE_BINS = 5;

/** Histogram bin of a sequence overlap in [0, 1]. */
function sequenceBin(q: number): number {
  return Math.max(0, Math.min(SEQUENCE_BINS - 1, Math.floor(q * SEQUENCE_BINS + 1e-9)));
}

/** Histogram bin of a near-repeat similarity in [NEAR_REPEAT_OVERLAP, 1]. */
export function similarityBin(s: number): number {
  return Math.max(0, Math.min(SIMILARITY_BINS - 1, Math.floor((s - NEAR_REPEAT_OVERLAP) / BIN_WIDTH + 1e-9)));
}

/** Lower edge of a similarity bin. */
export function binLow(i: number): number {
  return NEAR_REPEAT_OVERLAP + BIN_WIDTH * i;
}

/** Upper edge of a similarity bin (1 for the last). */
export function binHigh(i: number): number {
  return i >= SIMILARITY_BINS - 1 ? 1 : NEAR_REPEAT_OVERLAP + BIN_WIDTH * (i + 1);
}

/**
 * The repeat-group structure of one checked entry (docs/calibration.md, "Store structure"): the
 * store context and the entry are split into *near-repeat groups* by single linkage (two texts
 * of `lexicalOverlap` >= 0.3 are in one group, and so on transitively).
 * - `own`: size of the entry's group, the entry included (1: no near-repeat in the store);
 * - `rival`: size of the largest other group when it has 2 or more members, else 0;
 * - `similarities`: the overlap of the entry with each store text that is a direct near-repeat of it;
 * - `sequences`: the sequence overlap (`sequenceOverlap`) with each of those, in the same order;
 * - `members`: indices (into `store`) of the entry's group members.
 */
export interface StoreStructure {
  own: number;
  rival: number;
  similarities: number[];
  sequences: number[];
  /** Per direct near-repeat (same order): whether it is an entity-sharing reframe (`isEntityReframe`). */
  reframes: boolean[];
  members: number[];
}

/** Groups `texts` by single linkage at `NEAR_REPEAT_OVERLAP`: a group id per text (a union-find root). */
function nearRepeatGroups(sets: readonly ReadonlySet<string>[]): number[] {
  const parent = sets.map((_, i) => i);
  const root = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x] as number] as number;
    return x;
  };
  for (let i = 0; i < sets.length; i++) {
    for (let j = i + 1; j < sets.length; j++) {
      if (root(i) !== root(j) && setOverlap(sets[i] as ReadonlySet<string>, sets[j] as ReadonlySet<string>) >= NEAR_REPEAT_OVERLAP) parent[root(i)] = root(j);
    }
  }
  return sets.map((_, i) => root(i));
}

/** The repeat-group structure of `text` checked after `store` (the store context's texts). */
export function storeStructure(text: string, store: readonly string[]): StoreStructure {
  const sets = [...store.map(contentWords), contentWords(text)];
  const groups = nearRepeatGroups(sets);
  const me = groups[store.length] as number;
  const sizes = new Map<number, number>();
  for (const g of groups) sizes.set(g, (sizes.get(g) ?? 0) + 1);
  let rival = 0;
  for (const [g, n] of sizes) if (g !== me && n >= 2) rival = Math.max(rival, n);
  const own = sets[store.length] as ReadonlySet<string>;
  const similarities: number[] = [];
  const sequences: number[] = [];
  const reframes: boolean[] = [];
  const members: number[] = [];
  store.forEach((t, i) => {
    if (groups[i] === me) members.push(i);
    const s = setOverlap(own, sets[i] as ReadonlySet<string>);
    if (s >= NEAR_REPEAT_OVERLAP) {
      similarities.push(s);
      sequences.push(sequenceOverlap(text, t));
      reframes.push(isEntityReframe(text, t));
    }
  });
  return { own: sizes.get(me) as number, rival, similarities, sequences, reframes, members };
}

/**
 * Store-structure counts of checked entries (docs/calibration.md, "Store structure"):
 * - `cells`: entries per `"own:rival"` (see `StoreStructure`), keys sorted;
 * - `similarity`: direct near-repeats of the entries per similarity bin (`SIMILARITY_BINS`);
 * - `sequence`: the same near-repeats per (similarity bin, sequence-overlap bin), flattened
 *   (`SIMILARITY_BINS` × `SEQUENCE_BINS`, see `SEQUENCE_BINS`);
 * - `members` / `ownMembers`: the entries' group members in the store, and of those the ones in
 *   the entry's own episode (counted only for entries whose context holds own-episode steps);
 * - `reframes`: direct near-repeats that are entity-sharing reframes (`isEntityReframe`), of the
 *   `similarity` total;
 * - `shortWords`: entries per content-word count 0..`SHORT_WORDS` (short observations), the
 *   rest (longer entries) being `n` minus their sum;
 * - `entityFree`: entries that are entity-free turns (`isEntityFree`);
 * - `groupMembers` / `indirect`: the store members of the entries' near-repeat groups, and of
 *   those the *indirect* ones: near-repeats of another member but not of the entry itself (a
 *   group is a web, not a star: siblings that repeat each other, linked to the entry through one
 *   of them).
 */
export interface StructureCounts {
  n: number;
  cells: Record<string, number>;
  similarity: number[];
  sequence: number[];
  members: number;
  ownMembers: number;
  reframes: number;
  shortWords: number[];
  entityFree: number;
  groupMembers: number;
  indirect: number;
}

/** Zero structure counts. */
export function zeroStructure(): StructureCounts {
  return { n: 0, cells: {}, similarity: new Array<number>(SIMILARITY_BINS).fill(0), sequence: new Array<number>(SIMILARITY_BINS * SEQUENCE_BINS).fill(0), members: 0, ownMembers: 0, reframes: 0, shortWords: new Array<number>(SHORT_WORDS + 1).fill(0), entityFree: 0, groupMembers: 0, indirect: 0 };
}

/**
 * Adds one checked entry: its text, its store context's texts (oldest first) and, per store
 * text, whether it is a step of the entry's own episode. Mutates and returns `counts`.
 */
export function addStructure(counts: StructureCounts, text: string, store: readonly string[], ownEpisode: readonly boolean[]): StructureCounts {
  const s = storeStructure(text, store);
  counts.n += 1;
  const key = `${s.own}:${s.rival}`;
  counts.cells[key] = (counts.cells[key] ?? 0) + 1;
  s.similarities.forEach((x, i) => {
    const b = similarityBin(x);
    counts.similarity[b] = (counts.similarity[b] ?? 0) + 1;
    const j = b * SEQUENCE_BINS + sequenceBin(s.sequences[i] ?? 0);
    counts.sequence[j] = (counts.sequence[j] ?? 0) + 1;
    if (s.reframes[i] === true) counts.reframes += 1;
  });
  const words = contentWords(text).size;
  if (words <= SHORT_WORDS) counts.shortWords[words] = (counts.shortWords[words] ?? 0) + 1;
  else if (entityTokens(text).size === 0) counts.entityFree += 1;
  counts.groupMembers += s.members.length;
  counts.indirect += s.members.length - s.similarities.length;
  if (ownEpisode.some(Boolean)) {
    counts.members += s.members.length;
    counts.ownMembers += s.members.filter((i) => ownEpisode[i] === true).length;
  }
  return counts;
}
