/**
 * The realism gap |FPR_generated − FPR_real| (DESIGN.md, "Measuring FPR"), computed only from
 * rows the guard actually judged: `error` verdicts (throws, timeouts, malformed answers) are
 * neither admissions nor rejections, so they are taken out of both denominators.
 */

/** Benign rows of one side: `rejected` of `n`, of which `errors` got an `error` verdict. */
export interface BenignTally {
  /** Rows rejected (false positives). */
  rejected: number;
  /** All rows, errored ones included. */
  n: number;
  /** Rows whose verdict was `error`. */
  errors: number;
}

/**
 * The gap in [0,1] between the generated and the real FPR over judged rows
 * (`rejected / (n − errors)` on each side), or `undefined` when either side has no judged
 * row (empty, or every row errored): a gap from errored rows would be a made-up number.
 * @throws RangeError when a tally is impossible (negative, or `rejected + errors > n`).
 * @example
 * realismGap({ rejected: 2, n: 100, errors: 0 }, { rejected: 0, n: 35, errors: 35 }); // undefined
 * realismGap({ rejected: 2, n: 100, errors: 0 }, { rejected: 1, n: 60, errors: 10 }); // |0.02 − 0.02| = 0
 */
export function realismGap(generated: BenignTally, real: BenignTally): number | undefined {
  const g = judgedRate(generated, 'generated');
  const r = judgedRate(real, 'real');
  return g === undefined || r === undefined ? undefined : Math.abs(g - r);
}

/** `rejected / (n − errors)`, or `undefined` when no row was judged. */
function judgedRate(t: BenignTally, label = 'tally'): number | undefined {
  const ok = (x: number): boolean => Number.isInteger(x) && x >= 0;
  if (!ok(t.rejected) || !ok(t.n) || !ok(t.errors) || t.rejected + t.errors > t.n) {
    throw new RangeError(`${label}: impossible benign tally ${JSON.stringify(t)}`);
  }
  const judged = t.n - t.errors;
  return judged > 0 ? t.rejected / judged : undefined;
}
