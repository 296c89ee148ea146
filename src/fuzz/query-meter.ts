/**
 * Guard-query accounting and the verdict cache of one run.
 *
 * - A **query** is one `guard.check` call that reached the guard: the case's entry, and each
 *   attacker setup write checked before it. A call the cache answers is a **cache hit**, not a
 *   query (TextAttack's goal function counts queries the same way: its model cache serves repeats
 *   before the query budget is charged).
 * - Queries are tallied by **phase**: `cases` (the counted cases of property mode), `shrink`
 *   (shrink candidates), `recheck` (re-checks of findings), `attack` (attack mode of the adaptive
 *   family), `real` (the real benign sets) and `loso` (the leave-one-source-out check).
 * - The **cache** maps (guard path, the store state the guard reads, the entry) to a verdict, so an
 *   identical request is asked once per run. The store state is the case's history and the
 *   attacker writes admitted before this call, in order, over the committed store (which the
 *   engine never writes). Like promptfoo's provider cache it is keyed on everything the callee
 *   sees, and can be turned off (`--no-cache`, or `cacheVerdicts: false` on a stateful guard).
 *   `error` verdicts are never cached (a timeout or an unreachable guard may answer next time).
 *   Re-checks never read it: they exist to ask the guard again.
 */
import { hash } from 'node:crypto';
import type { MemoryEntry } from '../domain/entry.js';
import type { Guard } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { isTrustedGuard, markTrustedGuard } from '../domain/trusted-guard.js';

/** The phases a run spends guard queries on, in report order. */
export const QUERY_PHASES = ['cases', 'shrink', 'recheck', 'attack', 'real', 'loso'] as const;
export type QueryPhase = (typeof QUERY_PHASES)[number];

/** Queries that reached the guard, and requests the cache answered instead. */
export interface QueryTally {
  queries: number;
  cacheHits: number;
}

export function emptyTally(): QueryTally {
  return { queries: 0, cacheHits: 0 };
}

/** Tallies per phase (every phase present, zeros included). */
export type PhaseTallies = Record<QueryPhase, QueryTally>;

export function emptyPhaseTallies(): PhaseTallies {
  return Object.fromEntries(QUERY_PHASES.map((p) => [p, emptyTally()])) as PhaseTallies;
}

/** Sum over phases. */
export function totalOf(t: Partial<PhaseTallies>): QueryTally {
  const out = emptyTally();
  for (const p of QUERY_PHASES) {
    out.queries += t[p]?.queries ?? 0;
    out.cacheHits += t[p]?.cacheHits ?? 0;
  }
  return out;
}

/** Default bound on cached verdicts per run (oldest dropped first). */
const DEFAULT_CACHE_ENTRIES = 100_000;

/** What the guard is given, as one string: every field it can read. */
export function entryKey(e: MemoryEntry): string {
  return JSON.stringify([e.id, e.store, e.source, e.trust, e.traceType, e.timestamp, e.content, e.metadata ?? null]);
}

/** The store state key of a layer that holds `entries` (in order) over the committed store. */
export function stateKeyOf(entries: readonly MemoryEntry[]): string {
  if (entries.length === 0) return '';
  let s = '';
  for (const e of entries) s += `${entryKey(e)}\n`;
  return hash('sha1', s, 'base64');
}

/** The state key after one more entry is committed on top of `state`. */
export function nextStateKey(state: string, e: MemoryEntry): string {
  return hash('sha1', `${state}\n${entryKey(e)}`, 'base64');
}

/**
 * Verdicts of one run, keyed by request. Async guards share an entry while its call is in
 * flight, so two cases in flight that need the same verdict cost one query.
 * Insertion-ordered and bounded: past `maxEntries` the oldest verdict is dropped.
 */
export class VerdictCache {
  readonly #map = new Map<string, Verdict | Promise<Verdict>>();
  readonly #max: number;

