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
import { BENIGN_KINDS, NEAR_REPEAT_OVERLAP, SEQUENCE_BINS, SHORT_WORDS, SIMILARITY_BINS, VOCAB_KINDS, addNearRepeat, addStructure, binHigh, binLow, entryKind, zeroNearRepeats, zeroStructure, type BenignKind, type NearRepeatCounts, type StructureCounts } from './features.js';
import { addCount, nameKeyed, ownValue } from '../../src/domain/name-keyed.js';

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
 * For one generator domain (under the calibration built so far): the store-structure and
 * near-repeat counts of a fixed probe of its generated trajectories, the generated side of
 * `domains[d].generated`. Injected by the caller (`generators/benign-trajectory.ts`, which this
 * module may not import).
 */
export type TrajectoryProbe = (calibration: Calibration, domain: string) => { structure: StructureCounts; nearRepeats: NearRepeatCounts };

/**
 * The store structure of a group of checked entries, as rates in [0,1] (docs/calibration.md,
 * "Store structure"), real (`target`) or generated (`generated`):
 * - `alone`: the entry has no near-repeat in its store (its group is itself);
 * - `win` / `tie` / `lose`: it has one, and its group is larger than / as large as / smaller than
 *   the largest rival group of the store;
 * - `similarity`: quartiles of the overlap of entries with their direct near-repeats;
 * - `sequence`: quartiles of their sequence overlap (`sequenceOverlap`: shared word pairs);
 * - `ownShare`: share of the entry's group members that are steps of its own episode;
 * - `own` / `other`: own-episode and earlier-episode near-repeat rates (as `NearRepeatCounts`);
 * - `reframe`: share of direct near-repeats that are entity-sharing reframes (`isEntityReframe`);
 * - `short`: share of entries that are short observations (`SHORT_WORDS` content words or fewer);
 * - `entityFree`: share of entries that are entity-free turns (`isEntityFree`);
 * - `indirect`: share of the entries' group members that are indirect (near-repeats of another
 *   member, not of the entry).
 */
interface StructureSummary {
  alone: number;
  win: number;
  tie: number;
  lose: number;
  similarity: { p25: number; p50: number; p75: number };
  sequence: { p25: number; p50: number; p75: number };
  ownShare: number;
  own: number;
  other: number;
  reframe: number;
  short: number;
  entityFree: number;
  indirect: number;
}

/** The store context and trajectory shape of the natural mix (docs/calibration.md, "Store context", "Store structure"). */
interface TrajectoryCalibration {
  /** Entries in the store context of every checked entry (at most). */
  historyEntries: number;
  /** Lexical overlap (content-word Jaccard) at or above which an entry is a near-repeat. */
  nearRepeatOverlap: number;
  /**
   * Pooled over the real sources: near-repeat and structure counts, the rates and distributions
   * made from them, and P(episode length = i + 1), i = 0.., Dirichlet(½) posterior means of the
   * lengths of the labelled sources' episodes (`[1]` when no source has episode labels).
   */
  pooled: TrajectoryProfile;
  /** Per profile (the generator domain of real sources): the same, shrunk toward the pooled values by `PROFILE_PRIOR`. */
  profiles: Record<string, TrajectoryProfile & { sources: string[] }>;
  /**
   * Per generator domain: its profile (`pooled` when no real source has its domain), the episode
   * lengths, group structure, near-repeat similarity and own-episode share it draws from, the
   * real structure it aims at (`target`) and what a probe of its generated trajectories shows.
   */
  domains: Record<string, DomainTrajectory>;
}

/** What one generator domain draws its trajectories from, and how closely a probe of them matches the real structure. */
interface DomainTrajectory {
  profile: string;
  episodeLength: number[];
  groups: Record<string, number>;
  similarity: number[];
  sequence: number[];
  ownShare: number;
  reframe: number;
  short: number[];
  entityFree: number;
  indirect: number;
  target: StructureSummary;
  generated: StructureSummary;
}

