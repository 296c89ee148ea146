/**
 * Parallel campaigns: the cells of a campaign spread over worker threads (piscina pool).
 * Each cell depends only on its own seed ({@link cellSeed}), its run count and the guard, so
 * the merged outcome equals the one-thread run of {@link runCampaign} with the same seed:
 * same cases, same verdicts, same counterexamples, cells in the same order.
 *
 * Generic like the rest of `src/fuzz`: the worker file (given by the caller) turns a
 * serialisable cell task into a guard and an arbitrary and calls `runCell`.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Phase } from '../domain/guard.js';
import { cellSeed, type CampaignOutcome } from './campaign.js';
import type { CellOutcome } from './property.js';
import { EngineError, errorMessage } from '../domain/errors.js';

/** A cell as plain data: what the worker needs to rebuild its arbitrary. */
export interface CellDescriptor {
  domain: string;
  family: string;
  /** Known cases (e.g. from the regression corpus), tried first. Structured-cloned to the worker. */
  examples?: FuzzCase[];
}

/**
 * One cell's work, as sent to a worker. Everything is structured-cloneable.
 * `guard` is an opaque, serialisable guard descriptor that the worker file understands
 * (for the CLI worker: `{ spec, timeoutMs }`).
 */
export interface CellTask<G = unknown> {
  /** Position of the cell in the campaign. */
  index: number;
  domain: string;
  family: string;
  examples?: FuzzCase[];
  /** The cell's own seed: `cellSeed(campaignSeed, domain, family)`. */
  seed: number;
  runs: number;
  phase: Phase;
  maxFailures?: number;
  /** Wall-clock budget for this cell, ms. */
  timeLimitMs?: number;
  guard: G;
  /** When present, the worker posts `{ done }` (cases evaluated so far in this cell) on it. */
  progress?: MessagePort;
}

export interface ParallelCampaignOptions<G = unknown> {
  /** Worker module (file URL or absolute path); its default export runs one {@link CellTask} and resolves to a `CellOutcome`. */
  workerFile: string | URL;
  /** Worker threads, >= 1. More threads than cells are never started. */
  workers: number;
  /** Node flags for the workers. */
  execArgv?: string[];
  /** Data for the worker module (piscina `workerData`), e.g. the target of a TypeScript shim. */
  workerData?: unknown;
  /** Guard id, recorded in the outcome (the guard itself lives in the workers). */
  guardId: string;
  /** Serialisable guard descriptor handed to every task. */
  guard: G;
  cells: CellDescriptor[];
  phase: Phase;
  runsPerCell: number;
  seed: number;
  maxFailures?: number;
  /**
   * Whole-campaign wall-clock budget, ms. Each cell gets `timeLimitMs × min(workers, cells) / cells`.
   * Time-limited runs are not reproducible (in one thread either).
   */
  timeLimitMs?: number;
  /** Called when a cell's task is handed to the pool (all at the start). */
  onCellStart?: (cell: CellDescriptor, index: number) => void;
  /** Cases evaluated so far in one cell (throttled by the worker). */
  onProgress?: (cell: CellDescriptor, done: number) => void;
  /** Cases evaluated so far over all cells. */
  onTotalProgress?: (done: number) => void;
  /** Called as each cell finishes, in completion order (not cell order). */
  onCellEnd?: (outcome: CellOutcome, index: number) => void;
  /**
   * Runs a task in the calling thread. When given, the calling thread is one of the `workers`
   * lanes (so `workers: 2` starts one worker thread and saves one start-up); it must give the
   * same outcome as the worker file would. `onProgress(done)` reports cases evaluated.
   */
  local?: (task: CellTask<G>, onProgress: (done: number) => void) => Promise<CellOutcome>;
}