  constructor(maxEntries = DEFAULT_CACHE_ENTRIES) {
    this.#max = Math.max(1, Math.floor(maxEntries));
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: string): Verdict | Promise<Verdict> | undefined {
    return this.#map.get(key);
  }

  set(key: string, v: Verdict | Promise<Verdict>): void {
    if (this.#map.size >= this.#max) {
      const oldest = this.#map.keys().next();
      if (!oldest.done) this.#map.delete(oldest.value);
    }
    this.#map.set(key, v);
  }

  delete(key: string): void {
    this.#map.delete(key);
  }
}

/** How one evaluation counts its guard calls, and the cache it may read (none for re-checks). */
export interface QueryHooks {
  tally: QueryTally;
  cache?: VerdictCache | undefined;
}

/** True unless the guard declares itself stateful (`cacheVerdicts: false`): its verdicts may then be cached. */
export function guardCacheable(guard: Guard): boolean {
  return guard.cacheVerdicts !== false;
}

/** A served verdict: the guard spent no time on it. */
export function fromCache(v: Verdict): Verdict {
  return v.elapsedUs === 0 ? v : { ...v, elapsedUs: 0 };
}

/** A cost line, e.g. `12,345 queries × 0.002 = 24.69`. Amount in the user's unit. */
export function costOf(queries: number, costPerQuery: number): number {
  return Math.round(queries * costPerQuery * 1e6) / 1e6;
}

/**
 * The same guard, with every `check` call counted in `tally.queries` (for phases whose code
 * calls the guard directly: attack mode, the real sets, the leave-one-source-out check). A
 * pass-through of a built-in guard stays trusted: its verdicts are the built-in guard's own.
 */
export function countingGuard(guard: Guard, tally: QueryTally): Guard {
  return sameGuardWith(guard, (entry, ctx) => {
    tally.queries += 1;
    return guard.check(entry, ctx);
  });
}

/**
 * `guard` with another `check` (a wrapper that calls the guard's own): its id, mode, config,
 * cache opt-out and concurrency limit kept, and a built-in guard's trust mark with them.
 */
function sameGuardWith(guard: Guard, check: Guard['check']): Guard {
  const wrapped = {
    id: guard.id,
    mode: guard.mode,
    ...(guard.config !== undefined ? { config: guard.config } : {}),
    ...(guard.cacheVerdicts !== undefined ? { cacheVerdicts: guard.cacheVerdicts } : {}),
    ...(guard.concurrencyLimit !== undefined ? { concurrencyLimit: guard.concurrencyLimit } : {}),
    ...(guard.boundsOwnCalls === true ? { boundsOwnCalls: true } : {}),
    check,
  } as Guard;
  return isTrustedGuard(guard) ? markTrustedGuard(wrapped) : wrapped;
}

/**
 * The same guard, with the wall time of every `check` call (until its promise settles, for an
 * async guard) added to `meter.ms`: the guard's own time, without generation or the engine.
 * A pass-through of a built-in guard stays trusted.
 */
export function timedGuard(guard: Guard, meter: { ms: number }): Guard {
  return sameGuardWith(guard, ((entry, ctx) => {
    const t0 = performance.now();
    let out: Verdict | Promise<Verdict>;
    try {
      out = guard.check(entry, ctx);
    } catch (e) {
      meter.ms += performance.now() - t0;
      throw e;
    }
    if (typeof (out as { then?: unknown }).then === 'function') return Promise.resolve(out).finally(() => (meter.ms += performance.now() - t0));
    meter.ms += performance.now() - t0;
    return out;
  }) as Guard['check']);
}

/**
 * What a fuzz run spent outside property mode (attack mode, real sets, leave-one-source-out),
 * with the wall time of each phase (ms), whether the cache was on, the budget and the price.
 * Property mode's spending is in each cell outcome (`CellOutcome.queries`).
 */
export interface RunSpend {
  attack: QueryTally;
  real: QueryTally;
  loso: QueryTally;
  ms: { attack: number; real: number; loso: number };
  cache: boolean;
  maxQueries?: number;
  costPerQuery?: number;
}
