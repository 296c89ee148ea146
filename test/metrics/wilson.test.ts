import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { formatRate, poolCounts, rateSummary, wilson } from '../../src/metrics/index.js';

describe('wilson', () => {
  it('matches published values', () => {
    const zero = wilson(0, 10);
    expect(zero.rate).toBe(0);
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(0.2775, 4);
    const half = wilson(5, 10);
    expect(half.low).toBeCloseTo(0.2366, 4);
    expect(half.high).toBeCloseTo(0.7634, 4);
    const all = wilson(50, 50);
    expect(all.rate).toBe(1);
    expect(all.low).toBeCloseTo(0.9287, 4);
    expect(all.high).toBe(1);
    // 81/263 from Newcombe (1998), table I: 0.2553 to 0.3662.
    const nc = wilson(81, 263);
    expect(nc.low).toBeCloseTo(0.2553, 4);
    expect(nc.high).toBeCloseTo(0.3662, 4);
  });

  it('n = 0 gives rate 0 and the whole [0,1]', () => {
    expect(wilson(0, 0)).toEqual({ rate: 0, low: 0, high: 1, n: 0, successes: 0 });
  });

  it('a larger z widens the interval', () => {
    const a = wilson(7, 20);
    const b = wilson(7, 20, 2.575829);
    expect(b.low).toBeLessThan(a.low);
    expect(b.high).toBeGreaterThan(a.high);
  });

  it('rejects impossible counts', () => {
    expect(() => wilson(11, 10)).toThrow(RangeError);
    expect(() => wilson(-1, 10)).toThrow(RangeError);
    expect(() => wilson(1.5, 10)).toThrow(RangeError);
    expect(() => wilson(1, 10, 0)).toThrow(RangeError);
  });

  test.prop([fc.integer({ min: 1, max: 100_000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)))], {
    numRuns: 300,
  })('0 <= low <= rate <= high <= 1, and symmetric under swapping outcomes', ([k, n]) => {
    const w = wilson(k, n);
    expect(w.low).toBeGreaterThanOrEqual(0);
    expect(w.low).toBeLessThanOrEqual(w.rate + 1e-12);
    expect(w.high).toBeGreaterThanOrEqual(w.rate - 1e-12);
    expect(w.high).toBeLessThanOrEqual(1);
    const m = wilson(n - k, n);
    expect(m.low).toBeCloseTo(1 - w.high, 10);
    expect(m.high).toBeCloseTo(1 - w.low, 10);
  });
});

describe('rateSummary', () => {
  it('computes one interval per group, keeping keys', () => {
    const s = rateSummary({ seed: { successes: 5, n: 10 }, naive: { successes: 0, n: 0 } });
    expect(Object.keys(s)).toEqual(['seed', 'naive']);
    expect(s.seed.low).toBeCloseTo(0.2366, 4);
    expect(s.naive).toEqual(wilson(0, 0));
  });

  it('pools and formats', () => {
    expect(poolCounts([{ successes: 2, n: 4 }, { successes: 3, n: 6 }])).toEqual({ successes: 5, n: 10 });
    expect(formatRate(wilson(5, 10))).toBe('50.0% [23.7%, 76.3%] (5/10)');
    expect(formatRate(wilson(0, 0))).toBe('n/a (0/0)');
  });
});
