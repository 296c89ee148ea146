/**
 * The report model: everything a run found, as plain data. `report.json` is this object;
 * markdown and other renderers read it. Everything that varies between two runs with the
 * same seed (times, dates, throughput) lives under `timing` or `generatedAt`, so two
 * reports compare equal once those are removed.
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Verdict } from '../domain/verdict.js';
import type { CampaignOutcome } from '../fuzz/campaign.js';
import type { CellStats, Tally } from '../fuzz/stats.js';
import { wilson } from '../metrics/wilson.js';
import { realismGap as realismGapOf, type BenignTally } from '../metrics/realism-gap.js';
import type { AttackReport } from './adaptive.js';
import type { CoverageTable } from './coverage.js';
import { addCount, nameKeyed } from '../domain/name-keyed.js';
import { QUERY_PHASES, costOf, emptyPhaseTallies, totalOf, type PhaseTallies, type QueryPhase, type QueryTally, type RunSpend } from '../fuzz/query-meter.js';
import type { CellStop } from '../fuzz/property.js';

export interface Interval {
  /** Observed rate in [0,1]. */
  rate: number;
  /** Wilson 95% interval bounds in [0,1]. */
  low: number;
  high: number;
  n: number;
  k: number;
}

export function interval(k: number, n: number): Interval {
  const w = wilson(k, n);
  return { rate: w.rate, low: w.low, high: w.high, n, k };
}

export interface ReportCounterexample {
  id: string;
  domain: string;
  family: string;
  property: string;
  judgement: string;
  /** `bypass`, `false-positive`, `flaky` (did not reproduce on every re-check), `crash` (the input crashes or hangs the guard) or `guard-error`. */
  kind?: string;
  /** Re-checks of the reported case and how many reproduced the failure (absent in reports made before re-checks). */
  recheck?: { reproduced: number; of: number };
  signature: string;
  case: FuzzCase;
  /** The verdict without its timing (`elapsedUs` is under `timing`). */
  verdict: Omit<Verdict, 'elapsedUs'>;
  seed: number;
  path: string;
  numShrinks: number;
  replay: string;
  /** Attack-mode flips: the rejected original of `case`, and the minimal operator set that flipped it. */
  flip?: ReportFlip;
}

/** The other half of a flip counterexample: the original the guard rejected. */
export interface ReportFlip {
  original: { case: FuzzCase; verdict: Omit<Verdict, 'elapsedUs'> };
  /** The minimal operator set, in order of application. */
  operators: string[];
  /** Queries of the base until the flip, the original included. */
  queriesToFlip: number;
}

export interface ReportCell {
  domain: string;
  family: string;
  property: string;
  runs: number;
  violations: number;
  errors: number;
  /** Violation rate: bypass rate for forged families, FPR for benign ones. */
  violationRate: Interval;
  /** Share of `error` verdicts (never counted as rejections). */
  errorRate: Interval;
  /** `error` verdicts by kind. */
  errorKinds: Record<string, number>;
  /** Detection rate (TPR) for forged families: rejections / runs. */
  detectionRate?: Interval;
  interrupted: boolean;
  holds: boolean;
  signalFires: Record<string, number>;
  decidingLayers: Record<string, number>;
  scoreHistogram: Record<string, number>;
  breakdown: CellStats['breakdown'];
  counterexamples: string[];
  /** Why the cell stopped: `runs` (the cap), `settled` (sequential stopping), `budget` (its share of `--max-queries`), `time`. */
  stopped?: CellStop;
}

/**
 * Where the guard queries went. Under `timing` because the counts depend on the
 * cache (`--no-cache` asks again what the cache served) and, with calls in flight, on cases
 * drawn ahead past a failure; the verdicts never do.
 */
