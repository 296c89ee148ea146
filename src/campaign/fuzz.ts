/**
 * A fuzz campaign, as `farma-fuzz fuzz` runs it: property mode over domains × families against
 * one guard (the generators' arbitraries bound here), attack mode for the `adaptive` family,
 * the real benign sets and the leave-one-source-out check beside the generated FPR; then
 * `report.md` and `report.json`, and the regression corpus grown. Shared with `merge-reports`
 * through {@link finishFuzz}. The console summary is `src/report/fuzz-summary.ts`; the exit
 * code is decided by the CLI (`src/cli/exit-verdict.ts`).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DomainId, FuzzCase } from '../domain/fuzz-case.js';
import { oneCallAtATime, type Guard, type Phase } from '../domain/guard.js';
import { caseId } from '../corpus/case-id.js';
import { appendRegressions, loadRegressions, newRegressionRecord, regressionFile } from '../corpus/regressions.js';
import { canonicalGuardOptions } from '../guards/guard-options.js';
import { loadRealBenignSets, loadBenignJsonl } from '../corpus/benign-sets.js';
import { HISTORY_ENTRIES } from '../../generators/benign.js';
import { leaveOneSourceOut } from './fpr.js';
import { calibrationCacheSince, calibrationCacheStats } from './calibration-cache.js';
import type { LosoCheckRow } from '../report/model.js';
import { runCampaign, type CampaignOutcome, type CellSpec } from '../fuzz/campaign.js';
import { callConcurrency, type CellOutcome } from '../fuzz/property.js';
import { judgedNothing } from '../fuzz/stats.js';
import os from 'node:os';
import { WORKER_PAYBACK_MS, cpuSnapshot, cpusBusySince, runCampaignParallel, taskPool, type CpuSnapshot, type CellTask, type LosoTask, type LosoTaskResult } from '../fuzz/parallel.js';
import { UsageError } from '../domain/errors.js';
import { redactDeep as redactDeepIn, redactSecrets } from '../domain/secrets.js';
import { gate, type GateThresholds } from '../report/gate.js';
import { measureBenignEntries } from '../fuzz/measure.js';
import type { ScratchStore } from '../fuzz/evaluate.js';
import { buildReport, interval, type RealSetFpr, type ReportData, type RunExecution, type RunPhaseTime } from '../report/model.js';
import { renderMarkdown, pct } from '../report/markdown.js';
import { findingNote } from '../report/fuzz-summary.js';
import { writeFileAtomic } from '../corpus/atomic.js';
import { formatSignals } from '../report/format-verdict.js';
import { FAMILY_REGISTRY, type FamilyId } from '../../generators/families.js';
import { operatorGroupMap } from '../../generators/adaptive.js';
import { versions } from './versions.js';
import type { Progress } from './progress.js';
import { replayCommand } from './replay-command.js';
import type { Verdict } from '../domain/verdict.js';
import type { ObservedVerdict } from '../corpus/regressions.js';
import type { AttackFeedback } from '../fuzz/attack.js';
import { ATTACK_DEFAULTS, mergeAttackCells, runAttackMode } from './attack-mode.js';
import type { OperatorId } from '../../generators/paraphrase/index.js';
import { coverageTable, type CoverageTable } from '../report/coverage.js';
import type { AttackModeResult } from './attack-mode.js';
import { inShard, sealBlob, shardBlob, shardBlobName, type FinishSettings, type ShardParts, type ShardSpec } from '../report/merge.js';
import { plural } from '../domain/plural.js';
import { unreadLinesHead } from '../report/percent.js';
import type { CellStopRule } from '../fuzz/property.js';
import { countingGuard, emptyTally, guardCacheable, type RunSpend } from '../fuzz/query-meter.js';
import { allocateQueries, type QueryAllocation } from './query-budget.js';

/** Options of {@link runFuzz}; `G` is the guard descriptor of `workerPool` (opaque here). */
export interface FuzzOptions<G = unknown> {
  guardSpec: string;
  guard: Guard;
  store: ScratchStore;
  domains: DomainId[];
  families: FamilyId[];
  runs: number;
  timeLimitMs?: number;
  seed: number;
  phase: Phase;
  maxFailures: number;
  /** Report directory for this run. */
  outDir: string;
  /** Regression corpus directory, or undefined to leave the corpus alone. */
  corpusDir?: string;
  /** Extra benign JSONL export to measure FPR on, besides the bundled real traces. */
  benignFile?: string;
  /** Measure FPR on the bundled real traces: ReAct thoughts and ExpeL WebShop (default true). */
  realData: boolean;
  generatedAt: string;
  /**
   * Lanes of the property campaign (default 1); results are identical for any count. More
   * than 1 needs `workerPool`, and worker threads still start only when they pay (at the
   * calling thread's measured rate). `'auto'` (the CLI's default): up to one lane per CPU,
   * decided from the guard's own measured time per case, so a fast guard whose cases cost
   * mostly generation stays on one thread ({@link autoWorkers}); it says what it decided.
   */
  workers?: number | 'auto';
  /** How worker threads rebuild the guard and run a cell (the CLI's `src/cli/fuzz-worker.ts`); needed when `workers` > 1. */
  workerPool?: FuzzWorkerPool<G>;
  /** Time bound per async guard call, ms. */
  timeoutMs?: number;
  /** Guard calls in flight for async guards (default 8; sync guards use 1); results are identical for any value. */
  concurrency?: number;
  /** Re-checks of each finding (default 3): one that does not reproduce every time is labelled flaky. */
  recheck?: number;
  /** Wall-clock bound per cell, ms (default 10 min); the cell then reports interrupted. */
  cellTimeLimitMs?: number;
  /** CI gate limits; when any is set, the gate's result is part of the report. */
  thresholds?: GateThresholds;
  /** Stops the campaign between batches (Ctrl-C); what ran so far is still reported and kept. */
  signal?: AbortSignal;
  /** Attack mode of the `adaptive` family (default `ATTACK_DEFAULTS`, bases capped at `runs`); `false` runs it in property mode. */
  attack?: { bases?: number; budget?: number; feedback?: AttackFeedback; operators?: readonly OperatorId[] } | false;
  /** `--guard-option` values the guard was built with (hashed into the report). */
  guardOptions?: Record<string, unknown>;
  /** The verdict cache of the run (default true; `--no-cache`); a guard with `cacheVerdicts: false` is never cached. */
  cache?: boolean;
  /** Sequential stopping of every property cell (default: none, each cell runs `runs`); see `CellStopRule`. */
  stop?: CellStopRule;
  /** `--max-queries`: guard queries of the whole campaign, allocated across cells and phases (`src/campaign/query-budget.ts`). */
  maxQueries?: number;
  /** `--shrink-budget`: guard queries one shrink may spend. */
  shrinkBudget?: number;
  /** `--cost-per-query`: the price of one guard query, in the user's unit; the report then has a cost line. */
  costPerQuery?: number;
  /**
   * `--shard i/n`: run only this shard's part of the campaign (see `src/report/merge.ts`) and
   * write its blob beside the report; the corpus is then grown by `merge-reports`.
   */
  shard?: ShardSpec;
  /**
   * When the run began, as a `performance.now()` value (ms since the process started); the CLI
   * passes 0, so `timing.wallMs` counts the start-up too. Default: when `runFuzz` is called.
   */
  startedAtMs?: number;
}

