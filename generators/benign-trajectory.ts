/**
 * Benign entries checked in a generated trajectory (docs/calibration.md, "Store context" and
 * "Store structure").
 *
 * A consensus guard such as A-MemGuard decides a benign entry by what the store around it holds,
 * so a generated entry is checked in a store shaped like a real agent's memory, by the same rule
 * as the real sets (`storeContextIndices`): the earlier steps of its own episode, then the
 * entries of earlier episodes, up to `historyEntries` (8). What the store holds is drawn from
 * distributions measured on the real sets' text by `npm run calibrate` (`trajectory` in
 * `weights.json`; no guard verdict is read):
 * - episode lengths;
 * - the *repeat-group structure*: the store and the entry split into near-repeat groups (single
 *   linkage, `lexicalOverlap` >= 0.3); the size of the entry's own group and of the largest
 *   rival group are drawn jointly;
 * - how similar a near-repeat is to what it repeats (the overlap, drawn per near-repeat);
 * - how many of the entry's near-repeats are steps of its own episode;
 * - how often a group member is *indirect*: a near-repeat of another member, not of the entry (a
 *   sibling of a near-repeat; real groups are webs of steps that repeat each other);
 * - how often a near-repeat is an *entity-sharing reframe* (the same entities in another frame:
 *   another template rendered with the root's slot values, `entityReframe`) instead of a twin;
 * - how often a text is a *short observation* (cut to a few content words);
 * - how often a text is an *entity-free turn* (`templatedTurnGroup`: a step in a recurring frame
 *   that names nothing) instead of a template render.
 *
 * No `chain`: the entry is drawn with two twins (renders of its template with fresh slots), a
 * rival step with two twins, the filler steps, a few alternates and a few extra renders whose
 * sentences are appended to a near-repeat to bring its overlap to the drawn value (a step said
 * again with more detail, as run-log reflections grow over trials). Drawing (`trajectoryParts`)
 * and placing (`placeInTrajectory`, pure) are apart, so a calibration probe draws once.
 */
import fc from 'fast-check';
import type { DomainId, FuzzCase, MemoryEntry } from '../src/domain/index.js';
import { benignTrace, benignTraceGroup, entityReframe, type BenignOptions } from './benign.js';
import { templatedTurnGroup } from './benign-turns.js';
import {
  addNearRepeat,
  addStructure,
  binHigh,
  binLow,
  contentWords,
  defaultCalibration,
  entityTokens,
  SEQUENCE_BINS,
  SHORT_WORDS,
  similarityBin,
  zeroNearRepeats,
  zeroStructure,
  type Calibration,
  type NearRepeatCounts,
  type StructureCounts,
} from './calibration/index.js';
import { Marks, resetTextIdsIfFull, textIds, unionIds } from './word-ids.js';

/** Resolution of the integer rolls that stand for probabilities (fast-check integers shrink toward 0). */
const ROLL = 1_000_000;

export interface TrajectoryOptions extends BenignOptions {
  /** The entry under test is a hard negative (`benign-stress`); its context stays natural. */
  stress?: boolean;
}

/** Renders of the entry's template (the entry and its twins) and of the rival step's. */
const GROUP_RENDERS = 2;
/** Alternate natural renders per case: a filler that would join a group takes the first unused one that joins none. */
const ALTERNATES = 4;
/** Extra natural renders per case whose sentences lengthen near-repeats (never placed in the store themselves). */
const DILUTION_RENDERS = 2;
/** Sentences appended to one near-repeat at most. */
const MAX_APPENDED = 6;

/** Everything a trajectory case is placed from (drawn by `trajectoryParts`). */
interface TrajectoryParts {
  /** The entry under test, then its twins. */
  entry: FuzzCase[];
  /** `null`: no store context (what shrinking tries first). */
  context: null | {
    /** The rival step, then its twins. */
    rival: FuzzCase[];
    /** One natural step per store slot. */
    fillers: FuzzCase[];
    alternates: FuzzCase[];
    dilution: FuzzCase[];
    /** Roll for the group sizes. */
    groups: number;
    /** Per slot: roll for own episode or not, which free slot, the near-repeat's overlap, its sequence overlap, whether it is an entity-sharing reframe, whether it is an indirect member. */
    rolls: Array<[number, number, number, number, number, number]>;
    /** Per text (the entry, then one per store slot): roll for a short observation and its length. */
    short: number[];
    /** Entity-free turns: the entry's (the turn, then its twins) and one per store slot. */
    turns: FuzzCase[];
    fillerTurns: FuzzCase[][];
    /** Per text (the entry, then one per store slot): roll for an entity-free turn. */
    turn: number[];
    /** Roll for the entry's episode length, its position, and the earlier episodes' lengths. */
    place: [number, number, number[]];
  };
}

