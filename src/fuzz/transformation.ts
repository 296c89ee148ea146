/**
 * The transformation and the constraint of an attack (TextAttack's two middle parts), as the
 * engine sees them: a transformation rewrites a base case by a sequence of steps (operator arm
 * and variant); the constraint (the claim check) then says whether the rewrite still makes the
 * base's forged claim. Its result is one typed value, `ClaimCheck`: kept (with the case to query)
 * or discarded (with the operator whose step lost the claim). A discarded rewrite is never queried.
 * Generic: the operators and the claim check live in `generators/` (`adaptiveAttackParts`).
 */
import type { ClaimCheck, FuzzCase, MoveStep } from '../domain/fuzz-case.js';

export type { ClaimCheck, MoveStep } from '../domain/fuzz-case.js';

/** The transformation: operator arms and a pure rewrite of a base by steps (no claim check). */
export interface Transformation {
  /** Operator arms (non-empty). */
  arms: readonly string[];
  /** The base rewritten by `steps` in order. Pure. */
  apply(base: FuzzCase, steps: readonly MoveStep[]): FuzzCase;
  /**
   * How a reader takes an arm's rewrite: `natural` (as written) or `encoded` (decoded first).
   * Optional; with it, MCTS transfers natural compositions first (`TreePolicy.encodedAfter`).
   */
  readingOf?(arm: string): 'natural' | 'encoded' | undefined;
}

/** The constraint: does `rewritten` (= `apply(base, steps)`) still make the base's forged claim? Pure. */
export interface Constraint {
  check(base: FuzzCase, steps: readonly MoveStep[], rewritten: FuzzCase): ClaimCheck;
}

/** Rewrites then checks: the one step every search method and the shrinker go through. */
export function rewriteChecked(t: Transformation, c: Constraint, base: FuzzCase, steps: readonly MoveStep[]): ClaimCheck {
  return c.check(base, steps, t.apply(base, steps));
}
