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
import { BENIGN_KINDS, VOCAB_KINDS, entryKind, type BenignKind } from './features.js';

/** The nine trace types of DESIGN.md; shares are estimated over all of them. */
const CALIBRATION_TRACE_TYPES = ['decision_log', 'thought_chain', 'reflection', 'rationale', 'observation', 'fact', 'experience', 'example', 'tool_output'] as const;

/** One real source: a name and its entries (content and trace type are all calibration reads). */
export interface CalibrationSource {
  name: string;
  entries: ReadonlyArray<{ content: string; traceType: string }>;
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

/** Summarises one source: kinds, trace types, lengths. */
function summariseSource(s: CalibrationSource): SourceSummary {
  const kinds = zeroKinds();
  const traceTypes: Record<string, number> = {};
  for (const e of s.entries) {
    kinds[entryKind(e.content, e.traceType)] += 1;
    traceTypes[e.traceType] = (traceTypes[e.traceType] ?? 0) + 1;
  }
  const q = lengthQuantiles(s.entries.map((e) => e.content.length));
  return { name: s.name, n: s.entries.length, kinds, traceTypes: sortKeys(traceTypes), length: { p50: q.p50, p90: q.p90, max: q.max } };
}

function sortKeys<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Computes the calibration from real sources and the benign templates.
 * @throws RangeError when no source has an entry (nothing to calibrate on).
 */
export function calibrate(sources: readonly CalibrationSource[], templates: readonly CalibrationTemplate[]): Calibration {
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

  return {
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
  };
}

/** The file form: two-space JSON with a final newline (what `npm run calibrate` writes). */
export function serializeCalibration(c: Calibration): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}
