/**
 * Parallel campaigns: the cells of a campaign spread over worker threads (piscina pool).
 * Each cell depends only on its own seed ({@link cellSeed}), its run count and the guard, so
 * the merged outcome equals the one-thread run of {@link runCampaign} with the same seed:
 * same cases, same verdicts, same counterexamples, cells in the same order.
 *
 * Generic like the rest of `src/fuzz`: the worker file (given by the caller) turns a
 * serialisable cell task into a guard and an arbitrary and calls `runCell`.
 */
import os from 'node:os';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { DomainId, FuzzCase } from '../domain/fuzz-case.js';
import type { Phase } from '../domain/guard.js';
import type { MemoryEntry } from '../domain/entry.js';
import { cellSeed, type CampaignOutcome } from './campaign.js';
import type { CellOutcome } from './property.js';
import { EngineError, errorMessage } from '../domain/errors.js';

/** A cell as plain data: what the worker needs to rebuild its arbitrary. */
interface CellDescriptor {
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
  /** Guard queries the cell may spend in all (`--max-queries`' share per cell). */
  maxQueries?: number;
  /** Guard queries one shrink may spend. */
  shrinkBudget?: number;
  guard: G;
  /**
   * When present, the worker posts `{ done }` (cases evaluated so far in this cell) on it,
   * and stops the cell (it then reports `interrupted`) when it receives `{ abort: true }`
   * (see {@link cellAbortSignal}).
   */
  progress?: MessagePort;
}

/** The machine's CPU times so far (`os.cpus()`, ms summed over CPUs: `idle`, `total`) and this process's (`own`, ms, every thread). */
export interface CpuSnapshot {
  idle: number;
  total: number;
  own: number;
  cpus: number;
}

/** A {@link CpuSnapshot} of now. */
export function cpuSnapshot(): CpuSnapshot {
  const cs = os.cpus();
  let idle = 0;
  let total = 0;
  for (const c of cs) {
    idle += c.times.idle;
    total += c.times.user + c.times.nice + c.times.sys + c.times.irq + c.times.idle;
  }
  const u = process.cpuUsage();
  return { idle, total, own: (u.user + u.system) / 1000, cpus: cs.length };
}

/**
 * How busy the machine was between `since` and now, as the worker start rules read a load:
 * the CPUs other processes kept busy, plus one for this thread (in [1, CPUs + 1]). This
 * process's own threads (the campaign, and V8's compiler and collector beside it) count as that
 * one, and unlike the 1-minute load average the figure does not carry the runs of the minute
 * before. Falls back to the load average when under 0.2 s of CPU time per CPU passed.
 */
export function cpusBusySince(since: CpuSnapshot, now: CpuSnapshot = cpuSnapshot()): number {
  const total = now.total - since.total;
  if (!(total >= 200 * Math.max(1, now.cpus))) return os.loadavg()[0] ?? 0;
  const busy = ((total - (now.idle - since.idle)) / total) * now.cpus;
  const own = ((now.own - since.own) / total) * now.cpus;
  return 1 + Math.max(0, Math.min(now.cpus, busy - own));
}

/**
 * One row of the leave-one-source-out check (docs/calibration.md), as sent to a worker of the
 * same worker file as the cells (`kind: 'loso'`): the worker loads the bundled real sets itself,
 * checks that their names (in order) are `sets`, calibrates on all but `leftOut` and estimates
 * the natural mix with `runs` cases per domain, `seed` and `phase`. Structured-cloneable.
 */
export interface LosoTask<G = unknown> {
  kind: 'loso';
  guard: G;
  sets: string[];
  leftOut: string;
  domains: DomainId[];
  runs: number;
  seed: number;
  phase: Phase;
}

/**
 * One matched estimate of `fpr` (docs/calibration.md, "Per profile"), as sent to a worker
 * (`kind: 'matched'`): calibrate on `set`'s entries alone and estimate `runs` cases per domain of
 * `domains`. Structured-cloneable (the set travels with its entries).
 */
export interface MatchedTask<G = unknown> {
  kind: 'matched';
  guard: G;
  set: { name: string; domain: string; entries: MemoryEntry[] };
  domains: DomainId[];
  runs: number;
  seed: number;
  phase: Phase;
}

