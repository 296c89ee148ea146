/**
 * Rates with Wilson intervals for several groups at once (per family, per trace type,
 * per operator), and a one-line text form for reports.
 */
import { wilson, Z_95 } from './wilson.js';
import type { WilsonInterval } from './wilson.js';

/** Counts of one group: `successes` out of `n` trials. */
export interface RateCount {
  successes: number;
  n: number;
}

/**
 * Wilson interval for every group, same keys, same order.
 * @throws RangeError as {@link wilson} for impossible counts.
 * @example
 * rateSummary({ seed: { successes: 48, n: 50 }, naive: { successes: 50, n: 50 } }).seed.low; // ≈ 0.865
 */
export function rateSummary<K extends string>(counts: Readonly<Record<K, RateCount>>, z: number = Z_95): Record<K, WilsonInterval> {
  const out = {} as Record<K, WilsonInterval>;
  for (const key of Object.keys(counts) as K[]) {
    const c = counts[key];
    out[key] = wilson(c.successes, c.n, z);
  }
  return out;
}

/** Adds up counts (e.g. to pool families into an overall rate). */
export function poolCounts(counts: Iterable<RateCount>): RateCount {
  let successes = 0;
  let n = 0;
  for (const c of counts) {
    successes += c.successes;
    n += c.n;
  }
  return { successes, n };
}

/**
 * Formats an interval as percentages, e.g. `50.0% [23.7%, 76.3%] (5/10)`; `n/a (0/0)` when
 * there were no trials.
 * @param digits decimals of each percentage (default 1).
 */
export function formatRate(w: WilsonInterval, digits = 1): string {
  if (w.n === 0) return 'n/a (0/0)';
  const pct = (x: number): string => `${(x * 100).toFixed(digits)}%`;
  return `${pct(w.rate)} [${pct(w.low)}, ${pct(w.high)}] (${w.successes}/${w.n})`;
}
