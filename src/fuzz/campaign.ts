/**
 * A campaign: property mode over a list of cells (domain × family), against one guard.
 * Generic over guards and generators: both arrive as parameters (DESIGN.md, layout).
 */
import { RUN_DEFAULTS } from '../domain/defaults.js';
import type fc from 'fast-check';
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { ScratchStore } from './evaluate.js';
import { runCell, type CellOutcome, type CellStopRule } from './property.js';
import type { VerdictCache } from './query-meter.js';

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
  /** Re-checks of each finding (default 3); see `CellOptions.recheck`. */
  recheck?: number;
  /** The run's verdict cache (none: every request reaches the guard). */
  cache?: VerdictCache;
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

/** Runs every cell in order. Results depend only on the seed, the cells and the guard. */
export async function runCampaign(o: CampaignOptions): Promise<CampaignOutcome> {
  const started = performance.now();
  const cells: CellOutcome[] = [];
  for (const [i, cell] of o.cells.entries()) {
    if (o.signal?.aborted) break;
    o.onCellStart?.(cell, i);
    const cellBound = o.cellTimeLimitMs ?? DEFAULT_CELL_TIME_MS;
    let timeLimitMs: number | undefined = Number.isFinite(cellBound) ? cellBound : undefined;
    if (o.timeLimitMs !== undefined) {
      const left = o.timeLimitMs - (performance.now() - started);
      const share = Math.max(1, left / (o.cells.length - i));
      timeLimitMs = timeLimitMs === undefined ? share : Math.min(timeLimitMs, share);
    }
    const outcome = await runCell({
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
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
      ...(o.recheck !== undefined ? { recheck: o.recheck } : {}),
      ...(cell.examples ? { examples: cell.examples } : {}),
      ...(o.cache ? { cache: o.cache } : {}),
      ...(o.stop ? { stop: o.stop } : {}),
      ...(o.cellMaxQueries !== undefined ? { maxQueries: o.cellMaxQueries } : {}),
      ...(o.shrinkBudget !== undefined ? { shrinkBudget: o.shrinkBudget } : {}),
      onProgress: (done) => o.onProgress?.(cell, done),
    });
    cells.push(outcome);
    o.onCellEnd?.(outcome, i);
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
