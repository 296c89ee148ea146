/**
 * The verdict cache of a run and the query accounting:
 * - report.json (less `timing`, where the query counts live) is identical with and without the
 *   cache, for every built-in guard and for the fixture module guards;
 * - the accounting is exact: the queries the report counts are the calls the guard received;
 * - a stateful guard opts out with `cacheVerdicts: false` and is then asked every time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Guard, MemoryEntry } from '../../src/domain/index.js';
import { createGuard } from '../../src/guards/registry.js';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { MemoryStore } from '../../src/memory/index.js';
import type { FamilyId } from '../../generators/families.js';
import { FAST } from '../helpers/tier.js';
import { fuzzIn, reportJson } from '../helpers/fuzz-run.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

const FAMILIES: FamilyId[] = ['seed', 'amplification', 'adaptive', 'benign', 'benign-stress'];

async function run(guard: Guard, cache: boolean, runs = 25) {
  const dir = mkdtempSync(path.join(tmpdir(), `farma-cache-${cache ? 'on' : 'off'}-`));
  const r = await fuzzIn(dir, { guardSpec: guard.id, guard, store, domains: ['ehr'], families: FAMILIES, runs, seed: 4242, concurrency: 4, attack: { bases: 12, budget: 6 }, cache });
  return { json: reportJson(dir), report: r.report };
}

/** Wraps a guard and counts the calls it receives. */
function counted(inner: Guard): Guard & { calls: number } {
  const g = {
    id: inner.id,
    mode: inner.mode,
    calls: 0,
    check(entry: MemoryEntry, ctx: Parameters<Guard['check']>[1]) {
      g.calls += 1;
      return inner.check(entry, ctx);
    },
  };
  return g;
}

const FIXTURES = path.resolve('test/fixtures/guards');

describe('verdict cache: the report is the same with and without it', () => {
  // The fast tier leaves A-MemGuard and three fixtures to the full tier (each pair of runs takes seconds).
  for (const id of FAST ? (['sentinel', 'none', 'keyword'] as const) : (['sentinel', 'none', 'keyword', 'amemguard'] as const)) {
    it(`built-in guard ${id}`, async () => {
      const on = await run(createGuard(id), true, id === 'amemguard' ? 12 : 25);
      const off = await run(createGuard(id), false, id === 'amemguard' ? 12 : 25);
      expect(on.json).toEqual(off.json);
      const q = on.report.timing.queries;
      expect(q?.cache).toBe(true);
      expect(off.report.timing.queries?.cache).toBe(false);
      expect(off.report.timing.queries?.total.cacheHits).toBe(0);
      // What the cache served, the uncached run asked: the requests are the same, only the queries differ.
      expect((q?.total.queries ?? 0) + (q?.total.cacheHits ?? 0)).toBe(off.report.timing.queries?.total.queries);
    });
  }

  for (const file of FAST ? ['default-guard.mjs', 'flaky-guard.mjs'] : ['default-guard.mjs', 'named-guard.cjs', 'factory-guard.ts', 'throwing-guard.mjs', 'flaky-guard.mjs']) {
    it(`fixture module guard ${file}`, async () => {
      const on = await run(await loadModuleGuard(path.join(FIXTURES, file)), true, 15);
      const off = await run(await loadModuleGuard(path.join(FIXTURES, file)), false, 15);
      expect(on.json).toEqual(off.json);
    });
  }
});

describe('query accounting', () => {
  it('counts exactly the calls the guard received, by phase, and the cache serves repeats', async () => {
    const guard = counted(createGuard('sentinel'));
    const { report } = await run(guard, true);
    const q = report.timing.queries;
    expect(q).toBeDefined();
    expect(q?.total.queries).toBe(guard.calls);
    // Amplification chains repeat their history writes across shrink steps: the cache answers those.
    expect(q?.total.cacheHits).toBeGreaterThan(0);
    expect(q?.byPhase.cases.queries).toBeGreaterThan(0);
    expect(q?.byPhase.attack.queries).toBeGreaterThan(0);
    const perCell = (q?.perCell ?? []).reduce((a, c) => a + c.cases.queries + c.shrink.queries + c.recheck.queries, 0);
    expect(perCell + (q?.byPhase.attack.queries ?? 0)).toBe(guard.calls);
  });

  it('a guard with cacheVerdicts: false is asked every time', async () => {
    const inner = counted(createGuard('sentinel'));
    const stateful = Object.assign(inner, { cacheVerdicts: false as const });
    const { report } = await run(stateful, true);
    expect(report.timing.queries?.cache).toBe(false);
    expect(report.timing.queries?.total.cacheHits).toBe(0);
    expect(report.timing.queries?.total.queries).toBe(stateful.calls);
  });
});
