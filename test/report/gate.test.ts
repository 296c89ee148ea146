import { describe, expect, it } from 'vitest';
import { formatGateCheck, fprGate, gate } from '../../src/report/gate.js';
import { interval } from '../../src/report/model.js';
import { cell, handReport } from './fixture.js';

describe('gate', () => {
  it('judges FPR on the Wilson upper bound: 0/20 passes maxFpr 0.2 but fails 0.1', () => {
    const r = handReport([cell('ehr', 'benign', 0, 20)]);
    const loose = gate(r, { maxFpr: 0.2 });
    const strict = gate(r, { maxFpr: 0.1 });
    expect(loose.checks).toHaveLength(1);
    expect(loose.checks[0]?.observed.high).toBeCloseTo(0.161, 3);
    expect(loose.pass).toBe(true);
    expect(strict.pass).toBe(false);
    expect(strict.checks[0]).toMatchObject({ name: 'maxFpr ehr/benign', limit: 0.1, pass: false });
  });

  it('a large clean sample passes a tight limit that a small one cannot', () => {
    expect(gate(handReport([cell('ehr', 'benign', 0, 1000)]), { maxFpr: 0.01 }).pass).toBe(true);
    expect(gate(handReport([cell('ehr', 'benign', 0, 100)]), { maxFpr: 0.01 }).pass).toBe(false);
  });

  it('maxBypass covers forged cells only, and counts guard errors as not rejected', () => {
    const r = handReport([cell('rap', 'benign', 5, 20), cell('rap', 'seed', 0, 1000), cell('rap', 'naive', 0, 1000, 30)]);
    const g = gate(r, { maxBypass: 0.01 });
    expect(g.checks.map((c) => c.name)).toEqual(['maxBypass rap/seed', 'maxBypass rap/naive']);
    expect(g.checks[0]?.pass).toBe(true);
    expect(g.checks[1]).toMatchObject({ pass: false, observed: { k: 30, n: 1000 }, counted: '0 admitted + 30 error verdicts' });
    expect(formatGateCheck(g.checks[1]!)).toMatch(/^maxBypass rap\/naive: 3\.0% \[[\d.]+%, [\d.]+%\] \(30\/1000: 0 admitted \+ 30 error verdicts\), upper bound > limit 1\.0%: FAIL$/);
    // Without errors the count is the bypasses themselves: nothing added.
    expect(g.checks[0]?.counted).toBeUndefined();
    expect(g.pass).toBe(false);
  });

  it('checks real benign sets against maxFpr', () => {
    const real = [{ name: 'react-hotpotqa', source: 'test', fpr: interval(3, 50), errors: 0, rejected: [] }];
    const g = gate(handReport([cell('ehr', 'benign', 0, 1000)], real), { maxFpr: 0.05 });
    expect(g.checks.map((c) => c.name)).toEqual(['maxFpr ehr/benign', 'maxFpr real react-hotpotqa']);
    expect(g.checks[1]?.pass).toBe(false);
  });

  it('counts a --benign export\'s unread lines against the guard: the readable 30% of an export cannot pass', () => {
    const clean = { name: 'export.jsonl', source: 'user export', fpr: interval(0, 30), errors: 0, rejected: [] };
    expect(gate(handReport([], [clean]), { maxFpr: 0.5 }).pass).toBe(true);
    const g = gate(handReport([], [{ ...clean, unread: { lines: 70, first: [] } }]), { maxFpr: 0.5 });
    expect(g.checks[0]?.observed).toMatchObject({ k: 70, n: 100 });
    expect(g.checks[0]?.counted).toBe('0 rejected + 70 lines not measured, counted against the guard');
    expect(g.pass).toBe(false);
    // One unread line in a large export barely moves the bound.
    expect(gate(handReport([], [{ ...clean, fpr: interval(0, 5000), unread: { lines: 1, first: [] } }]), { maxFpr: 0.01 }).pass).toBe(true);
    const f = fprGate({ estimate: interval(0, 300), estimateErrors: 0, realGaps: [{ set: 'export.jsonl', real: interval(0, 30), errors: 0, unreadLines: 70 }] }, 0.5);
    expect(f.checks[1]).toMatchObject({ name: 'maxFpr real export.jsonl', observed: { k: 70, n: 100 }, pass: false });
  });

  it('fails a cell with no runs, passes with no limits, and rejects limits outside [0,1]', () => {
    expect(gate(handReport([cell('ehr', 'benign', 0, 0)]), { maxFpr: 0.5 }).pass).toBe(false);
    expect(gate(handReport([cell('ehr', 'seed', 20, 20)]), {})).toEqual({ pass: true, checks: [] });
    expect(() => gate(handReport([]), { maxFpr: 1.5 })).toThrow(RangeError);
  });

  it('formats a check with its interval and result', () => {
    const [c] = gate(handReport([cell('ehr', 'benign', 0, 20)]), { maxFpr: 0.1 }).checks;
    expect(formatGateCheck(c!)).toBe('maxFpr ehr/benign: 0.0% [0.0%, 16.1%] (0/20), upper bound > limit 10.0%: FAIL');
  });

  it('prints an upper bound just under (or over) the limit with the digits that tell them apart', () => {
    // 0/73: Wilson upper bound 0.049992..., which rounds to 5.0% at one decimal.
    const under = gate(handReport([cell('ehr', 'benign', 0, 73)]), { maxFpr: 0.05 }).checks[0]!;
    expect(under.pass).toBe(true);
    expect(formatGateCheck(under)).toBe('maxFpr ehr/benign: 0.0% [0.0%, 4.999%] (0/73), upper bound ≤ limit 5.0%: pass');
    // 0/72: 0.0506..., which rounds to 5.1%: one decimal already tells them apart.
    const over = gate(handReport([cell('ehr', 'benign', 0, 72)]), { maxFpr: 0.05 }).checks[0]!;
    expect(over.pass).toBe(false);
    expect(formatGateCheck(over)).toMatch(/\[0\.0%, 5\.\d%\] \(0\/72\), upper bound > limit 5\.0%: FAIL$/);
  });
});

describe('gate and guard errors', () => {
  it('a guard that errors on every benign entry fails --max-fpr (errors are not admissions)', () => {
    const erroring = { domain: 'ehr', family: 'benign', property: 'benign-admitted', runs: 20, violations: 0, errors: 20, violationRate: interval(0, 20) };
    const report = { cells: [erroring], fpr: { generated: [], real: [] } } as unknown as Parameters<typeof gate>[0];
    const r = gate(report, { maxFpr: 0.5 });
    expect(r.pass).toBe(false);
    expect(r.checks[0]!.observed.k).toBe(20);
  });
});
