import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/domain/entry.js';
import type { SyncGuard } from '../../src/domain/guard.js';
import { runCell } from '../../src/fuzz/property.js';
import { quantile, renderAdaptiveSection, summariseSearch, type SearchRow } from '../../src/report/adaptive.js';
import { adaptiveAttack, operatorGroupMap } from '../../generators/adaptive.js';
import { arrayStore } from '../helpers/toy.js';

function row(template: string, bypassed: boolean, queries: number, minimal: string[] = []): SearchRow {
  return { domain: 'ehr', family: 'seed', template, bypassed, queries, path: minimal, minimal, minimiseQueries: 0, bestScore: bypassed ? 0 : 0.6, proposed: 10, discarded: 2, restarts: 0, errors: 0 };
}

describe('search summary', () => {
  it('gives quartiles of queries-to-bypass, a budget curve, minimal sets and the resisting templates', () => {
    const rows = [row('a', true, 1), row('b', true, 12, ['leetspeak']), row('c', true, 40, ['leetspeak']), row('d', true, 150, ['homoglyph', 'zero-width']), row('e', false, 200)];
    const s = summariseSearch({ guard: 'g', mode: 'decision', strategy: 'greedy', budget: 200, seed: 1 }, rows);
    expect(s.bypass.k).toBe(4);
    expect(s.queries?.median).toBe(26);
    expect(s.queries?.q1).toBeCloseTo(9.25);
    expect(s.budgetCurve.map((b) => [b.budget, b.bypass.k])).toEqual([[10, 1], [25, 2], [50, 3], [100, 3], [200, 4]]);
    expect(s.budgetCurve.every((b) => b.bypass.low <= b.bypass.rate && b.bypass.rate <= b.bypass.high)).toBe(true);
    expect(s.minimalSets[0]).toEqual({ set: 'leetspeak', count: 2 });
    expect(s.resisting.map((r) => r.template)).toEqual(['e']);
    expect(s.discarded).toBe(10);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
  });
});

describe('renderAdaptiveSection over an engine cell', () => {
  it('reports per-operator and per-group bypass rates and the shrunk minimal set', async () => {
    // Admits only entries declared SYSTEM: the spoof-system operator is the one bypass.
    const guard: SyncGuard = {
      id: 'spoof-only',
      mode: 'sync',
      check: (e: MemoryEntry) => ({ decision: e.source === 'SYSTEM' ? 'admit' : 'reject', trace: [], reasons: [], elapsedUs: 1 }),
    };
    const cell = await runCell({ domain: 'ehr', family: 'adaptive', arbitrary: adaptiveAttack('ehr', { maxOperators: 3 }), guard, store: arrayStore, phase: 'write', runs: 400, seed: 21, maxFailures: 1 });
    const md = renderAdaptiveSection({
      cells: [{ ...cell.stats, domain: 'ehr', family: 'adaptive' }],
      counterexamples: cell.counterexamples,
      operatorGroups: operatorGroupMap(),
    });
    expect(cell.counterexamples[0]?.case.truth.operators).toEqual(['spoof-system']);
    expect(md).toMatch(/\| `spoof-system` \| metadata \| \d+ \| 100\.0% /);
    expect(md).toMatch(/\| `\(none\)` \| {2}\| \d+ \| 0\.0% /);
    expect(md).toMatch(/\| metadata \| \d+ \| /);
    expect(md).toContain('- spoof-system: 1 (ehr)');
  });
});
