/**
 * Verdicts are three-valued (DESIGN.md, "Verdicts are three-valued"): `admit`, `reject`
 * or `error`. An `error` (the guard threw, timed out or answered malformed output) is
 * counted on its own and never counts as a rejection.
 */

export const DECISIONS = ['admit', 'reject', 'error'] as const;
/** A guard's answer for one entry: `admit`, `reject`, or `error` (never counted as a rejection). */
export type Decision = (typeof DECISIONS)[number];

/** What one layer of a layered guard did with the entry. */
export interface LayerResult {
  /** Layer id, e.g. `L1-keyword`, `L5-reasoning-guard`. */
  layer: string;
  /** `pass`: let through; `reject`: stopped here; `skip`: not applicable (e.g. not reasoning-like). */
  outcome: 'pass' | 'reject' | 'skip';
  /** Optional numeric value the layer computed (taint, risk, F), in [0,1] unless stated. */
  value?: number;
  reasons: string[];
}

/**
 * Why a verdict is `error`: the guard `threw`, hit its `timeout`, answered `malformed`
 * output, its process `crashed`, or it was `unavailable` (not reachable, or stopped after
 * repeated failures, or closed).
 */
export type GuardErrorKind = 'threw' | 'timeout' | 'malformed' | 'crashed' | 'unavailable';

/**
 * What a guard decided for one entry, with its evidence (layer trace, signals, forgery
 * score) and the time it took. The wire form is `getVerdictSchema()` (docs/guard-protocol.md).
 */
export interface Verdict {
  decision: Decision;
  /** The layer that decided (for `reject`, the rejecting layer; for `admit`, usually the last one run). */
  layer?: string;
  /** Per-layer trace, in evaluation order. Empty for guards without layers. */
  trace: LayerResult[];
  /** Per-signal scores in [0,1], e.g. `{ s1: 0, s2: 1, s3: 0.5, s4: 0, s5: 1 }`. */
  signals?: Record<string, number>;
  /** Forgery score F in [0,1] (paper §IV-E), when the guard computes one. */
  score?: number;
  /** Human-readable reasons, most important first. */
  reasons: string[];
  /** Time the guard took for this entry, in microseconds (µs). */
  elapsedUs: number;
  /** Present only when `decision === 'error'`. */
  error?: { kind: GuardErrorKind; message: string };
}

/** Builds an `error` verdict. Never counts as a rejection. */
export function errorVerdict(kind: GuardErrorKind, message: string, elapsedUs = 0): Verdict {
  return { decision: 'error', trace: [], reasons: [message], elapsedUs, error: { kind, message } };
}
