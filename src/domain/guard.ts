/**
 * The guard contract. A guard sees a candidate entry and a read-only view of the memory
 * store, and returns a Verdict. Guards see only `src/domain`: never how attacks are built.
 */
import type { MemoryEntry, StoreName } from './entry.js';
import type { Verdict } from './verdict.js';

/** Write path (before commit) or retrieve path (before an entry reaches the agent); paper §IV. */
export type Phase = 'write' | 'retrieve';

/**
 * Read-only view of the memory store. Every method is served from an index: a guard
 * check never scans the whole store.
 */
export interface StoreView {
  /** Number of committed entries, in one store or both. */
  size(store?: StoreName): number;
  /**
   * Number of committed entries whose indexed keys include `key` (identifiers such as
   * `INT-EHR-7742`, lower-cased). Used by SENTINEL's s2 ("matching entries").
   */
  countByKey(key: string, store?: StoreName): number;
  /** Number of committed entries of one trace type. */
  countByTraceType(traceType: string, store?: StoreName): number;
  /**
   * Top-k committed entries most relevant to `query` (FTS5 bm25 in the SQLite store),
   * best first. Used by consensus guards such as A-MemGuard.
   */
  search(query: string, k: number, store?: StoreName): MemoryEntry[];
  /**
   * Committed entries holding at least one term of `query`, unranked and bounded: for each
   * distinct term (letter/digit runs, lower-cased, read as `search` reads them; at most 64),
   * up to `perTerm` of the newest entries holding it; de-duplicated, in order of first find.
   * Its cost grows with terms × `perTerm`, not with the store size, so a guard can rank these
   * few candidates itself (A-MemGuard ranks them by embedding cosine). Optional: a view without
   * it offers only `search`.
   */
  termMatches?(query: string, perTerm: number, store?: StoreName): MemoryEntry[];
}

/** An empty store, for checks with no history. */
export const EMPTY_STORE: StoreView = {
  size: () => 0,
  countByKey: () => 0,
  countByTraceType: () => 0,
  search: () => [],
};

/** What a guard sees besides the entry: the path under test (`write` or `retrieve`) and a read-only view of the store. */
export interface GuardContext {
  phase: Phase;
  store: StoreView;
}

/**
 * A guard under test.
 * - `mode: 'sync'` promises that `check` never returns a Promise (faster fuzzing);
 *   otherwise the engine awaits every result.
 * - `config` is the guard's full configuration (hashed into reports).
 * - `close()` releases subprocesses, sockets or pools.
 * - `concurrencyLimit` caps the calls in flight the engine starts for it (see the field).
 * - `cacheVerdicts: false` says the guard is stateful (its answer to the same entry over the
 *   same store can change, e.g. it learns from what it saw): the fuzz engine then asks it every
 *   time instead of serving a repeat from the run's verdict cache (as `--no-cache` does).
 */
export interface Guard {
  readonly id: string;
  readonly mode: 'sync' | 'async';
  readonly config?: unknown;
  readonly cacheVerdicts?: boolean;
  /**
   * The most calls in flight the guard gains from (e.g. 1 for a module guard whose inner
   * `check` is synchronous: it blocks the event loop, so calls drawn ahead only wait and, past
   * a failure, are queries spent for nothing). The engine uses min(`--concurrency`, this).
   */
  readonly concurrencyLimit?: number;
  /**
   * True when `check` bounds its own time (the HTTP, exec and module adapters, built with
   * `timeoutMs`): every call settles by itself, with an `error` verdict (`timeout`,
   * `unavailable`) when it must, after its own retries and its wait behind other checks of the
   * same input. The engine then puts no time bound of its own (`--timeout`) over the call: that
   * clock would start before the wait and the retries, and cut a slow but sound answer to a
   * `timeout` (a deterministic guard's re-checks, queued one after another, would look flaky).
   */
  readonly boundsOwnCalls?: boolean;
  check(entry: MemoryEntry, ctx: GuardContext): Verdict | Promise<Verdict>;
  close?(): void | Promise<void>;
}

/** A guard whose `check` answers synchronously (`mode: 'sync'`); the engine then needs no event-loop turn per case. */
export interface SyncGuard extends Guard {
  readonly mode: 'sync';
  check(entry: MemoryEntry, ctx: GuardContext): Verdict;
}

/** Builds a guard from options (a registry entry). */
export type GuardFactory = (options?: Record<string, unknown>) => Guard;

/**
 * True when the guard answers one call at a time: a sync guard, or one whose calls cannot
 * overlap (`concurrencyLimit` 1, as the module adapter gives a module whose `check` is
 * synchronous). Only worker threads can share such a guard's time (`fuzz --workers auto`).
 */
export function oneCallAtATime(guard: Pick<Guard, 'mode' | 'concurrencyLimit'>): boolean {
  return guard.mode === 'sync' || guard.concurrencyLimit === 1;
}
