/**
 * A copy-on-write layer over a committed memory store: the temporary entries of one fuzz
 * case (its history and the attacker writes the guard admitted) live in memory, and the
 * layer answers every `StoreView` read exactly as the SQLite store would with those entries
 * inserted. The committed store is never written, so many layers can be open at once (one
 * per case in flight) and none has to be rolled back.
 *
 * - `size`, `countByKey`, `countByTraceType`: the committed count plus this layer's count,
 *   kept in maps on insert (the same `extractKeys` the SQLite index uses).
 * - `search`: with no temporary entry it is the committed store's search; otherwise the
 *   layer's entries are put into SQLite inside a savepoint, the bm25 query runs, and the
 *   savepoint is rolled back, all synchronously (so the ranking, ties included, is SQLite's
 *   own). Only guards that search (e.g. A-MemGuard) pay for this. `termMatches` works the same
 *   way (the layer's entries are the newest, as they would be once inserted).
 * - Over an empty private in-memory store (the fuzz engine's), committed counts are known to
 *   be 0 and are not read; subject keys are extracted once per distinct text (a bounded memo).
 * - Ids: an id already committed, or already in the layer, in the same store part is a
 *   `StoreError` with the SQLite store's message.
 */
import { StoreError, extractKeys, isStoreName } from '../domain/index.js';
import type { MemoryEntry, StoreName, StoreView } from '../domain/index.js';

/** What a layer needs from the committed store under it. */
export interface OverlayBase {
  /** The database path, for error messages. */
  readonly path: string;
  /** Reads of the committed store. */
  readonly view: StoreView;
  /** True when `id` is committed in `store`. */
  has(store: StoreName, id: string): boolean;
  /** bm25 top-k over the committed entries plus `extra` (inserted in order), rolled back after. */
  searchWith(extra: readonly MemoryEntry[], query: string, k: number, store?: StoreName): MemoryEntry[];
  /** `termMatches` over the committed entries plus `extra` (inserted in order), rolled back after. */
  termMatchesWith(extra: readonly MemoryEntry[], query: string, perTerm: number, store?: StoreName): MemoryEntry[];
  /**
   * True when nothing is committed and nothing can be while the layer is open (a private
   * in-memory store): counts and id checks then skip SQLite.
   */
  readonly emptyForLayer?: boolean;
}

const STORES: readonly StoreName[] = ['reasoning', 'general'];

/** Memo of `extractKeys` by text (chains repeat history and attacker texts across shrinks and re-checks); cleared when full. */
const KEY_MEMO = new Map<string, readonly string[]>();
const KEY_MEMO_MAX = 20_000;

function keysOf(text: string): readonly string[] {
  let keys = KEY_MEMO.get(text);
  if (keys === undefined) {
    if (KEY_MEMO.size >= KEY_MEMO_MAX) KEY_MEMO.clear();
    keys = extractKeys(text);
    KEY_MEMO.set(text, keys);
  }
  return keys;
}

/** The view a guard reads: committed counts (unless known empty) plus the layer's. */
class OverlayView implements StoreView {
  readonly #layer: StoreOverlay;
  readonly #base: OverlayBase;
  readonly #empty: boolean;

  constructor(layer: StoreOverlay, base: OverlayBase, empty: boolean) {
    this.#layer = layer;
    this.#base = base;
    this.#empty = empty;
  }