/**
 * A {@link LosoTask}'s answer: `k` rejected of `n` cases, `errors` of them answered error, the guard
 * queries spent, and the worker's calibration-cache lookups for the task (hits, misses, failed writes).
 */
export interface LosoTaskResult {
  k: number;
  n: number;
  errors: number;
  queries: number;
  cache?: { hits: number; misses: number; writeFailures: number };
}

/**
 * `threads` worker threads (piscina) running `workerFile`'s default export, for tasks that are
 * not cells (the leave-one-source-out rows); one task per thread at a time. `close` ends the
 * threads (also when tasks are still queued: they reject).
 */
export function taskPool(o: { workerFile: string | URL; workerData?: unknown; execArgv?: string[]; threads: number }): { run: <T, R>(task: T) => Promise<R>; close: () => Promise<void> } {
  const pool = new Piscina({
    filename: o.workerFile instanceof URL ? o.workerFile.href : o.workerFile,
    minThreads: o.threads,
    maxThreads: o.threads,
    idleTimeout: 1000,
    ...(o.execArgv ? { execArgv: o.execArgv } : {}),
    ...(o.workerData !== undefined ? { workerData: o.workerData } : {}),
  });
  return { run: <T, R>(task: T) => pool.run(task) as Promise<R>, close: () => pool.destroy() };
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
  /** Guard queries per cell, handed to every task (`CellTask.maxQueries`). */
  cellMaxQueries?: number;
  /** Guard queries per shrink, handed to every task (`CellTask.shrinkBudget`). */
  shrinkBudget?: number;
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
  local?: (task: CellTask<G>, onProgress: (done: number) => void, signal?: AbortSignal) => Promise<CellOutcome>;
  /**
   * Start worker threads only when they pay; needs `local`. Without it the
   * pool starts at once. With it, the calling thread starts on the cells alone and measures its
   * own rate; worker threads are started (up to `workers − 1`, and never more lanes than CPUs)
   * as soon as the work left, at that rate, is at least `minRemainingMs` and a CPU is idle
   * (1-minute load average below `cpus − 0.5`). Otherwise the campaign finishes on the calling
   * thread and {@link WorkerDecision} says why. Outcomes are identical either way. Ignored with
   * `timeLimitMs` (per-cell time shares assume every lane runs).
   */
  startPolicy?: WorkerStartPolicy;
  /** Called once: how many worker threads ran, and why (with `startPolicy`). */
  onWorkers?: (decision: WorkerDecision) => void;
  /**
   * Stops the campaign (Ctrl-C), as `runCampaign`'s `signal` does: no further cell starts,
   * and the cells running (in the calling thread or a worker) stop between batches and report
   * `interrupted`. The outcome then holds the cells that ran, in cell order.
   */
  signal?: AbortSignal;
}

/** When to start worker threads (see `ParallelCampaignOptions.startPolicy`). */
export interface WorkerStartPolicy {
  /** Work left (ms, at the calling thread's measured rate) that makes a worker thread pay for its start-up. */
  minRemainingMs: number;
  /** Logical CPUs (`os.availableParallelism()`). */
  cpus: number;
  /** The 1-minute load average (`os.loadavg()[0]`), read when deciding. */
  loadAverage: () => number;
  /**
   * The guard's own time so far on the calling thread, ms (e.g. `timedGuard`'s meter). When
   * given, the work left is measured at the guard's time per case, not at the thread's wall
   * time per case: generation and the engine do not count (`fuzz --workers auto`).
   */
  guardMs?: () => number;
}

/** What {@link workerStartDecision} reads: measured rates and counts, never a clock. */
export interface WorkerStartInput {
  /** Time per counted case on the calling thread so far, ms: its wall time, or the guard's own time (`basis: 'guard'`). */
  msPerCase: number;
  basis: 'wall' | 'guard';
  /** Time of the work done so far on the calling thread at that basis, ms. */
  doneMs: number;
  /** Cases still to run on the estimate (the current cell's rest and the cells not started). */
  casesLeft: number;
  /** Cells not started yet. */
  cellsLeft: number;
  minRemainingMs: number;
  cpus: number;
  load: number;
  /** A busy machine already blocked a start (its reason is kept while enough work is left). */
  busyBefore: boolean;
}

