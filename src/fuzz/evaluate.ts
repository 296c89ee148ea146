/**
 * Evaluates one case against a guard: puts `setup` in a scratch store, checks `entry` on
 * the chosen path, rolls the store back. A guard that throws yields an `error` verdict;
 * nothing a guard does is ever counted as a rejection unless it says `reject`.
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase, StoreView } from '../domain/guard.js';
import type { MemoryEntry } from '../domain/entry.js';
import { errorVerdict, parseVerdict, type Verdict } from '../domain/verdict.js';

/** What the engine needs from a memory store: run a check on top of `setup`, then roll back. */
export interface ScratchStore {
  scratch<T>(setup: readonly MemoryEntry[], fn: (view: StoreView) => T): T;
  scratchAsync<T>(setup: readonly MemoryEntry[], fn: (view: StoreView) => Promise<T>): Promise<T>;
}

function describeThrow(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Accepts an in-process verdict as is when its decision is valid; anything else is `malformed`. */
function checked(value: unknown): Verdict {
  if (typeof value === 'object' && value !== null) {
    const v = value as Partial<Verdict>;
    if (v.decision === 'admit' || v.decision === 'reject' || v.decision === 'error') {
      return Array.isArray(v.trace) && Array.isArray(v.reasons) ? (v as Verdict) : { ...(v as Verdict), trace: v.trace ?? [], reasons: v.reasons ?? [] };
    }
  }
  const parsed = parseVerdict(value);
  return parsed.ok ? parsed.verdict : errorVerdict('malformed', parsed.message);
}

/** Sync evaluation, for guards with `mode: 'sync'`. */
export function evaluateSync(guard: Guard, c: FuzzCase, store: ScratchStore, phase: Phase): Verdict {
  return store.scratch(c.setup ?? [], (view) => {
    try {
      const out = guard.check(c.entry, { phase, store: view });
      if (out instanceof Promise) {
        out.catch(() => undefined);
        return errorVerdict('malformed', `guard ${guard.id} declared mode 'sync' but returned a Promise`);
      }
      return checked(out);
    } catch (e) {
      return errorVerdict('threw', describeThrow(e));
    }
  });
}

/** Async evaluation, for any guard. */
export async function evaluateAsync(guard: Guard, c: FuzzCase, store: ScratchStore, phase: Phase): Promise<Verdict> {
  return store.scratchAsync(c.setup ?? [], async (view) => {
    try {
      return checked(await guard.check(c.entry, { phase, store: view }));
    } catch (e) {
      return errorVerdict('threw', describeThrow(e));
    }
  });
}