/**
 * The worker side of a parallel campaign, given by the caller because only it knows how to
 * rebuild a guard in another thread: the worker module (its default export runs one
 * `CellTask`), its `workerData`, the serialisable guard descriptor handed to every task, and
 * the runner of a task in the calling thread (same outcome as the worker file).
 */
export interface FuzzWorkerPool<G = unknown> {
  workerFile: string | URL;
  workerData?: unknown;
  guard: G;
  local: (task: CellTask<G>, onProgress: (done: number) => void, signal?: AbortSignal) => Promise<CellOutcome>;
  /** The guard's own time so far in `local`'s calls, ms (for `workers: 'auto'`; without it auto stays on one thread). */
  guardMs?: () => number;
}

/**
 * What `workers: 'auto'` does before any case runs: `lanes` > 1 hands the campaign to the
 * parallel runner (which starts worker threads once the guard's measured time says they
 * pay); `lanes` 1 runs it in-process, and `reason` says why. Pure.
 */
export function autoWorkers(i: { cpus: number; cells: number; oneCallAtATime: boolean; timeLimited: boolean; pool: boolean; callsInFlight?: number }): { lanes: number; reason?: string } {
  if (i.cpus <= 1) return { lanes: 1, reason: 'this machine has 1 CPU' };
  if (i.cells <= 1) return { lanes: 1, reason: `the campaign has ${i.cells} property cell${i.cells === 1 ? '' : 's'}` };
  if (!i.oneCallAtATime) {
    const inFlight = i.callsInFlight ?? 2;
    const overlap = inFlight > 1 ? `its calls already overlap (${inFlight} in flight, --concurrency)` : 'its calls can overlap instead (--concurrency N; this run keeps 1 in flight)';
    return { lanes: 1, reason: `the guard is async: ${overlap}, so threads would not share its time; ask --workers N to try` };
  }
  if (i.timeLimited) return { lanes: 1, reason: '--time shares the wall clock among the cells; ask --workers N to split it over lanes' };
  if (!i.pool) return { lanes: 1, reason: 'no worker pool was given' };
  return { lanes: Math.max(1, Math.floor(i.cpus)) };
}

/**
 * Lanes for the leave-one-source-out check (the calling thread plus worker threads, which
 * take sources from one queue; the rows are the same for any count). More than one only with a
 * worker pool, more than one CPU, `workers` not 1, a guard that keeps no state between calls
 * (`cacheVerdicts` not false: each thread has its own guard), at least {@link WORKER_PAYBACK_MS}
 * of work at the rate the benign cells measured (`msPerCase`, wall time per case, generation
 * included) and an idle CPU (`load`: the CPUs other processes kept busy since the run started,
 * plus one for this thread, `cpusBusySince`; below `cpus − 0.5`). `reason` says why, for the log. Pure.
 */
export function losoLanes(i: { workers: number | 'auto'; pool: boolean; stateless: boolean; cpus: number; load: number; sources: number; cases: number; msPerCase: number | undefined }): { lanes: number; reason: string } {
  const cpus = Math.floor(i.cpus);
  if (i.workers === 1) return { lanes: 1, reason: '--workers 1' };
  if (!i.pool) return { lanes: 1, reason: 'no worker pool (the guard is async, or no spec to rebuild it in a thread)' };
  if (cpus <= 1) return { lanes: 1, reason: 'this machine has 1 CPU' };
  if (i.sources <= 1) return { lanes: 1, reason: `the check has ${plural(i.sources, 'source')}` };
  if (!i.stateless) return { lanes: 1, reason: 'the guard keeps state between calls (cacheVerdicts: false), so each thread would see another history' };
  if (i.msPerCase === undefined) return { lanes: 1, reason: 'no benign cell measured the time per case' };
  const workMs = i.cases * i.msPerCase;
  const work = `about ${(workMs / 1000).toFixed(1)} s of work (${i.cases} cases at ${i.msPerCase.toFixed(2)} ms)`;
  if (workMs < WORKER_PAYBACK_MS) return { lanes: 1, reason: `${work}, less than a worker thread needs to pay back its start-up` };
  if (!(i.load < cpus - 0.5)) return { lanes: 1, reason: `no CPU is idle (other processes kept ${Math.max(0, i.load - 1).toFixed(2)} of ${cpus} CPUs busy since the run started)` };
  const lanes = Math.min(i.workers === 'auto' ? cpus : i.workers, cpus, i.sources);
  return { lanes, reason: `${work}, other processes kept ${Math.max(0, i.load - 1).toFixed(2)} of ${cpus} CPUs busy since the run started` };
}

