/**
 * The bench's budget summary (bench/budgets.ts): every DESIGN.md budget is listed, and a
 * budget is met only when all its measured rows met their bound. No timing is measured here.
 */
import { describe, expect, it } from 'vitest';
import { BUDGETS, budgetStatus } from '../../bench/budgets.js';
import type { BenchRow } from '../../bench/lib.js';
import { SECTIONS } from '../../bench/sections/index.js';

const row = (id: string, status: BenchRow['status'], budget: string | null = '<= 1'): BenchRow => ({
  id,
  figure: id,
  value: { median: 1, p25: 1, p75: 1, mad: 0, n: 1, unit: 'x' },
  status,
  ...(budget === null ? {} : { budget }),
});

describe('bench budgets', () => {
  it('names every budget of DESIGN.md "Budgets" plus the bench-only ones', () => {
    expect(BUDGETS.map((b) => b.id)).toEqual(
      expect.arrayContaining(['sentinel-check', 'sentinel-store-size', 'store-size', 'amemguard-store-size', 'throughput', 'throughput-chains', 'shrinking', 'replay', 'latency-bound', 'cli-start', 'workers', 'huge-entry']),
    );
    expect(new Set(BUDGETS.map((b) => b.id)).size).toBe(BUDGETS.length);
  });

  it('is met when every matching row met, missed when one missed, not measured when none ran', () => {
    const rows = [
      row('ratio.sentinel.retrieve', 'met'),
      row('ratio.keyword.retrieve', 'met'),
      row('ratio.amemguard.retrieve', 'missed'),
      row('throughput.naive', 'met'),
      row('throughput.fast-check-bare', 'reported', null),
      row('throughput.naive.vs-bare', 'reported', null),
    ];
    const by = new Map(budgetStatus(rows).map((b) => [b.budget.id, b]));
    expect(by.get('sentinel-store-size')?.status).toBe('met');
    expect(by.get('store-size')).toMatchObject({ status: 'missed', missed: ['ratio.amemguard.retrieve'], measured: ['ratio.keyword.retrieve', 'ratio.amemguard.retrieve'] });
    expect(by.get('amemguard-store-size')?.status).toBe('missed');
    expect(by.get('throughput')).toMatchObject({ status: 'met', measured: ['throughput.naive'] });
    expect(by.get('throughput-chains')?.status).toBe('not measured');
    expect(by.get('cli-start')?.status).toBe('not measured');
  });

  it('lists sections with unique ids', () => {
    const ids = SECTIONS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['guard-cost', 'throughput', 'replay', 'workers', 'huge-entry']));
  });
});
