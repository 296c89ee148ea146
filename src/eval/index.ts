/** Public surface of the evaluation (paper §V), listed one by one. */
export { differentialOutcome, classifyAction, emptyOutcomeCounts, DIFFERENTIAL_OUTCOMES } from './differential.js';
export type { ActionClass, DifferentialOutcome } from './differential.js';
export type { TrialDraw, FarmaInjection, AttackSource, BenignSource, Defense } from './eval-inputs.js';
export { guardRetrieve, setFilterRetrieve } from './retrieve-paths.js';
export type { SetFilter } from './retrieve-paths.js';
export { taskArb, sampleTask } from './eval-tasks.js';
export { runTrial } from './trial.js';
export type { TrialResult, TrialSpec, WriteCounts } from './trial.js';
export { runEvaluation, measureFpr, trialSeed } from './run-eval.js';
export type { EvalSettings, EvalDeps, EvalResult, CellResult, FprRow, FprCount, FprSet, AblationRow, AblationVariant, SweepResult } from './run-eval.js';
export {
  renderEvalMarkdown,
  renderDefenseTable,
  renderAblationTable,
  renderSweepTable,
  ablationFindings,
  ablationBaseline,
  sweepFinding,
  formatInterval,
  plannerLabel,
  bar,
} from './render-eval.js';
