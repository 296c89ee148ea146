/**
 * Wilson score interval for a binomial proportion (E. B. Wilson, 1927). The paper reports
 * detection rates and FPR with Wilson 95% intervals (§V); DESIGN.md asks for the same.
 */

/** z for a two-sided 95% interval (the 0.975 quantile of the standard normal). */
export const Z_95 = 1.959964;

/** A rate with its interval. All rates are in [0,1]. */
export interface WilsonInterval {
  /** Observed rate `successes / n`; 0 when `n` is 0. */
  rate: number;
  /** Lower bound of the interval, in [0,1]. */
  low: number;
  /** Upper bound of the interval, in [0,1]. */
  high: number;
  n: number;
  successes: number;
}

/**
 * Wilson score interval of `successes` out of `n` trials.
 *
 * With no trials (`n = 0`) nothing is known: the result is `rate 0, low 0, high 1` (a
 * finite rate, so sums and charts never meet NaN; read `n` to tell "0 of 0" from "0 of 10").
 *
 * @param z normal quantile; 1.959964 (default) gives a 95% interval.
 * @throws RangeError when `n` or `successes` is negative or not an integer, when
 *   `successes > n`, or when `z` is not a positive finite number (programming errors).
 * @example
 * wilson(5, 10); // { rate: 0.5, low: 0.2366, high: 0.7634, n: 10, successes: 5 } (rounded)
 */
export function wilson(successes: number, n: number, z: number = Z_95): WilsonInterval {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`wilson: n must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`wilson: successes must be an integer in [0, n=${n}], got ${successes}`);
  }
  if (!Number.isFinite(z) || z <= 0) throw new RangeError(`wilson: z must be a positive number, got ${z}`);
  if (n === 0) return { rate: 0, low: 0, high: 1, n, successes };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Clamp away rounding noise and pin the exact ends (0 of n has low 0; n of n has high 1).
  const low = successes === 0 ? 0 : Math.max(0, centre - half);
  const high = successes === n ? 1 : Math.min(1, centre + half);
  return { rate: p, low, high, n, successes };
}
