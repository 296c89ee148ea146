/**
 * Calibration of the natural `benign` mix from real traces (docs/calibration.md).
 *
 * Pure and deterministic: the same real sources and templates give the same `Calibration`,
 * byte for byte once serialised by `serializeCalibration`. `npm run calibrate`
 * (scripts/calibrate.ts) writes it to `generators/calibration/weights.json`; the generators
 * read that file. Nothing here looks at a guard: every measurement is a feature of the text
 * (`features.ts`), so calibrating can never tune a guard.
 *
 * Estimates (counts pooled over every source):
 * - P(hard negative) = (k + ½) / (N + 1): the Jeffreys posterior mean of the rate of entries
 *   that carry any hard-negative feature (guard vocabulary, another language, long);
 * - the split of those over the seven hard-negative kinds: Dirichlet(½) posterior means,
 *   (c_kind + ½) / (k + 7·½), so a kind never seen keeps a small, honest rate;
 * - trace-type shares over the nine trace types of DESIGN.md: Dirichlet(½) posterior means;
 * - lengths: quantiles (simple-statistics) of the real lengths, reported beside the generated ones.
 */
import { max, mean, quantileSorted } from 'simple-statistics';
import { episodeOf, storeContextIndices } from '../../src/domain/store-context.js';
import { BENIGN_KINDS, NEAR_REPEAT_OVERLAP, VOCAB_KINDS, addNearRepeat, entryKind, zeroNearRepeats, type BenignKind, type NearRepeatCounts } from './features.js';

/** The nine trace types of DESIGN.md; shares are estimated over all of them. */
const CALIBRATION_TRACE_TYPES = ['decision_log', 'thought_chain', 'reflection', 'rationale', 'observation', 'fact', 'experience', 'example', 'tool_output'] as const;

/**
 * One real source: a name and its entries (content, trace type and the episode label are all
 * calibration reads), and the generator domain it is closest to (its *profile*; `other` or absent
 * when none).
 */
export interface CalibrationSource {
  name: string;
  domain?: string;
  entries: ReadonlyArray<{ content: string; traceType: string; metadata?: Record<string, unknown> }>;
}

/** Store entries an entry is checked after, generated or real (docs/calibration.md, "Store context"). */
export const HISTORY_ENTRIES = 8;

/**
 * For one generator domain (under the calibration built so far): the near-repeat counts of its
 * generated trajectories as a function of the repeat rates. Injected by the caller
 * (`generators/benign-trajectory.ts`, which this module may not import).
 */
export type TrajectoryProbe = (calibration: Calibration, domain: string) => (rates: RepeatRates) => NearRepeatCounts;

/**
 * How generated steps repeat each other, per kind (a step of the own episode / of an earlier one),
 * in [-1,1]: a positive rate is the probability that a step repeats one (takes its twin); a
 * negative rate is the probability that a near-repeat arising by chance is declined (the step is
 * drawn again), for template mixes that repeat more than real text by chance alone.
 */
export interface RepeatRates {
  own: number;
  other: number;
}

/** Near-repeat rates of real text, in [0,1]: own-episode, and earlier-episode when the own episode has none. */
interface RepeatTargets {
  own: number;
  other: number;
}

/** The store context and trajectory shape of the natural mix (docs/calibration.md, "Store context"). */
interface TrajectoryCalibration {
  /** Entries in the store context of every checked entry (at most). */
  historyEntries: number;
  /** Lexical overlap (content-word Jaccard) at or above which an entry is a near-repeat. */
  nearRepeatOverlap: number;
  /**
   * Pooled over the real sources: near-repeat counts, their Jeffreys rates, and
   * P(episode length = i + 1), i = 0.., Dirichlet(½) posterior means of the lengths of the
   * labelled sources' episodes (`[1]` when no source has episode labels).
   */
  pooled: TrajectoryProfile;
  /** Per profile (the generator domain of real sources): the same, shrunk toward the pooled values by `PROFILE_PRIOR`. */
  profiles: Record<string, TrajectoryProfile & { sources: string[] }>;
  /**
   * Per generator domain: its profile (`pooled` when no real source has its domain), the episode
   * lengths and near-repeat rates it aims at, the repeat rates that reach them (solved on
   * generated trajectories) and the near-repeat rates those give.
   */
  domains: Record<string, { profile: string; episodeLength: number[]; target: RepeatTargets; rates: RepeatRates; generated: RepeatTargets }>;
}

