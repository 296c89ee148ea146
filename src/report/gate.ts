/**
 * CI gating: pass or fail a run against rate limits, judged on the upper bound of each
 * rate's Wilson 95% interval, so a small sample cannot pass by luck (0 false positives in
 * 20 benign runs has an upper bound of about 0.161, so it passes `maxFpr: 0.2` but not
 * `maxFpr: 0.1`). Intervals: E. B. Wilson (1927), as the paper reports its rates (§V).
 */
import { plural } from '../domain/plural.js';
import { interval, type Interval, type ReportData } from './model.js';

/** Rate limits in [0,1]; a limit left out is not checked. */
export interface GateThresholds {
  /** Highest allowed false-positive rate, per benign cell and per real benign set. */
  maxFpr?: number;
  /** Highest allowed bypass rate, per forged cell. */
  maxBypass?: number;
}

/** One gate check: passes when `observed.high <= limit`. */
export interface GateCheck {
  /** Stable name, free of seeds and dates: `maxFpr ehr/benign`, `maxFpr real react-hotpotqa`, `maxBypass rap/seed`. */
  name: string;
  /** The rate with its Wilson 95% interval; `high` is what is judged. */
  observed: Interval;
  limit: number;
  pass: boolean;
  /** What `observed.k` adds up, when it is more than the rejections or admissions themselves (guard errors, a real set's unmeasured export lines): `0 rejected + 10 lines not measured`, `3 admitted + 7 error verdicts`. */
  counted?: string;
}

export interface GateResult {
  /** True when every check passed (also when no check applied). */
  pass: boolean;
  checks: GateCheck[];
}

/**
 * A cell's rate as a gate judges it: violations plus guard errors (an error is neither an
 * admission nor a rejection), over runs. `compare` uses it too, so both judge alike.
 */
export function cellGateRate(c: { violations: number; errors: number; runs: number }): Interval {
  return interval(c.violations + c.errors, c.runs);
}

/**
 * A real set's rate as a gate judges it: rejections plus guard errors plus the export's lines
 * that were not measured (unreadable, empty, repeated ids: their verdict is unknown), over the
 * rows plus those lines. So a gate cannot pass on the readable 30% of an export. `compare`
 * uses it too.
 */
export function realSetRate(fpr: Interval, errors: number, unread: number): Interval {
  return interval(fpr.k + errors + unread, fpr.n + unread);
}

/** What a real set's gate count adds up (`GateCheck.counted`), or undefined when it is its rejections alone. */
function realSetCounted(fpr: Interval, errors: number, unread: number): { counted?: string } {
  if (errors === 0 && unread === 0) return {};
  const parts = [`${fpr.k} rejected`, ...(errors > 0 ? [`${plural(errors, 'error verdict')}`] : []), ...(unread > 0 ? [`${plural(unread, 'line')} not measured, counted against the guard`] : [])];
  return { counted: parts.join(' + ') };
}

function checkLimit(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new RangeError(`gate: ${name} must be a rate in [0,1], got ${value}`);
  return value;
}

/**
 * Judges a report against rate limits.
 *
 * - `maxFpr`: one check per natural benign cell (property `benign-admitted`, family not
 *   `benign-stress`: the hard negatives are never the estimate; rate = benign entries
 *   *not admitted* / runs: rejections plus guard errors) and one per real benign set
 *   (`report.fpr.real`), so a guard that errors on benign input cannot pass; a `--benign`
 *   export's lines that were not measured (unreadable, empty) count against it too.
 * - `maxBypass`: one check per forged cell (property `forgery-rejected`). The rate counted
 *   is forged entries *not rejected* / runs: bypasses plus guard errors, because an
 *   `error` verdict never counts as a rejection (DESIGN.md, three-valued verdicts).
 * - Each check passes when the Wilson 95% upper bound is at most the limit. A cell with
 *   0 runs has upper bound 1 and fails: no evidence is not a pass.
 *
 * Pure; the order of checks follows the report (cells, then real sets).
 *
 * @throws RangeError when a limit is not a number in [0,1] (a programming error; the
 *   config loader checks user input first).
 * @example
 * gate(report, { maxFpr: 0.05, maxBypass: 0.01 }).pass; // false when any upper bound is above its limit
 */
