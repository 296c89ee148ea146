/**
 * The "no defense" baseline (paper §V-D): admits every entry.
 */
import type { GuardContext, MemoryEntry, SyncGuard, Verdict } from '../../domain/index.js';

/**
 * Builds the guard with id `none`: every verdict is `admit`, with an empty trace.
 * @example createNoDefense().check(entry, { phase: 'write', store: EMPTY_STORE }).decision // 'admit'
 */
export function createNoDefense(): SyncGuard {
  return {
    id: 'none',
    mode: 'sync',
    config: {},
    check: (_entry: MemoryEntry, _ctx: GuardContext): Verdict => ({ decision: 'admit', trace: [], reasons: [], elapsedUs: 0 }),
  };
}