/** Wall time per case of the run's benign cells (ms; generation, store and guard), or undefined when none ran a case. */
function benignMsPerCase(outcome: CampaignOutcome): number | undefined {
  const cells = outcome.cells.filter((c) => c.family === 'benign' && c.stats.runs > 0);
  const runs = cells.reduce((a, c) => a + c.stats.runs, 0);
  return runs > 0 ? cells.reduce((a, c) => a + c.elapsedMs, 0) / runs : undefined;
}

export interface FuzzResult {
  report: ReportData;
  reportDir: string;
  outcome: CampaignOutcome;
  warnings: string[];
}

/** Hash of the guard's config, with the `--guard-option` values when any were given. */
function guardConfigHash(guard: Guard, options?: Record<string, unknown>): string {
  if (options && Object.keys(options).length > 0) return caseId({ config: guard.config ?? null, guardOptions: options });
  return guard.config !== undefined ? caseId(guard.config) : 'none';
}

/** The coverage table of forged cells and attack bases and flips, when the guard exposes signals or layers. */
function coverageOf(outcome: CampaignOutcome, attack?: Omit<AttackModeResult, 'cells'>): { coverage: CoverageTable } | undefined {
  const forged = outcome.cells.filter((c) => c.property === 'forgery-rejected' && !(attack && c.family === 'adaptive')).map((c) => c.stats);
  const table = coverageTable({ forged, extra: attack?.originals ?? [], flips: attack?.flipVerdicts ?? [] });
  return table ? { coverage: table } : undefined;
}

function observedOf(v: Omit<Verdict, 'elapsedUs'>): ObservedVerdict {
  return {
    decision: v.decision,
    ...(v.layer !== undefined ? { layer: v.layer } : {}),
    ...(v.score !== undefined ? { score: v.score } : {}),
    ...(v.signals !== undefined ? { signals: v.signals } : {}),
    reasons: v.reasons,
  };
}

/** Returns a copy of `value` with every secret from the environment replaced in every string and object key. */
function redactDeep<T>(value: T): T {
  return redactDeepIn(value);
}

const nonEmpty = (o: Record<string, unknown> | undefined): o is Record<string, unknown> => o !== undefined && Object.keys(o).length > 0;

/** The corpus file of this guard configuration: `<guard>.jsonl`, or `<guard>.opts-<hash>.jsonl` with guard options. */
function corpusFileOf(corpusDir: string, guardId: string, guardOptions?: Record<string, unknown>): string {
  return regressionFile(corpusDir, guardId, nonEmpty(guardOptions) ? canonicalGuardOptions(guardId, guardOptions) : undefined);
}

/** Loads the open/fixed records of this guard for a cell, to try first as examples. */
function examplesFor(corpusDir: string | undefined, guardId: string, warnings: string[], guardOptions?: Record<string, unknown>): Map<string, FuzzCase[]> {
  const map = new Map<string, FuzzCase[]>();
  if (!corpusDir) return map;
  const { records, issues } = loadRegressions(corpusFileOf(corpusDir, guardId, guardOptions));
  for (const i of issues) warnings.push(`${i.file}:${i.line}: ${i.message} (line kept as is, not used)`);
  for (const { value } of records) {
    const key = `${value.domain}/${value.family}`;
    const list = map.get(key) ?? [];
    list.push(value.case);
    map.set(key, list);
  }
  return map;
}

/**
 * Runs the campaign and writes its report (and its shard blob with `shard`). Deterministic for
 * a seed, whatever `workers` and `concurrency` (unless `timeLimitMs` bounds it).
 * @throws UsageError when `workers` > 1 and no `workerPool` is given; the `fs` error when the
 * report or the corpus cannot be written.
 */
/**
 * One `fuzz` run, in five phases: plan the cells (with corpus examples and the shard's
 * share), run the property campaign over them (in-process or on worker threads), run attack
 * mode, measure the real benign sets (and the leave-one-source-out check), then finish
 * (report and corpus, or a shard's blob and partial report).
 */
export async function runFuzz<G>(o: FuzzOptions<G>, progress: Progress): Promise<FuzzResult> {
  const startedAtMs = o.startedAtMs ?? performance.now();
  // The machine's CPU times at the start: the leave-one-source-out lanes read how busy it was since.
  const cpuAtStart = cpuSnapshot();
  // With a start before this call (the CLI: the process start), the time until here is the start-up phase: loading, the config, the guard.
  const timing = new PhaseTimes(o.startedAtMs !== undefined ? [{ phase: 'start-up', elapsedMs: performance.now() - o.startedAtMs }] : []);
  const warnings: string[] = [];
  const plan = planCells(o, warnings);
  const spending = planSpending(o, plan, progress);
  const reportCell = cellLine(progress, o.runs);
  let outcome = await timing.time('cells', () => runPropertyCampaign(o, plan, progress, reportCell, spending));
  const attack = plan.runAttack && !o.signal?.aborted ? await timing.time('adaptive attack', () => runAttackPhase(o, progress, reportCell, spending)) : undefined;
  if (attack) outcome = mergeAttackCells(outcome, attack.result.cells, o.domains, o.families, attack.elapsedMs);
  const real = await measureRealSets(o, progress, warnings, spending, timing, benignMsPerCase(outcome), cpuAtStart);
  return finishRun(o, { outcome, realSets: real.realSets, ...(real.loso ? { loso: real.loso } : {}), warnings, ...(attack ? { attack: attackParts(attack.result) } : {}), spend: spending.spend }, { phases: timing.phases, startedAtMs, ...(spending.execution ? { execution: spending.execution } : {}) });
}