/** How a domain's trajectories are shaped (from its `trajectory.domains` entry). */
interface Shape {
  history: number;
  episodeLength: readonly number[];
  /** [own group size, rival group size] per cell, and the cells' probabilities. */
  cells: Array<[number, number]>;
  cellWeights: number[];
  similarity: readonly number[];
  /** P(sequence-overlap bin | similarity bin) of near-repeats, flattened (`SEQUENCE_BINS` bins of 0.2 per similarity bin). */
  sequence: readonly number[];
  ownShare: number;
  overlap: number;
  /** P(a near-repeat is an entity-sharing reframe). */
  reframe: number;
  /** P(a text is a short observation of w content words), w = 0..`SHORT_WORDS`. */
  short: readonly number[];
  /** P(a text that is not cut short is swapped for an entity-free turn). */
  entityFree: number;
  /** P(a group member after the first is drawn as an indirect member) (`indirectDraw`). */
  indirect: number;
}

/** Natural draws a domain's share of naturally short texts is measured on, and their seed. */
const SHORT_PROBE_RUNS = 300;
const SHORT_PROBE_SEED = 1;
const naturalShareCache = new WeakMap<Calibration, Map<string, NaturalShares>>();

/** Shares of a domain's natural mix: short observations, and entity-free turns (longer texts naming no entity). */
interface NaturalShares {
  short: number;
  entityFree: number;
}

/** Shares of the natural mix of `domain` under `calibration` that are already short observations (`SHORT_WORDS` content words or fewer) and entity-free turns; measured once on a fixed sample. */
function naturalShares(calibration: Calibration, domain: string, options: BenignOptions): NaturalShares {
  const cache = options.templates ? undefined : (naturalShareCache.get(calibration) ?? new Map<string, NaturalShares>());
  if (cache && !options.templates) naturalShareCache.set(calibration, cache);
  const hit = cache?.get(domain);
  if (hit !== undefined) return hit;
  const xs = fc.sample(benignTrace(domain as DomainId, { ...options, calibration }), { seed: SHORT_PROBE_SEED, numRuns: SHORT_PROBE_RUNS });
  const short = xs.filter((c) => contentWords(c.entry.content).size <= SHORT_WORDS).length / xs.length;
  const entityFree = xs.filter((c) => contentWords(c.entry.content).size > SHORT_WORDS && entityTokens(c.entry.content).size === 0).length / xs.length;
  const shares = { short, entityFree };
  cache?.set(domain, shares);
  return shares;
}

/**
 * P(a text not cut short is swapped for an entity-free turn): the swap rate at which the texts the
 * mix already writes entity-free, plus the swapped ones, make the calibrated share `target` of all
 * texts (`cut`: the share cut short, never swapped). 0 when the mix already makes it.
 */
function turnDraw(target: number, natural: number, cut: number): number {
  if (cut >= 1 || natural >= 1) return 0;
  return Math.max(0, Math.min(1, (target / (1 - cut) - natural) / (1 - natural)));
}

/**
 * The short-observation draw of a domain: the calibrated P(w content words) scaled so that the
 * texts the mix already writes short, plus those cut short, make the calibrated share (texts
 * already short are never cut; when they already make it, nothing is cut).
 */
function shortDraw(target: readonly number[], natural: number): number[] {
  const total = target.reduce((a, x) => a + x, 0);
  if (total === 0 || natural >= 1) return target.map(() => 0);
  const cut = Math.max(0, Math.min(1, (total - natural) / (1 - natural)));
  return target.map((p) => (p / total) * cut);
}

/**
 * P(a group member after the first is drawn indirect): the first member of a group is always a
 * near-repeat of the entry (else it would not be in the group), so the calibrated share of
 * indirect members, `target`, is reached by drawing the later members indirect at
 * target / (share of members that are not the first), at most 1. The share comes from the group
 * sizes the domain draws (`cells`, their weights), capped at the store's `history` slots.
 */
function indirectDraw(target: number, cells: ReadonlyArray<[number, number]>, weights: readonly number[], slots: number): number {
  let all = 0;
  let later = 0;
  cells.forEach(([g], i) => {
    const n = Math.max(0, Math.min(g, slots + 1) - 1);
    all += (weights[i] ?? 0) * n;
    later += (weights[i] ?? 0) * Math.max(0, n - 1);
  });
  return later === 0 ? 0 : Math.min(1, (target * all) / later);
}

const history = (c: Calibration): number => c.trajectory.historyEntries;

function shapeOf(calibration: Calibration, domain: string, options: BenignOptions = {}): Shape {
  const t = calibration.trajectory;
  const d = t.domains[domain];
  const groups = d?.groups ?? t.pooled.groups;
  const cells = Object.keys(groups).map((k) => k.split(':').map(Number) as [number, number]);
  const natural = naturalShares(calibration, domain, options);
  const short = shortDraw(d?.short ?? t.pooled.short, natural.short);
  return {
    history: t.historyEntries,
    episodeLength: d?.episodeLength ?? t.pooled.episodeLength,
    cells,
    cellWeights: Object.values(groups),
    similarity: d?.similarity ?? t.pooled.similarity,
    sequence: d?.sequence ?? t.pooled.sequence,
    ownShare: d?.ownShare ?? t.pooled.ownShare,
    overlap: t.nearRepeatOverlap,
    reframe: d?.reframe ?? t.pooled.reframe,
    short,
    indirect: indirectDraw(d?.indirect ?? t.pooled.indirect, cells, Object.values(groups), history(calibration)),
    entityFree: turnDraw(d?.entityFree ?? t.pooled.entityFree, natural.entityFree, short.reduce((a, x) => a + x, 0)),
  };
}

