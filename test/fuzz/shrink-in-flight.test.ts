/**
 * Shrinking against async guards runs in flight: the engine walks fast-check's
 * shrink streams itself, several candidates at once, and keeps the first failing one in stream
 * order. It must land on the counterexample fast-check's own sequential shrinker finds (the sync
 * path), with the same path and shrink count, for every number of calls in flight.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Guard, MemoryEntry, SyncGuard } from '../../src/domain/index.js';
import { runCell } from '../../src/fuzz/property.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_REGISTRY, type FamilyId } from '../../generators/families.js';
import { FAST } from '../helpers/tier.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

/** The same guard behind a promise, with its calls in flight counted. */
function asAsync(inner: SyncGuard): Guard & { peak: number } {
  let now = 0;
  const g = {
    id: inner.id,
    mode: 'async' as const,
    peak: 0,
    async check(entry: MemoryEntry, ctx: Parameters<Guard['check']>[1]) {
      now += 1;
      g.peak = Math.max(g.peak, now);
      try {
        await new Promise((r) => setTimeout(r, entry.content.length % 3));
        return inner.check(entry, ctx);
      } finally {
        now -= 1;
      }
    },
  };
  return g;
}

const found = (o: Awaited<ReturnType<typeof runCell>>) => o.counterexamples.map((c) => ({ id: c.case.entry.id, content: c.case.entry.content, path: c.path, numShrinks: c.numShrinks, kind: c.kind }));

describe('shrinking in flight', () => {
  // Amplification chains (tens of seconds under load) wait for the full tier.
  for (const family of (FAST ? ['seed'] : ['seed', 'amplification']) as FamilyId[]) {
    it(`${family}: the same counterexamples as fast-check's sequential shrinker, at 1 and 6 calls in flight`, async () => {
      const base = { domain: 'rap', family, arbitrary: FAMILY_REGISTRY[family].arbitrary('rap'), store, phase: 'write' as const, runs: 60, seed: 31, maxFailures: 3 };
      const sync = await runCell({ ...base, guard: createGuard('sentinel') });
      const one = await runCell({ ...base, guard: asAsync(createGuard('sentinel') as SyncGuard), concurrency: 1 });
      const g6 = asAsync(createGuard('sentinel') as SyncGuard);
      const six = await runCell({ ...base, guard: g6, concurrency: 6 });
      expect(sync.counterexamples.length).toBeGreaterThan(0);
      expect(sync.counterexamples.some((c) => c.numShrinks > 0)).toBe(true);
      expect(found(one)).toEqual(found(sync));
      expect(found(six)).toEqual(found(sync));
      expect(g6.peak).toBeGreaterThan(1);
    });
  }
});
