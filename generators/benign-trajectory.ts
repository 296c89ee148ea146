/**
 * Benign entries checked in a generated trajectory (docs/calibration.md, "Store context").
 *
 * A consensus guard such as A-MemGuard decides a benign entry by what the store around it holds,
 * so a generated entry is checked in a store shaped like a real agent's memory, by the same rule
 * as the real sets (`storeContextIndices`): the earlier steps of its own episode, then the
 * entries of earlier episodes, up to `historyEntries` (8). Episode lengths, and how often an
 * entry says again (a *near-repeat*, `lexicalOverlap` >= 0.3) what an earlier step of its own
 * episode or of an earlier episode said, come from the real sets' text through
 * `npm run calibrate` (`trajectory` in `weights.json`); no guard verdict is read.
 *
 * No `chain`: every step is drawn as a pair (a render and its twin, the same template with fresh
 * slots, `benignTracePairs`), plus a few alternate natural draws shared by the steps. A step that repeats an earlier one
 * takes that step's twin; a chance near-repeat that the calibration declines takes the
 * alternate. Drawing (`trajectoryParts`) and placing (`placeInTrajectory`, pure) are apart, so a
 * calibration probe draws once and places under many repeat rates.
 */
import fc from 'fast-check';
import type { DomainId, FuzzCase, MemoryEntry } from '../src/domain/index.js';
import { benignTrace, benignTracePairs, type BenignOptions, type BenignPair } from './benign.js';
import { addNearRepeat, defaultCalibration, lexicalOverlap, zeroNearRepeats, type Calibration, type NearRepeatCounts, type RepeatRates } from './calibration/index.js';

/** Resolution of the integer rolls that stand for probabilities (fast-check integers shrink toward 0). */
const ROLL = 1_000_000;

export interface TrajectoryOptions extends BenignOptions {
  /** Repeat rates (default: the calibration's, for the domain). For calibration probes. */
  rates?: RepeatRates;
  /** The entry under test is a hard negative (`benign-stress`); its context stays natural. */
  stress?: boolean;
}

/** Alternate natural renders drawn per case, shared by its steps (a declined near-repeat takes the first unused one that is none). */
const ALTERNATES = 6;

/** Everything a trajectory case is placed from (drawn by `trajectoryParts`). */
interface TrajectoryParts {
  /** The entry under test and its twin. */
  entry: BenignPair;
  /** `null`: no store context (what shrinking tries first). */
  context: null | {
    /** Per context step: a render and its twin. */
    steps: BenignPair[];
    /** Alternate natural renders, shared by the steps. */
    alternates: FuzzCase[];
    /** Per step, then for the entry: roll for an own-episode repeat, roll for an earlier-episode one, which step. */
    rolls: Array<[number, number, number]>;
    /** Roll for the entry's episode length, its position, and the earlier episodes' lengths. */
    place: [number, number, number[]];
  };
}

/** How a domain's trajectories are shaped: store size, episode lengths, repeat rates, near-repeat threshold. */
interface Shape {
  history: number;
  episodeLength: readonly number[];
  rates: RepeatRates;
  overlap: number;
}

