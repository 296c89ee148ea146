/**
 * Evaluates one case against a guard: puts `setup` in a layer of its own over the committed
 * store (history directly, attacker writes through the guard), checks `entry` on the chosen
 * path, then drops the layer. A guard that throws yields an `error` verdict;
 * nothing a guard does is ever counted as a rejection unless it says `reject`.
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase, StoreView } from '../domain/guard.js';
import type { MemoryEntry } from '../domain/entry.js';
import { errorVerdict, type Verdict } from '../domain/verdict.js';
import { checkedVerdict } from '../domain/verdict-schema.js';
import { isTrustedGuard } from '../domain/trusted-guard.js';
import { entryKey, fromCache, nextStateKey, stateKeyOf, type QueryHooks } from './query-meter.js';

/** One case's temporary store state: the view a guard reads, and the commit of an admitted write. */
interface ScratchLayer {
  readonly view: StoreView;
  insert(entry: MemoryEntry): void;
}

/**
 * What the engine needs from a memory store: run a check on top of `setup`, then forget it.
 * With `overlay` (the SQLite `MemoryStore` has it), each case gets its own in-memory layer
 * over the committed store: no write per case, and cases in flight at once never see each
 * other's entries. Without it, the engine falls back to `scratch`/`scratchAsync` + `insert`
 * (one case at a time, rolled back).
 */
export interface ScratchStore {
  /** A fresh copy-on-write layer holding `setup` (see `StoreOverlay`). */
  overlay?(setup: readonly MemoryEntry[]): ScratchLayer;
  scratch<T>(setup: readonly MemoryEntry[], fn: (view: StoreView) => T): T;
  scratchAsync<T>(setup: readonly MemoryEntry[], fn: (view: StoreView) => Promise<T>): Promise<T>;
  /** Commits one entry inside the current scratch (rolled back with it). */
  insert(entry: MemoryEntry): void;
  /** The store as it is outside any scratch (used as is when a case has no setup). */
  readonly view: StoreView;
}

/** Runs `fn` on a layer holding `setup`: an overlay when the store has one, else a rolled-back scratch. */
function withLayer<T>(store: ScratchStore, setup: readonly MemoryEntry[], fn: (layer: ScratchLayer) => T): T {
  if (store.overlay) return fn(store.overlay(setup));
  return store.scratch(setup, (view) => fn({ view, insert: (e) => store.insert(e) }));
}

function withLayerAsync<T>(store: ScratchStore, setup: readonly MemoryEntry[], fn: (layer: ScratchLayer) => Promise<T>): Promise<T> {
  if (store.overlay) {
    let layer: ScratchLayer;
    try {
      layer = store.overlay(setup);
    } catch (e) {
      return Promise.reject(e);
    }
    return fn(layer);
  }
  return store.scratchAsync(setup, (view) => fn({ view, insert: (e) => store.insert(e) }));
}

/** Splits `setup` into history (committed directly) and the attacker's earlier writes (through the guard). */
export function splitSetup(c: FuzzCase): { history: MemoryEntry[]; attacker: MemoryEntry[] } {
  const setup = c.setup ?? [];
  const n = Math.min(setup.length, Math.max(0, c.truth.attackerSetup ?? 0));
  return { history: setup.slice(0, setup.length - n), attacker: setup.slice(setup.length - n) };
}

