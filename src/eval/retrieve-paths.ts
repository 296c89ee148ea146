/**
 * Building blocks for a defense's retrieve path: a per-entry guard over the top-k (SENTINEL:
 * all five layers on retrieval, paper §IV), or a set-level filter over the whole top-k
 * (A-MemGuard's consensus over the retrieved memories).
 */
import type { Guard, MemoryEntry } from '../domain/index.js';
import type { RetrieveFn } from '../agents/index.js';

/** Retrieve path that checks each top-k entry with `guard` in the `retrieve` phase; non-admitted entries are dropped. */
export function guardRetrieve(guard: Guard): RetrieveFn {
  return async (store, query, k) => {
    const r = guard.mode === 'sync' ? store.retrieve(query, k, { guard }) : await store.retrieveAsync(query, k, { guard });
    return { entries: r.entries, dropped: r.dropped.length };
  };
}

/** A set-level filter: keeps a subset of the retrieved entries (in order). */
export type SetFilter = (entries: readonly MemoryEntry[], query: string) => MemoryEntry[] | Promise<MemoryEntry[]>;

/** Retrieve path that passes the whole top-k through a set-level filter. */
export function setFilterRetrieve(filter: SetFilter): RetrieveFn {
  return async (store, query, k) => {
    const found = store.search(query, k);
    const kept = await filter(found, query);
    return { entries: kept, dropped: found.length - kept.length };
  };
}
