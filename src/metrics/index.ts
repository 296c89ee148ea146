export { wilson } from './wilson.js';
export type { WilsonInterval } from './wilson.js';
export { rateSummary, poolCounts, formatRate } from './rate-summary.js';
export { thresholdSweep, tauGrid, rocCurve, rocAuc, trapezoidAuc } from './threshold-sweep.js';
