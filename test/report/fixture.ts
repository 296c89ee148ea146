/**
 * A small real report for renderer tests: a toy campaign (toy arbitraries from
 * test/helpers/toy.ts, a scored toy guard defined here) run through `runCampaign` and
 * `buildReport`, so the fixture has the exact shape the CLI produces.
 */
import fc from 'fast-check';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { SyncGuard } from '../../src/domain/guard.js';
import { runCampaign } from '../../src/fuzz/campaign.js';
import { buildReport, interval, type ReportData } from '../../src/report/model.js';
import { arrayStore, toyBenign, toyForged } from '../helpers/toy.js';

/** Attacker text planted in forged entries to check escaping. */
export const HOSTILE = '<script>alert("pwned")</script></pre><img src=x onerror=alert(1)>]]>\u0000\uD800 & done';

const OPS = ['synonym', 'reorder', 'homoglyph'] as const;

/** Forged toy cases with paraphrase operators and, on some, hostile text. */
const forged: fc.Arbitrary<FuzzCase> = fc.tuple(toyForged, fc.nat(5)).map(([c, k]) => ({
  ...c,
  entry: { ...c.entry, content: k === 0 ? `${c.entry.content} ${HOSTILE}` : c.entry.content },
  truth: { ...c.truth, operators: k < OPS.length ? [OPS[k] as string] : [] },
}));

/**
 * F = share of "forgery words" among 4, plus 0.1 per `<`; rejects when F > 0.5. Signals:
 * s1 fires on "verified", s2 on "upstream", s3 on "pattern".
 */
const scoredGuard: SyncGuard = {
  id: 'toy-scored',
  mode: 'sync',
  check: (entry) => {
    const t = entry.content;
    const signals = { s1: t.includes('verified') ? 1 : 0, s2: t.includes('upstream') ? 1 : 0, s3: t.includes('pattern') ? 0.5 : 0, s4: 0 };
    const words = ['verified', 'upstream', 'pattern', 'complete'].filter((w) => t.includes(w)).length;
    const score = Math.min(1, words / 4 + (t.includes('<') ? 0.1 : 0));
    return { decision: score > 0.5 ? 'reject' : 'admit', layer: 'L5', trace: [{ layer: 'L5', outcome: score > 0.5 ? 'reject' : 'pass', value: score, reasons: [] }], signals, score, reasons: [`F=${score.toFixed(2)}`], elapsedUs: 3 };
  },
};

/** Runs the toy campaign (2 domains × {benign, seed, naive}) and builds its report. */
export async function toyReport(seed = 42, runs = 40, guard: SyncGuard = scoredGuard): Promise<ReportData> {
  const domains = ['toy', 'toy2'];
  const families = ['benign', 'seed', 'naive'];
  const cells = domains.flatMap((domain) => families.map((family) => ({ domain, family, arbitrary: family === 'benign' ? toyBenign : forged })));
  const outcome = await runCampaign({ guard, cells, store: arrayStore, phase: 'write', runsPerCell: runs, seed, maxFailures: 2 });
  const cx = outcome.cells.flatMap((c) => c.counterexamples);
  return buildReport({
    outcome,
    version: '0.0.0-test',
    guardConfigHash: 'none',
    domains,
    families,
    maxFailures: 2,
    versions: { 'farma-fuzz': '0.0.0-test' },
    counterexamples: cx.map((x, i) => ({ id: `cx${String(i).padStart(3, '0')}`, replay: `npm run cli -- replay --guard ${guard.id} --id cx${String(i).padStart(3, '0')}`, cx: x })),
    realSets: [],
    generatedAt: '2026-01-01T00:00:00.000Z',
  });
}

/** A hand-built cell with `k` violations (and `errors`) in `n` runs. */
export function cell(domain: string, family: string, k: number, n: number, errors = 0): ReportData['cells'][number] {
  const property = family === 'benign' ? 'benign-admitted' : 'forgery-rejected';
  return {
    domain,
    family,
    property,
    runs: n,
    violations: k,
    errors,
    violationRate: interval(k, n),
    errorRate: interval(errors, n),
    errorKinds: errors > 0 ? { threw: errors } : {},
    ...(property === 'forgery-rejected' ? { detectionRate: interval(n - k - errors, n) } : {}),
    interrupted: false,
    holds: k === 0 && errors === 0,
    signalFires: {},
    decidingLayers: {},
    scoreHistogram: {},
    breakdown: { template: {}, operator: {}, traceType: {}, format: {}, language: {}, store: {} },
    counterexamples: [],
  };
}

/** A hand-built report holding the given cells and real benign sets (no counterexamples). */
export function handReport(cells: ReportData['cells'], real: ReportData['fpr']['real'] = []): ReportData {
  return {
    tool: { name: 'farma-fuzz', version: '0.0.0-test' },
    generatedAt: '2026-01-01T00:00:00.000Z',
    config: { guard: 'hand', guardConfigHash: 'none', seed: 1, runsPerCell: 20, phase: 'write', domains: [...new Set(cells.map((c) => c.domain))], families: [...new Set(cells.map((c) => c.family))], maxFailures: 5, versions: {} },
    summary: { held: cells.every((c) => c.holds), totalRuns: cells.reduce((a, c) => a + c.runs, 0), violations: cells.reduce((a, c) => a + c.violations, 0), errors: 0, failingCells: cells.filter((c) => !c.holds).map((c) => `${c.domain}/${c.family}`) },
    cells,
    fpr: { generated: [], real },
    counterexamples: [],
    timing: { elapsedMs: 1, casesPerSecond: 1, perCell: [], counterexampleUs: {} },
  };
}