/** Index in `weights` (non-negative) picked by a roll in [0, ROLL). */
function pick(weights: readonly number[], roll: number): number {
  const total = weights.reduce((a, w) => a + w, 0);
  let x = (roll / ROLL) * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i] as number;
    if (x < 0) return i;
  }
  return Math.max(0, weights.length - 1);
}

/** An overlap in [0.3, 1] drawn by a roll from the similarity-bin distribution (inverse CDF, linear inside a bin). */
function drawSimilarity(p: readonly number[], roll: number): number {
  const total = p.reduce((a, x) => a + x, 0);
  let u = (roll / ROLL) * total;
  for (let i = 0; i < p.length; i++) {
    const x = p[i] as number;
    if (u < x) return binLow(i) + (u / x) * (binHigh(i) - binLow(i));
    u -= x;
  }
  return 1;
}

/** A sequence overlap in [0, 1] for a near-repeat of similarity `similarity`, drawn by a roll from that similarity bin's row of the conditional distribution (inverse CDF, linear inside a bin of 0.2). */
function drawSequence(conditional: readonly number[], similarity: number, roll: number): number {
  const i = similarityBin(similarity);
  const p = conditional.slice(i * SEQUENCE_BINS, (i + 1) * SEQUENCE_BINS);
  const total = p.reduce((a, x) => a + x, 0);
  let u = (roll / ROLL) * total;
  for (let i = 0; i < p.length; i++) {
    const x = p[i] as number;
    if (u < x) return (i + u / x) / SEQUENCE_BINS;
    u -= x;
  }
  return 1;
}

/** The content-word count of a short observation drawn by a roll (`shape.short`, inverse CDF), or `undefined`: the text keeps its length. */
function drawShort(p: readonly number[], roll: number): number | undefined {
  let acc = 0;
  const u = roll / ROLL;
  for (let w = 0; w < p.length; w++) {
    acc += p[w] as number;
    if (u < acc) return w;
  }
  return undefined;
}

/**
 * `c` said as a short observation of `words` content words (at least one): its first sentence,
 * cut after its `words`-th content word ("Patient 4411 is in ward"), as short real observations
 * are ("desk is idle"). Only ordinary English prose is cut (a hard negative keeps its wording, JSON
 * and key-value text their shape); a text with that few content words already is left alone.
 */
function shortened(c: FuzzCase, words: number | undefined): FuzzCase {
  if (words === undefined || (c.truth.hardNegatives?.length ?? 0) > 0 || c.truth.format !== 'prose' || c.truth.language !== 'en') return c;
  const keep = Math.max(1, Math.min(SHORT_WORDS, words));
  const text = c.entry.content;
  if (contentWords(text).size <= SHORT_WORDS) return c;
  const first = text.split(/(?<=[.!?])\s+|\n/)[0] ?? text;
  // Cut between whitespace-separated tokens, so an id such as INT-EHR-7742 stays whole.
  let seen = 0;
  let end = first.length;
  for (const m of first.matchAll(/\S+/g)) {
    seen += contentWords(m[0]).size;
    if (seen >= keep) {
      end = (m.index ?? 0) + m[0].length;
      break;
    }
  }
  const content = first.slice(0, end);
  if (content === text) return c;
  return { ...c, entry: { ...c.entry, id: `${c.entry.id}~s${keep}`, content } };
}

/** True when `c` may be swapped for an entity-free turn: ordinary English prose (a hard negative, another language or format keeps its text). */
const swappable = (c: FuzzCase): boolean => (c.truth.hardNegatives?.length ?? 0) === 0 && c.truth.format === 'prose' && c.truth.language === 'en';

/**
 * Where the entry sits: its episode's length is length-biased (every entry of a real set is
 * measured, so an entry lies in a long episode more often), its position in it uniform; earlier
 * episodes, of calibrated lengths, fill the rest of the store. Returns the episode label of every
 * context slot, oldest first (0 = the entry's own episode, 1 the one before, ...).
 */
function layout(lengths: readonly number[], history: number, place: NonNullable<TrajectoryParts['context']>['place']): number[] {
  const [ownRoll, posRoll, earlierRolls] = place;
  const length = pick(lengths.map((p, i) => p * (i + 1)), ownRoll) + 1;
  const labels: number[] = new Array<number>(Math.min(history, posRoll % length)).fill(0);
  for (let e = 1; labels.length < history; e++) {
    const size = pick(lengths, earlierRolls[(e - 1) % Math.max(1, earlierRolls.length)] ?? 0) + 1;
    for (let k = 0; k < size && labels.length < history; k++) labels.push(e);
  }
  return labels.reverse();
}

/**
 * The draws of a trajectory case of `domain`: the entry and its twins (natural, or a hard
 * negative with `stress`), and, (almost) always, the store's parts with their rolls.
 * @throws TemplateError as `benignTrace`.
 */
