import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { rocAuc, rocCurve, tauGrid, thresholdSweep, trapezoidAuc } from '../../src/metrics/index.js';

/** Mann–Whitney estimate of P(forged > benign) + 0.5 P(tie), by brute force. */
function pairwiseAuc(benign: number[], forged: number[]): number {
  let s = 0;
  for (const f of forged) for (const b of benign) s += f > b ? 1 : f === b ? 0.5 : 0;
  return s / (benign.length * forged.length);
}

describe('thresholdSweep', () => {
  it('rejects strictly above tau (paper: F > tau)', () => {
    const rows = thresholdSweep({ benign: [0.1, 0.5, 0.6, 0.9], forged: [0.5, 0.7, 0.8, 1] }, [0, 0.5, 0.75, 1]);
    expect(rows).toEqual([
      { tau: 0, tpr: 1, fpr: 1 },
      { tau: 0.5, tpr: 0.75, fpr: 0.5 },
      { tau: 0.75, tpr: 0.5, fpr: 0.25 },
      { tau: 1, tpr: 0, fpr: 0 },
    ]);
  });

  it('gives 0 for an empty class and rejects non-finite input', () => {
    expect(thresholdSweep({ benign: [], forged: [0.9] }, [0.5])).toEqual([{ tau: 0.5, tpr: 1, fpr: 0 }]);
    expect(() => thresholdSweep({ benign: [Number.NaN], forged: [] }, [0.5])).toThrow(RangeError);
    expect(() => thresholdSweep({ benign: [], forged: [] }, [Number.NaN])).toThrow(RangeError);
  });

  it('tauGrid spans the ends with clean steps', () => {
    expect(tauGrid(0, 1, 4)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(tauGrid()).toHaveLength(21);
    expect(tauGrid()[3]).toBe(0.15);
  });
});

describe('rocAuc', () => {
  it('is 1 for perfect separation, 0 for reversed, 0.5 for identical', () => {
    expect(rocAuc({ benign: [0.1, 0.2], forged: [0.8, 0.9] })).toBe(1);
    expect(rocAuc({ benign: [0.8, 0.9], forged: [0.1, 0.2] })).toBe(0);
    expect(rocAuc({ benign: [0.4, 0.4], forged: [0.4] })).toBe(0.5);
    expect(rocAuc({ benign: [], forged: [1] })).toBeNaN();
  });

  it('the curve runs from (0,0) to (1,1) without going back', () => {
    const c = rocCurve({ benign: [0.3, 0.1, 0.3], forged: [0.3, 0.9] });
    expect(c[0]).toEqual({ fpr: 0, tpr: 0 });
    expect(c[c.length - 1]).toEqual({ fpr: 1, tpr: 1 });
    for (let i = 1; i < c.length; i += 1) {
      expect(c[i]!.fpr).toBeGreaterThanOrEqual(c[i - 1]!.fpr);
      expect(c[i]!.tpr).toBeGreaterThanOrEqual(c[i - 1]!.tpr);
    }
  });

  test.prop(
    [
      fc.array(fc.integer({ min: 0, max: 10 }).map((x) => x / 10), { minLength: 1, maxLength: 30 }),
      fc.array(fc.integer({ min: 0, max: 10 }).map((x) => x / 10), { minLength: 1, maxLength: 30 }),
    ],
    { numRuns: 200 },
  )('equals the pairwise (Mann–Whitney) estimate, ties counted half', (benign, forged) => {
    expect(rocAuc({ benign, forged })).toBeCloseTo(pairwiseAuc(benign, forged), 10);
  });

  it('trapezoid over a sweep grid that hits every score equals the exact AUC', () => {
    const scores = { benign: [0, 0.2, 0.4, 0.4], forged: [0.4, 0.6, 0.8, 1] };
    const rows = thresholdSweep(scores, [-0.1, ...tauGrid(0, 1, 10)]);
    expect(trapezoidAuc([...rows, { fpr: 0, tpr: 0 }])).toBeCloseTo(rocAuc(scores), 12);
  });
});
