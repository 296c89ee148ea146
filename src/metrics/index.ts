export { wilson, Z_95 } from './wilson.js';
export type { WilsonInterval } from './wilson.js';
export { rateSummary, poolCounts, formatRate } from './rate-summary.js';
export type { RateCount } from './rate-summary.js';
export { thresholdSweep, tauGrid, rocCurve, rocAuc, trapezoidAuc } from './threshold-sweep.js';
export type { LabelledScores, SweepRow, RocPoint } from './threshold-sweep.js';
export { realismGap, judgedRate } from './realism-gap.js';
export type { BenignTally } from './realism-gap.js';
