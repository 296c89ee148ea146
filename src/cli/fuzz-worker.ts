/**
 * Worker-thread entry for parallel campaigns (`fuzz --workers N`). Piscina loads this file in
 * each worker; its default export rebuilds the guard and the family arbitrary from ids and
 * runs one cell with `runCell`, one row of the leave-one-source-out check (`kind: 'loso'`) or
 * one matched estimate of `fpr` (`kind: 'matched'`).
 * Part of the composition root, so it may import generators and guards. The main thread passes {@link fuzzWorkerPool}() to `runCampaignParallel`.
 */
import type { DomainId } from '../domain/fuzz-case.js';
import type { Guard } from '../domain/guard.js';
import { UsageError } from '../domain/errors.js';
import { MemoryStore } from '../memory/index.js';
import { runCell, type CellOutcome, type CellStopRule } from '../fuzz/property.js';
import { countingGuard, emptyTally, guardCacheable, timedGuard, VerdictCache } from '../fuzz/query-meter.js';
import { leftOutEstimate, matchedEstimate, type MatchedTally } from '../campaign/fpr.js';
import { loadRealBenignSets } from '../corpus/benign-sets.js';
import { calibrationCacheSince, calibrationCacheStats } from '../campaign/calibration-cache.js';

import type { ScratchStore } from '../fuzz/evaluate.js';
import { cellAbortSignal, progressReporter, type CellTask, type LosoTask as LosoTaskOf, type LosoTaskResult, type MatchedTask as MatchedTaskOf } from '../fuzz/parallel.js';
import { FAMILY_REGISTRY, isDomainId, isFamilyId, type FamilyId } from '../../generators/families.js';
import { guardSpecKind } from '../guards/resolve.js';
import { loadGuard } from './context.js';

/**
 * What a worker needs to build and drive the guard as the calling thread did: the `--guard`
 * spec, its `--guard-option` values (validated again in the worker, as `loadGuard` does),
 * the per-entry time bound (ms), and the per-guard run settings (calls in flight, re-checks
 * per finding, the per-cell time bound in ms).
 */
export interface FuzzWorkerGuard {
  spec: string;
  /** `--guard-option` / `guardOptions` values, as given (JSON values, dotted keys). */
  guardOptions?: Record<string, unknown>;
  timeoutMs?: number;
  concurrency?: number;
  recheck?: number;
  cellTimeLimitMs?: number;
  /** Sequential stopping, query budget per cell and per shrink; the same in every lane, so findings stay identical. */
  stop?: CellStopRule;
  cellMaxQueries?: number;
  shrinkBudget?: number;
  /** False: no verdict cache (`--no-cache`, or a stateful guard); each cell has its own otherwise, as in runCampaign. */
  cache?: boolean;
}

/** This file, as a URL. */
export const FUZZ_WORKER_URL: URL = new URL(import.meta.url);

/**
 * The pool options that make worker threads run this file: `{ workerFile, workerData }` for
 * `runCampaignParallel`. Under tsx (this file is `.ts`) the workers load the plain-JS shim
 * `ts-worker-entry.mjs`, which imports this file through tsx's `tsImport`, because Node 20
 * does not apply `--import tsx` hooks inside worker threads. From a JavaScript build the
 * workers load this file directly.
 */
export function fuzzWorkerPool(): { workerFile: URL; workerData?: { target: string } } {
  if (!FUZZ_WORKER_URL.pathname.endsWith('.ts')) return { workerFile: FUZZ_WORKER_URL };
  return { workerFile: new URL('./ts-worker-entry.mjs', import.meta.url), workerData: { target: FUZZ_WORKER_URL.href } };
}

let store: MemoryStore | undefined;
const builtinGuards = new Map<string, Promise<Guard>>();

/**
 * Built-in guards are built once per worker and reused across cells (their verdicts do not
 * depend on earlier checks); module, HTTP and exec guards are opened per cell and closed after.
 */
async function withGuard<T>(g: FuzzWorkerGuard, fn: (guard: Guard) => Promise<T>): Promise<T> {
  if (guardSpecKind(g.spec) === 'builtin') {
    // Options are part of the key: a guard built with tauGuard=0.25 is another guard.
    const key = JSON.stringify([g.spec, g.timeoutMs ?? null, g.guardOptions ?? null]);
    let p = builtinGuards.get(key);
    if (!p) {
      p = loadGuard(g.spec, g.timeoutMs, g.guardOptions, g.concurrency);
      builtinGuards.set(key, p);
    }
    return fn(await p);
  }
  const guard = await loadGuard(g.spec, g.timeoutMs, g.guardOptions, g.concurrency);
  try {
    return await fn(guard);
  } finally {
    await guard.close?.();
  }
}

type LosoTask = LosoTaskOf<FuzzWorkerGuard>;
type MatchedTask = MatchedTaskOf<FuzzWorkerGuard>;
type WorkerTask = CellTask<FuzzWorkerGuard> | LosoTask | MatchedTask;
const isLosoTask = (t: WorkerTask): t is LosoTask => (t as { kind?: unknown }).kind === 'loso';
const isMatchedTask = (t: WorkerTask): t is MatchedTask => (t as { kind?: unknown }).kind === 'matched';

let realSets: ReturnType<typeof loadRealBenignSets>['sets'] | undefined;

/**
 * Runs one leave-one-source-out row in this worker.
 * @throws Error when this worker's bundled real sets are not the calling thread's (another checkout or a changed file).
 */