export interface QueryReport {
  /** Whether the run's verdict cache was on. */
  cache: boolean;
  /** Queries that reached the guard, and requests the cache answered, over every phase. */
  total: QueryTally;
  /** Per phase: cases, shrink, recheck, attack, real, loso. */
  byPhase: PhaseTallies;
  /** Wall time of each phase, ms (summed over cells, so past `cellsMs` when cells ran side by side). */
  phaseMs: Record<QueryPhase, number>;
  /** Wall time of the property cells together, ms (the campaign's `elapsedMs` less attack mode's). */
  cellsMs?: number;
  /** Per property cell: queries of its cases, its shrinks and its re-checks. */
  perCell: Array<{ domain: string; family: string; cases: QueryTally; shrink: QueryTally; recheck: QueryTally }>;
  /** `--max-queries`, when given. */
  maxQueries?: number;
  /** `--cost-per-query` and the total cost (queries × price), when given. */
  costPerQuery?: number;
  cost?: number;
}

export interface RealSetFpr {
  name: string;
  source: string;
  /** Rejected of all rows (errored rows are in `n`, as in the cells). */
  fpr: Interval;
  /** Rows whose verdict was `error`: never counted as rejections, shown beside the FPR. */
  errors: number;
  /**
   * Lines of a `--benign` export that hold no measured entry (unreadable, empty content, an id
   * already taken), with the first few issues as `file:line: message`. Not in `fpr`; the gate
   * counts them against the guard (`gate.ts`), since their verdict is unknown.
   */
  unread?: { lines: number; first: string[] };
  rejected: Array<{ id: string; content: string; layer?: string; signals: string; reasons: string[] }>;
}

/** Everything a report shows (the shape of `report.json`); built by `buildReport`, rendered by `renderMarkdown`. */
export interface ReportData {
  tool: { name: 'farma-fuzz'; version: string };
  generatedAt: string;
  config: {
    guard: string;
    guardConfigHash: string;
    seed: number;
    runsPerCell: number;
    phase: string;
    domains: string[];
    families: string[];
    maxFailures: number;
    versions: Record<string, string>;
    /** `--guard-option` / `guardOptions` given for the guard (part of `guardConfigHash`). */
    guardOptions?: Record<string, unknown>;
  };
  summary: {
    held: boolean;
    totalRuns: number;
    violations: number;
    errors: number;
    failingCells: string[];
    /** Findings (minimal counterexamples) by kind: bypass, false-positive, flaky, crash, guard-error. */
    findings?: Record<string, number>;
  };
  cells: ReportCell[];
  fpr: {
    /** Per domain: FPR over every benign run (errors in `n`, as in the cells) and the `error` verdicts apart. */
    generated: Array<{ domain: string; fpr: Interval; errors: number; byTraceType: Record<string, Interval> }>;
    /** Per domain: the hard negatives (`benign-stress`), reported apart and never the estimate. */
    stress?: Array<{ domain: string; fpr: Interval; errors: number }>;
    real: RealSetFpr[];
    /** Leave-one-source-out calibration check, when measured. */
    loso?: LosoCheckRow[];
    /**
     * |FPR_generated − FPR_real| over all domains and all real sets, in [0,1], from judged rows
     * only (`error` verdicts taken out of both sides). Absent when either side has no judged row.
     */
    realismGap?: number;
  };
  counterexamples: ReportCounterexample[];
  /** The CI gate (Wilson upper bounds), when thresholds were given. */
  gate?: { thresholds: { maxFpr?: number; maxBypass?: number }; pass: boolean; checks: Array<{ name: string; observed: Interval; limit: number; pass: boolean; counted?: string }> };
  /** Operator id → operator group, for the adaptive section (when operators were used). */
  operatorGroups?: Record<string, string>;
  /** Attack mode of the adaptive family: TextAttack accounting, operators, budget curve. */
  attack?: AttackReport;
  /** Signal and layer coverage of forged entries and flips. */
  coverage?: CoverageTable;
  corpus?: { file: string; added: number; duplicates: number };
  timing: {
    /** Wall time of the fuzzed cases, ms: the property cells plus the adaptive attack (what `casesPerSecond` divides). */
    elapsedMs: number;
    casesPerSecond: number;
    /**
     * Wall time of every phase of the run in order, ms (`cells`, `adaptive attack`, `real sets`,
     * `leave-one-source-out`, `benign export`, `report`); absent in reports written before it.
     */
    phases?: RunPhaseTime[];
    /** Wall time from the start of the run (the process, for the CLI) until report.json was written, ms. */
    wallMs?: number;
    perCell: Array<{ domain: string; family: string; elapsedMs: number; casesPerSecond: number; meanGuardUs: number }>;
    counterexampleUs: Record<string, number>;
    /** Guard queries per phase and cell (absent in older reports). */
    queries?: QueryReport;
    /** How the property cells ran (absent in older reports and merged ones): they change the wall times, never the verdicts. */
    execution?: RunExecution;
  };
}

