/**
 * Per-cell tallies collected while a property runs (shrink evaluations are not counted).
 * Rates derived from them (bypass rate, FPR, error rate) are in [0,1].
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Verdict } from '../domain/verdict.js';
import type { Judgement } from './oracle.js';
import { addCount, nameKeyed, ownValue } from '../domain/name-keyed.js';

export interface Tally {
  runs: number;
  violations: number;
  errors: number;
}

/**
 * True when cells ran and the guard answered error on every run of every one of them: not one
 * verdict (an exec command that cannot start, an HTTP endpoint that is down). Pure.
 */
export function judgedNothing(cells: ReadonlyArray<Pick<Tally, 'runs' | 'errors'>>): boolean {
  const runs = cells.reduce((n, c) => n + c.runs, 0);
  return runs > 0 && cells.reduce((n, c) => n + c.errors, 0) === runs;
}

/**
 * Keys of the operator breakdown for a case that stands for a discarded rewrite
 * (`truth.discarded`): one `discarded` key per such run, and `discarded:<id>` per operator of the
 * lost rewrite. The one place these keys are written; the report reads them with `discardedOperatorOf`.
 */
export const DISCARDED_RUN_KEY = 'discarded';
const DISCARDED_OPERATOR_PREFIX = 'discarded:';

/** The operator id of a `discarded:<id>` breakdown key; undefined for any other key. */
export function discardedOperatorOf(key: string): string | undefined {
  return key.startsWith(DISCARDED_OPERATOR_PREFIX) ? key.slice(DISCARDED_OPERATOR_PREFIX.length) : undefined;
}

/** The operator-breakdown keys of a case: its operators (or `(none)`), plus the discard keys of a lost rewrite. */
function operatorKeys(c: FuzzCase): Set<string> {
  const lost = c.truth.discarded;
  const keys = [...c.truth.operators, ...(lost ? [DISCARDED_RUN_KEY, ...lost.operators.map((op) => DISCARDED_OPERATOR_PREFIX + op)] : [])];
  return new Set(keys.length > 0 ? keys : ['(none)']);
}

const BREAKDOWN_DIMENSIONS = ['template', 'operator', 'traceType', 'format', 'language', 'store'] as const;
type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number];

export interface CellStats extends Tally {
  /** F scores (rounded to 0.01, as a string key) → count, for entries whose verdict has a score. */
  scoreHistogram: Record<string, number>;
  /** How often each signal scored above 0. */
  signalFires: Record<string, number>;
  /** Layer → how often it fired: rejected the entry, or passed it with a value above 0 (e.g. taint, F). */
  layerFires: Record<string, number>;
  /** Deciding layer → count, over all verdicts. */
  decidingLayers: Record<string, number>;
  /** Per-dimension tallies (e.g. template id → tally). */
  breakdown: Record<BreakdownDimension, Record<string, Tally>>;
  /** `error` verdicts by kind (threw, timeout, malformed, crashed, unavailable). */
  errorKinds: Record<string, number>;
  /** Sum of guard-reported time, µs. */
  guardUs: number;
}

export function emptyStats(): CellStats {
  return {
    runs: 0,
    violations: 0,
    errors: 0,
    scoreHistogram: nameKeyed(),
    signalFires: nameKeyed(),
    layerFires: nameKeyed(),
    decidingLayers: nameKeyed(),
    breakdown: { template: nameKeyed(), operator: nameKeyed(), traceType: nameKeyed(), format: nameKeyed(), language: nameKeyed(), store: nameKeyed() },
    errorKinds: nameKeyed(),
    guardUs: 0,
  };
}

function bump(t: Tally, j: Judgement): void {
  t.runs += 1;
  if (j === 'violated') t.violations += 1;
  else if (j === 'error') t.errors += 1;
}

function bumpKey(map: Record<string, Tally>, key: string, j: Judgement): void {
  let t = ownValue(map, key);
  if (t === undefined) {
    t = { runs: 0, violations: 0, errors: 0 };
    Object.defineProperty(map, key, { value: t, writable: true, enumerable: true, configurable: true });
  }
  bump(t, j);
}

/** Adds one evaluated case to the tallies. */
export function record(stats: CellStats, c: FuzzCase, verdict: Verdict, j: Judgement): void {
  bump(stats, j);
  stats.guardUs += verdict.elapsedUs;
  if (verdict.decision === 'error') {
    const kind = verdict.error?.kind ?? 'unknown';
    addCount(stats.errorKinds, kind);
  }
  if (verdict.score !== undefined) {
    const key = (Math.round(verdict.score * 100) / 100).toFixed(2);
    addCount(stats.scoreHistogram, key);
  }
  for (const [s, v] of Object.entries(verdict.signals ?? {})) if (v > 0) addCount(stats.signalFires, s);
  for (const l of verdict.trace) {
    if (l.outcome === 'reject' || (typeof l.value === 'number' && l.value > 0)) addCount(stats.layerFires, l.layer);
  }
  const layer = verdict.layer ?? (verdict.decision === 'error' ? 'error' : '-');
  addCount(stats.decidingLayers, layer);
  const b = stats.breakdown;
  bumpKey(b.template, c.truth.template, j);
  for (const op of operatorKeys(c)) bumpKey(b.operator, op, j);
  bumpKey(b.traceType, c.entry.traceType, j);
  bumpKey(b.store, c.entry.store, j);
  if (c.truth.format !== undefined) bumpKey(b.format, c.truth.format, j);
  if (c.truth.language !== undefined) bumpKey(b.language, c.truth.language, j);
}
