/**
 * Gate semantics of `fuzz`: with a gate the gate decides the exit code,
 * `--require-invariants` adds the invariants, with no gate the invariants decide; the closing
 * lines name what decided, and a failing guard is reported as a finding.
 */
import { describe, expect, it } from 'vitest';
import { exitVerdict } from '../../src/cli/exit-verdict.js';
import { gate, type GateThresholds } from '../../src/report/gate.js';
import { renderStepSummary } from '../../src/report/step-summary.js';
import { cell, handReport } from '../report/fixture.js';

// 0/400 benign rejections (Wilson upper bound ~0.95%), 3/400 forged bypasses (upper ~2.2%).
const report = handReport([cell('ehr', 'benign', 0, 400), cell('ehr', 'seed', 3, 400)]);
const clean = handReport([cell('ehr', 'benign', 0, 400), cell('ehr', 'seed', 0, 400)]);

function verdict(r: typeof report, t: GateThresholds, requireInvariants = false) {
  return exitVerdict(r, gate(r, t), { thresholds: t, requireInvariants, reportDir: 'reports/run' });
}

describe('exitVerdict', () => {
  it('with no gate, the invariants decide and the lines say "no gate set"', () => {
    const v = verdict(report, {});
    expect(v.code).toBe(1);
    expect(v.deciding.map((c) => c.name)).toEqual(['invariants']);
    expect(v.lines[0]).toBe('no gate set: the exit code follows the invariants; invariants failed in 1 of 2 cells (ehr/seed).');
    expect(v.lines.at(-1)).toBe('exit 1: decided by invariants FAIL.');
    expect(verdict(clean, {}).code).toBe(0);
    expect(verdict(clean, {}).lines.at(-1)).toBe('exit 0: decided by invariants pass.');
  });

  it('a failing guard is called a finding, with where the counterexamples are', () => {
    const v = verdict(report, {});
    expect(v.lines.find((l) => l.startsWith('finding:'))).toBe(
      'finding: guard hand breaks its invariants; this is a result of the fuzzing, not a crash (minimal counterexamples in reports/run/report.md).',
    );
    expect(verdict(clean, {}).lines.some((l) => l.startsWith('finding:'))).toBe(false);
  });

  it('when some findings are inputs that crash the guard, the finding line says the guard failed on them', () => {
    const crashing = { ...report, summary: { ...report.summary, findings: { bypass: 1, 'false-positive': 0, flaky: 0, crash: 59, 'guard-error': 2 } } };
    expect(verdict(crashing, {}).lines.find((l) => l.startsWith('finding:'))).toBe(
      'finding: guard hand breaks its invariants; this is a result of the fuzzing, not a crash of farma-fuzz; the guard itself failed on some inputs (59 crash, 2 guard-error findings; an error verdict is never a rejection) (minimal counterexamples in reports/run/report.md).',
    );
  });

  it('a guard that answered error on every call exits 4 (guard), with or without a gate: the line says none was judged', () => {
    const down = handReport([cell('ehr', 'benign', 0, 10, 10), cell('ehr', 'seed', 0, 10, 10)]);
    const v = verdict(down, {});
    expect(v.code).toBe(4);
    expect(v.deciding.map((c) => c.name)).toEqual(['guard']);
    expect(v.lines).toEqual([
      'guard failure: every one of the 20 cases of hand got an error verdict (threw), none was judged: check that the guard starts and is reachable; each counterexample\'s verdict gives the reason (minimal counterexamples in reports/run/report.md).',
      'exit 4: decided by guard FAIL (no invariant could be judged).',
    ]);
    expect(verdict(down, { maxFpr: 0.5 }).code).toBe(4);
    expect(verdict(down, { maxFpr: 0.5 }, true).lines.at(-1)).toBe('exit 4: decided by guard FAIL (no invariant and no gate check could be judged).');
    // Attack mode only: the runs are attacked bases, which may have seen judged queries; the line says bases.
    const attacked = { ...handReport([cell('ehr', 'adaptive', 0, 60, 60)]), attack: {} } as unknown as typeof down;
    expect(verdict(attacked, {}).lines[0]).toBe(
      'guard failure: every one of the 60 attacked bases of hand ended in an error verdict (threw: on the base itself or during its attack), so no base was judged: check the guard\'s error rate (report.md gives the kinds); each counterexample\'s verdict gives the reason (minimal counterexamples in reports/run/report.md).',
    );
    // Some calls judged: the usual finding line and exit 1.
    const partly = handReport([cell('ehr', 'benign', 0, 10, 10), cell('ehr', 'seed', 0, 10, 9)]);
    expect(verdict(partly, {}).code).toBe(1);
    expect(verdict(partly, {}).lines.find((l) => l.startsWith('finding:'))).toContain('breaks its invariants; this is a result of the fuzzing');
  });

  it('with a gate that passes, the exit code is 0 even though an invariant failed, and the lines say why', () => {
    const v = verdict(report, { maxFpr: 0.05 });
    expect(v.code).toBe(0);
    expect(v.deciding.map((c) => c.name)).toEqual(['gate']);
    expect(v.lines).toContain('invariants failed in 1 of 2 cells (ehr/seed); under a gate they do not decide the exit code (add --require-invariants to make them).');
    expect(v.lines.at(-1)).toBe('exit 0: decided by gate pass.');
  });

  it('--require-invariants makes the failed invariant decide as well', () => {
    const v = verdict(report, { maxFpr: 0.05 }, true);
    expect(v.code).toBe(1);
    expect(v.lines.at(-1)).toBe('exit 1: decided by gate pass + invariants FAIL.');
    expect(verdict(clean, { maxFpr: 0.05 }, true).code).toBe(0);
  });

  it('a failing gate gives 1 and names the checks above their limit', () => {
    const v = verdict(report, { maxBypass: 0.01 });
    expect(v.code).toBe(1);
    expect(v.lines[0]).toBe('CI gate (--max-bypass 0.01) failed: 1 of 1 check above the limit (maxBypass ehr/seed).');
    expect(v.lines.at(-1)).toBe('exit 1: decided by gate FAIL.');
    // The same bypass rate under a looser limit passes: the gate, not the invariant, decides.
    expect(verdict(report, { maxBypass: 0.05 }).code).toBe(0);
  });

  it('names a limit the config file set by its key and file, and a typed one by its flag', () => {
    const thresholds = { maxFpr: 0.05, maxBypass: 0.01 };
    const v = exitVerdict(report, gate(report, thresholds), { thresholds, gateFrom: { maxBypass: 'farma-fuzz.config.ts' } });
    expect(v.lines[0]).toMatch(/^CI gate \(--max-fpr 0\.05, thresholds\.maxBypass 0\.01 in farma-fuzz\.config\.ts\) failed/);
  });
});

describe('step summary gate line', () => {
  it('says "no gate set" without a gate, and carries the closing lines', () => {
    const v = verdict(report, {});
    const text = renderStepSummary(report, gate(report, {}), v.lines);
    expect(text).toContain('Gate: no gate set (the exit code follows the invariants).');
    expect(text).not.toContain('0 of 0 checks');
    expect(text).toContain('exit 1: decided by invariants FAIL.');
  });

  it('reports the gate when one is set', () => {
    const text = renderStepSummary(report, gate(report, { maxBypass: 0.01 }));
    expect(text).toContain('Gate: ❌ failed (1 of 1 checks above their limit).');
  });
});