async function runLosoTask(task: LosoTask): Promise<LosoTaskResult> {
  realSets ??= loadRealBenignSets().sets.filter((s) => s.entries.length > 0);
  const names = realSets.map((s) => s.name);
  if (names.join('\u0000') !== task.sets.join('\u0000')) throw new Error(`leave-one-source-out worker: its real sets (${names.join(', ')}) are not the calling thread's (${task.sets.join(', ')})`);
  store ??= new MemoryStore(':memory:');
  const scratch = store;
  const sets = realSets;
  return withGuard(task.guard, async (guard) => {
    const tally = emptyTally();
    const counted = countingGuard(guard, tally);
    const before = { ...calibrationCacheStats };
    const t = await leftOutEstimate({ guard: counted, store: scratch, domains: task.domains, runs: task.runs, seed: task.seed, phase: task.phase, ...(task.guard.concurrency !== undefined ? { concurrency: task.guard.concurrency } : {}) }, sets, task.leftOut);
    return { ...t, queries: tally.queries, cache: calibrationCacheSince(before) };
  });
}

/** Runs one matched estimate of `fpr` in this worker (its set came with the task). */
async function runMatchedTask(task: MatchedTask): Promise<MatchedTally & { queries: number }> {
  store ??= new MemoryStore(':memory:');
  const scratch = store;
  return withGuard(task.guard, async (guard) => {
    const tally = emptyTally();
    const t = await matchedEstimate({ guard: countingGuard(guard, tally), store: scratch, domains: task.domains, runs: task.runs, seed: task.seed, phase: task.phase, ...(task.guard.concurrency !== undefined ? { concurrency: task.guard.concurrency } : {}) }, task.set, task.domains);
    return { ...t, queries: tally.queries };
  });
}

/** Runs one cell task with a ready guard and scratch store (in a worker or in the calling thread). */
function runTask(task: CellTask<FuzzWorkerGuard>, guard: Guard, scratch: ScratchStore, onProgress: (done: number) => void, signal?: AbortSignal): Promise<CellOutcome> {
  if (!isDomainId(task.domain)) throw new UsageError(`unknown domain "${task.domain}"`);
  if (!isFamilyId(task.family)) throw new UsageError(`unknown family "${task.family}"`);
  const domain: DomainId = task.domain;
  const g = task.guard;
  const bound = g.cellTimeLimitMs !== undefined && Number.isFinite(g.cellTimeLimitMs) ? g.cellTimeLimitMs : undefined;
  const timeLimitMs = task.timeLimitMs === undefined ? bound : bound === undefined ? task.timeLimitMs : Math.min(task.timeLimitMs, bound);
  return runCell({
    domain,
    family: task.family,
    arbitrary: FAMILY_REGISTRY[task.family as FamilyId].arbitrary(domain),
    guard,
    store: scratch,
    phase: task.phase,
    runs: task.runs,
    seed: task.seed,
    ...(task.maxFailures !== undefined ? { maxFailures: task.maxFailures } : {}),
    ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
    ...(g.timeoutMs !== undefined ? { timeoutMs: g.timeoutMs } : {}),
    ...(g.concurrency !== undefined ? { concurrency: g.concurrency } : {}),
    ...(g.recheck !== undefined ? { recheck: g.recheck } : {}),
    ...(g.stop ? { stop: g.stop } : {}),
    ...((task.maxQueries ?? g.cellMaxQueries) !== undefined ? { maxQueries: (task.maxQueries ?? g.cellMaxQueries) as number } : {}),
    ...((task.shrinkBudget ?? g.shrinkBudget) !== undefined ? { shrinkBudget: (task.shrinkBudget ?? g.shrinkBudget) as number } : {}),
    ...(g.cache !== false && guardCacheable(guard) ? { cache: new VerdictCache() } : {}),
    ...(task.examples ? { examples: task.examples } : {}),
    ...(signal ? { signal } : {}),
    onProgress,
  });
}

/**
 * Runs one cell task in this worker (piscina's handler), or one leave-one-source-out row (`kind: 'loso'`).
 * @throws UsageError for an unknown domain or family; rejects as `runCell` does when the generator throws.
 */
export default async function runFuzzCellTask(task: CellTask<FuzzWorkerGuard>): Promise<CellOutcome>;
export default async function runFuzzCellTask(task: LosoTask): Promise<LosoTaskResult>;
export default async function runFuzzCellTask(task: MatchedTask): Promise<MatchedTally & { queries: number }>;
export default async function runFuzzCellTask(task: WorkerTask): Promise<CellOutcome | LosoTaskResult | (MatchedTally & { queries: number })> {
  if (isLosoTask(task)) return runLosoTask(task);
  if (isMatchedTask(task)) return runMatchedTask(task);
  store ??= new MemoryStore(':memory:');
  const scratch = store;
  const signal = cellAbortSignal(task.progress);
  const progress = progressReporter(task.progress);
  return withGuard(task.guard, async (guard) => {
    const outcome = await runTask(task, guard, scratch, progress.update, signal);
    progress.flush(outcome.stats.runs);
    return outcome;
  });
}

/**
 * The `local` runner for `runCampaignParallel`: runs tasks in the calling thread with the
 * guard and scratch store it already has, so `--workers 2` starts one worker thread, not two.
 * With `meter`, the guard's own time on this thread (ms, every call) is added to `meter.ms`
 * (`WorkerStartPolicy.guardMs` reads it for `--workers auto`).
 * @example
 * runCampaignParallel({ ...fuzzWorkerPool(), local: localCellRunner(guard, store), workers: 2, ... })
 */
export function localCellRunner(
  guard: Guard,
  scratch: ScratchStore,
  meter?: { ms: number },
): (task: CellTask<FuzzWorkerGuard>, onProgress: (done: number) => void, signal?: AbortSignal) => Promise<CellOutcome> {
  const g = meter ? timedGuard(guard, meter) : guard;
  return (task, onProgress, signal) => runTask(task, g, scratch, onProgress, signal);
}
