/**
 * A campaign: property mode over a list of cells (domain × family), against one guard.
 * Generic over guards and generators: both arrive as parameters (DESIGN.md, layout).
 */
import { RUN_DEFAULTS } from '../domain/defaults.js';
import type fc from 'fast-check';
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { ScratchStore } from './evaluate.js';
import PQueue from 'p-queue';
import { callConcurrency, runCell, type CellOutcome, type CellStopRule } from './property.js';
import { VerdictCache } from './query-meter.js';
import { EngineError } from '../domain/errors.js';

/** One cell of a campaign: a domain, a family, its arbitrary, and optional cases tried first. */
export interface CellSpec {
  domain: string;
  family: string;
  arbitrary: fc.Arbitrary<FuzzCase>;
  examples?: FuzzCase[];
}

/** Options of `runCampaign`: the guard, the cells, a scratch store, the path, runs per cell and the seed. */
export interface CampaignOptions {
  guard: Guard;
  cells: CellSpec[];
  store: ScratchStore;
  phase: Phase;
  runsPerCell: number;
  seed: number;
  maxFailures?: number;
  /** Whole-campaign wall-clock budget, ms, shared evenly by the cells still to run. */
  timeLimitMs?: number;
  /** Time bound per async guard call, ms (timeouts are `error` verdicts). */
  timeoutMs?: number;
  /**
   * Wall-clock bound for each cell, ms (default {@link DEFAULT_CELL_TIME_MS}): a cell that
   * reaches it stops and reports `interrupted`, with the cases run so far. It keeps a guard
   * that crashes or hangs from holding one cell for ever. `Infinity` removes the bound.
   */
  cellTimeLimitMs?: number;
  /** Guard calls in flight for an async guard (default 8); results are identical for any value. */
  concurrency?: number;
  /**
   * Cells run at once when an async guard has calls in flight (default: the calls in flight, at
   * most {@link DEFAULT_CELLS_IN_FLIGHT}; 1 for a sync guard); results are identical for any value.
   */
  cellsInFlight?: number;
  /** Re-checks of each finding (default 3); see `CellOptions.recheck`. */
  recheck?: number;
  /**
   * Verdict caching on (default off: every request reaches the guard). Each cell has a cache of
   * its own, so a cell's queries do not depend on which cells ran before it or beside it. Cells
   * seldom repeat a request of another cell (their entry ids name the domain): against SENTINEL
   * at `--seed 1 --runs 200`, one cache per cell spent the same 11,837 queries as one per run.
   */
  cache?: boolean;
  /** Sequential stopping of every cell (see `CellStopRule`); none: each cell runs `runsPerCell` cases. */
  stop?: CellStopRule;
  /** Guard queries each cell may spend (cases, shrinking, re-checks), e.g. its share of `--max-queries`. */
  cellMaxQueries?: number;
  /** Guard queries one shrink may spend. */
  shrinkBudget?: number;
  /** Stops the campaign between batches; the cells run so far are returned. */
  signal?: AbortSignal;
  onCellStart?: (cell: CellSpec, index: number) => void;
  onProgress?: (cell: CellSpec, done: number) => void;
  onCellEnd?: (outcome: CellOutcome, index: number) => void;
}

/** Every cell's outcome of one campaign, with its guard id, seed, path and time in ms. */
export interface CampaignOutcome {
  guardId: string;
  seed: number;
  phase: Phase;
  runsPerCell: number;
  cells: CellOutcome[];
  elapsedMs: number;
  /** Cases evaluated (not counting shrinks). */
  totalRuns: number;
  /** True when any cell's invariant was violated or errored. */
  failed: boolean;
}

/** Default per-cell time bound: 10 minutes. */
const DEFAULT_CELL_TIME_MS = RUN_DEFAULTS.cellTimeS * 1000;