function describeThrow(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/**
 * Every answer goes through the one verdict schema (off-shape is `malformed`), except those of
 * a built-in guard object from the registry: typed in-process values, not an edge (see
 * `src/domain/trusted-guard.ts`).
 */
function checked(value: unknown, guard: Guard): Verdict {
  return isTrustedGuard(guard) ? (value as Verdict) : checkedVerdict(value, `guard ${guard.id}`);
}

/**
 * Sync evaluation, for guards with `mode: 'sync'`. With `hooks`, every guard call is counted in
 * `hooks.tally` and, when `hooks.cache` is given, a request already answered in this run (same
 * path, same store state, same entry) is served from it (src/fuzz/query-meter.ts).
 */
export function evaluateSync(guard: Guard, c: FuzzCase, store: ScratchStore, phase: Phase, hooks?: QueryHooks): Verdict {
  const { history, attacker } = splitSetup(c);
  if (history.length === 0 && attacker.length === 0) return askSync(guard, c.entry, { phase, store: store.view }, hooks, '');
  const partsFrom = attacker.length - Math.max(0, (c.truth.claimParts ?? 1) - 1);
  return withLayer(store, history, (layer) => {
    const view = layer.view;
    let state = hooks?.cache ? stateKeyOf(history) : '';
    let partRejected: Verdict | undefined;
    for (const [i, e] of attacker.entries()) {
      const v = askSync(guard, e, { phase: 'write', store: view }, hooks, state);
      if (v.decision === 'admit') {
        layer.insert(e);
        if (hooks?.cache) state = nextStateKey(state, e);
      } else if (i >= partsFrom && v.decision === 'reject') partRejected ??= v;
    }
    const final = askSync(guard, c.entry, { phase, store: view }, hooks, state);
    return partRejected && final.decision === 'admit' ? splitRejected(partRejected, final) : final;
  });
}

/** The key of one request in the verdict cache: guard path, store state, entry. */
function requestKey(phase: Phase, state: string, e: MemoryEntry): string {
  return `${phase}\u0000${state}\u0000${entryKey(e)}`;
}

/** One sync guard call, counted and cached as `hooks` says (none: a plain call). */
function askSync(guard: Guard, e: MemoryEntry, ctx: { phase: Phase; store: StoreView }, hooks: QueryHooks | undefined, state: string): Verdict {
  if (!hooks) return checkSync(guard, e, ctx.store, ctx.phase);
  const cache = hooks.cache;
  if (!cache) {
    hooks.tally.queries += 1;
    return checkSync(guard, e, ctx.store, ctx.phase);
  }
  const key = requestKey(ctx.phase, state, e);
  const hit = cache.get(key);
  if (hit !== undefined && !(hit instanceof Promise)) {
    hooks.tally.cacheHits += 1;
    return fromCache(hit);
  }
  hooks.tally.queries += 1;
  const v = checkSync(guard, e, ctx.store, ctx.phase);
  if (v.decision !== 'error') cache.set(key, v);
  return v;
}

/** A split claim counts as rejected when one of its parts was: report that part's verdict. */
function splitRejected(part: Verdict, final: Verdict): Verdict {
  return { ...part, reasons: ['an earlier part of this split claim was rejected', ...part.reasons], elapsedUs: part.elapsedUs + final.elapsedUs };
}

function checkSync(guard: Guard, entry: MemoryEntry, view: StoreView, phase: Phase): Verdict {
  try {
    const out = guard.check(entry, { phase, store: view });
    if (out instanceof Promise) {
      out.catch(() => undefined);
      return errorVerdict('malformed', `guard ${guard.id} declared mode 'sync' but returned a Promise`);
    }
    return checked(out, guard);
  } catch (e) {
    return errorVerdict('threw', describeThrow(e));
  }
}

/**
 * Runs one async guard call with an optional time bound (ms): past it, the result is an
 * `error` verdict of kind `timeout` (never a rejection). The guard's promise is left to settle.
 * A guard that bounds its own calls (`boundsOwnCalls`: the adapters) gets no bound here.
 */
async function bounded(guard: Guard, entry: FuzzCase['entry'], ctx: Parameters<Guard['check']>[1], timeoutMs?: number): Promise<Verdict> {
  if (timeoutMs === undefined || guard.boundsOwnCalls === true) return checked(await Promise.resolve().then(() => guard.check(entry, ctx)), guard);
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  let onTimeout: (v: Verdict) => void = () => undefined;
  const timeout = new Promise<Verdict>((resolve) => (onTimeout = resolve));
  // The clock starts when `check` is called (not when the call was queued behind the engine's own
  // synchronous work), and a timeout is given only after one more turn of the event loop's I/O
  // phase (setImmediate), so an answer that arrived while the loop was busy generating cases wins.
  const call = Promise.resolve().then(() => {
    timer = setTimeout(() => setImmediate(() => settled || onTimeout(errorVerdict('timeout', `guard ${guard.id} gave no verdict within ${timeoutMs} ms`, timeoutMs * 1000))), timeoutMs);
    return guard.check(entry, ctx);
  });
  call.catch(() => undefined);
  try {
    return await Promise.race([call.then((v) => checked(v, guard)), timeout]);
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}

/**
 * Bounds how many guard calls run at once (a `p-limit` limiter): a call waits for a free
 * slot before its time bound starts.
 */
export type CallLimit = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * Async evaluation, for any guard. `timeoutMs` bounds each guard call (default: none);
 * `limit`, when given, is shared by every call of every case evaluated at once. `hooks`: as for
 * {@link evaluateSync}; a cached request in flight is shared, and a hit takes no `limit` slot.
 */
export async function evaluateAsync(guard: Guard, c: FuzzCase, store: ScratchStore, phase: Phase, timeoutMs?: number, limit?: CallLimit, hooks?: QueryHooks): Promise<Verdict> {
  const call = (entry: MemoryEntry, ctx: Parameters<Guard['check']>[1]): Promise<Verdict> =>
    limit ? limit(() => bounded(guard, entry, ctx, timeoutMs)) : bounded(guard, entry, ctx, timeoutMs);
  const ask = async (entry: MemoryEntry, ctx: Parameters<Guard['check']>[1], state: string): Promise<Verdict> => {
    try {
      return await askAsync(call, entry, ctx, hooks, state);
    } catch (e) {
      return errorVerdict('threw', describeThrow(e));
    }
  };
  const { history, attacker } = splitSetup(c);
  const partsFrom = attacker.length - Math.max(0, (c.truth.claimParts ?? 1) - 1);
  return withLayerAsync(store, history, async (layer) => {
    const view = layer.view;
    let state = hooks?.cache ? stateKeyOf(history) : '';
    let partRejected: Verdict | undefined;
    for (const [i, e] of attacker.entries()) {
      const v = await ask(e, { phase: 'write', store: view }, state);
      if (v.decision === 'admit') {
        layer.insert(e);
        if (hooks?.cache) state = nextStateKey(state, e);
      } else if (i >= partsFrom && v.decision === 'reject') partRejected ??= v;
    }
    const final = await ask(c.entry, { phase, store: view }, state);
    return partRejected && final.decision === 'admit' ? splitRejected(partRejected, final) : final;
  });
}

/** One async guard call, counted and cached as `hooks` says; two requests in flight with one key share a call. */
async function askAsync(call: (e: MemoryEntry, ctx: Parameters<Guard['check']>[1]) => Promise<Verdict>, e: MemoryEntry, ctx: Parameters<Guard['check']>[1], hooks: QueryHooks | undefined, state: string): Promise<Verdict> {
  if (!hooks) return call(e, ctx);
  const cache = hooks.cache;
  if (!cache) {
    hooks.tally.queries += 1;
    return call(e, ctx);
  }
  const key = requestKey(ctx.phase, state, e);
  const hit = cache.get(key);
  if (hit !== undefined) {
    hooks.tally.cacheHits += 1;
    return fromCache(await hit);
  }
  hooks.tally.queries += 1;
  const p = call(e, ctx);
  cache.set(key, p);
  try {
    const v = await p;
    if (v.decision === 'error') cache.delete(key);
    else cache.set(key, v);
    return v;
  } catch (err) {
    cache.delete(key);
    throw err;
  }
}

/**
 * Evaluates one case with whichever path fits the guard: synchronously for `mode: 'sync'`
 * guards (no promise overhead in the caller's loop), awaited otherwise.
 */
export function evaluateCase(guard: Guard, c: FuzzCase, store: ScratchStore, phase: Phase, timeoutMs?: number, hooks?: QueryHooks): Verdict | Promise<Verdict> {
  return guard.mode === 'sync' ? evaluateSync(guard, c, store, phase, hooks) : evaluateAsync(guard, c, store, phase, timeoutMs, undefined, hooks);
}
