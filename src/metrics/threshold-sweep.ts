/**
 * Threshold sweeps and ROC curves over forgery scores (paper §IV-E: reject when F > tau).
 * A forged entry rejected is a true positive; a benign entry rejected is a false positive.
 */

/** Forgery scores F in [0,1] (any finite numbers work) of benign and forged entries. */
export interface LabelledScores {
  benign: readonly number[];
  forged: readonly number[];
}

/** One operating point: rates in [0,1] at threshold `tau`. */
export interface SweepRow {
  tau: number;
  /** Detection rate: forged scores `> tau`, over all forged (0 when there are none). */
  tpr: number;
  /** False-positive rate: benign scores `> tau`, over all benign (0 when there are none). */
  fpr: number;
}

/** A point of the ROC curve, rates in [0,1]. */
export interface RocPoint {
  fpr: number;
  tpr: number;
}

function sortedFinite(xs: readonly number[], label: string): Float64Array {
  const out = Float64Array.from(xs);
  for (const x of out) if (!Number.isFinite(x)) throw new RangeError(`${label} score is not a finite number: ${x}`);
  return out.sort();
}

/** Number of values in a sorted array that are strictly greater than `t` (binary search). */
function countAbove(sorted: Float64Array, t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) <= t) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length - lo;
}

/**
 * TPR and FPR at each threshold, in the order given, rejecting when `score > tau`.
 * Cost O((B + F) log(B + F) + T log(B + F)).
 * @throws RangeError when a score or a tau is not finite.
 * @example
 * thresholdSweep({ benign: [0.1, 0.6], forged: [0.7, 0.9] }, [0.5]); // [{ tau: 0.5, tpr: 1, fpr: 0.5 }]
 */
export function thresholdSweep(scores: LabelledScores, taus: readonly number[]): SweepRow[] {
  const b = sortedFinite(scores.benign, 'benign');
  const f = sortedFinite(scores.forged, 'forged');
  return taus.map((tau) => {
    if (!Number.isFinite(tau)) throw new RangeError(`tau is not a finite number: ${tau}`);
    return {
      tau,
      tpr: f.length === 0 ? 0 : countAbove(f, tau) / f.length,
      fpr: b.length === 0 ? 0 : countAbove(b, tau) / b.length,
    };
  });
}

/**
 * `count + 1` evenly spaced thresholds from `from` to `to` inclusive (default 0..1 in 0.05
 * steps), rounded to 10 decimals so `0.1 + 0.2` noise never shows in reports.
 */
export function tauGrid(from = 0, to = 1, count = 20): number[] {
  return Array.from({ length: count + 1 }, (_, i) => Math.round((from + ((to - from) * i) / count) * 1e10) / 1e10);
}

/**
 * The full empirical ROC curve: one point per distinct score (threshold just below it),
 * from (0,0) to (1,1), with fpr and tpr non-decreasing.
 * @throws RangeError when a score is not finite.
 */
export function rocCurve(scores: LabelledScores): RocPoint[] {
  const b = sortedFinite(scores.benign, 'benign');
  const f = sortedFinite(scores.forged, 'forged');
  const nb = b.length;
  const nf = f.length;
  const points: RocPoint[] = [{ fpr: 0, tpr: 0 }];
  // Walk thresholds from the highest score down; at each distinct score s, use tau just
  // below s, so every entry scoring >= s is rejected.
  let i = nb - 1;
  let j = nf - 1;
  while (i >= 0 || j >= 0) {
    const s = Math.max(i >= 0 ? (b[i] as number) : -Infinity, j >= 0 ? (f[j] as number) : -Infinity);
    while (i >= 0 && b[i] === s) i -= 1;
    while (j >= 0 && f[j] === s) j -= 1;
    points.push({ fpr: nb === 0 ? 0 : (nb - 1 - i) / nb, tpr: nf === 0 ? 0 : (nf - 1 - j) / nf });
  }
  const last = points[points.length - 1] as RocPoint;
  if (last.fpr !== 1 || last.tpr !== 1) points.push({ fpr: 1, tpr: 1 });
  return points;
}

/**
 * Area under a curve of points by the trapezoid rule, after sorting by fpr (then tpr).
 * Use it on {@link thresholdSweep} rows (add the (0,0) and (1,1) ends if the grid does
 * not reach them) or on {@link rocCurve} points.
 */
export function trapezoidAuc(points: readonly RocPoint[]): number {
  const p = [...points].sort((a, c) => a.fpr - c.fpr || a.tpr - c.tpr);
  let area = 0;
  for (let k = 1; k < p.length; k += 1) {
    const a = p[k - 1] as RocPoint;
    const c = p[k] as RocPoint;
    area += ((c.fpr - a.fpr) * (a.tpr + c.tpr)) / 2;
  }
  return area;
}

/**
 * ROC AUC in [0,1] by the trapezoid rule over the full empirical curve: the chance that a
 * random forged entry scores above a random benign one, ties counted half
 * (Mann–Whitney). 1 is perfect separation, 0.5 is chance.
 *
 * @returns `NaN` when either class has no scores (the area is undefined).
 * @throws RangeError when a score is not finite.
 * @example
 * rocAuc({ benign: [0.1, 0.2], forged: [0.8, 0.9] }); // 1
 */
export function rocAuc(scores: LabelledScores): number {
  if (scores.benign.length === 0 || scores.forged.length === 0) return Number.NaN;
  return trapezoidAuc(rocCurve(scores));
}