/** The wall time of each phase of a run, in order (report.json `timing.phases`). */
class PhaseTimes {
  constructor(readonly phases: RunPhaseTime[] = []) {}
  /** Runs `run` as the phase `phase` and records its wall time, also when it throws. */
  async time<T>(phase: string, run: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await run();
    } finally {
      this.phases.push({ phase, elapsedMs: performance.now() - t0 });
    }
  }
}

/** How a run spends guard queries: the verdict cache, the tallies of the phases outside property mode, the budget's shares. */
interface Spending {
  /** Verdict caching on (one cache per cell, made by `runCampaign`). */
  cache: boolean;
  spend: RunSpend;
  budget?: QueryAllocation;
  shrinkBudget?: number;
  /** How the property cells ran: guard calls in flight and lanes (set by `runPropertyCampaign`; report.json `timing.execution`). */
  execution?: RunExecution;
}

/** The run's cache, tallies and (with `maxQueries`) budget shares, cut before anything runs so the split is the same in every lane. */
function planSpending<G>(o: FuzzOptions<G>, plan: CellPlan, progress: Progress): Spending {
  const cache = o.cache !== false && guardCacheable(o.guard);
  const spend: RunSpend = { attack: emptyTally(), real: emptyTally(), loso: emptyTally(), ms: { attack: 0, real: 0, loso: 0 }, cache, ...(o.costPerQuery !== undefined ? { costPerQuery: o.costPerQuery } : {}), ...(o.maxQueries !== undefined ? { maxQueries: o.maxQueries } : {}) };
  const measureReal = o.shard === undefined || o.shard.index === 1;
  const budget =
    o.maxQueries !== undefined
      ? allocateQueries(o.maxQueries, { cells: plan.cells.length, attackDomains: plan.runAttack ? o.domains.length : 0, real: o.realData && measureReal, maxFailures: o.maxFailures, ...(o.shrinkBudget !== undefined ? { shrinkBudget: o.shrinkBudget } : {}) })
      : undefined;
  if (budget) progress.log(`query budget ${o.maxQueries}: ${budget.cell} per cell (shrinking ${budget.shrink} per finding)${plan.runAttack ? `, ${budget.attackPerDomain} per attack domain` : ''}${budget.real > 0 ? `, ${budget.real} for the real sets (no leave-one-source-out check)` : ''}`);
  const shrinkBudget = budget?.shrink ?? o.shrinkBudget;
  return { cache, spend, ...(budget ? { budget } : {}), ...(shrinkBudget !== undefined ? { shrinkBudget } : {}) };
}

/** `; 412 queries (cases 380, shrinking 29, re-checks 3; 40 cached), settled`: where a cell's queries went and why it stopped. */
function cellQueryNote(c: CellOutcome): string {
  const q = c.queries;
  if (!q) return c.stopped === 'settled' ? ', settled' : '';
  const total = q.cases.queries + q.shrink.queries + q.recheck.queries;
  const hits = q.cases.cacheHits + q.shrink.cacheHits;
  const why = c.stopped === 'settled' ? ', settled' : c.stopped === 'budget' ? ', query budget spent' : '';
  return `; ${plural(total, 'query', 'queries')} (cases ${q.cases.queries}, shrinking ${q.shrink.queries}, re-checks ${q.recheck.queries}${hits > 0 ? `; ${hits} cached` : ''})${why}`;
}

/** The campaign cells of a run and whether it runs attack mode, after the shard took its share. */
interface CellPlan {
  cells: CellSpec[];
  runAttack: boolean;
}

/**
 * Phase 1: one cell per domain × family (the adaptive family becomes attack mode unless
 * `attack: false`), each with its corpus examples; a shard keeps every n-th unit, the
 * campaign cells in order, then attack mode as one unit.
 */
function planCells<G>(o: FuzzOptions<G>, warnings: string[]): CellPlan {
  const examples = examplesFor(o.corpusDir, o.guard.id, warnings, o.guardOptions);
  const cells: CellSpec[] = [];
  const attackMode = o.families.includes('adaptive') && o.attack !== false;
  for (const domain of o.domains) {
    for (const family of o.families) {
      if (attackMode && family === 'adaptive') continue;
      const ex = examples.get(`${domain}/${family}`);
      cells.push({ domain, family, arbitrary: FAMILY_REGISTRY[family].arbitrary(domain), ...(ex ? { examples: ex } : {}) });
    }
  }
  const mine = (unit: number): boolean => inShard(unit, o.shard);
  const attackUnit = cells.length;
  for (let k = cells.length - 1; k >= 0; k--) if (!mine(k)) cells.splice(k, 1);
  return { cells, runAttack: attackMode && mine(attackUnit) };
}

/** The progress line of each finished cell, and the running count of cases done before the current cell. */
interface CellLine {
  (c: CellOutcome): void;
  readonly doneBefore: () => number;
}

function cellLine(progress: Progress, runs: number): CellLine {
  let doneBefore = 0;
  const fn = ((c: CellOutcome): void => {
    doneBefore += runs;
    const rate = interval(c.stats.violations, c.stats.runs);
    progress.log(
      `${c.stats.violations === 0 && c.stats.errors === 0 ? '✓' : '✗'} ${c.domain}/${c.family} ${c.property}: ${c.stats.violations}/${c.stats.runs} violations ${pct(rate)}, ${plural(c.stats.errors, 'error')}, ${plural(c.counterexamples.length, 'minimal counterexample')}${findingNote(c.counterexamples)}${c.interrupted ? ' (interrupted)' : ''}${cellQueryNote(c)}`,
    );
  }) as CellLine;
  Object.defineProperty(fn, 'doneBefore', { value: () => doneBefore });
  return fn;
}