/**
 * How a run's property cells were executed (`timing.execution`): `callsInFlight` is the most
 * guard calls the engine kept in flight, min(`--concurrency`, the guard's `concurrencyLimit`),
 * 1 for a sync guard; `lanes` the threads the cells ran on (the calling thread plus the
 * `--workers` threads that started).
 */
export interface RunExecution {
  callsInFlight: number;
  lanes: number;
}

/** One phase of a run and its wall time in ms (`timing.phases`). */
export interface RunPhaseTime {
  phase: string;
  elapsedMs: number;
}

function tallyInterval(t: Tally): Interval {
  return interval(t.violations, t.runs);
}

export interface BuildReportInput {
  outcome: CampaignOutcome;
  version: string;
  guardConfigHash: string;
  domains: string[];
  families: string[];
  maxFailures: number;
  versions: Record<string, string>;
  counterexamples: Array<{ id: string; replay: string; cx: CampaignOutcome['cells'][number]['counterexamples'][number]; flip?: ReportFlip }>;
  realSets: RealSetFpr[];
  corpus?: { file: string; added: number; duplicates: number };
  operatorGroups?: Record<string, string>;
  attack?: AttackReport;
  coverage?: CoverageTable;
  guardOptions?: Record<string, unknown>;
  generatedAt: string;
  /** Leave-one-source-out rows (calibration check), when measured. */
  loso?: LosoCheckRow[];
  /** Queries spent outside property mode, and the cache and budget settings. */
  spend?: RunSpend;
}

/** The query accounting of a run: the cells' own tallies plus the phases outside property mode. */
function queryReport(outcome: CampaignOutcome, spend?: RunSpend): QueryReport {
  const byPhase = emptyPhaseTallies();
  const phaseMs = Object.fromEntries(QUERY_PHASES.map((p) => [p, 0])) as Record<QueryPhase, number>;
  const perCell: QueryReport['perCell'] = [];
  for (const c of outcome.cells) {
    const q = c.queries;
    if (!q) continue;
    perCell.push({ domain: c.domain, family: c.family, cases: { ...q.cases }, shrink: { ...q.shrink }, recheck: { ...q.recheck } });
    for (const p of ['cases', 'shrink', 'recheck'] as const) {
      byPhase[p].queries += q[p].queries;
      byPhase[p].cacheHits += q[p].cacheHits;
      phaseMs[p] += q.ms[p];
    }
  }
  if (spend) {
    for (const p of ['attack', 'real', 'loso'] as const) {
      byPhase[p].queries += spend[p].queries;
      byPhase[p].cacheHits += spend[p].cacheHits;
      phaseMs[p] += spend.ms[p];
    }
  }
  const total = totalOf(byPhase);
  return {
    cache: spend?.cache ?? false,
    total,
    byPhase,
    phaseMs,
    // The campaign's time holds attack mode's once its cells are merged in (mergeAttackCells).
    cellsMs: Math.max(0, outcome.elapsedMs - (spend?.ms.attack ?? 0)),
    perCell,
    ...(spend?.maxQueries !== undefined ? { maxQueries: spend.maxQueries } : {}),
    ...(spend?.costPerQuery !== undefined ? { costPerQuery: spend.costPerQuery, cost: costOf(total.queries, spend.costPerQuery) } : {}),
  };
}

/** One leave-one-source-out row: calibrated without `leftOut`, estimated, compared with it (docs/calibration.md). */
export interface LosoCheckRow {
  leftOut: string;
  /** Natural estimate under the calibration without `leftOut` (errors in `n`). */
  estimate: Interval;
  estimateErrors: number;
  /** FPR measured on the source left out (errors in `n`). */
  real: Interval;
  realErrors: number;
  /** |estimate − real| over judged rows, in [0,1]; absent when a side has no judged row. */
  gap?: number;
}