/**
 * The cases still to run, as the start policy estimates them: a cell not started counts at the
 * mean size of the cells the calling thread finished (sequential stopping ends most cells
 * before `runsPerCell`); the current cell at that size, less what it ran. Before any cell
 * finished, the wall basis counts `runsPerCell` per cell (its historical rule) and the guard
 * basis the current cell's cases so far (a lower bound: a fast guard whose first cell settles
 * early is never taken for a slow campaign). Pure.
 */
export function casesLeftEstimate(i: { basis: 'wall' | 'guard'; finishedCells: number; finishedCases: number; doneInCell: number; runsInCell: number; runsPerCell: number; cellsLeft: number }): number {
  const cellSize = i.finishedCells > 0 ? Math.min(i.runsPerCell, i.finishedCases / i.finishedCells) : i.basis === 'guard' ? Math.max(1, i.doneInCell) : i.runsPerCell;
  return Math.max(0, Math.min(i.runsInCell, cellSize) - i.doneInCell) + i.cellsLeft * cellSize;
}

/**
 * Whether worker threads pay now: `start` when at least `minRemainingMs` of work is left at
 * the measured rate, a cell is left to hand out, and a CPU is idle (load below `cpus − 0.5`).
 * Otherwise `reason` says why not (`undefined`: keep the reason given before). Pure.
 */
export function workerStartDecision(i: WorkerStartInput): { start: boolean; reason?: string; busy?: boolean } {
  const leftMs = i.msPerCase * i.casesLeft;
  const s = (ms: number): string => (ms / 1000).toFixed(1);
  const rate = i.basis === 'guard' ? `the guard's own time is ${i.msPerCase < 10 ? i.msPerCase.toFixed(2) : i.msPerCase.toFixed(1)} ms per case, about ${s(leftMs)} s of guard work left` : `about ${s(leftMs)} s of work left`;
  if (i.cellsLeft === 0) return { start: false, reason: `every cell was already running on the calling thread (${rate})` };
  if (leftMs < i.minRemainingMs) {
    if (i.busyBefore) return { start: false };
    return {
      start: false,
      reason:
        i.basis === 'guard'
          ? `${rate}, less than a worker thread needs to pay back its start-up (${(i.minRemainingMs / 1000).toFixed(0)} s of work left)`
          : `the campaign is about ${s(i.doneMs + leftMs)} s of work on one thread, less than a worker thread needs to pay back its start-up (${(i.minRemainingMs / 1000).toFixed(0)} s of work left)`,
    };
  }
  const cpus = Math.floor(i.cpus);
  if (!(i.load < cpus - 0.5)) return { start: false, busy: true, reason: `no CPU is idle (load average ${i.load.toFixed(2)} on ${cpus} CPU${cpus === 1 ? '' : 's'}): a worker thread would only share the CPUs already in use` };
  return { start: true, reason: `${rate}, load average ${i.load.toFixed(2)} on ${cpus} CPUs` };
}

/** What the start policy decided: `threads` worker threads ran (0: the calling thread alone), and why. */
export interface WorkerDecision {
  asked: number;
  threads: number;
  reason: string;
}

/**
 * Work left (ms) that pays for a worker thread: a worker takes about 1–3 s to start (it loads
 * the generators, templates and guard), and on 2 cores it must then win that back.
 */
export const WORKER_PAYBACK_MS = 5000;

/** Splits a campaign into its cell tasks, in cell order (no ports attached). */
export function cellTasks<G>(o: Pick<ParallelCampaignOptions<G>, 'cells' | 'guard' | 'phase' | 'runsPerCell' | 'seed' | 'maxFailures' | 'timeLimitMs' | 'workers' | 'cellMaxQueries' | 'shrinkBudget'>): CellTask<G>[] {
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
    ...(o.cellMaxQueries !== undefined ? { maxQueries: o.cellMaxQueries } : {}),
    ...(o.shrinkBudget !== undefined ? { shrinkBudget: o.shrinkBudget } : {}),
    guard: o.guard,
  }));
}