/** Splits a campaign into its cell tasks, in cell order (no ports attached). */
export function cellTasks<G>(o: Pick<ParallelCampaignOptions<G>, 'cells' | 'guard' | 'phase' | 'runsPerCell' | 'seed' | 'maxFailures' | 'timeLimitMs' | 'workers'>): CellTask<G>[] {
  const perCellMs = o.timeLimitMs !== undefined && o.cells.length > 0 ? (o.timeLimitMs * Math.min(Math.max(1, o.workers), o.cells.length)) / o.cells.length : undefined;
  return o.cells.map((cell, index) => ({
    index,
    domain: cell.domain,
    family: cell.family,
    ...(cell.examples && cell.examples.length > 0 ? { examples: cell.examples } : {}),
    seed: cellSeed(o.seed, cell.domain, cell.family),
    runs: o.runsPerCell,
    phase: o.phase,
    ...(o.maxFailures !== undefined ? { maxFailures: o.maxFailures } : {}),
    ...(perCellMs !== undefined ? { timeLimitMs: Math.max(1, perCellMs) } : {}),
    guard: o.guard,
  }));
}

/** Builds the campaign outcome from cell outcomes in cell order (same shape as `runCampaign`). */
export function mergeCellOutcomes(
  meta: { guardId: string; seed: number; phase: Phase; runsPerCell: number; elapsedMs: number },
  cells: CellOutcome[],
): CampaignOutcome {
  return {
    guardId: meta.guardId,
    seed: meta.seed,
    phase: meta.phase,
    runsPerCell: meta.runsPerCell,
    cells,
    elapsedMs: meta.elapsedMs,
    totalRuns: cells.reduce((a, c) => a + c.stats.runs, 0),
    failed: cells.some((c) => c.stats.violations > 0 || c.stats.errors > 0),
  };
}

/**
 * Runs a campaign's cells on a pool of worker threads and merges the outcomes in cell order.
 *
 * @returns the same `CampaignOutcome` as `runCampaign` would for the same seed and cells
 *   (only `elapsedMs` and the per-cell `elapsedMs` differ).
 * Cells are handed out in cell order to whichever lane (worker thread, or the calling thread
 * when `local` is given) is free; outcomes are merged in cell order.
 * @throws Error naming the cell when a task rejects (e.g. a broken generator or an unknown
 *   guard); no further cell is started and the pool is destroyed.
 * @example
 * const outcome = await runCampaignParallel({
 *   ...fuzzWorkerPool(), workers: 2,
 *   guardId: 'sentinel', guard: { spec: 'sentinel' },
 *   cells: [{ domain: 'ehr', family: 'seed' }], phase: 'write', runsPerCell: 1000, seed: 42,
 * });
 */