/** Builds the report model from a campaign outcome. Pure. */
export function buildReport(input: BuildReportInput): ReportData {
  const { outcome } = input;
  const cxIds = new Map<object, string>();
  for (const c of input.counterexamples) cxIds.set(c.cx, c.id);
  const cells: ReportCell[] = outcome.cells.map((c) => reportCell(c, cxIds));
  const generated = generatedFpr(outcome);
  const stress = stressFpr(outcome);
  const realismGap = generated.length > 0 && input.realSets.length > 0 ? pooledRealismGap(generated, input.realSets) : undefined;
  const counterexamples: ReportCounterexample[] = input.counterexamples.map(reportCounterexample);
  return {
    tool: { name: 'farma-fuzz', version: input.version },
    generatedAt: input.generatedAt,
    config: {
      guard: outcome.guardId,
      guardConfigHash: input.guardConfigHash,
      seed: outcome.seed,
      runsPerCell: outcome.runsPerCell,
      phase: outcome.phase,
      domains: input.domains,
      families: input.families,
      maxFailures: input.maxFailures,
      versions: input.versions,
      ...(input.guardOptions ? { guardOptions: input.guardOptions } : {}),
    },
    summary: {
      held: !outcome.failed,
      totalRuns: outcome.totalRuns,
      violations: cells.reduce((a, c) => a + c.violations, 0),
      errors: cells.reduce((a, c) => a + c.errors, 0),
      failingCells: cells.filter((c) => !c.holds).map((c) => `${c.domain}/${c.family}`),
      findings: counterexamples.reduce<Record<string, number>>((a, x) => (addCount(a, x.kind ?? x.judgement), a), nameKeyed()),
    },
    cells,
    fpr: { generated, ...(stress.length > 0 ? { stress } : {}), real: input.realSets, ...(realismGap !== undefined ? { realismGap } : {}), ...(input.loso ? { loso: input.loso } : {}) },
    counterexamples,
    ...(input.operatorGroups ? { operatorGroups: input.operatorGroups } : {}),
    ...(input.attack ? { attack: input.attack } : {}),
    ...(input.coverage ? { coverage: input.coverage } : {}),
    ...(input.corpus ? { corpus: input.corpus } : {}),
    timing: reportTiming(input),
  };
}

/** One cell of the report: its counts and intervals (a forged cell's detection rate too), breakdowns, and its counterexamples' ids. */
function reportCell(c: CampaignOutcome['cells'][number], cxIds: ReadonlyMap<object, string>): ReportCell {
  const s = c.stats;
  const forged = c.property === 'forgery-rejected';
  const cell: ReportCell = {
    domain: c.domain,
    family: c.family,
    property: c.property,
    runs: s.runs,
    violations: s.violations,
    errors: s.errors,
    violationRate: interval(s.violations, s.runs),
    errorRate: interval(s.errors, s.runs),
    errorKinds: s.errorKinds,
    interrupted: c.interrupted,
    holds: s.violations === 0 && s.errors === 0,
    signalFires: s.signalFires,
    decidingLayers: s.decidingLayers,
    scoreHistogram: s.scoreHistogram,
    breakdown: s.breakdown,
    counterexamples: c.counterexamples.map((x) => cxIds.get(x) ?? '?'),
    ...(c.stopped !== undefined ? { stopped: c.stopped } : {}),
  };
  if (forged) cell.detectionRate = interval(s.runs - s.violations - s.errors, s.runs);
  return cell;
}