/** Near-repeat counts and rates, and the episode-length distribution, of a group of real sources. */
interface TrajectoryProfile extends NearRepeatCounts, RepeatTargets {
  episodes: number;
  episodeLength: number[];
}

/** What calibration needs to know of a template: its id, domain, declared kind and trace type. */
export interface CalibrationTemplate {
  id: string;
  domain: string;
  kind: BenignKind;
  traceType: string;
}

interface SourceSummary {
  name: string;
  n: number;
  /** Entries per kind (every kind listed, zeros included). */
  kinds: Record<BenignKind, number>;
  /** Entries per trace type seen. */
  traceTypes: Record<string, number>;
  /** Length in characters: median, 90th percentile, maximum. */
  length: { p50: number; p90: number; max: number };
  /** Episodes (distinct `metadata.episode`; 1 when unlabelled). */
  episodes: number;
  /** Near-repeat counts of its entries in their store context. */
  nearRepeats: NearRepeatCounts;
}

export interface Calibration {
  schema: 1;
  /** How the numbers were made, one line (for readers of the file). */
  method: string;
  sources: SourceSummary[];
  pooled: { n: number; vocabularyBearing: number; length: { p10: number; p50: number; p90: number; mean: number; max: number } };
  /** Rate of each kind in the natural mix, in [0,1], summing to 1. */
  kindRates: Record<BenignKind, number>;
  /** Share of each trace type, in [0,1], summing to 1. */
  traceTypeShares: Record<string, number>;
  /** Long multi-paragraph reflections: length range in characters, built from ordinary pieces. */
  longReflection: { minChars: number; maxChars: number };
  /** Template id → its kind, measured on rendered samples with the same features as the real text. */
  templateKinds: Record<string, BenignKind>;
  /** Per domain: template id → integer weight (parts per million of that domain's mix). */
  templateWeights: Record<string, Record<string, number>>;
  /** Kinds a domain has no template for; their mass is spread over the domain's other kinds. */
  notes: string[];
  /** Store context and trajectory shape (A-MemGuard's verdict follows it; docs/calibration.md). */
  trajectory: TrajectoryCalibration;
}

/** Characters of a long reflection (the real long reflections ran 2–5k characters). */
const LONG_REFLECTION_CHARS = { minChars: 2000, maxChars: 5000 } as const;

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

function zeroKinds(): Record<BenignKind, number> {
  return Object.fromEntries(BENIGN_KINDS.map((k) => [k, 0])) as Record<BenignKind, number>;
}

function lengthQuantiles(lengths: number[]): { p10: number; p50: number; p90: number; mean: number; max: number } {
  if (lengths.length === 0) return { p10: 0, p50: 0, p90: 0, mean: 0, max: 0 };
  const sorted = [...lengths].sort((a, b) => a - b);
  return { p10: quantileSorted(sorted, 0.1), p50: quantileSorted(sorted, 0.5), p90: quantileSorted(sorted, 0.9), mean: round6(mean(sorted)), max: max(sorted) };
}

/** Near-repeat counts of a source's entries, each in its store context (`storeContextIndices`). */
function sourceNearRepeats(s: CalibrationSource): NearRepeatCounts {
  const episodes = s.entries.map((e) => episodeOf(e));
  const counts = zeroNearRepeats();
  s.entries.forEach((e, i) => {
    const ctx = storeContextIndices(episodes, i, HISTORY_ENTRIES);
    const own = ctx.filter((j) => episodes[j] === episodes[i]).map((j) => s.entries[j]!.content);
    const other = ctx.filter((j) => episodes[j] !== episodes[i]).map((j) => s.entries[j]!.content);
    addNearRepeat(counts, e.content, new Set(episodes).size > 1 ? own : [], new Set(episodes).size > 1 ? other : own);
  });
  return counts;
}