function trajectoryParts(domain: DomainId, options: TrajectoryOptions = {}): fc.Arbitrary<TrajectoryParts> {
  const calibration = options.calibration ?? defaultCalibration();
  const history = calibration.trajectory.historyEntries;
  const base: BenignOptions = { ...(options.templates ? { templates: options.templates } : {}), ...(options.calibration ? { calibration: options.calibration } : {}) };
  // Unbiased: fast-check's integers favour values near the bounds, which would turn a roll below
  // `rate × ROLL` into a far likelier event than `rate` (shrinking still moves toward 0).
  const roll = fc.noBias(fc.integer({ min: 0, max: ROLL - 1 }));
  const which = fc.noBias(fc.nat({ max: 1 << 20 }));
  const natural = benignTrace(domain, base);
  const context = fc.record({
    rival: benignTraceGroup(domain, GROUP_RENDERS, base),
    fillers: fc.array(natural, { minLength: history, maxLength: history }),
    alternates: fc.array(natural, { minLength: ALTERNATES, maxLength: ALTERNATES }),
    dilution: fc.array(natural, { minLength: DILUTION_RENDERS, maxLength: DILUTION_RENDERS }),
    groups: roll,
    rolls: fc.array(fc.tuple(roll, which, roll, roll, roll, roll), { minLength: history, maxLength: history }),
    short: fc.array(roll, { minLength: history + 1, maxLength: history + 1 }),
    turns: templatedTurnGroup(domain, GROUP_RENDERS + 1),
    fillerTurns: fc.array(templatedTurnGroup(domain, 1), { minLength: history, maxLength: history }),
    turn: fc.array(roll, { minLength: history + 1, maxLength: history + 1 }),
    place: fc.tuple(roll, which, fc.array(roll, { minLength: history, maxLength: history })),
  });
  // The context first: fast-check shrinks a tuple's items in order, so a counterexample loses its
  // store (cheap to re-check) before the entry under test is shrunk.
  return fc.tuple(fc.option(context, { freq: 1_000_000, nil: null }), benignTraceGroup(domain, GROUP_RENDERS, { ...base, stress: options.stress === true })).map(([c, entry]) => ({ entry, context: c }));
}

/** A text, its content words and its word pairs (interned ids, `textIds`). */
interface Piece {
  text: string;
  words: Int32Array;
  pairs: Int32Array;
}

const pieceOf = (text: string): Piece => {
  const ids = textIds(text);
  return { text, words: ids.words, pairs: ids.pairs };
};

/** The number of content words of `text` (`contentWords(text).size`). */
const contentWordCount = (text: string): number => textIds(text).words.length;

/**
 * The texts a near-repeat may start from: `text` itself and, when it has two sentences or more
 * (else two clauses or more), its first half and its second half: a step said again that keeps
 * only part of what it repeats (one shared sentence, the rest new), as real near-repeats often do.
 */
function startsOf(text: string): string[] {
  const hit = STARTS.get(text);
  if (hit) return hit;
  const halves = (parts: string[], join: string): string[] => {
    if (parts.length < 2) return [];
    const k = Math.ceil(parts.length / 2);
    return [parts.slice(0, k).join(join), parts.slice(k).join(join)].filter((x) => contentWordCount(x) >= 2);
  };
  const sentences = text.split(/(?<=[.!?])\s+/).filter((x) => x.trim().length > 0);
  const out = [text, ...(sentences.length >= 2 ? halves(sentences, ' ') : halves(text.split(/(?<=[,;])\s+/), ' '))];
  if (STARTS.size >= 4096) STARTS.clear();
  STARTS.set(text, out);
  return out;
}

/** `startsOf` per text (pure; cleared when full): each near-repeat of a group re-reads the same twins. Callers copy a list before changing it. */
const STARTS = new Map<string, string[]>();

/**
 * The texts a reframe near-repeat may start from: `startsOf(text)`, then each clause of `text`
 * (cut after `. ! ? , ; :`) that names one of `entities`, and each two adjacent clauses: the
 * part of another step that speaks of the same entity ("finish[342.8 mg/dL (above range)]").
 * Kept per text for the last `entities` set asked with it (the same root's entity set, a cached
 * `entityTokens` set, across the near-repeats of one group).
 */
function reframeStartsOf(text: string, entities: ReadonlySet<string>): string[] {
  const hit = REFRAME_STARTS.get(text);
  if (hit && hit.entities === entities) return hit.starts;
  const clauses = text.split(/(?<=[.!?,;:])\s+|\n/).filter((x) => x.trim().length > 0);
  let starts = [...startsOf(text)];
  if (clauses.length >= 2) {
    for (const c of clauses) if ([...entityTokens(c)].some((e) => entities.has(e))) starts.push(c);
    for (let i = 0; i + 1 < clauses.length; i++) starts.push(`${clauses[i]} ${clauses[i + 1]}`);
    starts = [...new Set(starts)].filter((x) => contentWordCount(x) >= 1);
  }
  if (REFRAME_STARTS.size >= 4096) REFRAME_STARTS.clear();
  REFRAME_STARTS.set(text, { entities, starts });
  return starts;
}

