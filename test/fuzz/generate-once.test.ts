/**
 * With calls in flight, the prefetcher draws a round's cases ahead (in doubling chunks, each
 * from the round's first run) and fast-check then walks the same round. Both passes share the
 * round's generated values: every case is generated once, whatever the number in flight, and
 * the cell sees the cases it sees with one call in flight.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { FuzzCase, Guard, MemoryEntry } from '../../src/domain/index.js';
import { runCell } from '../../src/fuzz/property.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_REGISTRY } from '../../generators/families.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

/** An async guard that rejects every entry (a forged family then holds: no shrinking), recording what it was asked. */
function rejecting(): Guard & { seen: string[] } {
  const g = {
    id: 'reject-all',
    mode: 'async' as const,
    seen: [] as string[],
    async check(entry: MemoryEntry) {
      g.seen.push(entry.id);
      await new Promise((r) => setTimeout(r, entry.content.length % 2));
      return { decision: 'reject' as const, trace: [], reasons: ['rejects everything'], elapsedUs: 0 };
    },
  };
  return g;
}

describe('cases drawn ahead are generated once', () => {
  it('seed: one render per run at 8 calls in flight, and the cases of one call in flight', async () => {
    const runs = 90;
    let renders = 0;
    const arbitrary = FAMILY_REGISTRY.seed.arbitrary('ehr').map((c: FuzzCase) => {
      renders += 1;
      return c;
    });
    const base = { domain: 'ehr', family: 'seed', arbitrary, store, phase: 'write' as const, runs, seed: 5 };
    const one = rejecting();
    const r1 = await runCell({ ...base, guard: one, concurrency: 1 });
    expect(renders).toBe(runs);
    renders = 0;
    const eight = rejecting();
    const r8 = await runCell({ ...base, guard: eight, concurrency: 8 });
    // Each run's case is rendered once: the draws ahead and fast-check's pass share them.
    expect(renders).toBe(runs);
    expect(r8.stats.runs).toBe(runs);
    expect([...eight.seen].sort()).toEqual([...one.seen].sort());
    expect(r8.stats).toEqual(r1.stats);
  });
});