function shapeOf(calibration: Calibration, domain: string, rates?: RepeatRates): Shape {
  const t = calibration.trajectory;
  const d = t.domains[domain];
  return { history: t.historyEntries, episodeLength: d?.episodeLength ?? t.pooled.episodeLength, rates: rates ?? d?.rates ?? { own: 0, other: 0 }, overlap: t.nearRepeatOverlap };
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

/**
 * Where the entry sits: its episode's length is length-biased (every entry of a real set is
 * measured, so an entry lies in a long episode more often), its position in it uniform; earlier
 * episodes, of calibrated lengths, fill the rest of the store. Returns the episode label of every
 * context step, oldest first (0 = the entry's own episode, 1 the one before, ...).
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
 * The draws of a trajectory case of `domain`: the entry and its twin (natural, or a hard negative
 * with `stress`), and, (almost) always, `historyEntries` context steps with their rolls.
 * @throws TemplateError as `benignTrace`.
 */
function trajectoryParts(domain: DomainId, options: Omit<TrajectoryOptions, 'rates'> = {}): fc.Arbitrary<TrajectoryParts> {
  const calibration = options.calibration ?? defaultCalibration();
  const history = calibration.trajectory.historyEntries;
  const base: BenignOptions = { ...(options.templates ? { templates: options.templates } : {}), ...(options.calibration ? { calibration: options.calibration } : {}) };
  // Unbiased: fast-check's integers favour values near the bounds, which would turn a roll below
  // `rate × ROLL` into a far likelier event than `rate` (shrinking still moves toward 0).
  const roll = fc.noBias(fc.integer({ min: 0, max: ROLL - 1 }));
  const which = fc.noBias(fc.nat({ max: 1 << 20 }));
  const context = fc.record({
    steps: fc.array(benignTracePairs(domain, base), { minLength: history, maxLength: history }),
    alternates: fc.array(benignTrace(domain, base), { minLength: ALTERNATES, maxLength: ALTERNATES }),
    rolls: fc.array(fc.tuple(roll, roll, which), { minLength: history + 1, maxLength: history + 1 }),
    place: fc.tuple(roll, which, fc.array(roll, { minLength: history, maxLength: history })),
  });
  // The context first: fast-check shrinks a tuple's items in order, so a counterexample loses its
  // store (cheap to re-check) before the entry under test is shrunk.
  return fc.tuple(fc.option(context, { freq: 1_000_000, nil: null }), benignTracePairs(domain, { ...base, stress: options.stress === true })).map(([c, entry]) => ({ entry, context: c }));
}

/**
 * Places drawn parts in a trajectory (pure): the FuzzCase with its store context as `setup`
 * (oldest first) and `truth.context` = `{ ownEpisode, repeat }`.
 * - Context steps, oldest first: a step repeats (takes the twin of) a random earlier step of its
 *   own episode when its roll is below `rates.own`, else one of an earlier episode below
 *   `rates.other`. A negative rate instead declines a chance near-repeat of that kind with
 *   probability |rate| (the step takes the first unused alternate that repeats none of them).
 * - The entry: its twin goes on a random own-episode step (`repeat: 'own'`) or earlier-episode
 *   step (`'other'`) by the same rolls; with a negative rate, the steps that repeat it by chance
 *   take their alternates.
 */
function placeInTrajectory(parts: TrajectoryParts, shape: Shape): FuzzCase {
  const [entryCase, twin] = parts.entry;
  const ctx = parts.context;
  const { history, rates } = shape;
  if (ctx === null || history === 0) return { ...entryCase, truth: { ...entryCase.truth, context: { ownEpisode: 0, repeat: 'none' } } };
  const labels = layout(shape.episodeLength, history, ctx.place);
  const steps: MemoryEntry[] = ctx.steps.map((p) => p[0].entry);
  const twinUsed = new Array<boolean>(history).fill(false);
  const near = (a: MemoryEntry, b: MemoryEntry): boolean => lexicalOverlap(a.content, b.content) >= shape.overlap;
  const before = (k: number, label: number): [number[], number[]] => {
    const mine: number[] = [];
    const earlier: number[] = [];
    for (let j = 0; j < k; j++) (labels[j] === label ? mine : earlier).push(j);
    return [mine, earlier];
  };
  const repeatOf = (mine: number[], earlier: number[], [rollOwn, rollOther, n]: [number, number, number]): number | undefined => {
    if (mine.length > 0 && rollOwn < rates.own * ROLL) return mine[n % mine.length];
    if (earlier.length > 0 && rollOther < rates.other * ROLL) return earlier[n % earlier.length];
    return undefined;
  };
  const declines = (rate: number, r: number): boolean => rate < 0 && r < -rate * ROLL;
  /** The first unused alternate that is no near-repeat of any of `avoid`; `current` when none is left. */
  const altUsed = new Array<boolean>(ctx.alternates.length).fill(false);
  const alternate = (current: MemoryEntry, avoid: readonly MemoryEntry[]): MemoryEntry => {
    const i = ctx.alternates.findIndex((a, j) => !altUsed[j] && !avoid.some((b) => near(a.entry, b)));
    if (i < 0) return current;
    altUsed[i] = true;
    return (ctx.alternates[i] as FuzzCase).entry;
  };
  for (let k = 0; k < history; k++) {
    const rolls = ctx.rolls[k] as [number, number, number];
    const [mine, earlier] = before(k, labels[k] as number);
    const j = repeatOf(mine, earlier, rolls);
    if (j !== undefined) {
      if (!twinUsed[j]) steps[k] = (ctx.steps[j] as BenignPair)[1].entry;
      twinUsed[j] = true;
      continue;
    }
    const step = steps[k] as MemoryEntry;
    const ownHit = mine.some((i) => near(step, steps[i] as MemoryEntry));
    const otherHit = !ownHit && earlier.some((i) => near(step, steps[i] as MemoryEntry));
    if (ownHit && declines(rates.own, rolls[0])) steps[k] = alternate(step, mine.map((i) => steps[i] as MemoryEntry));
    else if (otherHit && declines(rates.other, rolls[1])) steps[k] = alternate(step, earlier.map((i) => steps[i] as MemoryEntry));
  }
  const rolls = ctx.rolls[history] as [number, number, number];
  let repeat: 'own' | 'other' | 'none' = 'none';
  const [mine, earlier] = before(history, 0);
  const j = repeatOf(mine, earlier, rolls);
  if (j !== undefined) {
    steps[j] = twin.entry;
    repeat = labels[j] === 0 ? 'own' : 'other';
  } else {
    const ownHits = mine.filter((i) => near(entryCase.entry, steps[i] as MemoryEntry));
    const otherHits = ownHits.length === 0 ? earlier.filter((i) => near(entryCase.entry, steps[i] as MemoryEntry)) : [];
    if (ownHits.length > 0 && declines(rates.own, rolls[0])) for (const i of ownHits) steps[i] = alternate(steps[i] as MemoryEntry, [entryCase.entry]);
    else if (otherHits.length > 0 && declines(rates.other, rolls[1])) for (const i of otherHits) steps[i] = alternate(steps[i] as MemoryEntry, [entryCase.entry]);
  }
  const seen = new Set<string>([entryCase.entry.id]);
  const setup: MemoryEntry[] = [];
  let ownEpisode = 0;
  steps.forEach((e, k) => {
    if (seen.has(e.id)) return;
    seen.add(e.id);
    setup.push(e);
    if (labels[k] === 0) ownEpisode++;
  });
  return { ...entryCase, truth: { ...entryCase.truth, context: { ownEpisode, repeat } }, setup };
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
  const shape = shapeOf(options.calibration ?? defaultCalibration(), domain, options.rates);
  const { rates: _r, ...rest } = options;
  return trajectoryParts(domain, rest).map((parts) => placeInTrajectory(parts, shape));
}

/** Near-repeat counts of one placed case: its text against its own-episode and earlier-episode context. */
function countCase(counts: NearRepeatCounts, c: FuzzCase): void {
  const setup = c.setup ?? [];
  const own = c.truth.context?.ownEpisode ?? 0;
  addNearRepeat(counts, c.entry.content, setup.slice(setup.length - own).map((e) => e.content), setup.slice(0, setup.length - own).map((e) => e.content));
}

/** Trajectories drawn per calibration probe, and their seed (fixed: calibrating is deterministic). */
const PROBE_RUNS = 300;
const PROBE_SEED = 1;

/**
 * `TrajectoryProbe` for `calibrate`: draws `PROBE_RUNS` natural trajectory parts of `domain` once,
 * then, for any repeat rates, the near-repeat counts of the placed entries (the text feature the
 * calibration measures on the real sets).
 */
export function trajectoryProbe(calibration: Calibration, domain: string): (rates: RepeatRates) => NearRepeatCounts {
  const parts = fc.sample(trajectoryParts(domain as DomainId, { calibration }), { seed: PROBE_SEED, numRuns: PROBE_RUNS });
  return (rates) => {
    const shape = shapeOf(calibration, domain, rates);
    const counts = zeroNearRepeats();
    for (const p of parts) countCase(counts, placeInTrajectory(p, shape));
    return counts;
  };
}