/** `reframeStartsOf` per text, with the entity set it was asked with (pure; cleared when full). */
const REFRAME_STARTS = new Map<string, { entities: ReadonlySet<string>; starts: string[] }>();

/** Sentences of the dilution renders (whole texts when they have no sentence break), in draw order. */
function sentencesOf(cases: readonly FuzzCase[]): Piece[] {
  const out: Piece[] = [];
  for (const c of cases) {
    for (const s of c.entry.content.split(/(?<=[.!?])\s+/)) if (contentWordCount(s) >= 2) out.push(pieceOf(s.trim()));
  }
  return out;
}

/** Marks of the root's words and pairs, of `avoid`'s words, of a start's words and pairs, and of ids already appended (`nearRepeatOf`, `joins`). */
const ROOT_WORDS = new Marks();
const ROOT_PAIRS = new Marks();
const AVOID_WORDS = new Marks();
const BASE_WORDS = new Marks();
const BASE_PAIRS = new Marks();
const SEEN = new Marks();

/**
 * What appending the j-th sentence of `pool` (from `offset` on, j = 1..`appendable`) can add,
 * the same for every start: the ids of its words (`key`) that no earlier appended sentence has,
 * each as `id × 2 + (1 when `marks` holds it with `stamp`, else 0)`. Entry 0 is empty.
 */
function freshIds(pool: readonly Piece[], offset: number, appendable: number, key: 'words' | 'pairs', marks: Marks, stamp: number): number[][] {
  const seen = SEEN.next();
  const out: number[][] = [[]];
  for (let j = 1; j <= appendable; j++) {
    const step: number[] = [];
    const ids = (pool[(offset + j - 1) % pool.length] as Piece)[key];
    for (let i = 0; i < ids.length; i++) {
      const w = ids[i] as number;
      if (!SEEN.add(w, seen)) continue;
      step.push(w * 2 + (marks.has(w, stamp) ? 1 : 0));
    }
    out.push(step);
  }
  return out;
}

/** How many ids of `ids` `marks` holds with `stamp`. */
function sharedCount(ids: Int32Array, marks: Marks, stamp: number): number {
  let n = 0;
  for (let i = 0; i < ids.length; i++) if (marks.has(ids[i] as number, stamp)) n++;
  return n;
}

/**
 * A near-repeat of `root` whose overlap with it comes closest to `target` and whose sequence
 * overlap (shared word pairs) comes closest to `sequence`: one of `bases` (twins of the root) or
 * the root itself, whole or one half of it (`startsOf`), with 0 to `MAX_APPENDED` sentences of
 * `pool` appended from `offset` on (the whole root only with at least one). Texts in `used` are
 * skipped; an overlap below the near-repeat threshold only when nothing else is left. The word
 * pairs of a candidate are those of its parts (the pairs across a join are left out of the choice).
 * With `avoid` (content-word ids of another text), a candidate whose overlap with it reaches
 * `overlap` is skipped: a sibling of `root` that is no near-repeat of that text.
 */
