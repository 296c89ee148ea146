/**
 * Operators written but NOT registered because they lose the forged claim; kept so that a
 * test shows `claimPreserved` rejects their output.
 */
import { vagueQuantifierBare } from './lexical-operators.js';
import type { Operator } from './operator.js';

export const DROPPED_OPERATORS = {
  'vague-quantifier-bare': { operator: vagueQuantifierBare, reason: 'replaces the precedent count by "dozens"/"several": no count is left to claim' },
} as const satisfies Record<string, { operator: Operator; reason: string }>;
