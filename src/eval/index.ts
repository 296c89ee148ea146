/** Public surface of the evaluation (paper §V), listed one by one. */
export { differentialOutcome, classifyAction, emptyOutcomeCounts, DIFFERENTIAL_OUTCOMES } from './differential.js';
export type { ActionClass } from './differential.js';
export type { AttackSource, BenignSource, Defense } from './eval-inputs.js';
export { guardRetrieve, setFilterRetrieve } from './retrieve-paths.js';
export { runTrial } from './trial.js';
export { runEvaluation } from './run-eval.js';
export type { EvalSettings, EvalResult, CellResult, FprSet, AblationRow, AblationVariant } from './run-eval.js';
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