function nearRepeatOf(root: FuzzCase, bases: readonly FuzzCase[], target: number, sequence: number, pool: readonly Piece[], offset: number, used: ReadonlySet<string>, overlap: number, tag: string, reframesOnly = false, avoid?: Int32Array): MemoryEntry | undefined {
  const rootIds = textIds(root.entry.content);
  const rootWords = ROOT_WORDS.markAll(rootIds.words);
  const rootPairs = ROOT_PAIRS.markAll(rootIds.pairs);
  const avoidWords = avoid ? AVOID_WORDS.markAll(avoid) : 0;
  let best: { base: FuzzCase; start: string; appended: number; score: number; near: boolean } | undefined;
  const appendable = Math.min(MAX_APPENDED, pool.length);
  const rootEntities = reframesOnly ? entityTokens(root.entry.content) : new Set<string>();
  // What appending the j-th sentence can add, the same for every start: its words and pairs that
  // no earlier appended sentence has (a start's own words are left out below), and whether the root has each.
  const freshWords = freshIds(pool, offset, appendable, 'words', ROOT_WORDS, rootWords);
  const freshPairs = freshIds(pool, offset, appendable, 'pairs', ROOT_PAIRS, rootPairs);
  const freshAvoid = avoid ? freshIds(pool, offset, appendable, 'words', AVOID_WORDS, avoidWords) : undefined;
  for (const base of reframesOnly ? bases : [...bases, root]) {
    for (const start of reframesOnly ? reframeStartsOf(base.entry.content, rootEntities) : startsOf(base.entry.content)) {
      const whole = start === base.entry.content;
      // Overlaps with the root kept as counts while sentences are appended (no text is built until one is chosen).
      const ids = textIds(start);
      const baseWords = BASE_WORDS.markAll(ids.words);
      const basePairs = BASE_PAIRS.markAll(ids.pairs);
      let shared = sharedCount(ids.words, ROOT_WORDS, rootWords);
      let union = rootIds.words.length + ids.words.length - shared;
      let sharedPairs = sharedCount(ids.pairs, ROOT_PAIRS, rootPairs);
      let unionPairs = rootIds.pairs.length + ids.pairs.length - sharedPairs;
      let sharedAvoid = avoid ? sharedCount(ids.words, AVOID_WORDS, avoidWords) : 0;
      let unionAvoid = avoid ? avoid.length + ids.words.length - sharedAvoid : 0;
      for (let j = 0; j <= appendable; j++) {
        if (j > 0) {
          for (const x of freshWords[j] as number[]) {
            if (BASE_WORDS.has(x >> 1, baseWords)) continue;
            if (x & 1) shared++;
            else union++;
          }
          for (const x of freshPairs[j] as number[]) {
            if (BASE_PAIRS.has(x >> 1, basePairs)) continue;
            if (x & 1) sharedPairs++;
            else unionPairs++;
          }
          if (freshAvoid) {
            for (const x of freshAvoid[j] as number[]) {
              if (BASE_WORDS.has(x >> 1, baseWords)) continue;
              if (x & 1) sharedAvoid++;
              else unionAvoid++;
            }
          }
        }
        if (base === root && whole && j === 0) continue;
        const o = union === 0 ? 0 : shared / union;
        // Appending mostly lowers the overlap: well below the target, more sentences only move away.
        if (o < target - 0.1 && j > 0) break;
        if (avoid && unionAvoid > 0 && sharedAvoid / unionAvoid >= overlap) continue;
        const q = unionPairs === 0 ? 0 : sharedPairs / unionPairs;
        const score = Math.abs(o - target) + Math.abs(q - sequence) + (o < overlap ? 1 : 0);
        if (!best || score < best.score) {
          const text = j === 0 ? start : appendedText(start, pool, offset, j);
          if (!used.has(text)) best = { base, start, appended: j, score, near: o >= overlap };
        }
      }
    }
  }
  // A reframe that cannot reach the near-repeat overlap is no near-repeat: the caller falls back to twins.
  if (!best || (reframesOnly && !best.near)) return undefined;
  const e = best.base.entry;
  if (best.appended === 0 && best.start === e.content) return e;
  const content = best.appended === 0 ? best.start : appendedText(best.start, pool, offset, best.appended);
  const parts = [textIds(best.start).words];
  for (let i = 0; i < best.appended; i++) parts.push((pool[(offset + i) % pool.length] as Piece).words);
  BUILT_WORDS.set(content, unionIds(parts));
  return { ...e, id: `${e.id}~${tag}`, content };
}

/** Content-word ids of the near-repeats built by `nearRepeatOf` (known when built; saves re-reading long texts). Cleared per case. */
const BUILT_WORDS = new Map<string, Int32Array>();

/** `text` with `j` sentences of `pool` appended from `offset` on. */
function appendedText(text: string, pool: readonly Piece[], offset: number, j: number): string {
  let out = text;
  for (let i = 0; i < j; i++) out = `${out} ${(pool[(offset + i) % pool.length] as Piece).text}`;
  return out;
}

/**
 * Places drawn parts in a trajectory (pure): the FuzzCase with its store context as `setup`
 * (oldest first) and `truth.context` = `{ ownEpisode, repeat }`.
 * 1. The slots' episodes (`layout`); the sizes of the entry's group g and the largest rival group
 *    r, drawn jointly (at most the store's slots).
 * 2. g − 1 slots take near-repeats of the entry, each in an own-episode slot with probability
 *    `ownShare` (when one is free); r slots take the rival step and r − 1 near-repeats of it.
 *    Each near-repeat's overlap with what it repeats is drawn from the calibrated distribution
 *    and realised by `nearRepeatOf`.
 * 3. The other slots take filler steps; a filler that would join a group takes the first unused
 *    alternate that joins none (or stays when none is left).
 * `repeat` is `'own'` when a near-repeat of the entry is in its own episode, `'other'` when only
 * earlier episodes hold one, `'none'` when g = 1.
 */