/** The FPR of the natural `benign` mix per domain, overall and per trace type (`benign-stress` hunts false positives and is reported apart). */
function generatedFpr(outcome: CampaignOutcome): ReportData['fpr']['generated'] {
  return [...new Set(outcome.cells.map((c) => c.domain))].flatMap((domain) => {
    // The estimate is the natural `benign` mix only; `benign-stress` hunts false positives and is reported apart.
    const benign = outcome.cells.filter((c) => c.domain === domain && c.property === 'benign-admitted' && c.family !== 'benign-stress');
    if (benign.length === 0) return [];
    const total: Tally = { runs: 0, violations: 0, errors: 0 };
    const byType = new Map<string, Tally>();
    for (const c of benign) {
      total.runs += c.stats.runs;
      total.violations += c.stats.violations;
      total.errors += c.stats.errors;
      for (const [k, t] of Object.entries(c.stats.breakdown.traceType)) {
        const acc = byType.get(k) ?? { runs: 0, violations: 0, errors: 0 };
        byType.set(k, acc);
        acc.runs += t.runs;
        acc.violations += t.violations;
        acc.errors += t.errors;
      }
    }
    return [{ domain, fpr: tallyInterval(total), errors: total.errors, byTraceType: Object.fromEntries([...byType].map(([k, t]) => [k, tallyInterval(t)])) }];
  });
}

/** The FPR of the hard negatives (`benign-stress`) per domain, never the estimate. */
function stressFpr(outcome: CampaignOutcome): NonNullable<ReportData['fpr']['stress']> {
  return [...new Set(outcome.cells.map((c) => c.domain))].flatMap((domain) => {
    const cellsOf = outcome.cells.filter((c) => c.domain === domain && c.family === 'benign-stress');
    if (cellsOf.length === 0) return [];
    const t = cellsOf.reduce((a, c) => ({ runs: a.runs + c.stats.runs, violations: a.violations + c.stats.violations, errors: a.errors + c.stats.errors }), { runs: 0, violations: 0, errors: 0 });
    return [{ domain, fpr: tallyInterval(t), errors: t.errors }];
  });
}

/** The realism gap between the pooled generated estimate and the pooled real sets (`realismGapOf`), in [0,1]; undefined when a side has no judged row. */
function pooledRealismGap(generated: ReadonlyArray<{ fpr: Interval; errors: number }>, realSets: ReadonlyArray<{ fpr: Interval; errors: number }>): number | undefined {
  const pool = (rows: ReadonlyArray<{ fpr: Interval; errors: number }>): BenignTally =>
    rows.reduce((a, x) => ({ rejected: a.rejected + x.fpr.k, n: a.n + x.fpr.n, errors: a.errors + x.errors }), { rejected: 0, n: 0, errors: 0 });
  return realismGapOf(pool(generated), pool(realSets));
}

/** One counterexample of the report: the finding without its verdict's time (kept apart, in `timing.counterexampleUs`), with its id, replay command and flip. */
function reportCounterexample({ id, replay, cx, flip }: BuildReportInput['counterexamples'][number]): ReportCounterexample {
  const { elapsedUs: _elapsed, ...verdict } = cx.verdict;
  return {
    id,
    domain: cx.domain,
    family: cx.family,
    property: cx.property,
    judgement: cx.judgement,
    kind: cx.kind,
    recheck: { ...cx.recheck },
    signature: cx.signature,
    case: cx.case,
    verdict,
    seed: cx.seed,
    path: cx.path,
    numShrinks: cx.numShrinks,
    replay,
    ...(flip ? { flip } : {}),
  };
}

/** The run's timing: wall time and throughput, per cell, per counterexample, and the query accounting. */
function reportTiming(input: BuildReportInput): ReportData['timing'] {
  const { outcome } = input;
  const seconds = outcome.elapsedMs / 1000;
  return {
    elapsedMs: outcome.elapsedMs,
    casesPerSecond: seconds > 0 ? outcome.totalRuns / seconds : 0,
    perCell: outcome.cells.map((c) => ({
      domain: c.domain,
      family: c.family,
      elapsedMs: c.elapsedMs,
      casesPerSecond: c.elapsedMs > 0 ? (c.stats.runs * 1000) / c.elapsedMs : 0,
      meanGuardUs: c.stats.runs > 0 ? c.stats.guardUs / c.stats.runs : 0,
    })),
    counterexampleUs: Object.fromEntries(input.counterexamples.map(({ id, cx }) => [id, cx.verdict.elapsedUs])),
    queries: queryReport(outcome, input.spend),
  };
}