  size(store?: StoreName): number {
    return (this.#empty ? 0 : this.#base.view.size(store)) + this.#layer.countSize(store);
  }

  countByKey(key: string, store?: StoreName): number {
    return (this.#empty ? 0 : this.#base.view.countByKey(key, store)) + this.#layer.countKey(key.toLowerCase(), store);
  }

  countByTraceType(traceType: string, store?: StoreName): number {
    return (this.#empty ? 0 : this.#base.view.countByTraceType(traceType, store)) + this.#layer.countTrace(traceType, store);
  }

  search(query: string, k: number, store?: StoreName): MemoryEntry[] {
    const extra = this.#layer.entries;
    return extra.length === 0 ? this.#base.view.search(query, k, store) : this.#base.searchWith(extra, query, k, store);
  }

  termMatches(query: string, perTerm: number, store?: StoreName): MemoryEntry[] {
    const extra = this.#layer.entries;
    return extra.length === 0 ? (this.#base.view.termMatches?.(query, perTerm, store) ?? []) : this.#base.termMatchesWith(extra, query, perTerm, store);
  }
}

/** True when `store` (absent: every part) covers the part `s`; an unknown part covers nothing. */
function covers(store: StoreName | undefined, s: StoreName): boolean {
  return store === undefined || store === s;
}

/**
 * One case's temporary state over a committed store. Create it with
 * `MemoryStore.overlay(setup)`; drop it when the case is done (nothing to roll back).
 *
 * Counts are indexed lazily, since most checks read few of them (SENTINEL reads the store only
 * when a count is claimed): sizes are kept on insert; trace types are tallied on the first
 * `countByTraceType`; `countByKey(k)` looks at the layer's entries whose lower-cased text
 * contains `k` (a key is a lower-cased piece of its text, so no other entry can hold it) and
 * counts those whose `extractKeys` list has it, exactly as the SQLite index does.
 * @example
 * const layer = store.overlay(history);
 * const v = guard.check(write, { phase: 'write', store: layer.view });
 * if (v.decision === 'admit') layer.insert(write);
 */
export class StoreOverlay {
  /** The view a guard receives: committed entries plus this layer's. */
  readonly view: StoreView;
  readonly #base: OverlayBase;
  readonly #entries: MemoryEntry[] = [];
  /** Lower-cased texts of `#entries[0 .. #lowered.length)`, filled on the first key count. */
  readonly #lowered: string[] = [];
  readonly #ids: Record<StoreName, Set<string>> = { reasoning: new Set(), general: new Set() };
  readonly #sizes: Record<StoreName, number> = { reasoning: 0, general: 0 };
  /** Trace-type tallies of `#entries[0 .. #tracesIndexed)`, built on the first trace count. */
  readonly #traces = new Map<string, number>();
  #tracesIndexed = 0;
  readonly #empty: boolean;

  /**
   * @throws StoreError (with the SQLite store's message) when two `setup` entries share a
   *   store part and id, one is already committed, or one names an unknown store part.
   */
  constructor(base: OverlayBase, setup: readonly MemoryEntry[] = []) {
    this.#base = base;
    if (setup.length > 1) {
      const seen = new Set<string>();
      for (const e of setup) {
        const k = `${e.store}\u0000${e.id}`;
        if (seen.has(k)) throw new StoreError(`${base.path}: entry id ${JSON.stringify(e.id)} appears twice in one insert batch (${e.store} store)`);
        seen.add(k);
      }
    }
    this.#empty = base.emptyForLayer === true;
    for (const e of setup) this.insert(e);
    this.view = new OverlayView(this, base, this.#empty);
  }

  /** Entries in this layer, in insertion order. */
  get entries(): readonly MemoryEntry[] {
    return this.#entries;
  }

  /** This layer's entries in `store` (absent: both parts). */
  countSize(store?: StoreName): number {
    if (store === undefined) return this.#sizes.reasoning + this.#sizes.general;
    return isStoreName(store) ? this.#sizes[store] : 0;
  }

  /** This layer's entries in `store` whose subject keys include `key` (lower-cased). */
  countKey(key: string, store?: StoreName): number {
    if (store !== undefined && !isStoreName(store)) return 0;
    const entries = this.#entries;
    const lowered = this.#lowered;
    for (let i = lowered.length; i < entries.length; i++) lowered.push((entries[i] as MemoryEntry).content.toLowerCase());
    let n = 0;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i] as MemoryEntry;
      if (covers(store, e.store) && (lowered[i] as string).includes(key) && keysOf(e.content).includes(key)) n += 1;
    }
    return n;
  }

  /** This layer's entries in `store` of trace type `traceType`. */
  countTrace(traceType: string, store?: StoreName): number {
    if (store !== undefined && !isStoreName(store)) return 0;
    const entries = this.#entries;
    for (; this.#tracesIndexed < entries.length; this.#tracesIndexed++) {
      const e = entries[this.#tracesIndexed] as MemoryEntry;
      const t = `${e.store}\u0000${e.traceType}`;
      this.#traces.set(t, (this.#traces.get(t) ?? 0) + 1);
    }
    let n = 0;
    for (const s of STORES) if (covers(store, s)) n += this.#traces.get(`${s}\u0000${traceType}`) ?? 0;
    return n;
  }

  /**
   * Adds one entry to this layer (the committed store is untouched).
   * @throws StoreError when the id is taken in that store part, or the part is unknown.
   */
  insert(e: MemoryEntry): void {
    const base = this.#base;
    if (!isStoreName(e.store)) throw new StoreError(`${base.path}: entry ${JSON.stringify(e.id)} has an unknown store ${JSON.stringify(e.store)}`);
    const ids = this.#ids[e.store];
    if (ids.has(e.id) || (!this.#empty && base.has(e.store, e.id))) {
      throw new StoreError(`${base.path}: entry id ${JSON.stringify(e.id)} is already in the ${e.store} store`);
    }
    ids.add(e.id);
    this.#entries.push(e);
    this.#sizes[e.store] += 1;
  }
}