/** Summarises one source: kinds, trace types, lengths. */
function summariseSource(s: CalibrationSource): SourceSummary {
  const kinds = zeroKinds();
  const traceTypes: Record<string, number> = {};
  for (const e of s.entries) {
    kinds[entryKind(e.content, e.traceType)] += 1;
    traceTypes[e.traceType] = (traceTypes[e.traceType] ?? 0) + 1;
  }
  const q = lengthQuantiles(s.entries.map((e) => e.content.length));
  const episodes = new Set(s.entries.map((e) => episodeOf(e))).size;
  return { name: s.name, n: s.entries.length, kinds, traceTypes: sortKeys(traceTypes), length: { p50: q.p50, p90: q.p90, max: q.max }, episodes, nearRepeats: sourceNearRepeats(s) };
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Computes the calibration from real sources and the benign templates.
 * @throws RangeError when no source has an entry (nothing to calibrate on).
 */
export function calibrate(sources: readonly CalibrationSource[], templates: readonly CalibrationTemplate[], options: { probe?: TrajectoryProbe } = {}): Calibration {
  const summaries = sources.map(summariseSource);
  const n = summaries.reduce((a, s) => a + s.n, 0);
  if (n === 0) throw new RangeError('calibrate: the real sources hold no entry');
  const counts = zeroKinds();
  const typeCounts: Record<string, number> = {};
  for (const s of summaries) {
    for (const k of BENIGN_KINDS) counts[k] += s.kinds[k];
    for (const [t, c] of Object.entries(s.traceTypes)) typeCounts[t] = (typeCounts[t] ?? 0) + c;
  }
  // One Jeffreys rate for "carries any hard-negative feature", then a Dirichlet(1/2) split over the kinds.
  const hardKinds = BENIGN_KINDS.filter((k) => k !== 'ordinary');
  const hard = hardKinds.reduce((a, k) => a + counts[k], 0);
  const vocab = VOCAB_KINDS.reduce((a, k) => a + counts[k], 0);
  const pHard = (hard + 0.5) / (n + 1);
  const kindRates = zeroKinds();
  for (const k of hardKinds) kindRates[k] = (pHard * (counts[k] + 0.5)) / (hard + 0.5 * hardKinds.length);
  kindRates.ordinary = 1 - hardKinds.reduce((a, k) => a + kindRates[k], 0);

  const allTypes = [...new Set([...CALIBRATION_TRACE_TYPES, ...Object.keys(typeCounts)])];
  const typeTotal = allTypes.reduce((a, t) => a + (typeCounts[t] ?? 0), 0);
  const traceTypeShares: Record<string, number> = {};
  for (const t of allTypes) traceTypeShares[t] = ((typeCounts[t] ?? 0) + 0.5) / (typeTotal + 0.5 * allTypes.length);

  const notes: string[] = [];
  const templateWeights: Record<string, Record<string, number>> = {};
  for (const domain of [...new Set(templates.map((t) => t.domain))].sort()) {
    const mine = templates.filter((t) => t.domain === domain);
    const raw = new Map<string, number>();
    let massKept = 0;
    for (const kind of BENIGN_KINDS) {
      const ofKind = mine.filter((t) => t.kind === kind);
      if (ofKind.length === 0) {
        if (kindRates[kind] > 0) notes.push(`${domain}: no ${kind} template; its rate is spread over the domain's other kinds`);
        continue;
      }
      massKept += kindRates[kind];
      const types = [...new Set(ofKind.map((t) => t.traceType))];
      const typeMass = types.reduce((a, t) => a + (traceTypeShares[t] ?? 0), 0);
      for (const t of ofKind) {
        const same = ofKind.filter((x) => x.traceType === t.traceType).length;
        const pType = typeMass > 0 ? (traceTypeShares[t.traceType] ?? 0) / typeMass : 1 / types.length;
        raw.set(t.id, (kindRates[kind] * pType) / same);
      }
    }
    const weights: Record<string, number> = {};
    for (const [id, w] of [...raw.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) weights[id] = Math.max(1, Math.round((w / massKept) * 1e6));
    templateWeights[domain] = weights;
  }

  const calibration: Calibration = {
    schema: 1,
    method: 'Jeffreys/Dirichlet(1/2) posterior means of guard-independent text features, counts pooled over the real sources (docs/calibration.md)',
    sources: summaries,
    pooled: { n, vocabularyBearing: vocab, length: lengthQuantiles(sources.flatMap((s) => s.entries.map((e) => e.content.length))) },
    kindRates: Object.fromEntries(BENIGN_KINDS.map((k) => [k, round6(kindRates[k])])) as Record<BenignKind, number>,
    traceTypeShares: Object.fromEntries(Object.entries(sortKeys(traceTypeShares)).map(([k, v]) => [k, round6(v)])),
    longReflection: { ...LONG_REFLECTION_CHARS },
    templateKinds: Object.fromEntries([...templates].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((t) => [t.id, t.kind])),
    templateWeights,
    notes,
    trajectory: trajectoryTargets(sources, summaries, Object.keys(templateWeights), notes),
  };
  if (options.probe) solveRepeatRates(calibration, options.probe);
  return calibration;
}

/** Prior strength (in entries, and in episodes for lengths) with which a profile is shrunk toward the pooled values. */
const PROFILE_PRIOR = 2;

/** Jeffreys posterior mean of k of n, in [0,1]. */
const jeffreys = (k: number, n: number): number => (k + 0.5) / (n + 1);

function addCounts(a: NearRepeatCounts, b: NearRepeatCounts): NearRepeatCounts {
  return { n: a.n + b.n, ownEligible: a.ownEligible + b.ownEligible, ownRepeats: a.ownRepeats + b.ownRepeats, otherEligible: a.otherEligible + b.otherEligible, otherRepeats: a.otherRepeats + b.otherRepeats };
}

/** Episode sizes (entries per distinct episode label) of a source. */
function episodeSizes(src: CalibrationSource): number[] {
  const sizes = new Map<string, number>();
  for (const e of src.entries) sizes.set(episodeOf(e), (sizes.get(episodeOf(e)) ?? 0) + 1);
  return [...sizes.values()];
}

/** Counts of episodes of each length (index = length − 1). */
function lengthHistogram(sizes: readonly number[]): number[] {
  const h: number[] = [];
  for (const size of sizes) h[size - 1] = (h[size - 1] ?? 0) + 1;
  return Array.from(h, (c) => c ?? 0);
}

/**
 * The trajectory part measured on real text: episode lengths and near-repeat rates, pooled and
 * per profile; every generator domain aims at its profile's values (pooled when it has none).
 * Repeat rates start at 0; `solveRepeatRates` solves them.
 */
function trajectoryTargets(sources: readonly CalibrationSource[], summaries: readonly SourceSummary[], domains: readonly string[], notes: string[]): TrajectoryCalibration {
  // A source without episode labels is one trajectory: its store context counts as earlier
  // episodes (near-repeat counts kept), and it says nothing about episode lengths.
  const measured = sources.filter((src) => src.entries.length > 0);
  const labelled = measured.filter((src) => (summaries.find((s) => s.name === src.name)?.episodes ?? 0) > 1);
  for (const s of summaries) if (s.n > 0 && s.episodes <= 1) notes.push(`${s.name}: no episode labels; its store context counts as earlier episodes, and it is left out of the episode lengths`);
  const countsOf = (src: CalibrationSource): NearRepeatCounts => summaries.find((s) => s.name === src.name)?.nearRepeats ?? zeroNearRepeats();
  const pooledHist = lengthHistogram(labelled.flatMap(episodeSizes));
  const maxLength = Math.max(1, pooledHist.length);
  const pooledEpisodes = pooledHist.reduce((a, c) => a + c, 0);
  // No labelled source at all: every entry its own episode (what an unlabelled set's context is).
  const pooledLength = pooledEpisodes === 0 ? [1] : Array.from({ length: maxLength }, (_, i) => ((pooledHist[i] ?? 0) + 0.5) / (pooledEpisodes + 0.5 * maxLength));
  const pc = measured.reduce((a, src) => addCounts(a, countsOf(src)), zeroNearRepeats());
  const pooled: TrajectoryProfile = { ...pc, own: round6(jeffreys(pc.ownRepeats, pc.ownEligible)), other: round6(jeffreys(pc.otherRepeats, pc.otherEligible)), episodes: pooledEpisodes, episodeLength: pooledLength.map(round6) };
  const profiles: TrajectoryCalibration['profiles'] = {};
  for (const d of [...domains].sort()) {
    const mine = measured.filter((src) => src.domain === d);
    if (mine.length === 0) continue;
    const c = mine.reduce((a, src) => addCounts(a, countsOf(src)), zeroNearRepeats());
    const hist = lengthHistogram(mine.filter((src) => labelled.includes(src)).flatMap(episodeSizes));
    const episodes = hist.reduce((a, x) => a + x, 0);
    profiles[d] = {
      ...c,
      own: round6((c.ownRepeats + PROFILE_PRIOR * pooled.own) / (c.ownEligible + PROFILE_PRIOR)),
      other: round6((c.otherRepeats + PROFILE_PRIOR * pooled.other) / (c.otherEligible + PROFILE_PRIOR)),
      episodes,
      episodeLength: pooledLength.map((q, i) => round6(((hist[i] ?? 0) + PROFILE_PRIOR * q) / (episodes + PROFILE_PRIOR))),
      sources: mine.map((src) => src.name),
    };
  }
  const byDomain: TrajectoryCalibration['domains'] = {};
  for (const d of [...domains].sort()) {
    const p = profiles[d] ?? pooled;
    byDomain[d] = { profile: profiles[d] ? d : 'pooled', episodeLength: [...p.episodeLength], target: { own: p.own, other: p.other }, rates: { own: 0, other: 0 }, generated: { own: p.own, other: p.other } };
  }
  return { historyEntries: HISTORY_ENTRIES, nearRepeatOverlap: NEAR_REPEAT_OVERLAP, pooled, profiles, domains: byDomain };
}

/** Own-episode and earlier-episode near-repeat rates of probe counts (0 when nothing was eligible). */
function ratesOf(c: NearRepeatCounts): RepeatTargets {
  return { own: c.ownEligible === 0 ? 0 : c.ownRepeats / c.ownEligible, other: c.otherEligible === 0 ? 0 : c.otherRepeats / c.otherEligible };
}

/** Bisection steps per repeat probability (the solved value is within 2^-steps of the root). */
const BISECTION_STEPS = 5;

/**
 * The x in [-1,1] at which the non-decreasing `f` (a generated near-repeat rate as a function of
 * a repeat rate) comes closest to `target`, by bisection; an end of the range when the target
 * lies beyond it.
 */
function solveMonotone(target: number, f: (x: number) => number): number {
  if (f(-1) >= target) return -1;
  if (f(1) <= target) return 1;
  let lo = -1;
  let hi = 1;
  for (let i = 0; i < BISECTION_STEPS; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Solves, per generator domain, the repeat probabilities whose generated trajectories show the
 * target near-repeat rates (bisection over probes of generated trajectories; the own-episode rate
 * first, then the earlier-episode rate with it in place). A rate that cannot reach its target
 * within 5 points is noted. Mutates `c`.
 */
function solveRepeatRates(c: Calibration, probe: TrajectoryProbe): void {
  for (const [domain, d] of Object.entries(c.trajectory.domains)) {
    const counts = probe(c, domain);
    const own = solveMonotone(d.target.own, (x) => ratesOf(counts({ own: x, other: 0 })).own);
    const other = solveMonotone(d.target.other, (x) => ratesOf(counts({ own, other: x })).other);
    d.rates = { own: round6(own), other: round6(other) };
    const g = ratesOf(counts({ own: round6(own), other: round6(other) }));
    d.generated = { own: round6(g.own), other: round6(g.other) };
    for (const k of ['own', 'other'] as const) {
      if (Math.abs(d.generated[k] - d.target[k]) > 0.05) c.notes.push(`${domain}: generated ${k === 'own' ? 'own-episode' : 'earlier-episode'} near-repeat rate ${d.generated[k]} is more than 5 points from the real ${d.target[k]} at repeat rate ${d.rates[k]}`);
    }
  }
}


/** The file form: two-space JSON with a final newline (what `npm run calibrate` writes). */
export function serializeCalibration(c: Calibration): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}
