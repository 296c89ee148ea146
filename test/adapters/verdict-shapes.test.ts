/**
 * parseVerdict, the one schema every untrusted answer goes through, on the shapes outside
 * guards answer (docs/guard-protocol.md, "Answers read besides the canonical shape") and on
 * answers too large to copy into reports and the git-tracked corpus whole.
 */
import { describe, expect, it } from 'vitest';
import { VERDICT_BOUNDS, parseVerdict } from '../../src/domain/verdict-schema.js';

const decisionOf = (v: unknown): string => {
  const r = parseVerdict(v);
  return r.ok ? r.verdict.decision : `malformed: ${r.message}`;
};

describe('answers read besides the canonical shape', () => {
  it.each([
    [{ decision: 'REJECT' }, 'reject'],
    [{ decision: ' Admit ' }, 'admit'],
    [{ decision: 'block' }, 'reject'],
    [{ decision: 'Denied' }, 'reject'],
    [{ decision: 'allow' }, 'admit'],
    [{ decision: 'pass' }, 'admit'],
    ['reject', 'reject'],
    [{ allowed: false }, 'reject'],
    [{ is_safe: true }, 'admit'],
    [{ isMalicious: true }, 'reject'],
    [{ blocked: false }, 'admit'],
    [{ verdict: { decision: 'deny' } }, 'reject'],
    [{ jsonrpc: '2.0', id: 7, result: { decision: 'allow' } }, 'admit'],
  ])('%j is read as %s', (answer, decision) => {
    expect(decisionOf(answer)).toBe(decision);
  });

  it('null optional fields are absent, one-string reasons and boolean signals are read', () => {
    const r = parseVerdict({ decision: 'admit', layer: null, score: null, reasons: 'one reason', signals: { a: true, b: false, c: null }, trace: [{ layer: 'L1', outcome: 'pass', value: null, reasons: null }] });
    expect(r).toEqual({ ok: true, verdict: { decision: 'admit', trace: [{ layer: 'L1', outcome: 'pass', reasons: [] }], signals: { a: 1, b: 0 }, reasons: ['one reason'], elapsedUs: 0 } });
    const s = parseVerdict({ decision: 'reject', reason: 'policy 4' });
    expect(s.ok && s.verdict.reasons).toEqual(['policy 4']);
  });

  it.each([
    [true, /a bare boolean is ambiguous/],
    [false, /a bare boolean is ambiguous/],
    [undefined, /got nothing \(undefined: does check\(\) return its verdict on every path\?\)/],
    [{ score: 0.93 }, /score \(0\.93\) but farma-fuzz never picks a threshold/],
    [{ decision: true }, /a boolean decision is ambiguous/],
    [{ allowed: true, blocked: true }, /boolean fields disagree \(allowed: true, blocked: true\)/],
    [{ decision: 'admit', blocked: true }, /decision "admit" and the boolean field blocked: true disagree/],
    [{ decision: 'reject', is_safe: true, flagged: false }, /decision "reject" and the boolean fields is_safe: true, flagged: false disagree/],
    [{ decision: 'maybe' }, /got string "maybe" \(also read: allow, .*malicious; any case\)/],
    [{ confidence: 0.2 }, /got nothing \(fields: confidence\)/],
  ])('%j is malformed, saying what to return', (answer, message) => {
    const r = parseVerdict(answer);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });

  it('a boolean field that agrees with the decision is no conflict', () => {
    expect(decisionOf({ decision: 'admit', blocked: false, safe: true })).toBe('admit');
    expect(decisionOf({ decision: 'deny', allowed: false })).toBe('reject');
  });

  it.each([
    [{ decision: 'admit', error: { kind: 'timeout', message: 'judge timed out; failing open' } }, 'timeout', /decision "admit" together with an error \(timeout: judge timed out; failing open\).*failing open/],
    [{ decision: 'reject', error: { message: 'backend down' } }, 'malformed', /decision "reject" together with an error \(backend down\).*failing closed/],
    [{ allowed: true, error: { kind: 'unavailable' } }, 'unavailable', /decision "admit" together with an error \(unavailable\)/],
  ])('%j (a decision with an error) is an error verdict, never a judgement', (answer, kind, message) => {
    const r = parseVerdict(answer);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.verdict.decision).toBe('error');
    expect(r.verdict.error?.kind).toBe(kind);
    expect(r.verdict.error?.message).toMatch(message);
    expect(r.verdict.reasons[0]).toBe(r.verdict.error?.message);
  });

  it.each([[{ decision: 'admit', error: null }], [{ decision: 'admit', error: {} }], [{ decision: 'admit', error: false }], [{ decision: 'admit', error: '' }]])('%j carries no error: the decision stands', (answer) => {
    const r = parseVerdict(answer);
    expect(r.ok && r.verdict).toEqual({ decision: 'admit', trace: [], reasons: [], elapsedUs: 0 });
  });

  it('a trace outcome stays strict (only decisions have synonyms)', () => {
    expect(parseVerdict({ decision: 'admit', trace: [{ layer: 'L1', outcome: 'allow' }] }).ok).toBe(false);
  });
});

describe('answers too large to keep whole', () => {
  const huge = {
    decision: 'admit',
    reasons: ['R'.repeat(2_000_000), ...Array.from({ length: 5000 }, (_, i) => `reason ${i}`)],
    signals: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`sig${i}`, 0.5])),
    trace: Array.from({ length: 100 }, () => ({ layer: 'L'.repeat(1000), outcome: 'pass', reasons: ['x'.repeat(5000)] })),
  };

  it('are cut to the bounds, and every cut is said in the reasons', () => {
    const r = parseVerdict(huge);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.verdict;
    expect(v.reasons).toHaveLength(VERDICT_BOUNDS.reasons);
    expect(v.reasons.every((x) => x.length <= VERDICT_BOUNDS.reasonChars)).toBe(true);
    expect(v.reasons[0]).toMatch(/… \[cut: 2000000 characters\]$/);
    expect(v.reasons).toContain(`… and 1936 more signals (farma-fuzz keeps the first ${VERDICT_BOUNDS.signals})`);
    expect(v.reasons).toContain(`… and 36 more trace items (farma-fuzz keeps ${VERDICT_BOUNDS.trace})`);
    expect(v.reasons.some((x) => /^… and \d+ more reasons/.test(x))).toBe(true);
    expect(Object.keys(v.signals ?? {})).toHaveLength(VERDICT_BOUNDS.signals);
    expect(v.trace).toHaveLength(VERDICT_BOUNDS.trace);
    expect(v.trace[0]?.layer.length).toBe(VERDICT_BOUNDS.nameChars);
    expect(JSON.stringify(v).length).toBeLessThan(200_000);
  });

  it('cutting twice changes nothing more (the engine re-checks an adapter\'s verdict)', () => {
    const once = parseVerdict(huge);
    if (!once.ok) throw new Error(once.message);
    const twice = parseVerdict(once.verdict);
    expect(twice).toEqual(once);
  });
});