/** Builds the campaign outcome from cell outcomes in cell order (same shape as `runCampaign`). */
function mergeCellOutcomes(
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
 * The lanes of a parallel campaign: the lanes asked for (`workers`, at least 1), the worker
 * threads to start (one fewer with a local runner, never more than cells), and, with a start
 * policy (a local runner and no time limit), at most one lane per CPU; `notes` says why a
 * count was cut.
 */
function planLanes<G>(o: ParallelCampaignOptions<G>, cells: number): { wanted: number; threads: number; policy: WorkerStartPolicy | undefined; notes: string[] } {
  const wanted = Math.max(1, Math.floor(o.workers));
  // With a local runner the calling thread is one of the `workers` lanes: one thread fewer to start.
  let threads = Math.max(0, Math.min(o.local ? wanted - 1 : wanted, cells));
  const policy = o.local && o.timeLimitMs === undefined ? o.startPolicy : undefined;
  const notes: string[] = [];
  if (policy && threads > 0) {
    const cap = Math.max(0, Math.floor(policy.cpus) - 1);
    if (threads > cap) {
      notes.push(`this machine has ${policy.cpus} CPU${policy.cpus === 1 ? '' : 's'}, so at most ${cap + 1} ${cap === 0 ? 'lane runs' : 'lanes run'}`);
      threads = cap;
    }
  }
  return { wanted, threads, policy, notes };
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
  return new ParallelCampaign(o).run();
}

/** The cell runner of the calling thread (`ParallelCampaignOptions.local`). */
type LocalRunner<G> = NonNullable<ParallelCampaignOptions<G>['local']>;

/**
 * One parallel campaign's state: the tasks and who takes the next one, progress per cell, the
 * outcomes, the pool and its lanes, and the start policy's measurements. {@link run} drives it.
 */
class ParallelCampaign<G> {
  readonly #o: ParallelCampaignOptions<G>;
  readonly #started = performance.now();
  readonly #tasks: CellTask<G>[];
  readonly #wanted: number;
  readonly #threads: number;
  readonly #policy: WorkerStartPolicy | undefined;
  /** Why lane counts were cut or workers started, for `onWorkers`. */
  readonly #notes: string[];
  /** Tasks in flight per worker thread: two with a local lane (the calling thread is often busy in a synchronous cell and cannot hand out work). */
  readonly #prefetch: number;
  #pool: Piscina | undefined;
  /** Cases done per cell, as last reported. */
  readonly #perCell: number[];
  readonly #finished: boolean[];
  readonly #outcomes: Array<CellOutcome | undefined>;
  #total = 0;
  readonly #ports: MessagePort[] = [];
  #next = 0;
  #stopped = false;
  /** Pool lanes never reject: the first failure is kept and rethrown once every lane has stopped. */
  #failure: { error: unknown } | undefined;
  readonly #lanes: Promise<void>[] = [];
  // Start policy: the calling thread's own rate decides whether worker threads pay.
  #localMs = 0;
  #localCases = 0;
  #localCells = 0;
  #decided: boolean;
  #lastReason = '';
  #busy = false;

  constructor(o: ParallelCampaignOptions<G>) {
    this.#o = o;
    this.#tasks = cellTasks(o);
    const { wanted, threads, policy, notes } = planLanes(o, this.#tasks.length);
    this.#wanted = wanted;
    this.#threads = threads;
    this.#policy = policy;
    this.#notes = notes;
    this.#prefetch = o.local ? 2 : 1;
    this.#perCell = new Array<number>(this.#tasks.length).fill(0);
    this.#finished = new Array<boolean>(this.#tasks.length).fill(false);
    this.#outcomes = new Array<CellOutcome | undefined>(this.#tasks.length);
    this.#decided = !policy || threads === 0;
  }

  /** Runs every lane to the end, reports the workers decision, and merges the outcomes in cell order; the pool is destroyed and the ports closed in every case. */
  async run(): Promise<CampaignOutcome> {
    const o = this.#o;
    try {
      if (this.#threads > 0 && !this.#policy) this.#launch();
      if (o.local) {
        // The local lane may start the pool lanes; wait for it first, then for them.
        await this.#guarded(this.#localLane(o.local));
      }
      await Promise.all(this.#lanes);
      if (this.#failure) throw this.#failure.error;
      if (o.startPolicy && o.onWorkers) {
        const ran = this.#pool ? this.#threads : 0;
        const reason = [...this.#notes, ...(ran === 0 && this.#threads > 0 ? [this.#lastReason || 'no worker thread was needed'] : [])].join('; ');
        o.onWorkers({ asked: this.#wanted, threads: ran, reason });
      }
      const done = this.#outcomes.filter((x): x is CellOutcome => x !== undefined);
      if (done.length !== this.#tasks.length && !o.signal?.aborted) throw new EngineError(`parallel campaign: ${this.#tasks.length - done.length} cell(s) were not run`);
      return mergeCellOutcomes({ guardId: o.guardId, seed: o.seed, phase: o.phase, runsPerCell: o.runsPerCell, elapsedMs: performance.now() - this.#started }, done);
    } finally {
      this.#stopped = true;
      for (const p of this.#ports) p.close();
      await this.#pool?.destroy();
    }
  }

  /** Records that cell `index` has done `done` cases (ignored once it finished, or when not more than before) and reports progress. */
  #advance(index: number, done: number): void {
    if (this.#finished[index] || done <= (this.#perCell[index] ?? 0)) return;
    this.#total += done - (this.#perCell[index] ?? 0);
    this.#perCell[index] = done;
    this.#o.onProgress?.(this.#o.cells[index] as CellDescriptor, done);
    this.#o.onTotalProgress?.(this.#total);
  }

  /** The next task in cell order, or undefined once stopped (a failure, the campaign signal) or done. */
  #take(): CellTask<G> | undefined {
    return this.#stopped || this.#o.signal?.aborted ? undefined : this.#tasks[this.#next++];
  }

  /** Keeps a cell's outcome: the result is authoritative, progress messages still in flight are then ignored. */
  #settle(task: CellTask<G>, outcome: CellOutcome): void {
    this.#advance(task.index, outcome.stats.runs);
    this.#finished[task.index] = true;
    this.#outcomes[task.index] = outcome;
    this.#o.onCellEnd?.(outcome, task.index);
  }

  /** Stops handing out tasks. @throws EngineError naming the cell and where it failed. */
  #fail(task: CellTask<G>, where: string, cause: unknown): never {
    this.#stopped = true;
    throw new EngineError(`cell ${task.domain}/${task.family} failed ${where}: ${errorMessage(cause)}`, { cause });
  }

  /** A lane that never rejects: its failure is kept (the first one) and stops the campaign. */
  #guarded(p: Promise<void>): Promise<void> {
    return p.catch((error: unknown) => {
      this.#failure ??= { error };
      this.#stopped = true;
    });
  }

  /** Starts the worker threads and their lanes (`prefetch` lanes per thread). */
  #launch(): void {
    const o = this.#o;
    const pool = new Piscina({
      filename: o.workerFile instanceof URL ? o.workerFile.href : o.workerFile,
      minThreads: this.#threads,
      maxThreads: this.#threads,
      // With a local lane the calling thread is often busy in a synchronous cell and cannot
      // hand out work; two tasks in flight per worker keep the workers fed meanwhile.
      concurrentTasksPerWorker: this.#prefetch,
      idleTimeout: 1000,
      ...(o.execArgv ? { execArgv: o.execArgv } : {}),
      ...(o.workerData !== undefined ? { workerData: o.workerData } : {}),
    });
    this.#pool = pool;
    for (let i = 0; i < this.#threads * this.#prefetch; i++) this.#lanes.push(this.#guarded(this.#poolLane(pool)));
  }

  /**
   * With progress callbacks or a signal, gives `task` a port: the worker posts `{ done }` on it,
   * and the campaign signal posts `{ abort: true }`.
   * @returns the transfer list for the task, and the abort listener to remove once it ends.
   */
  #attachPort(task: CellTask<G>): { transferList?: MessagePort[]; stopCell?: () => void } {
    const o = this.#o;
    if (!(o.onProgress || o.onTotalProgress || o.signal)) return {};
    const { port1, port2 } = new MessageChannel();
    this.#ports.push(port1);
    const index = task.index;
    port1.on('message', (m: { done?: unknown }) => {
      if (typeof m.done === 'number') this.#advance(index, m.done);
    });
    let stopCell: (() => void) | undefined;
    if (o.signal) {
      stopCell = () => port1.postMessage({ abort: true });
      o.signal.addEventListener('abort', stopCell, { once: true });
    }
    task.progress = port2;
    return { transferList: [port2], ...(stopCell ? { stopCell } : {}) };
  }

  /** A pool lane: takes tasks in cell order and runs each on a worker thread until none is left. */
  async #poolLane(p: Piscina): Promise<void> {
    const o = this.#o;
    for (let task = this.#take(); task !== undefined; task = this.#take()) {
      const { transferList, stopCell } = this.#attachPort(task);
      o.onCellStart?.(o.cells[task.index] as CellDescriptor, task.index);
      let outcome: CellOutcome;
      try {
        outcome = (await p.run(task, transferList ? { transferList } : {})) as CellOutcome;
      } catch (cause) {
        this.#fail(task, 'in a worker', cause);
      } finally {
        if (stopCell) o.signal?.removeEventListener('abort', stopCell);
      }
      this.#settle(task, outcome!);
    }
  }

  /** The lane of the calling thread: takes tasks in cell order and runs each with `run`, measuring its rate for the start policy. */
  async #localLane(run: LocalRunner<G>): Promise<void> {
    const o = this.#o;
    // Let the pool lanes hand out their first tasks before this thread gets busy.
    await new Promise((r) => setImmediate(r));
    for (let task = this.#take(); task !== undefined; task = this.#take()) {
      // Yield to the event loop between cells, so that worker results are taken in and
      // workers get their next cells (a sync guard never yields inside a cell).
      await new Promise((r) => setImmediate(r));
      const index = task.index;
      const runs = task.runs;
      o.onCellStart?.(o.cells[index] as CellDescriptor, index);
      const cellStartedAt = performance.now();
      let outcome: CellOutcome;
      try {
        outcome = await run(
          task,
          (done) => {
            this.#advance(index, done);
            // A worker created here loads its modules on its own thread while this cell goes on.
            if (!this.#decided && (done & 127) === 0) this.#consider(cellStartedAt, done, runs);
          },
          o.signal,
        );
      } catch (cause) {
        this.#fail(task, 'in the calling thread', cause);
      }
      this.#localMs += performance.now() - cellStartedAt;
      this.#localCases += outcome!.stats.runs;
      this.#localCells += 1;
      this.#settle(task, outcome!);
      if (!this.#decided) this.#consider(performance.now(), 0, 0);
    }
  }

  /**
   * Start policy: asks {@link workerStartDecision} with the calling thread's measured rate
   * whether worker threads pay now, and starts them when they do; else keeps the reason.
   * `doneInCell` of `runsInCell` cases of the current cell (started at `cellStartedAt`) ran.
   */
  #consider(cellStartedAt: number, doneInCell: number, runsInCell: number): void {
    const policy = this.#policy;
    if (this.#decided || !policy) return;
    const cases = this.#localCases + doneInCell;
    if (cases === 0) return;
    const cellsLeft = this.#tasks.length - this.#next;
    const doneMs = policy.guardMs ? policy.guardMs() : this.#localMs + (performance.now() - cellStartedAt);
    const basis = policy.guardMs ? 'guard' : 'wall';
    const d = workerStartDecision({
      msPerCase: doneMs / cases,
      basis,
      doneMs,
      casesLeft: casesLeftEstimate({ basis, finishedCells: this.#localCells, finishedCases: this.#localCases, doneInCell, runsInCell, runsPerCell: this.#o.runsPerCell, cellsLeft }),
      cellsLeft,
      minRemainingMs: policy.minRemainingMs,
      cpus: policy.cpus,
      load: policy.loadAverage(),
      busyBefore: this.#busy,
    });
    if (d.busy) this.#busy = true;
    if (!d.start) {
      // Every cell already running keeps a reason given before.
      if (d.reason !== undefined && !(cellsLeft === 0 && this.#lastReason)) this.#lastReason = d.reason;
      return;
    }
    this.#decided = true;
    this.#notes.push(`started ${this.#threads} worker thread${this.#threads === 1 ? '' : 's'}: ${d.reason ?? ''}`);
    this.#launch();
  }
}

/**
 * Worker-side helper: an AbortSignal that aborts when the calling thread posts `{ abort: true }`
 * on the task's port (its campaign `signal` aborted). Undefined without a port.
 */
export function cellAbortSignal(port: MessagePort | undefined): AbortSignal | undefined {
  if (!port) return undefined;
  const controller = new AbortController();
  port.on('message', (m: { abort?: unknown }) => {
    if (m.abort === true) controller.abort();
  });
  return controller.signal;
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
