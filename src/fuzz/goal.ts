/**
 * The goal of an attack (TextAttack's goal function), on the oracle: a rewrite succeeds when
 * `judge` says the invariant is violated (for a forged case: the guard admitted it), and its
 * score is how far it still is from that. Every search method (MCTS, greedy, beam) and the
 * shrinker use this one rule and this one score.
 *
 * The bypass rule is the engine's (`evaluateCase` in `./evaluate.ts`, as property mode and replay
 * use it): the entry's verdict decides, with the attacker's earlier writes sent through the
 * guard first; a split claim counts as rejected when any of its parts was rejected.
 */
import type { Truth } from '../domain/fuzz-case.js';
import type { Verdict } from '../domain/verdict.js';
import { judge, type Judgement } from './oracle.js';

/** What the attacker sees: `auto` uses F when the guard gives one, else the decision. */
export type AttackFeedback = 'auto' | 'score' | 'decision';

/** The goal's reading of one verdict. */
export interface GoalResult {
  /** `violated`: the attack succeeded (a bypass); `holds`: still rejected; `error`: the guard erred (never a success nor a hold). */
  judgement: Judgement;
  /** Distance to success in [0,1]: 0 on success; the forgery score F of a reject when feedback allows it; else 1. */
  score: number;
  /** True when `score` is the guard's F (a reject with a score, feedback not `decision`). */
  scored: boolean;
}

/**
 * Reads a verdict of a forged rewrite as the attack's goal does.
 * @example attackGoal(truth, { decision: 'reject', score: 0.4, ... }, 'auto') // { judgement: 'holds', score: 0.4, scored: true }
 */
export function attackGoal(truth: Pick<Truth, 'label'>, verdict: Verdict, feedback: AttackFeedback): GoalResult {
  const judgement = judge(truth, verdict);
  if (judgement === 'violated') return { judgement, score: 0, scored: false };
  if (feedback !== 'decision' && verdict.decision === 'reject' && verdict.score !== undefined) return { judgement, score: Math.min(1, Math.max(0, verdict.score)), scored: true };
  return { judgement, score: 1, scored: false };
}
