/**
 * Sample summaries for the bench: median with p25–p75 and MAD, in the sample's unit.
 */

/** A figure as reported: median with its spread, in `unit`. */
export interface Figure {
  median: number;
  p25: number;
  p75: number;
  /** Median absolute deviation (not scaled). */
  mad: number;
  n: number;
  unit: string;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}

/** Summarises raw samples (any order). */
export function summarize(samples: readonly number[], unit: string): Figure {
  const s = [...samples].sort((a, b) => a - b);
  const median = quantile(s, 0.5);
  const dev = s.map((x) => Math.abs(x - median)).sort((a, b) => a - b);
  return { median, p25: quantile(s, 0.25), p75: quantile(s, 0.75), mad: quantile(dev, 0.5), n: s.length, unit };
}

/** `12.3 µs (p25–p75 11.9–12.8, n=40)` */
export function formatFigure(f: Figure, digits = 1): string {
  const d = (x: number): string => (Math.abs(x) >= 1000 ? x.toFixed(0) : x.toFixed(digits));
  return `${d(f.median)} ${f.unit} (p25–p75 ${d(f.p25)}–${d(f.p75)}, n=${f.n})`;
}
