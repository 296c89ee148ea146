/**
 * A rate with its Wilson 95% interval as text, for every renderer (a leaf module, so the
 * section renderers can share it without importing each other).
 */
import type { Interval } from './model.js';

/** `12.3% [8.1%, 17.9%]` (rate and interval bounds as percentages), or `n/a (0 runs)`. */
export function pct(i: Interval): string {
  const p = (x: number): string => `${(x * 100).toFixed(1)}%`;
  return i.n === 0 ? 'n/a (0 runs)' : `${p(i.rate)} [${p(i.low)}, ${p(i.high)}]`;
}