export async function runCampaignParallel<G>(o: ParallelCampaignOptions<G>): Promise<CampaignOutcome> {
  const started = performance.now();
  const tasks = cellTasks(o);
  const wanted = Math.max(1, Math.floor(o.workers));
  // With a local runner the calling thread is one of the `workers` lanes: one thread fewer to start.
  const threads = Math.max(0, Math.min(o.local ? wanted - 1 : wanted, tasks.length));
  const prefetch = o.local ? 2 : 1;
  const pool =
    threads > 0
      ? new Piscina({
          filename: o.workerFile instanceof URL ? o.workerFile.href : o.workerFile,
          minThreads: threads,
          maxThreads: threads,
          // With a local lane the calling thread is often busy in a synchronous cell and cannot
          // hand out work; two tasks in flight per worker keep the workers fed meanwhile.
          concurrentTasksPerWorker: prefetch,
          idleTimeout: 1000,
          ...(o.execArgv ? { execArgv: o.execArgv } : {}),
          ...(o.workerData !== undefined ? { workerData: o.workerData } : {}),
        })
      : undefined;
  const perCell = new Array<number>(tasks.length).fill(0);
  const finished = new Array<boolean>(tasks.length).fill(false);
  const outcomes = new Array<CellOutcome | undefined>(tasks.length);
  let total = 0;
  const advance = (index: number, done: number): void => {
    if (finished[index] || done <= (perCell[index] ?? 0)) return;
    total += done - (perCell[index] ?? 0);
    perCell[index] = done;
    o.onProgress?.(o.cells[index] as CellDescriptor, done);
    o.onTotalProgress?.(total);
  };
  const ports: MessagePort[] = [];
  let next = 0;
  let stopped = false;
  const take = (): CellTask<G> | undefined => (stopped ? undefined : tasks[next++]);
  const settle = (task: CellTask<G>, outcome: CellOutcome): void => {
    // The result is authoritative; progress messages still in flight are then ignored.
    advance(task.index, outcome.stats.runs);
    finished[task.index] = true;
    outcomes[task.index] = outcome;
    o.onCellEnd?.(outcome, task.index);
  };
  const fail = (task: CellTask<G>, where: string, cause: unknown): never => {
    stopped = true;
    throw new EngineError(`cell ${task.domain}/${task.family} failed ${where}: ${errorMessage(cause)}`, { cause });
  };
  const poolLane = async (p: Piscina): Promise<void> => {
    for (let task = take(); task !== undefined; task = take()) {
      let transferList: MessagePort[] | undefined;
      if (o.onProgress || o.onTotalProgress) {
        const { port1, port2 } = new MessageChannel();
        ports.push(port1);
        const index = task.index;
        port1.on('message', (m: { done?: unknown }) => {
          if (typeof m.done === 'number') advance(index, m.done);
        });
        task.progress = port2;
        transferList = [port2];
      }
      o.onCellStart?.(o.cells[task.index] as CellDescriptor, task.index);
      let outcome: CellOutcome;
      try {
        outcome = (await p.run(task, transferList ? { transferList } : {})) as CellOutcome;
      } catch (cause) {
        fail(task, 'in a worker', cause);
      }
      settle(task, outcome!);
    }
  };
  const localLane = async (run: NonNullable<ParallelCampaignOptions<G>['local']>): Promise<void> => {
    // Let the pool lanes hand out their first tasks before this thread gets busy.
    await new Promise((r) => setImmediate(r));
    for (let task = take(); task !== undefined; task = take()) {
      // Yield to the event loop between cells, so that worker results are taken in and
      // workers get their next cells (a sync guard never yields inside a cell).
      await new Promise((r) => setImmediate(r));
      const index = task.index;
      o.onCellStart?.(o.cells[index] as CellDescriptor, index);
      let outcome: CellOutcome;
      try {
        outcome = await run(task, (done) => advance(index, done));
      } catch (cause) {
        fail(task, 'in the calling thread', cause);
      }
      settle(task, outcome!);
    }
  };
  try {
    const lanes: Promise<void>[] = [];
    if (pool) for (let i = 0; i < threads * prefetch; i++) lanes.push(poolLane(pool));
    if (o.local) lanes.push(localLane(o.local));
    await Promise.all(lanes);
    const done = outcomes.filter((x): x is CellOutcome => x !== undefined);
    if (done.length !== tasks.length) throw new EngineError(`parallel campaign: ${tasks.length - done.length} cell(s) were not run`);
    return mergeCellOutcomes({ guardId: o.guardId, seed: o.seed, phase: o.phase, runsPerCell: o.runsPerCell, elapsedMs: performance.now() - started }, done);
  } finally {
    stopped = true;
    for (const p of ports) p.close();
    await pool?.destroy();
  }
}

/**
 * Worker-side helper: reports a cell's progress on the task's port, at most every `everyMs`
 * (and always for the final count via `flush`).
 */
export function progressReporter(port: MessagePort | undefined, everyMs = 100): { update: (done: number) => void; flush: (done: number) => void } {
  if (!port) return { update: () => undefined, flush: () => undefined };
  let last = 0;
  return {
    update: (done) => {
      const now = performance.now();
      if (now - last >= everyMs) {
        last = now;
        port.postMessage({ done });
      }
    },
    flush: (done) => {
      port.postMessage({ done });
      port.close();
    },
  };
}