function placeInTrajectory(parts: TrajectoryParts, shape: Shape): FuzzCase {
  const [drawn] = parts.entry as [FuzzCase];
  const ctx = parts.context;
  const { history } = shape;
  if (ctx === null || history === 0) return { ...drawn, truth: { ...drawn.truth, context: { ownEpisode: 0, repeat: 'none' } } };
  BUILT_WORDS.clear();
  resetTextIdsIfFull();
  // A short observation: the entry and its twins cut to the same drawn length (so they stay near-repeats).
  const shortWords = drawShort(shape.short, ctx.short[0] ?? ROLL);
  // An entity-free turn: the entry and its twins are turns of one frame (a reply that recurs with other middles or ends).
  const turn = shortWords === undefined && swappable(drawn) && (ctx.turn[0] ?? ROLL) < shape.entityFree * ROLL && ctx.turns.length > 0;
  const entryCase = turn ? (ctx.turns[0] as FuzzCase) : shortened(drawn, shortWords);
  const twins = turn ? ctx.turns.slice(1) : parts.entry.slice(1).map((t) => shortened(t, shortWords));
  /** Entity-sharing reframes of `root` (`entityReframe`) over the alternates and dilution renders, cut like the root. */
  const reframesOf = (root: FuzzCase, words: number | undefined): FuzzCase[] => [...ctx.alternates, ...ctx.dilution, ...ctx.fillers].flatMap((o) => {
    const f = entityReframe(root, o);
    return f ? [shortened(f, words)] : [];
  });
  let entryReframes: FuzzCase[] | undefined;
  const labels = layout(shape.episodeLength, history, ctx.place);
  const [g0, r0] = shape.cells[pick(shape.cellWeights, ctx.groups)] ?? [1, 0];
  const g = Math.max(1, Math.min(g0, history + 1));
  const r = Math.min(r0, history - (g - 1));
  const slots: Array<MemoryEntry | undefined> = new Array<MemoryEntry | undefined>(history).fill(undefined);
  const free = (own: boolean | undefined): number[] => slots.flatMap((s, i) => (s === undefined && (own === undefined || (labels[i] === 0) === own) ? [i] : []));
  // Separate sentences for the two groups, so that appended sentences never link one group to the other.
  // Split lazily: most cases need one pool or none.
  let sentences: Piece[] | undefined;
  const halves: Array<Piece[] | undefined> = [undefined, undefined];
  const half = (parity: number) => (): Piece[] => (halves[parity] ??= (sentences ??= sentencesOf(ctx.dilution)).filter((_, i) => i % 2 === parity));
  const ownPool = half(0);
  const rivalPool = half(1);
  const used = new Set<string>([entryCase.entry.content]);
  const place = (i: number, e: MemoryEntry): void => {
    slots[i] = e;
    used.add(e.content);
  };
  let k = 0;
  let repeat: 'own' | 'other' | 'none' = 'none';
  const wordsOf = (e: MemoryEntry): Int32Array => BUILT_WORDS.get(e.content) ?? textIds(e.content).words;
  /** The entry's group members placed so far (an indirect member repeats one of them). */
  const members: MemoryEntry[] = [];
  for (let m = 0; m < g - 1; m++, k++) {
    const [ownRoll, at, sim, seq, fr, ind] = ctx.rolls[k] as [number, number, number, number, number, number];
    const own = free(true);
    const choices = ownRoll < shape.ownShare * ROLL && own.length > 0 ? own : free(false).length > 0 ? free(false) : own;
    const slot = choices[at % choices.length] as number;
    const similarity = drawSimilarity(shape.similarity, sim);
    const sequence = drawSequence(shape.sequence, similarity, seq);
    // An indirect member: a near-repeat of a member already placed that is none of the entry.
    const parent = members.length > 0 && ind < shape.indirect * ROLL ? members[Math.floor(at / 7) % members.length] : undefined;
    const indirect = parent ? nearRepeatOf({ ...entryCase, entry: parent }, [], similarity, sequence, ownPool(), m + members.length, used, shape.overlap, `g${m}i`, false, wordsOf(entryCase.entry)) : undefined;
    const reframe = !indirect && fr < shape.reframe * ROLL ? nearRepeatOf(entryCase, (entryReframes ??= turn ? [] : reframesOf(drawn, shortWords)), similarity, sequence, ownPool(), m, used, shape.overlap, `g${m}`, true) : undefined;
    const e = indirect ?? reframe ?? nearRepeatOf(entryCase, twins, similarity, sequence, ownPool(), m, used, shape.overlap, `g${m}`);
    if (!e) continue;
    members.push(e);
    place(slot, e);
    if (labels[slot] === 0) repeat = 'own';
    else if (repeat === 'none') repeat = 'other';
  }
  /** True when `e`'s content-word overlap (Jaccard) with one of `others` reaches the near-repeat overlap. */
  const joins = (e: MemoryEntry, others: readonly Int32Array[]): boolean => {
    const w = wordsOf(e);
    const stamp = BASE_WORDS.markAll(w);
    return others.some((o) => {
      const shared = sharedCount(o, BASE_WORDS, stamp);
      const union = w.length + o.length - shared;
      return (union === 0 ? 0 : shared / union) >= shape.overlap;
    });
  };
  const placedWords = (): Int32Array[] => [wordsOf(entryCase.entry), ...slots.flatMap((s) => (s ? [wordsOf(s)] : []))];
  // Spares, in order: the fillers of slots a group took, then the alternates.
  const spares = [...ctx.fillers, ...ctx.alternates];
  const spareUsed = new Array<boolean>(spares.length).fill(false);
  /** The first unused spare that joins none of `others` (marked used), else undefined. */
  const spare = (others: readonly Int32Array[]): FuzzCase | undefined => {
    const a = spares.findIndex((x, j) => !spareUsed[j] && (j >= history || slots[j] !== undefined) && !used.has(x.entry.content) && !joins(x.entry, others));
    if (a < 0) return undefined;
    spareUsed[a] = true;
    return spares[a];
  };
  if (r >= 2) {
    // The rival step must not join the entry's group; when it would, a spare takes its place (near-repeats by appended sentences only).
    const own = placedWords();
    const natural = ctx.rival[0] as FuzzCase;
    const rootCase = joins(natural.entry, own) || used.has(natural.entry.content) ? spare(own) : natural;
    const rivalTwins = rootCase === natural ? ctx.rival.slice(1).filter((t) => !joins(t.entry, own)) : [];
    let rivalReframes: FuzzCase[] | undefined;
    for (let m = 0; rootCase && m < r; m++, k++) {
      const [, at, sim, seq, fr] = ctx.rolls[k] as [number, number, number, number, number, number];
      const choices = free(undefined);
      if (choices.length === 0) break;
      const slot = choices[at % choices.length] as number;
      const similarity = drawSimilarity(shape.similarity, sim);
      const sequence = drawSequence(shape.sequence, similarity, seq);
      const reframe = m > 0 && fr < shape.reframe * ROLL ? nearRepeatOf(rootCase, (rivalReframes ??= reframesOf(rootCase, undefined).filter((t) => !joins(t.entry, own))), similarity, sequence, rivalPool(), m, used, shape.overlap, `r${m}`, true) : undefined;
      const e = m === 0 ? rootCase.entry : (reframe ?? nearRepeatOf(rootCase, rivalTwins, similarity, sequence, rivalPool(), m, used, shape.overlap, `r${m}`));
      if (e && (m === 0 || !joins(e, own))) place(slot, e);
    }
  }
  // Fillers: singletons, so the drawn structure stays what it is. A filler that would join a
  // group takes the first spare that joins none; with none left, its slot stays empty.
  for (let i = 0; i < history; i++) {
    if (slots[i] !== undefined) continue;
    const others = placedWords();
    const filler = ctx.fillers[i] as FuzzCase;
    const words = drawShort(shape.short, ctx.short[i + 1] ?? ROLL);
    const fillerTurn = ctx.fillerTurns[i]?.[0];
    const mine = words === undefined && fillerTurn && swappable(filler) && (ctx.turn[i + 1] ?? ROLL) < shape.entityFree * ROLL ? fillerTurn : shortened(filler, words);
    spareUsed[i] = true;
    // No spare left that stays alone: the slot stays empty (a smaller store keeps the drawn structure).
    const e = joins(mine.entry, others) || used.has(mine.entry.content) ? spare(others) : mine;
    if (e) place(i, e.entry);
  }
  const seen = new Set<string>([entryCase.entry.id]);
  const setup: MemoryEntry[] = [];
  let ownEpisode = 0;
  slots.forEach((e, i) => {
    if (!e || seen.has(e.id)) return;
    seen.add(e.id);
    setup.push(e);
    if (labels[i] === 0) ownEpisode++;
  });
  // Slots are oldest first with the own episode's steps last (`layout`): the store context's order.
  return { ...entryCase, truth: { ...entryCase.truth, context: { ownEpisode, repeat, groups: { own: g, rival: r >= 2 ? r : 0 } } }, setup };
}