/** FNV-1a 32-bit over a string: a stable per-cell seed derivation. */
export function cellSeed(seed: number, domain: string, family: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (const ch of `${domain}/${family}`) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Most cells that run at once against an async guard with calls in flight (see {@link runCampaign}).
 * Measured on 2026-12-04 against the 20 ms HTTP fixture (`test/fixtures/guards/slow-http-guard.mjs`)
 * at `--concurrency 8`, with the same report.json every time:
 * - the default 18 cells, `--runs 100 --seed 1`: cells took 39.0 / 32.6 / 31.3 / 29.3 / 25.8 / 25.5 s
 *   with 1 / 2 / 3 / 4 / 6 / 8 cells at once;
 * - seed and benign of ehr and rap, `--runs 300 --exhaustive`: 6.5 s with one, 5.0 s with 2 to 4.
 */
const DEFAULT_CELLS_IN_FLIGHT = 6;

/**
 * Runs the cells in order. Results depend only on the seed, the cells and the guard.
 *
 * Against an async guard with calls in flight (`concurrency` > 1), up to `cellsInFlight` cells
 * (default: as many as the calls in flight, at most {@link DEFAULT_CELLS_IN_FLIGHT}) run at once and share one limiter of `concurrency`
 * calls. An earlier cell's calls always go first, so a later cell only takes the call slots the
 * earlier one leaves free (its shrinking and re-checks ask one case at a time). Each cell has
 * its own verdict cache and its own seed, so its outcome is the same as when it runs alone, and
 * the callbacks see the cells in order: a cell's `onCellStart` and progress come once every
 * earlier cell has ended. Its time bound starts then too (`CellOptions.leads`).
 *
 * Ctrl-C (`signal`) returns the cells up to the one leading, as one at a time would: the cells
 * that ran ahead are stopped and dropped, and their queued guard calls never start (nor those
 * of the cells after a failed one).
 *
 * @throws what `runCell` throws for the first cell in order whose generator failed, once every
 *   earlier cell has ended (the later cells are stopped first)
 */
export async function runCampaign(o: CampaignOptions): Promise<CampaignOutcome> {
  const started = performance.now();
  const n = o.cells.length;
  const calls = callConcurrency(o.guard, o.concurrency);
  const inFlight = Math.max(1, Math.min(n, Math.floor(o.cellsInFlight ?? Math.min(calls, DEFAULT_CELLS_IN_FLIGHT))));
  const cellBound = o.cellTimeLimitMs ?? DEFAULT_CELL_TIME_MS;
  /** The time bound of cell `i` from now: the per-cell bound, or its share of what is left of the campaign's. */
  const boundOf = (i: number): number | undefined => {
    let ms: number | undefined = Number.isFinite(cellBound) ? cellBound : undefined;
    if (o.timeLimitMs !== undefined) {
      const share = Math.max(1, (o.timeLimitMs - (performance.now() - started)) / (n - i));
      ms = ms === undefined ? share : Math.min(ms, share);
    }
    return ms;
  };
  const queue = inFlight > 1 ? new PQueue({ concurrency: calls }) : undefined;
  // Later cells are stopped when an earlier one fails to generate; Ctrl-C reaches them all.
  const stopAll = new AbortController();
  const forward = (): void => stopAll.abort();
  if (inFlight > 1) o.signal?.addEventListener('abort', forward, { once: true });
  const signal = inFlight > 1 ? stopAll.signal : o.signal;
  let lead = 0;
  /** The last cell whose outcome the campaign returns (once stopped, later cells' queued calls never start). */
  let kept = -1;
  const lastDone: number[] = [];
  const gates = new Map<number, (ms: number | undefined) => void>();
  const running: Promise<{ ok: CellOutcome } | { error: unknown }>[] = [];
  /** A queued call of cell `i`, unless the campaign stopped and will not return that cell. */
  const callUnlessDropped = async <T,>(i: number, fn: () => Promise<T>): Promise<T> => {
    if (stopAll.signal.aborted && i > kept) throw new EngineError('the campaign stopped before this guard call started');
    return fn();
  };
  const launch = (i: number): void => {
    const cell = o.cells[i] as CellSpec;
    const leads = i === lead ? undefined : new Promise<number | undefined>((resolve) => gates.set(i, resolve));
    const timeLimitMs = boundOf(i);
    const run = runCell({
      domain: cell.domain,
      family: cell.family,
      arbitrary: cell.arbitrary,
      guard: o.guard,
      store: o.store,
      phase: o.phase,
      runs: o.runsPerCell,
      seed: cellSeed(o.seed, cell.domain, cell.family),
      ...(o.maxFailures !== undefined ? { maxFailures: o.maxFailures } : {}),
      ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
      ...(leads ? { leads } : {}),
      ...(queue ? { limit: <T,>(fn: () => Promise<T>): Promise<T> => queue.add(() => callUnlessDropped(i, fn), { priority: n - i }) } : {}),
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      ...(signal ? { signal } : {}),
      ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
      ...(o.recheck !== undefined ? { recheck: o.recheck } : {}),
      ...(cell.examples ? { examples: cell.examples } : {}),
      ...(o.cache ? { cache: new VerdictCache() } : {}),
      ...(o.stop ? { stop: o.stop } : {}),
      ...(o.cellMaxQueries !== undefined ? { maxQueries: o.cellMaxQueries } : {}),
      ...(o.shrinkBudget !== undefined ? { shrinkBudget: o.shrinkBudget } : {}),
      onProgress: (done) => {
        lastDone[i] = done;
        if (i === lead) o.onProgress?.(cell, done);
      },
    });
    running[i] = run.then(
      (ok) => ({ ok }),
      (error: unknown) => ({ error }),
    );
  };
  const cells: CellOutcome[] = [];
  try {
    for (; lead < n; lead++) {
      // As one at a time: after Ctrl-C no further cell is reported (a cell that ran ahead is dropped).
      if (o.signal?.aborted) break;
      kept = lead;
      const cell = o.cells[lead] as CellSpec;
      o.onCellStart?.(cell, lead);
      if (running[lead] === undefined) launch(lead);
      else {
        gates.get(lead)?.(boundOf(lead));
        const done = lastDone[lead];
        if (done !== undefined) o.onProgress?.(cell, done);
      }
      for (let j = lead + 1; j < Math.min(n, lead + inFlight); j++) if (running[j] === undefined && !signal?.aborted) launch(j);
      const settled = await (running[lead] as Promise<{ ok: CellOutcome } | { error: unknown }>);
      if ('error' in settled) throw settled.error;
      cells.push(settled.ok);
      o.onCellEnd?.(settled.ok, lead);
    }
  } finally {
    // Nothing runs on once the campaign returns: stop the later cells and wait for them.
    const rest = running.slice(lead).filter((r) => r !== undefined);
    if (rest.length > 0) {
      stopAll.abort();
      for (const [, open] of gates) open(undefined);
      await Promise.all(rest);
    }
    o.signal?.removeEventListener('abort', forward);
  }
  const totalRuns = cells.reduce((a, c) => a + c.stats.runs, 0);
  return {
    guardId: o.guard.id,
    seed: o.seed,
    phase: o.phase,
    runsPerCell: o.runsPerCell,
    cells,
    elapsedMs: performance.now() - started,
    totalRuns,
    failed: cells.some((c) => c.stats.violations > 0 || c.stats.errors > 0),
  };
}
