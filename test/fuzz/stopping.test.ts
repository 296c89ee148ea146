/**
 * Sequential stopping and query budgets: the stop rule on counts, a cell that
 * stops at the same case for a fixed seed, and a budget that every cell and phase stays within.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Guard, MemoryEntry } from '../../src/domain/index.js';
import { cellSettled, runCell, type CellQueries } from '../../src/fuzz/property.js';
import { allocateQueries } from '../../src/campaign/query-budget.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_REGISTRY } from '../../generators/families.js';
import { wilson } from '../../src/metrics/wilson.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

describe('cellSettled: the stop rule reads counts only', () => {
  it('a failing cell stops once the Wilson half-width is at most the precision', () => {
    const rule = { precision: 0.05 };
    // 35 of 35: the interval is [0.901, 1], half-width 0.049.
    expect(cellSettled(rule, 34, 34, 0)).toBe(false);
    expect(cellSettled(rule, 35, 35, 0)).toBe(true);
    // Half the cases fail: about 385 cases are needed for ±5 points.
    expect(cellSettled(rule, 300, 150, 0)).toBe(false);
    const w = wilson(193, 386);
    expect((w.high - w.low) / 2).toBeLessThanOrEqual(0.05);
    expect(cellSettled(rule, 386, 193, 0)).toBe(true);
  });

  it('a holding cell stops only below its target, per property, and never with errors', () => {
    const rule = { precision: 0.05, target: { 'benign-admitted': 0.01 } };
    expect(cellSettled(rule, 380, 0, 0, 'benign-admitted')).toBe(false);
    expect(cellSettled(rule, 381, 0, 0, 'benign-admitted')).toBe(true);
    expect(cellSettled(rule, 5000, 0, 0, 'forgery-rejected')).toBe(false);
    expect(cellSettled(rule, 5000, 0, 1, 'benign-admitted')).toBe(false);
    expect(cellSettled({ precision: 0.05 }, 5000, 0, 0, 'benign-admitted')).toBe(false);
    expect(cellSettled({ precision: 0.05, target: 0.01, minRuns: 500 }, 400, 0, 0, 'benign-admitted')).toBe(false);
  });
});

describe('runCell with a stop rule and a budget', () => {
  const arbitrary = FAMILY_REGISTRY.seed.arbitrary('ehr');
  const base = { domain: 'ehr', family: 'seed', arbitrary, store, phase: 'write' as const, runs: 1000, seed: 7, maxFailures: 2 };

  it('stops a failing cell at the settled case, the same case for the same seed', async () => {
    const a = await runCell({ ...base, guard: createGuard('none'), stop: { precision: 0.05 } });
    const b = await runCell({ ...base, guard: createGuard('none'), stop: { precision: 0.05 } });
    expect(a.stopped).toBe('settled');
    // `none` admits every forgery: 35 of 35 is the first settled count.
    expect(a.stats.runs).toBe(35);
    expect(b.stats.runs).toBe(a.stats.runs);
    expect(b.counterexamples.map((c) => c.case.entry.id)).toEqual(a.counterexamples.map((c) => c.case.entry.id));
    const exhaustive = await runCell({ ...base, runs: 100, guard: createGuard('none') });
    expect(exhaustive.stopped).toBe('runs');
    expect(exhaustive.stats.runs).toBe(100);
  });

  it('spends at most its query budget, with half kept for cases, and says so', async () => {
    let calls = 0;
    const inner = createGuard('none');
    const guard: Guard = { id: 'counted-none', mode: 'sync', check: (e: MemoryEntry, ctx) => (calls++, inner.check(e, ctx)) };
    const out = await runCell({ ...base, guard, maxQueries: 60, shrinkBudget: 10 });
    const q = out.queries as CellQueries;
    const spent = q.cases.queries + q.shrink.queries + q.recheck.queries;
    expect(spent).toBe(calls);
    // The trigger's re-checks may finish the step that crosses the line; nothing starts after it.
    expect(spent).toBeLessThanOrEqual(60 + 3);
    expect(out.stopped).toBe('budget');
    expect(q.cases.queries).toBeGreaterThanOrEqual(30);
    expect(out.stats.runs).toBeGreaterThan(0);
  });
});

describe('a budget with chains of writes', () => {
  it('an async guard on amplification chains (one case costs its writes) stays within the cell budget, calls in flight included', async () => {
    let calls = 0;
    const inner = createGuard('none');
    const guard: Guard = { id: 'counted-async-none', mode: 'async', check: async (e: MemoryEntry, ctx) => (calls++, inner.check(e, ctx)) };
    const out = await runCell({ domain: 'rap', family: 'amplification', arbitrary: FAMILY_REGISTRY.amplification.arbitrary('rap'), store, phase: 'write', runs: 1000, seed: 3, maxFailures: 2, guard, maxQueries: 150, concurrency: 6 });
    const q = out.queries as CellQueries;
    expect(q.cases.queries + q.shrink.queries + q.recheck.queries).toBe(calls);
    expect(calls).toBeLessThanOrEqual(150);
    expect(out.stats.runs).toBeGreaterThan(0);
    expect(out.stopped).toBe('budget');
  });
});

describe('allocateQueries', () => {
  it('gives every cell and phase an equal share, and refuses a budget below one query each', () => {
    const a = allocateQueries(3000, { cells: 15, attackDomains: 3, real: false, maxFailures: 5 });
    expect(a.cell).toBe(166);
    expect(a.attackPerDomain).toBe(166);
    expect(a.shrink).toBe(16);
    expect(a.cell * 15 + a.attackPerDomain * 3).toBeLessThanOrEqual(3000);
    expect(() => allocateQueries(10, { cells: 15, attackDomains: 3, real: true, maxFailures: 5 })).toThrow(/below one query per cell/);
  });
});
