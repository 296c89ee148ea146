/** Paraphrase and mutation operators of the adaptive attacker, and the claim-preservation check. */
export { OPERATORS, OPERATOR_IDS, listOperators, isOperatorId, applyOperators, precedentRule, operatorChoiceArb } from './operators.js';
export type { OperatorId, OperatorChoice } from './operators.js';
export { OPERATOR_GROUPS, PRESERVABLE } from './operator.js';
export type { Operator, OperatorFn, OperatorContext, OperatorGroup, Preserved } from './operator.js';
export { claimPreserved, recoverClaim } from './claim-check.js';
export type { RecoveredClaim, PrecedentRule } from './claim-check.js';
export { canonicalText } from './canonical-text.js';
export { CLAIM_LEXICONS, claimLexicon } from './claim-lexicon.js';
export type { ClaimLexicon } from './claim-lexicon.js';
export { DROPPED_OPERATORS } from './dropped-operators.js';