/**
 * One benign entry of `domain` in its generated trajectory (`placeInTrajectory` over
 * `trajectoryParts`): `setup` is its store context, oldest first, its own episode's earlier steps
 * last; `truth.context` = `{ ownEpisode, repeat }`. The context is (almost) always there;
 * shrinking first tries it away, so a minimal counterexample carries a store only when it matters.
 * @throws TemplateError as `benignTrace`.
 * @example fc.sample(benignInTrajectory('rap'), { numRuns: 1, seed: 1 })[0].truth.context // e.g. { ownEpisode: 2, repeat: 'none' }
 */
export function benignInTrajectory(domain: DomainId, options: TrajectoryOptions = {}): fc.Arbitrary<FuzzCase> {
  const shape = shapeOf(options.calibration ?? defaultCalibration(), domain, options.templates ? { templates: options.templates } : {});
  return trajectoryParts(domain, options).map((parts) => placeInTrajectory(parts, shape));
}

/** Adds one placed case to structure and near-repeat counts: its text against its store context (own-episode steps last). */
function countCase(structure: StructureCounts, nearRepeats: NearRepeatCounts, c: FuzzCase): void {
  const setup = (c.setup ?? []).map((e) => e.content);
  const own = c.truth.context?.ownEpisode ?? 0;
  addNearRepeat(nearRepeats, c.entry.content, setup.slice(setup.length - own), setup.slice(0, setup.length - own));
  addStructure(structure, c.entry.content, setup, setup.map((_, i) => i >= setup.length - own));
}

/** Trajectories drawn per calibration probe, and their seed (fixed: calibrating is deterministic). */
const PROBE_RUNS = 300;
const PROBE_SEED = 1;

/**
 * `TrajectoryProbe` for `calibrate`: the store-structure and near-repeat counts of `PROBE_RUNS`
 * natural trajectories of `domain` (seed 1) under `calibration`, measured with the same text
 * features as the real sets.
 */
export function trajectoryProbe(calibration: Calibration, domain: string): { structure: StructureCounts; nearRepeats: NearRepeatCounts } {
  const structure = zeroStructure();
  const nearRepeats = zeroNearRepeats();
  for (const c of fc.sample(benignInTrajectory(domain as DomainId, { calibration }), { seed: PROBE_SEED, numRuns: PROBE_RUNS })) countCase(structure, nearRepeats, c);
  return { structure, nearRepeats };
}