/** Phase 2: the property campaign over the planned cells, on worker threads when `workers` > 1. */
async function runPropertyCampaign<G>(o: FuzzOptions<G>, plan: CellPlan, progress: Progress, onCellEnd: CellLine, sp: Spending): Promise<CampaignOutcome> {
  const cells = plan.cells;
  // The header counts what the run will do: the property cells, then the adaptive attack's cells (one per domain), whose bases are counted apart.
  const bases = o.attack === false ? 0 : (o.attack?.bases ?? Math.min(o.runs, ATTACK_DEFAULTS.bases));
  progress.start(cells.length * o.runs, `${o.guard.id}: ${plural(cells.length, 'cell')}${plan.runAttack ? `, then the adaptive attack (${plural(o.domains.length, 'cell')} of up to ${plural(bases, 'base')} each)` : ''}`);
  const pool = o.workerPool;
  const auto = o.workers === 'auto';
  let workers = o.workers === 'auto' ? 1 : (o.workers ?? 1);
  if (auto) {
    const a = autoWorkers({ cpus: os.availableParallelism(), cells: cells.length, oneCallAtATime: oneCallAtATime(o.guard), timeLimited: o.timeLimitMs !== undefined, pool: pool?.guardMs !== undefined, callsInFlight: callConcurrency(o.guard, o.concurrency) });
    workers = a.lanes;
    if (a.reason !== undefined) progress.log(`workers: auto: one thread: ${a.reason}`);
  }
  sp.execution = { callsInFlight: callConcurrency(o.guard, o.concurrency), lanes: workers };
  const execution = sp.execution;
  if (workers > 1 && !pool) throw new UsageError(`runFuzz: workers ${workers} needs a workerPool (how worker threads rebuild the guard)`);
  const outcome =
    workers > 1 && pool
      ? await runCampaignParallel({
          workerFile: pool.workerFile,
          ...(pool.workerData !== undefined ? { workerData: pool.workerData } : {}),
          workers,
          local: pool.local,
          // Worker threads start only when they pay (auto: at the guard's own measured time per case); the line says what ran and why.
          startPolicy: { minRemainingMs: WORKER_PAYBACK_MS, cpus: os.availableParallelism(), loadAverage: () => os.loadavg()[0] ?? 0, ...(auto && pool.guardMs ? { guardMs: pool.guardMs } : {}) },
          ...(sp.budget ? { cellMaxQueries: sp.budget.cell } : {}),
          ...(sp.shrinkBudget !== undefined ? { shrinkBudget: sp.shrinkBudget } : {}),
          onWorkers: (d) => {
            execution.lanes = d.threads + 1;
            progress.log(
              auto
                ? d.threads === 0
                  ? `workers: auto: one thread: ${d.reason}`
                  : `workers: auto: ${d.threads + 1} lanes: ${d.reason}`
                : d.threads === 0
                  ? `workers: --workers ${d.asked} ran on one thread: ${d.reason}`
                  : `workers: ${d.reason}`,
            );
          },
          guardId: o.guard.id,
          guard: pool.guard,
          cells: cells.map(({ domain, family, examples }) => ({ domain, family, ...(examples ? { examples } : {}) })),
          phase: o.phase,
          runsPerCell: o.runs,
          seed: o.seed,
          maxFailures: o.maxFailures,
          ...(o.timeLimitMs !== undefined ? { timeLimitMs: o.timeLimitMs } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
          onTotalProgress: (done) => progress.update(done),
          onCellEnd,
        })
      : await runCampaign({
          guard: o.guard,
          cells,
          store: o.store,
          phase: o.phase,
          runsPerCell: o.runs,
          seed: o.seed,
          maxFailures: o.maxFailures,
          ...(o.timeLimitMs !== undefined ? { timeLimitMs: o.timeLimitMs } : {}),
          ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
          ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
          ...(o.recheck !== undefined ? { recheck: o.recheck } : {}),
          ...(o.cellTimeLimitMs !== undefined ? { cellTimeLimitMs: o.cellTimeLimitMs } : {}),
          cache: sp.cache,
          ...(o.stop ? { stop: o.stop } : {}),
          ...(sp.budget ? { cellMaxQueries: sp.budget.cell } : {}),
          ...(sp.shrinkBudget !== undefined ? { shrinkBudget: sp.shrinkBudget } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
          onProgress: (cell, done) => progress.update(onCellEnd.doneBefore() + done, `${cell.domain}/${cell.family}`),
          onCellEnd,
        });
  progress.stop();
  return outcome;
}

/** Phase 3: attack mode, the adaptive family attacking the forged bases the guard rejects; its cells are logged like the campaign's. */
async function runAttackPhase<G>(o: FuzzOptions<G>, progress: Progress, onCellEnd: CellLine, sp: Spending): Promise<{ result: AttackModeResult; elapsedMs: number }> {
  const a = o.attack === false ? {} : (o.attack ?? {});
  const t0 = performance.now();
  const attackBudget = a.budget ?? ATTACK_DEFAULTS.budget;
  let bases = a.bases ?? Math.min(o.runs, ATTACK_DEFAULTS.bases);
  // Under --max-queries a domain's bases are cut to its share at --attack-budget per base, and
  // its guard calls (attacker writes and re-checks included) are capped at the share.
  if (sp.budget) bases = Math.max(1, Math.min(bases, Math.floor(sp.budget.attackPerDomain / attackBudget)));
  progress.log(`adaptive attack: ${plural(o.domains.length, 'domain')}, up to ${plural(bases, 'forged base')} each${o.stop ? ' (fewer once the bypass rate under attack is settled)' : ''}, ${attackBudget} queries per rejected base at most`);
  const result = await runAttackMode({
    guard: countingGuard(o.guard, sp.spend.attack),
    store: o.store,
    phase: o.phase,
    domains: o.domains,
    seed: o.seed,
    bases,
    budget: attackBudget,
    ...(a.feedback ? { feedback: a.feedback } : {}),
    ...(a.operators ? { operators: a.operators } : {}),
    maxFailures: o.maxFailures,
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.stop ? { stop: o.stop } : {}),
    ...(sp.budget ? { maxQueriesPerDomain: sp.budget.attackPerDomain } : {}),
  });
  for (const c of result.cells) onCellEnd(c);
  sp.spend.ms.attack = performance.now() - t0;
  return { result, elapsedMs: performance.now() - t0 };
}

/** What attack mode hands the report and the shard blob. */
function attackParts(a: AttackModeResult): NonNullable<FuzzParts['attack']> {
  return { report: a.report, flips: a.flips, originals: a.originals, flipVerdicts: a.flipVerdicts };
}

/**
 * Phase 4: the real benign sets (and a `--benign` export), measured apart and reported beside
 * the generated FPR, then the leave-one-source-out check when the benign family ran. Only an
 * unsharded run or shard 1 measures them. Bad lines become warnings.
 */
async function measureRealSets<G>(o: FuzzOptions<G>, progress: Progress, warnings: string[], sp: Spending, timing: PhaseTimes = new PhaseTimes(), msPerBenignCase?: number, cpuAtStart: CpuSnapshot = cpuSnapshot()): Promise<{ realSets: RealSetFpr[]; loso?: LosoCheckRow[] }> {
  const realSets: RealSetFpr[] = [];
  let loso: LosoCheckRow[] | undefined;
  const realGuard = countingGuard(o.guard, sp.spend.real);
  const toReal = async (name: string, source: string, all: Parameters<typeof measureBenignEntries>[0], cap = Infinity, unread?: RealSetFpr['unread']): Promise<void> => {
    const t0 = performance.now();
    // Under --max-queries a set is measured on its first entries (its share of the budget).
    const entries = all.length > cap ? all.slice(0, Math.max(1, Math.floor(cap))) : all;
    // Each real entry is checked after the entries before it in its set, as the benign family is.
    const m = await measureBenignEntries(entries, realGuard, o.store, o.phase, o.concurrency ?? 1, { history: HISTORY_ENTRIES });
    sp.spend.ms.real += performance.now() - t0;
    realSets.push({
      name,
      source,
      fpr: interval(m.rejected.length, m.n),
      errors: m.errors,
      ...(unread && unread.lines > 0 ? { unread } : {}),
      rejected: m.rejected.map(({ entry, verdict }) => ({
        id: entry.id,
        content: entry.content,
        ...(verdict.layer !== undefined ? { layer: verdict.layer } : {}),
        signals: formatSignals(verdict.signals),
        reasons: verdict.reasons,
      })),
    });
  };
  const measureReal = o.shard === undefined || o.shard.index === 1;
  let realSetCount = 0;
  if (o.realData && measureReal) {
    const real = await timing.time('real sets', async () => {
      const loaded = loadRealBenignSets();
      for (const issue of loaded.issues) warnings.push(`${issue.file}:${issue.line}: ${issue.message}`);
      const entries = loaded.sets.reduce((n, s) => n + s.entries.length, 0);
      // A progress phase of its own, so a log that is not a terminal shows it too (a line at each tenth).
      progress.start(entries, `real benign sets: ${plural(loaded.sets.length, 'set')}, ${plural(entries, 'entry', 'entries')}`);
      const perSet = sp.budget ? sp.budget.real / Math.max(1, loaded.sets.length + (o.benignFile ? 1 : 0)) : Infinity;
      let done = 0;
      for (const set of loaded.sets) {
        if (o.signal?.aborted) break;
        await toReal(set.name, set.source, set.entries, perSet);
        progress.update((done += set.entries.length), set.name);
      }
      progress.stop();
      return loaded;
    });
    realSetCount = real.sets.length;
    // Calibration check: leave one real source out, recalibrate, re-estimate (same seed and runs); not under a query budget.
    if (o.families.includes('benign') && !o.signal?.aborted && !sp.budget) {
      const t0 = performance.now();
      const measured = new Map(realSets.map((r) => [r.name, { k: r.fpr.k, n: r.fpr.n, errors: r.errors }]));
      const before = { ...calibrationCacheStats };
      const remoteCache = { hits: 0, misses: 0, writeFailures: 0 };
      const sources = real.sets.filter((x) => x.entries.length > 0);
      loso = await timing.time('leave-one-source-out', async () => {
        progress.start(sources.length * o.domains.length * o.runs, `leave-one-source-out: ${plural(sources.length, 'calibration')} (one per real source left out), each re-estimating the benign mix`);
        let done = 0;
        const estimate = { guard: countingGuard(o.guard, sp.spend.loso), store: o.store, domains: o.domains, runs: o.runs, seed: o.seed, phase: o.phase, ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}), ...(o.signal ? { signal: o.signal } : {}) };
        const lanes = losoLanes({ workers: o.workers ?? 1, pool: o.workerPool !== undefined, stateless: o.guard.cacheVerdicts !== false, cpus: os.availableParallelism(), load: cpusBusySince(cpuAtStart), sources: sources.length, cases: sources.length * o.domains.length * o.runs, msPerCase: msPerBenignCase });
        const pool = o.workerPool;
        const threads = pool && lanes.lanes > 1 ? taskPool({ workerFile: pool.workerFile, ...(pool.workerData !== undefined ? { workerData: pool.workerData } : {}), threads: lanes.lanes - 1 }) : undefined;
        if (threads) progress.log(`workers: leave-one-source-out on ${lanes.lanes} lanes: ${lanes.reason}`);
        else if (typeof o.workers === 'number' && o.workers > 1) progress.log(`workers: leave-one-source-out on one thread: ${lanes.reason}`);
        const names = sources.map((x) => x.name);
        const remote = threads && pool
          ? Array.from({ length: lanes.lanes - 1 }, () => async (leftOut: string) => {
              const r = await threads.run<LosoTask<G>, LosoTaskResult>({ kind: 'loso', guard: pool.guard, sets: names, leftOut, domains: o.domains, runs: o.runs, seed: o.seed, phase: o.phase });
              sp.spend.loso.queries += r.queries;
              // The worker's calibration-cache lookups count with this thread's, so the closing line adds up to the sources.
              if (r.cache) for (const k of ['hits', 'misses', 'writeFailures'] as const) remoteCache[k] += r.cache[k];
              return { k: r.k, n: r.n, errors: r.errors };
            })
          : [];
        const remoteError = (leftOut: string, e: unknown): void => {
          warnings.push(`leave-one-source-out: a worker thread failed on ${leftOut} (${e instanceof Error ? e.message : String(e)}); that source was computed on the calling thread`);
        };
        try {
          const rows = await leaveOneSourceOut(estimate, sources, (name) => measured.get(name), () => progress.update((done += o.runs)), remote, remoteError);
          progress.stop();
          return rows;
        } finally {
          await threads?.close();
        }
      });
      sp.spend.ms.loso = performance.now() - t0;
      const here = calibrationCacheSince(before);
      const hits = here.hits + remoteCache.hits;
      const computed = here.misses + remoteCache.misses;
      const writeFailed = here.writeFailures + remoteCache.writeFailures > 0;
      if (computed > 0 || hits > 0) progress.log(`leave-one-source-out: ${plural(loso.length, 'calibration')}, ${hits} from the cache, ${computed} computed${writeFailed ? ' (the cache folder could not be written: set FARMA_FUZZ_CACHE_DIR)' : ''}`);
    }
  }
  if (o.benignFile && measureReal) {
    const file = o.benignFile;
    await timing.time('benign export', async () => {
      const user = loadBenignJsonl(file);
      // The first few bad lines one by one (as the report lists them), then one line for the rest: a big export must not flood the console.
      for (const issue of user.issues.slice(0, UNREAD_LINES_SHOWN)) warnings.push(`${issue.file}:${issue.line}: ${issue.message}`);
      if (user.issues.length > UNREAD_LINES_SHOWN) warnings.push(`${file}: ${plural(user.issues.length - UNREAD_LINES_SHOWN, 'more line')} with an issue like those above, not shown one by one`);
      if (user.entries.length === 0) warnings.push(`${file}: no usable benign entry (every line was bad, see above); its FPR row has no runs`);
      const skipped = user.skipped?.length ?? 0;
      if (skipped > 0 && user.entries.length > 0) warnings.push(`${unreadLinesHead(file, skipped)} (see above); the report names them and --max-fpr counts them against the guard, since their verdict is unknown`);
      const unread = { lines: skipped, first: (user.skipped ?? []).slice(0, UNREAD_LINES_SHOWN).map((i) => `${i.file}:${i.line}: ${i.message}`) };
      await toReal(path.basename(file), 'user export', user.entries, sp.budget ? sp.budget.real / (realSetCount + 1) : Infinity, unread);
    });
  }
  return { realSets, ...(loso ? { loso } : {}) };
}