/** Near-repeat and structure counts, rates and distributions, and the episode-length distribution, of a group of real sources. */
interface TrajectoryProfile extends NearRepeatCounts {
  /** Own-episode and earlier-episode near-repeat rates (Jeffreys; shrunk for a profile). */
  own: number;
  other: number;
  episodes: number;
  episodeLength: number[];
  structure: StructureCounts;
  /** P(`"own:rival"`): the empirical joint distribution of group sizes (shrunk for a profile), keys sorted by own then rival. */
  groups: Record<string, number>;
  /** P(similarity bin) of direct near-repeats (`SIMILARITY_BINS` bins from 0.30; empirical, shrunk for a profile; uniform when no near-repeat was seen). */
  similarity: number[];
  /** P(sequence-overlap bin | similarity bin) of the same near-repeats, flattened (`SEQUENCE_BINS` bins of 0.2 from 0 per similarity bin; empirical, shrunk for a profile). */
  sequence: number[];
  /** Share of group members in the entry's own episode (Jeffreys; shrunk for a profile). */
  ownShare: number;
  /** P(a direct near-repeat is an entity-sharing reframe) (Jeffreys; shrunk for a profile). */
  reframe: number;
  /** P(an entry has w content words), w = 0..`SHORT_WORDS` (short observations; empirical, shrunk for a profile); the rest of the mass is longer entries. */
  short: number[];
  /** P(an entry is an entity-free turn) (`isEntityFree`; Jeffreys, shrunk for a profile). */
  entityFree: number;
  /** P(a group member of the entry is indirect: a near-repeat of another member, not of the entry) (Jeffreys, shrunk for a profile). */
  indirect: number;
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
  /** Store-structure counts of its entries in their store context. */
  structure: StructureCounts;
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

/** Near-repeat and structure counts of a source's entries, each in its store context (`storeContextIndices`). */
function sourceNearRepeats(s: CalibrationSource): { nearRepeats: NearRepeatCounts; structure: StructureCounts } {
  const episodes = s.entries.map((e) => episodeOf(e));
  const labelled = new Set(episodes).size > 1;
  const counts = zeroNearRepeats();
  const structure = zeroStructure();
  s.entries.forEach((e, i) => {
    const ctx = storeContextIndices(episodes, i, HISTORY_ENTRIES);
    const own = ctx.filter((j) => episodes[j] === episodes[i]).map((j) => s.entries[j]!.content);
    const other = ctx.filter((j) => episodes[j] !== episodes[i]).map((j) => s.entries[j]!.content);
    addNearRepeat(counts, e.content, labelled ? own : [], labelled ? other : own);
    addStructure(structure, e.content, ctx.map((j) => s.entries[j]!.content), ctx.map((j) => labelled && episodes[j] === episodes[i]));
  });
  return { nearRepeats: counts, structure: { ...structure, cells: sortKeys(structure.cells, byCell) } };
}

/** Summarises one source: kinds, trace types, lengths. */
function summariseSource(s: CalibrationSource): SourceSummary {
  const kinds = zeroKinds();
  const traceTypes = nameKeyed<number>();
  for (const e of s.entries) {
    kinds[entryKind(e.content, e.traceType)] += 1;
    addCount(traceTypes, e.traceType);
  }
  const q = lengthQuantiles(s.entries.map((e) => e.content.length));
  const episodes = new Set(s.entries.map((e) => episodeOf(e))).size;
  return { name: s.name, n: s.entries.length, kinds, traceTypes: sortKeys(traceTypes), length: { p50: q.p50, p90: q.p90, max: q.max }, episodes, ...sourceNearRepeats(s) };
}

const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** `"own:rival"` keys in numeric order (own, then rival). */
function byCell(a: string, b: string): number {
  const [ao, ar] = a.split(':').map(Number) as [number, number];
  const [bo, br] = b.split(':').map(Number) as [number, number];
  return ao - bo || ar - br;
}

function sortKeys<T>(o: Record<string, T>, order: (a: string, b: string) => number = byName): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => order(a, b)));
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
  const typeCounts = nameKeyed<number>();
  for (const s of summaries) {
    for (const k of BENIGN_KINDS) counts[k] += s.kinds[k];
    for (const [t, c] of Object.entries(s.traceTypes)) addCount(typeCounts, t, c);
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
  const typeTotal = allTypes.reduce((a, t) => a + (ownValue(typeCounts, t) ?? 0), 0);
  const traceTypeShares = nameKeyed<number>();
  for (const t of allTypes) traceTypeShares[t] = ((ownValue(typeCounts, t) ?? 0) + 0.5) / (typeTotal + 0.5 * allTypes.length);

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
  if (options.probe) measureGenerated(calibration, options.probe);
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

function addStructureCounts(a: StructureCounts, b: StructureCounts): StructureCounts {
  const cells: Record<string, number> = { ...a.cells };
  for (const [k, v] of Object.entries(b.cells)) cells[k] = (cells[k] ?? 0) + v;
  return { n: a.n + b.n, cells: sortKeys(cells, byCell), similarity: a.similarity.map((x, i) => x + (b.similarity[i] ?? 0)), sequence: a.sequence.map((x, i) => x + (b.sequence[i] ?? 0)), members: a.members + b.members, ownMembers: a.ownMembers + b.ownMembers, reframes: a.reframes + b.reframes, shortWords: a.shortWords.map((x, i) => x + (b.shortWords[i] ?? 0)), entityFree: a.entityFree + b.entityFree, groupMembers: a.groupMembers + b.groupMembers, indirect: a.indirect + b.indirect };
}

/** P(cell) of structure counts (empirical), shrunk toward `prior` (a distribution) with strength `PROFILE_PRIOR` when given. */
function groupDistribution(c: StructureCounts, prior?: Record<string, number>): Record<string, number> {
  const keys = [...new Set([...Object.keys(c.cells), ...Object.keys(prior ?? {})])].sort(byCell);
  const w = prior ? PROFILE_PRIOR : 0;
  const total = c.n + w;
  if (total === 0) return { '1:0': 1 };
  return Object.fromEntries(keys.map((k) => [k, round6(((c.cells[k] ?? 0) + w * (prior?.[k] ?? 0)) / total)]));
}

/** P(bin) of a near-repeat histogram (empirical; uniform when empty), shrunk toward `prior` when given. */
function binDistribution(counts: readonly number[], bins: number, prior?: readonly number[]): number[] {
  const total = counts.reduce((a, x) => a + x, 0);
  const w = prior ? PROFILE_PRIOR : 0;
  if (total + w === 0) return new Array<number>(bins).fill(round6(1 / bins));
  return counts.map((x, i) => round6((x + w * (prior?.[i] ?? 0)) / (total + w)));
}

/** Direct near-repeats counted in structure counts. */
const nearRepeatTotal = (c: StructureCounts): number => c.similarity.reduce((a, x) => a + x, 0);

/** P(w content words), w = 0..`SHORT_WORDS`, of structure counts (empirical; zeros when empty), shrunk toward `prior` when given. */
function shortDistribution(c: StructureCounts, prior?: readonly number[]): number[] {
  const w = prior ? PROFILE_PRIOR : 0;
  if (c.n + w === 0) return new Array<number>(SHORT_WORDS + 1).fill(0);
  return c.shortWords.map((x, i) => round6((x + w * (prior?.[i] ?? 0)) / (c.n + w)));
}

/** P(similarity bin) of structure counts (`binDistribution` of `similarity`). */
function similarityDistribution(c: StructureCounts, prior?: readonly number[]): number[] {
  return binDistribution(c.similarity, SIMILARITY_BINS, prior);
}

/**
 * P(sequence-overlap bin | similarity bin) of structure counts, flattened like `sequence`: each
 * similarity bin's row shrunk toward `prior`'s row when given; a row with no near-repeat (and no
 * prior) takes the distribution of all rows together (uniform when there is none at all).
 */
function sequenceDistribution(c: StructureCounts, prior?: readonly number[]): number[] {
  const row = (xs: readonly number[], i: number): number[] => xs.slice(i * SEQUENCE_BINS, (i + 1) * SEQUENCE_BINS);
  const all = Array.from({ length: SEQUENCE_BINS }, (_, j) => c.sequence.reduce((a, x, k) => a + (k % SEQUENCE_BINS === j ? x : 0), 0));
  const marginal = binDistribution(all, SEQUENCE_BINS);
  const out: number[] = [];
  for (let i = 0; i < SIMILARITY_BINS; i++) {
    const counts = row(c.sequence, i);
    const p = prior ? row(prior, i) : undefined;
    out.push(...(counts.some((x) => x > 0) || p ? binDistribution(counts, SEQUENCE_BINS, p) : marginal));
  }
  return out;
}

/** The marginal P(sequence bin) of a flattened conditional distribution, weighted by P(similarity bin). */
function sequenceMarginal(sequence: readonly number[], similarity: readonly number[]): number[] {
  return Array.from({ length: SEQUENCE_BINS }, (_, j) => similarity.reduce((a, w, i) => a + w * (sequence[i * SEQUENCE_BINS + j] ?? 0), 0));
}

/** Quantile `q` of a bin distribution (linear inside a bin); similarity bins by default, `[0.2 i, 0.2 (i + 1))` for sequence bins. */
function binQuantile(p: readonly number[], q: number, low: (i: number) => number = binLow, high: (i: number) => number = binHigh): number {
  const total = p.reduce((a, x) => a + x, 0);
  if (total === 0) return 0;
  let acc = 0;
  for (let i = 0; i < p.length; i++) {
    const x = (p[i] ?? 0) / total;
    if (acc + x >= q && x > 0) return round6(low(i) + ((q - acc) / x) * (high(i) - low(i)));
    acc += x;
  }
  return 1;
}

const sequenceLow = (i: number): number => i / SEQUENCE_BINS;
const sequenceHigh = (i: number): number => (i + 1) / SEQUENCE_BINS;

/** The summary of a group distribution, a similarity and a sequence distribution, an own-episode share and near-repeat rates. */
function summarise(groups: Record<string, number>, similarity: readonly number[], conditional: readonly number[], ownShare: number, own: number, other: number, reframe: number, short: readonly number[], entityFree: number, indirect: number): StructureSummary {
  const sequence = sequenceMarginal(conditional, similarity);
  const r = { alone: 0, win: 0, tie: 0, lose: 0 };
  for (const [k, p] of Object.entries(groups)) {
    const [g, rival] = k.split(':').map(Number) as [number, number];
    if (g < 2) r.alone += p;
    else if (g > rival) r.win += p;
    else if (g === rival) r.tie += p;
    else r.lose += p;
  }
  return { alone: round6(r.alone), win: round6(r.win), tie: round6(r.tie), lose: round6(r.lose), similarity: { p25: binQuantile(similarity, 0.25), p50: binQuantile(similarity, 0.5), p75: binQuantile(similarity, 0.75) }, sequence: { p25: binQuantile(sequence, 0.25, sequenceLow, sequenceHigh), p50: binQuantile(sequence, 0.5, sequenceLow, sequenceHigh), p75: binQuantile(sequence, 0.75, sequenceLow, sequenceHigh) }, ownShare: round6(ownShare), own: round6(own), other: round6(other), reframe: round6(reframe), short: round6(short.reduce((a, x) => a + x, 0)), entityFree: round6(entityFree), indirect: round6(indirect) };
}

/**
 * The trajectory part measured on real text: episode lengths, near-repeat rates and store
 * structure, pooled and per profile; every generator domain draws from its profile's values
 * (pooled when it has none). `generated` starts equal to `target`; `measureGenerated` measures it.
 */
function trajectoryTargets(sources: readonly CalibrationSource[], summaries: readonly SourceSummary[], domains: readonly string[], notes: string[]): TrajectoryCalibration {
  // A source without episode labels is one trajectory: its store context counts as earlier
  // episodes (near-repeat counts kept), and it says nothing about episode lengths.
  const measured = sources.filter((src) => src.entries.length > 0);
  const labelled = measured.filter((src) => (summaries.find((s) => s.name === src.name)?.episodes ?? 0) > 1);
  for (const s of summaries) if (s.n > 0 && s.episodes <= 1) notes.push(`${s.name}: no episode labels; its store context counts as earlier episodes, and it is left out of the episode lengths`);
  const summaryOf = (src: CalibrationSource): SourceSummary | undefined => summaries.find((s) => s.name === src.name);
  const countsOf = (src: CalibrationSource): NearRepeatCounts => summaryOf(src)?.nearRepeats ?? zeroNearRepeats();
  const structureOf = (src: CalibrationSource): StructureCounts => summaryOf(src)?.structure ?? zeroStructure();
  const pooledHist = lengthHistogram(labelled.flatMap(episodeSizes));
  const maxLength = Math.max(1, pooledHist.length);
  const pooledEpisodes = pooledHist.reduce((a, c) => a + c, 0);
  // No labelled source at all: every entry its own episode (what an unlabelled set's context is).
  const pooledLength = pooledEpisodes === 0 ? [1] : Array.from({ length: maxLength }, (_, i) => ((pooledHist[i] ?? 0) + 0.5) / (pooledEpisodes + 0.5 * maxLength));
  const pc = measured.reduce((a, src) => addCounts(a, countsOf(src)), zeroNearRepeats());
  const ps = measured.reduce((a, src) => addStructureCounts(a, structureOf(src)), zeroStructure());
  const pooled: TrajectoryProfile = {
    ...pc,
    own: round6(jeffreys(pc.ownRepeats, pc.ownEligible)),
    other: round6(jeffreys(pc.otherRepeats, pc.otherEligible)),
    episodes: pooledEpisodes,
    episodeLength: pooledLength.map(round6),
    structure: ps,
    groups: groupDistribution(ps),
    similarity: similarityDistribution(ps),
    sequence: sequenceDistribution(ps),
    ownShare: round6(jeffreys(ps.ownMembers, ps.members)),
    reframe: round6(jeffreys(ps.reframes, nearRepeatTotal(ps))),
    short: shortDistribution(ps),
    entityFree: round6(jeffreys(ps.entityFree, ps.n)),
    indirect: round6(jeffreys(ps.indirect, ps.groupMembers)),
  };
  const profiles: TrajectoryCalibration['profiles'] = {};
  for (const d of [...domains].sort()) {
    const mine = measured.filter((src) => src.domain === d);
    if (mine.length === 0) continue;
    const c = mine.reduce((a, src) => addCounts(a, countsOf(src)), zeroNearRepeats());
    const st = mine.reduce((a, src) => addStructureCounts(a, structureOf(src)), zeroStructure());
    const hist = lengthHistogram(mine.filter((src) => labelled.includes(src)).flatMap(episodeSizes));
    const episodes = hist.reduce((a, x) => a + x, 0);
    profiles[d] = {
      ...c,
      own: round6((c.ownRepeats + PROFILE_PRIOR * pooled.own) / (c.ownEligible + PROFILE_PRIOR)),
      other: round6((c.otherRepeats + PROFILE_PRIOR * pooled.other) / (c.otherEligible + PROFILE_PRIOR)),
      episodes,
      episodeLength: pooledLength.map((q, i) => round6(((hist[i] ?? 0) + PROFILE_PRIOR * q) / (episodes + PROFILE_PRIOR))),
      structure: st,
      groups: groupDistribution(st, pooled.groups),
      similarity: similarityDistribution(st, pooled.similarity),
      sequence: sequenceDistribution(st, pooled.sequence),
      ownShare: round6((st.ownMembers + PROFILE_PRIOR * pooled.ownShare) / (st.members + PROFILE_PRIOR)),
      reframe: round6((st.reframes + PROFILE_PRIOR * pooled.reframe) / (nearRepeatTotal(st) + PROFILE_PRIOR)),
      short: shortDistribution(st, pooled.short),
      entityFree: round6((st.entityFree + PROFILE_PRIOR * pooled.entityFree) / (st.n + PROFILE_PRIOR)),
      indirect: round6((st.indirect + PROFILE_PRIOR * pooled.indirect) / (st.groupMembers + PROFILE_PRIOR)),
      sources: mine.map((src) => src.name),
    };
  }
  const byDomain: TrajectoryCalibration['domains'] = {};
  for (const d of [...domains].sort()) {
    const p = profiles[d] ?? pooled;
    const target = summarise(p.groups, p.similarity, p.sequence, p.ownShare, p.own, p.other, p.reframe, p.short, p.entityFree, p.indirect);
    byDomain[d] = { profile: profiles[d] ? d : 'pooled', episodeLength: [...p.episodeLength], groups: { ...p.groups }, similarity: [...p.similarity], sequence: [...p.sequence], ownShare: p.ownShare, reframe: p.reframe, short: [...p.short], entityFree: p.entityFree, indirect: p.indirect, target, generated: { ...target, similarity: { ...target.similarity }, sequence: { ...target.sequence } } };
  }
  return { historyEntries: HISTORY_ENTRIES, nearRepeatOverlap: NEAR_REPEAT_OVERLAP, pooled, profiles, domains: byDomain };
}

/** Points by which a generated structure rate may miss its real target before `notes` names it. */
const STRUCTURE_TOLERANCE = 0.05;

/**
 * Measures, per generator domain, the store structure of a fixed probe of its generated
 * trajectories (`generated`, beside the real `target`), and notes every rate that misses its
 * target by more than 5 points. Nothing is solved or fitted: the generator draws the structure
 * from the calibrated distributions; this shows how closely it realises them. Mutates `c`.
 */
function measureGenerated(c: Calibration, probe: TrajectoryProbe): void {
  for (const [domain, d] of Object.entries(c.trajectory.domains)) {
    const { structure, nearRepeats: r } = probe(c, domain);
    d.generated = summarise(groupDistribution(structure), similarityDistribution(structure), sequenceDistribution(structure), structure.members === 0 ? 0 : structure.ownMembers / structure.members, r.ownEligible === 0 ? 0 : r.ownRepeats / r.ownEligible, r.otherEligible === 0 ? 0 : r.otherRepeats / r.otherEligible, nearRepeatTotal(structure) === 0 ? 0 : structure.reframes / nearRepeatTotal(structure), shortDistribution(structure), structure.n === 0 ? 0 : structure.entityFree / structure.n, structure.groupMembers === 0 ? 0 : structure.indirect / structure.groupMembers);
    for (const k of ['alone', 'win', 'tie', 'lose', 'reframe', 'short', 'entityFree', 'indirect'] as const) {
      if (Math.abs(d.generated[k] - d.target[k]) > STRUCTURE_TOLERANCE) c.notes.push(`${domain}: generated store-structure rate ${k} ${d.generated[k]} is more than 5 points from the real ${d.target[k]}`);
    }
  }
}

/** The file form: two-space JSON with a final newline (what `npm run calibrate` writes). */
export function serializeCalibration(c: Calibration): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}
