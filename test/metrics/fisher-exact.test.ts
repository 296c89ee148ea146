/**
 * Fisher's exact test and Holm's adjustment against published values (R's fisher.test and
 * p.adjust), and against a brute-force oracle in exact integer arithmetic on small tables.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fisherExact, holmAdjust } from '../../src/metrics/fisher-exact.js';

/** C(n, k) as a BigInt. */
function choose(n: number, k: number): bigint {
  let r = 1n;
  for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1);
  return r;
}

/** Two-sided Fisher p-value by enumerating every table with the same margins, in exact integers. */
function oracle(a: { k: number; n: number }, b: { k: number; n: number }): number {
  const events = a.k + b.k;
  const tables: bigint[] = [];
  for (let x = Math.max(0, events - b.n); x <= Math.min(a.n, events); x++) tables.push(choose(a.n, x) * choose(b.n, events - x));
  const observed = choose(a.n, a.k) * choose(b.n, b.k);
  const total = tables.reduce((s, t) => s + t, 0n);
  const extreme = tables.filter((t) => t <= observed).reduce((s, t) => s + t, 0n);
  return Number((extreme * 10n ** 15n) / total) / 1e15;
}

const side = fc.integer({ min: 0, max: 40 }).chain((n) => fc.record({ n: fc.constant(n), k: fc.integer({ min: 0, max: n }) }));

describe('fisherExact', () => {
  it('matches published two-sided p-values', () => {
    // R: fisher.test(matrix(c(3, 7, 7, 3), 2))$p.value = 0.1789
    expect(fisherExact({ k: 3, n: 10 }, { k: 7, n: 10 })).toBeCloseTo(0.178895, 5);
    // The textbook 1/9 vs 11/14 table (p = 0.002759)
    expect(fisherExact({ k: 1, n: 9 }, { k: 11, n: 14 })).toBeCloseTo(0.0027595, 6);
    // 0/1000 vs 12/1000: 2 · C(1000,12)/C(2000,12) = 0.000472
    expect(fisherExact({ k: 0, n: 1000 }, { k: 12, n: 1000 })).toBeCloseTo(0.000472, 5);
  });

  it('is 1 when a side has no trial or the margins leave one table', () => {
    expect(fisherExact({ k: 0, n: 0 }, { k: 5, n: 10 })).toBe(1);
    expect(fisherExact({ k: 0, n: 100 }, { k: 0, n: 100 })).toBe(1);
    expect(fisherExact({ k: 100, n: 100 }, { k: 100, n: 100 })).toBe(1);
  });

  it('agrees with exact enumeration on small tables, and is symmetric', () => {
    fc.assert(
      fc.property(side, side, (a, b) => {
        const p = fisherExact(a, b);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
        expect(Math.abs(p - oracle(a, b))).toBeLessThan(1e-9);
        expect(Math.abs(p - fisherExact(b, a))).toBeLessThan(1e-12);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('throws RangeError on impossible counts', () => {
    expect(() => fisherExact({ k: 3, n: 2 }, { k: 0, n: 1 })).toThrow(RangeError);
    expect(() => fisherExact({ k: 0, n: 1 }, { k: 0.5, n: 1 })).toThrow(RangeError);
  });
});

describe('holmAdjust', () => {
  it("matches R's p.adjust(p, 'holm'), in input order", () => {
    const r = holmAdjust([0.04, 0.01, 0.05, 0.03, 0.02]);
    expect(r.map((x) => Number(x.toFixed(10)))).toEqual([0.09, 0.05, 0.09, 0.09, 0.08]);
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });
});