/** Bad lines of a `--benign` export named one by one, on the console and in the report. */
const UNREAD_LINES_SHOWN = 5;

/** Phase 5: the report and the corpus ({@link finishFuzz}); a shard first writes its blob (the merge input) and gets a partial report without corpus growth. */
async function finishRun<G>(o: FuzzOptions<G>, parts: FuzzParts, runTiming?: RunTiming): Promise<FuzzResult> {
  const settings: FinishSettings = {
    guardSpec: o.guardSpec,
    guardId: o.guard.id,
    guardConfigHash: guardConfigHash(o.guard, o.guardOptions),
    ...(o.guardOptions ? { guardOptions: o.guardOptions } : {}),
    ...(o.corpusDir !== undefined ? { corpusDir: o.corpusDir } : {}),
    phase: o.phase,
    generatedAt: o.generatedAt,
    domains: o.domains,
    families: o.families,
    maxFailures: o.maxFailures,
    ...(o.thresholds ? { thresholds: o.thresholds } : {}),
    outDir: o.outDir,
  };
  if (!o.shard) return finishFuzz(settings, parts, runTiming);
  mkdirSync(o.outDir, { recursive: true });
  const blob = sealBlob(redactDeep(shardBlob(o.shard, { ...settings, runsPerCell: o.runs, seed: o.seed }, parts)));
  await writeFileAtomic(path.join(o.outDir, shardBlobName(o.shard)), `${JSON.stringify(blob)}\n`);
  const { corpusDir: _c, ...partial } = settings;
  return finishFuzz(partial, parts, runTiming);
}