export function gate(report: ReportData, thresholds: GateThresholds): GateResult {
  const maxFpr = checkLimit('maxFpr', thresholds.maxFpr);
  const maxBypass = checkLimit('maxBypass', thresholds.maxBypass);
  const checks: GateCheck[] = [];
  const add = (name: string, observed: Interval, limit: number, counted: { counted?: string } = {}): void => {
    checks.push({ name, observed, limit, pass: observed.high <= limit, ...counted });
  };
  for (const c of report.cells) {
    // Errors count against both limits: an error is neither an admission nor a rejection.
    // The FPR estimate is the natural `benign` mix; `benign-stress` hunts false positives and is never gated.
    const counted = c.errors > 0 ? { counted: `${c.violations} ${c.property === 'benign-admitted' ? 'rejected' : 'admitted'} + ${plural(c.errors, 'error verdict')}` } : {};
    if (maxFpr !== undefined && c.property === 'benign-admitted' && c.family !== 'benign-stress') add(`maxFpr ${c.domain}/${c.family}`, cellGateRate(c), maxFpr, counted);
    if (maxBypass !== undefined && c.property === 'forgery-rejected') add(`maxBypass ${c.domain}/${c.family}`, cellGateRate(c), maxBypass, counted);
  }
  if (maxFpr !== undefined) for (const s of report.fpr.real) add(`maxFpr real ${s.name}`, realSetRate(s.fpr, s.errors, s.unread?.lines ?? 0), maxFpr, realSetCounted(s.fpr, s.errors, s.unread?.lines ?? 0));
  return { pass: checks.every((c) => c.pass), checks };
}

/**
 * One line per check: `maxFpr ehr/benign: 0.0% [0.0%, 16.1%] (0/20), upper bound > limit 10.0%: FAIL`.
 * An upper bound that would print as the limit at one decimal gets more (up to four), so a pass
 * just under the limit does not read as one on it (`[0.0%, 4.999%]` against `limit 5.0%`).
 */
export function formatGateCheck(c: GateCheck): string {
  const p = (x: number, digits = 1): string => `${(x * 100).toFixed(digits)}%`;
  const o = c.observed;
  let d = 1;
  while (d < 4 && o.high !== c.limit && p(o.high, d) === p(c.limit, d)) d++;
  return `${c.name}: ${p(o.rate)} [${p(o.low)}, ${p(o.high, d)}] (${o.k}/${o.n}${c.counted ? `: ${c.counted}` : ''}), upper bound ${c.pass ? '≤' : '>'} limit ${p(c.limit)}: ${c.pass ? 'pass' : 'FAIL'}`;
}

/**
 * Judges an `fpr` report (`farma-fuzz fpr --max-fpr`) as {@link gate} judges a fuzz run's FPR:
 * one check for the natural estimate over all domains (rejections plus guard errors, over every
 * generated trace) and one per real set, bundled or `--benign` (rejections plus errors over its
 * entries, plus an export's lines that were not measured). The hard negatives and the hand-written set are never gated. Pure.
 * @param report what `measureGuardFpr` returned.
 * @param maxFpr the limit in [0,1], judged on each Wilson 95% upper bound.
 * @throws RangeError when `maxFpr` is not a number in [0,1].
 * @example
 * fprGate(report, 0.01).pass; // false when the estimate's or any real set's upper bound is above 1%
 */
export function fprGate(report: { estimate: Interval; estimateErrors: number; realGaps: ReadonlyArray<{ set: string; real: Interval; errors: number; unreadLines?: number }> }, maxFpr: number): GateResult {
  const limit = checkLimit('maxFpr', maxFpr)!;
  const checks: GateCheck[] = [];
  const add = (name: string, observed: Interval, counted: { counted?: string } = {}): void => void checks.push({ name, observed, limit, pass: observed.high <= limit, ...counted });
  add('maxFpr estimate', interval(report.estimate.k + report.estimateErrors, report.estimate.n));
  for (const s of report.realGaps) add(`maxFpr real ${s.set}`, realSetRate(s.real, s.errors, s.unreadLines ?? 0), realSetCounted(s.real, s.errors, s.unreadLines ?? 0));
  return { pass: checks.every((c) => c.pass), checks };
}
