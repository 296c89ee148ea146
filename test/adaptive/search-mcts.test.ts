import { describe, expect, it } from 'vitest';
import { runSearch } from '../../src/campaign/search.js';
import { createSentinel } from '../../src/guards/sentinel/sentinel.js';
import { MemoryStore } from '../../src/memory/index.js';
import { evaluateCase } from '../../src/fuzz/evaluate.js';
import { startCases } from '../../generators/adaptive.js';

const store = new MemoryStore(':memory:');
const base = { store, domains: ['rap' as const], families: ['seed' as const, 'naive' as const], mode: 'score' as const, strategy: 'mcts' as const, budget: 40, beamWidth: 3, seed: 1, phase: 'write' as const };

describe('search with the MCTS-Explore scheduler', () => {
  it('starts from rejected bases by default: admitted start cases are skipped and listed apart', async () => {
    const guard = createSentinel();
    const s = await runSearch({ ...base, guard });
    const starts = [...startCases('rap', 'seed', 1), ...startCases('rap', 'naive', 1)];
    const admitted = [];
    for (const st of starts) if ((await evaluateCase(guard, st.case, store, 'write')).decision === 'admit') admitted.push(st.template);
    expect(s.skipped?.map((x) => x.template).sort()).toEqual(admitted.sort());
    expect(s.rows.length).toBe(starts.length - admitted.length);
    expect(s.rows.length).toBeGreaterThan(0);
    // A searched start case needed at least one rewrite: queries > 1 and a non-empty minimal set on a bypass.
    for (const r of s.rows.filter((x) => x.bypassed)) {
      expect(r.queries).toBeGreaterThan(1);
      expect(r.minimal.length).toBeGreaterThan(0);
    }
    expect(s.budgetCurve.at(-1)?.budget).toBe(40);
  });

  it('--from all searches every start case (admitted ones bypass in one query)', async () => {
    const s = await runSearch({ ...base, guard: createSentinel(), from: 'all' });
    expect(s.skipped).toEqual([]);
    expect(s.rows.some((r) => r.bypassed && r.queries === 1 && r.minimal.length === 0)).toBe(true);
  });

  it('is deterministic for a seed', async () => {
    const a = await runSearch({ ...base, guard: createSentinel({ config: { tauGuard: 0.25 } }) });
    const b = await runSearch({ ...base, guard: createSentinel({ config: { tauGuard: 0.25 } }) });
    expect(a.rows).toEqual(b.rows);
    expect(a.transfer).toEqual(b.transfer);
  });

  it('reports the transfer pool: every bypass from the pool or fresh search, pool successes within them; none for greedy', async () => {
    const s = await runSearch({ ...base, domains: ['rap', 'ehr'], mode: 'decision', budget: 30, guard: createSentinel({ config: { tauGuard: 0.25 } }) });
    const t = s.transfer!;
    const bypassed = s.rows.filter((r) => r.bypassed);
    expect(bypassed.length).toBeGreaterThan(0);
    expect(bypassed.every((r) => r.flipSource === 'pool' || r.flipSource === 'search')).toBe(true);
    expect(t.firstFlip?.queries).toBeGreaterThan(0);
    // Each pool composition has two or more operators; its transferred successes are bypasses from the pool.
    expect(t.pool.every((e) => e.operators.length >= 2 && e.successes <= e.tries)).toBe(true);
    expect(t.pool.reduce((n, e) => n + e.transferred, 0)).toBe(bypassed.filter((r) => r.flipSource === 'pool').length);
    const g = await runSearch({ ...base, strategy: 'greedy', budget: 10, guard: createSentinel({ config: { tauGuard: 0.25 } }) });
    expect(g.transfer).toBeUndefined();
  });
});
