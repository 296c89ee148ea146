/**
 * Two proportions compared: Fisher's exact test on the 2×2 table (R. A. Fisher, 1935; the
 * two-sided rule of R's `stats::fisher.test`, also given in A. Agresti, *Categorical Data
 * Analysis*, 3rd ed., §3.5.1), and Holm's step-down adjustment for many such tests at once
 * (S. Holm, 1979). The hypergeometric probabilities are computed through log-gamma
 * (simple-statistics' `gammaln`, a Lanczos approximation), so counts of many thousands keep
 * double precision.
 *
 * Fisher's test is exact at any sample size: it stays valid where a z test or chi-square
 * breaks down, as with rates of 0/1000 against 3/1000 that fuzzing reports are full of.
 */
import { gammaln } from 'simple-statistics';

/** ln C(n, k). */
function lnChoose(n: number, k: number): number {
  return gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1);
}

/** P(X = x) for X hypergeometric: `draws` drawn from `total` items of which `marked` are marked. */
function hypergeometricPmf(x: number, total: number, marked: number, draws: number): number {
  return Math.exp(lnChoose(marked, x) + lnChoose(total - marked, draws - x) - lnChoose(total, draws));
}

/** One side of a comparison: `k` events out of `n` trials. */
export interface Proportion {
  k: number;
  n: number;
}

/** Relative tolerance under which two table probabilities count as equal (the one `fisher.test` uses). */
const RELATIVE_TOLERANCE = 1 + 1e-7;

function checkProportion(p: Proportion, name: string): void {
  if (!Number.isInteger(p.n) || p.n < 0) throw new RangeError(`fisherExact: ${name}.n must be a non-negative integer, got ${p.n}`);
  if (!Number.isInteger(p.k) || p.k < 0 || p.k > p.n) throw new RangeError(`fisherExact: ${name}.k must be an integer in [0, n=${p.n}], got ${p.k}`);
}

/**
 * Two-sided p-value of Fisher's exact test that `a.k/a.n` and `b.k/b.n` come from the same
 * rate: the probability, under the hypergeometric law of the table with both margins fixed,
 * of every table at most as probable as the one observed. In [0,1]; 1 when either side has
 * no trial or nothing varies (both margins leave a single table).
 *
 * @throws RangeError when a count is negative, not an integer, or `k > n` (programming errors).
 * @example
 * fisherExact({ k: 0, n: 1000 }, { k: 12, n: 1000 }); // ≈ 0.00049: a real change
 * fisherExact({ k: 1, n: 20 }, { k: 2, n: 20 });      // 1: no evidence of a change
 */
export function fisherExact(a: Proportion, b: Proportion): number {
  checkProportion(a, 'a');
  checkProportion(b, 'b');
  if (a.n === 0 || b.n === 0) return 1;
  const total = a.n + b.n;
  const events = a.k + b.k;
  const lo = Math.max(0, a.n - (total - events));
  const hi = Math.min(a.n, events);
  if (lo === hi) return 1;
  const pmf = hypergeometricPmf;
  const observed = pmf(a.k, total, events, a.n);
  let p = 0;
  for (let x = lo; x <= hi; x++) {
    const px = pmf(x, total, events, a.n);
    if (px <= observed * RELATIVE_TOLERANCE) p += px;
  }
  return Math.min(1, p);
}

/**
 * Holm's step-down adjustment of p-values for a family of tests: controls the chance of any
 * false "significant" at the level compared with, whatever the dependence between tests.
 * Returns the adjusted p-values in the input order, each in [0,1] (as R's `p.adjust(p, "holm")`).
 *
 * @example
 * holmAdjust([0.01, 0.04, 0.03]); // [0.03, 0.06, 0.06]
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  const out = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[i] = running;
  });
  return out;
}
