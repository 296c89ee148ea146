/**
 * A tiny module guard: rejects entries that claim safety checks were already done elsewhere.
 * Run it with: npm run fuzz -- --guard examples/module-guard.ts
 *
 * A module guard exports a Guard (`guard` or `default`) or a factory (`default` or
 * `createGuard`, sync or async). Here it is a factory taking `{ phrases?: string[] }`.
 * In your own project, import the same types from 'farma-fuzz' (this file sits in the
 * farma-fuzz checkout, so it imports them from ../src).
 */
import type { Guard, GuardContext, MemoryEntry, Verdict } from '../src/domain/index.js';

const DEFAULT_PHRASES = ['already validated', 'verified upstream', 'skip the check', 'no need to re-check'];

export function createGuard(options: { phrases?: string[] } = {}): Guard {
  const phrases = (options.phrases ?? DEFAULT_PHRASES).map((p) => p.toLowerCase());
  return {
    id: 'example-module-guard',
    mode: 'sync',
    config: { phrases },
    check(entry: MemoryEntry, _ctx: GuardContext): Verdict {
      const text = entry.content.toLowerCase();
      const hits = phrases.filter((p) => text.includes(p));
      return hits.length > 0
        ? { decision: 'reject', layer: 'phrases', trace: [], reasons: hits.map((h) => `mentions "${h}"`), elapsedUs: 0 }
        : { decision: 'admit', trace: [], reasons: [], elapsedUs: 0 };
    },
  };
}