/** The phases timed before the report, and when the run began (`performance.now()` ms), for `timing.phases` and `timing.wallMs`. */
export interface RunTiming {
  phases: readonly RunPhaseTime[];
  /** How the property cells ran (`timing.execution`). */
  execution?: RunExecution;
  startedAtMs: number;
}

/** What a finished campaign gives {@link finishFuzz}: its outcome, the attack, the real sets. */
export type FuzzParts = ShardParts;

/**
 * Turns campaign parts into the report: counterexample ids and replay commands, corpus
 * growth, `report.json` and `report.md`. Shared by `fuzz` and `merge-reports`, so a merged
 * report is built by the same code as an unsharded one.
 */
export async function finishFuzz(o: FinishSettings, parts: FuzzParts, runTiming?: RunTiming): Promise<FuzzResult> {
  const reportT0 = performance.now();
  const { outcome, realSets, loso } = parts;
  const attack = parts.attack;
  const warnings = [...parts.warnings];
  // Counterexamples: ids, replay commands, corpus growth.
  // Nothing a guard says may carry a secret from the environment into files or the console.
  for (const cell of outcome.cells) for (const cx of cell.counterexamples) cx.verdict = redactDeep(cx.verdict);
  // A guard that answered error on every call judged nothing (a command that does not start, an endpoint that is down):
  // its errors are about the guard, not about any input, so none is called a crash or flaky, and none goes into the corpus.
  const guardDown = judgedNothing(outcome.cells.map((c) => c.stats));
  if (guardDown) for (const cell of outcome.cells) for (const cx of cell.counterexamples) if (cx.judgement === 'error') cx.kind = 'guard-error';
  const allCx = outcome.cells.flatMap((c) => c.counterexamples);
  const cxWithIds = allCx.map((cx) => {
    const id = caseId(cx.case);
    const flip = attack?.flips.get(cx);
    return { id, replay: replayCommand(o.guardSpec, id, o.corpusDir, o.phase, o.guardOptions), cx, ...(flip ? { flip } : {}) };
  });
  let corpus: ReportData['corpus'];
  if (o.corpusDir && cxWithIds.length > 0 && guardDown) {
    warnings.push(`corpus: nothing saved to ${path.relative(process.cwd(), corpusFileOf(o.corpusDir, o.guardId, o.guardOptions)) || o.corpusDir}: the guard answered error on every one of its ${outcome.cells.reduce((n, c) => n + c.stats.runs, 0)} calls, so no counterexample is an input's finding (start the guard and run again)`);
  } else if (o.corpusDir && cxWithIds.length > 0) {
    // Findings of a non-default configuration go into its own file and carry its options, so a plain replay never sees them.
    const file = corpusFileOf(o.corpusDir, o.guardId, o.guardOptions);
    const corpusOptions = nonEmpty(o.guardOptions) ? canonicalGuardOptions(o.guardId, o.guardOptions) : undefined;
    const v = versions();
    const records = cxWithIds.map(({ cx, flip }) => {
      const { elapsedUs: _e, ...observed } = cx.verdict;
      return newRegressionRecord({
        ...(flip ? { original: { case: flip.original.case, observed: observedOf(flip.original.verdict), operators: flip.operators } } : {}),
        guard: o.guardId,
        property: cx.property,
        case: cx.case,
        observed: {
          decision: observed.decision,
          ...(observed.layer !== undefined ? { layer: observed.layer } : {}),
          ...(observed.score !== undefined ? { score: observed.score } : {}),
          ...(observed.signals !== undefined ? { signals: observed.signals } : {}),
          reasons: observed.reasons,
        },
        foundAt: o.generatedAt,
        seed: cx.seed,
        path: cx.path,
        versions: v,
        finding: cx.kind,
        recheck: cx.recheck,
        ...(corpusOptions ? { guardOptions: corpusOptions } : {}),
      });
    });
    const res = await appendRegressions(file, records.map(redactDeep));
    for (const i of res.issues) warnings.push(`${i.file}:${i.line}: ${i.message} (kept verbatim)`);
    corpus = { file: path.relative(process.cwd(), file) || file, added: res.added, duplicates: res.duplicates };
  }

  const report = buildReport({
    outcome,
    version: versions()['farma-fuzz'] ?? 'unknown',
    guardConfigHash: o.guardConfigHash,
    ...(o.guardOptions && Object.keys(o.guardOptions).length > 0 ? { guardOptions: o.guardOptions } : {}),
    ...(attack ? { attack: attack.report } : {}),
    ...(coverageOf(outcome, attack) ?? {}),
    domains: o.domains,
    families: o.families,
    maxFailures: o.maxFailures,
    versions: versions(),
    counterexamples: cxWithIds,
    realSets,
    ...(loso ? { loso } : {}),
    ...(parts.spend ? { spend: parts.spend } : {}),
    ...(corpus ? { corpus } : {}),
    ...(o.families.includes('adaptive') ? { operatorGroups: operatorGroupMap() } : {}),
    generatedAt: o.generatedAt,
  });
  const thresholds = o.thresholds ?? {};
  if (thresholds.maxFpr !== undefined || thresholds.maxBypass !== undefined) {
    const g = gate(report, thresholds);
    report.gate = { thresholds: { ...thresholds }, pass: g.pass, checks: g.checks };
  }
  // Every phase's wall time, this one included, and the whole run's up to report.json.
  const now = performance.now();
  report.timing.phases = [...(runTiming?.phases ?? []), { phase: 'report', elapsedMs: now - reportT0 }];
  report.timing.wallMs = now - (runTiming?.startedAtMs ?? reportT0);
  if (runTiming?.execution) report.timing.execution = { ...runTiming.execution };
  const safe = redactDeep(report);
  mkdirSync(o.outDir, { recursive: true });
  await writeFileAtomic(path.join(o.outDir, 'report.json'), `${JSON.stringify(safe, null, 2)}\n`);
  await writeFileAtomic(path.join(o.outDir, 'report.md'), renderMarkdown(safe));
  return { report: safe, reportDir: o.outDir, outcome, warnings: warnings.map((w) => redactSecrets(w)) };
}
