import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exportVerdict, validatePredictors } from '../../src/metrics/predictor-validation.js';
import { renderFprMarkdown, type GuardFprReport, type ProfileRow } from '../../src/report/fpr.js';
import { interval } from '../../src/report/model.js';

describe('validatePredictors', () => {
  it('backs the predictor within noise on more sets, then the one with the smaller mean gap, plain on a tie', () => {
    const sets = [
      { set: 'a', halfWidth: 0.02, plainGap: 0.01, matchedGap: 0.03 },
      { set: 'b', halfWidth: 0.02, plainGap: 0.015, matchedGap: 0.001 },
    ];
    const v = validatePredictors(sets)!;
    expect(v.plain.withinNoise).toBe(2);
    expect(v.matched.withinNoise).toBe(1);
    expect(v.preferred).toBe('plain');
    expect(v.sets.map((s) => [s.plainWithinNoise, s.matchedWithinNoise])).toEqual([[true, false], [true, true]]);
    expect(validatePredictors([{ set: 'a', halfWidth: 0.1, plainGap: 0.05, matchedGap: 0.01 }])!.preferred).toBe('matched');
    expect(validatePredictors([{ set: 'a', halfWidth: 0.1, plainGap: 0.05, matchedGap: 0.05 }])!.preferred).toBe('plain');
    expect(validatePredictors([])).toBeUndefined();
    expect(() => validatePredictors([{ set: 'x', halfWidth: 0.1, plainGap: Number.NaN, matchedGap: 0 }])).toThrow(/x: plainGap/);
  });

  it('mean and largest gap are those of the inputs', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ set: fc.string(), halfWidth: fc.double({ min: 0, max: 1, noNaN: true }), plainGap: fc.double({ min: 0, max: 1, noNaN: true }), matchedGap: fc.double({ min: 0, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 20 }), (sets) => {
        const v = validatePredictors(sets)!;
        expect(v.plain.maxGap).toBe(Math.max(...sets.map((s) => s.plainGap)));
        expect(v.matched.withinNoise).toBe(sets.filter((s) => s.matchedGap <= s.halfWidth).length);
        expect(v.plain.meanGap).toBeLessThanOrEqual(v.plain.maxGap + 1e-12);
        // The validated error: the largest gap beyond each set's own half-width, never negative, never past the raw largest gap.
        expect(v.matched.maxExcess).toBe(Math.max(0, ...sets.map((s) => s.matchedGap - s.halfWidth)));
        expect(v.plain.maxExcess).toBeLessThanOrEqual(v.plain.maxGap);
      }),
      { numRuns: 100 },
    );
  });

  it('says "outside" of an export only beyond noise and the validated error', () => {
    expect(exportVerdict(0.005, 0.01, 0.02)).toBe('within-noise');
    expect(exportVerdict(0.02, 0.01, 0.02)).toBe('within-validated-error');
    expect(exportVerdict(0.04, 0.01, 0.02)).toBe('outside');
    expect(exportVerdict(0.04, 0.01, undefined)).toBe('unvalidated');
  });

  it("does not let a small held-out set's noise widen the allowance: a gap inside that set's own interval is no predictor error", () => {
    // A 17-entry set: gap 11.76 pp inside its own half-width of 15.5 pp; a large set within noise.
    const v = validatePredictors([
      { set: 'small', halfWidth: 0.155, plainGap: 0.1176, matchedGap: 0.1176 },
      { set: 'large', halfWidth: 0.01, plainGap: 0.004, matchedGap: 0.02 },
    ])!;
    expect(v.plain.maxGap).toBe(0.1176);
    expect(v.plain.maxExcess).toBe(0);
    expect(v.matched.maxExcess).toBeCloseTo(0.01, 12);
    // An export at 12.0% [8.2%, 17.2%] against a 0.0% prediction: beyond its noise and beyond the validated error.
    expect(exportVerdict(0.12, 0.045, v.plain.maxExcess)).toBe('outside');
  });
});

describe('the "Your export" section', () => {
  const base: GuardFprReport = { guard: 'g', seed: 1, runsPerDomain: 100, phase: 'write', storeContext: 'x', estimate: interval(1, 100), estimateErrors: 0, rows: [], realGaps: [], loso: [], profiles: [], rejections: [], issues: [] };
  const exportRow: ProfileRow = { set: 'mine.jsonl', profile: 'all domains', real: interval(1, 200), realErrors: 0, halfWidth: 0.01, profileEstimate: interval(1, 100), profileGap: 0.005, matched: { estimate: interval(3, 100), errors: 0, gap: 0.025 }, userExport: true };
  const validation = (preferred: 'plain' | 'matched') => ({ sets: [], plain: { meanGap: 0.004, maxGap: 0.01, maxExcess: 0, withinNoise: 12 }, matched: { meanGap: 0.02, maxGap: 0.05, maxExcess: 0.03, withinNoise: 7 }, preferred }) as const;

  it('uses the predictor the validation backs, and never reads "outside noise" on the other one', () => {
    const md = renderFprMarkdown({ ...base, profiles: [exportRow], validation: { ...validation('plain'), sets: [] } });
    expect(md).toContain('Prediction: the plain estimate');
    expect(md).toContain('within sampling noise: the prediction holds on your memory');
    expect(md).toContain('the validation does not back it for this guard');
  });

  it('says why the other estimate is not backed: fewer sets within noise, or as many with a larger mean gap', () => {
    const fewer = renderFprMarkdown({ ...base, profiles: [exportRow], validation: { ...validation('plain'), sets: [] } });
    expect(fewer).toContain('(within noise on 7 of 0 held-out sets, the plain one on 12)');
    const tied = { sets: [], plain: { meanGap: 0.0154, maxGap: 0.05, maxExcess: 0.01, withinNoise: 14 }, matched: { meanGap: 0.0107, maxGap: 0.04, maxExcess: 0.01, withinNoise: 14 }, preferred: 'matched' } as const;
    const md = renderFprMarkdown({ ...base, profiles: [exportRow], validation: { ...tied, sets: [] } });
    expect(md).toContain('within noise on 14 of 0 held-out sets, as the matched one, but its mean gap is larger (1.54 pp against 1.07 pp)');
    expect(md).not.toMatch(/does not back it for this guard \(within noise on 14 of 0 held-out sets\)/);
  });

  it('with the matched estimate backed, a gap inside its validated error is not called a difference', () => {
    const md = renderFprMarkdown({ ...base, profiles: [exportRow], validation: { ...validation('matched'), sets: [] } });
    expect(md).toContain('Prediction: the matched estimate');
    expect(md).toContain('the tool cannot say your memory behaves differently');
    const far = renderFprMarkdown({ ...base, profiles: [{ ...exportRow, matched: { estimate: interval(30, 100), errors: 0, gap: 0.295 } }], validation: { ...validation('matched'), sets: [] } });
    expect(far).toContain('the estimate does not describe memory like yours');
  });

  it('the estimate row names the domains it covers (all of them, or those --domain chose)', () => {
    expect(renderFprMarkdown({ ...base, domains: ['ehr'] })).toContain('| **estimate** | natural benign mix, ehr |');
    expect(renderFprMarkdown({ ...base, domains: ['ehr', 'react-qa', 'rap'] })).toContain('| **estimate** | natural benign mix, all domains |');
    expect(renderFprMarkdown(base)).toContain('| **estimate** | natural benign mix, all domains |');
  });
});
