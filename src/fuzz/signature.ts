/**
 * Failure signatures (DESIGN.md, "Fuzzing and measuring"): family + template + operators
 * + the pattern of signals that fired. Two failures with one signature are one finding.
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Verdict } from '../domain/verdict.js';
import type { Judgement } from './oracle.js';

/** Names of the signals with a score above 0, sorted, joined by `+` (`-` when none fired). */
function firedSignals(verdict: Pick<Verdict, 'signals'>): string {
  const fired = Object.entries(verdict.signals ?? {})
    .filter(([, v]) => v > 0)
    .map(([k]) => k)
    .sort();
  return fired.length > 0 ? fired.join('+') : '-';
}

/** e.g. `violated|seed|ehr/seed/mrn-upstream|-|s5` */
export function failureSignature(c: FuzzCase, verdict: Verdict, judgement: Judgement): string {
  const ops = c.truth.operators.length > 0 ? [...new Set(c.truth.operators)].sort().join(',') : '-';
  const what = judgement === 'error' ? `error:${verdict.error?.kind ?? 'unknown'}` : judgement;
  return [what, c.truth.family, c.truth.template, ops, firedSignals(verdict)].join('|');
}
