/** Paraphrase and mutation operators of the adaptive attacker, and the claim-preservation check. */
export { OPERATORS, OPERATOR_IDS, listOperators, isOperatorId, applyOperators, precedentRule, operatorChoiceArb } from './operators.js';
export type { OperatorId, OperatorChoice } from './operators.js';
export { claimPreserved } from './claim-check.js';
