/**
 * SENTINEL behind an async boundary, for the tests of calls in flight: each call waits 0–3 ms
 * (by the entry's text, so later calls often finish first, the same in every run), then
 * answers as SENTINEL does. Counts the calls and the most in flight at once.
 */
import type { Guard, MemoryEntry, SyncGuard } from '../../src/domain/index.js';
import { createGuard } from '../../src/guards/registry.js';

/** FNV-1a of a text: a per-entry delay that differs between entries but not between runs. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function slowSentinel(id = 'slow-sentinel'): Guard & { calls: number; maxInFlight: number } {
  const inner = createGuard('sentinel') as SyncGuard;
  let inFlight = 0;
  const g = {
    id,
    mode: 'async' as const,
    calls: 0,
    maxInFlight: 0,
    async check(entry: MemoryEntry, ctx: Parameters<Guard['check']>[1]) {
      g.calls += 1;
      inFlight += 1;
      g.maxInFlight = Math.max(g.maxInFlight, inFlight);
      try {
        await new Promise((r) => setTimeout(r, hash(entry.content) % 4));
        return inner.check(entry, ctx);
      } finally {
        inFlight -= 1;
      }
    },
  };
  return g;
}
