/**
 * Attack mode: the adaptive attacker as an attack on the forged bases a guard
 * rejects, with the accounting TextAttack uses (`textattack/attack_results/`: a skipped
 * result when the original input already fools the model, a failed result when the search
 * ends without success, a successful one otherwise; `textattack/metrics/attack_metrics/`).
 *
 * 1. Each base is evaluated once. A base the guard admits is `skipped` (counted apart: it
 *    needs no attack); a base whose verdict is `error` is `error` (counted apart).
 * 2. Every rejected base is attacked with its own query budget. Effort is scheduled by
 *    MCTS-Explore, the tree policy of GPTFuzzer (Yu et al. 2023, `gptfuzzer/fuzzer/selection.py`):
 *    each base is the root of a tree of rewrites; a step picks a root by UCT, walks down by UCT
 *    (stopping early with probability `alpha`), and expands the node it stops at with one more
 *    operator. The operator arm is picked by UCB1 (Auer et al. 2002) over all arms, shared by
 *    the bases of the run, so what works against this guard is tried first.
 * 3. Feedback: the guard's forgery score F when both verdicts expose one (reward = the share of
 *    F removed), else decision only (reward 1 for a flip, 0 otherwise).
 * 4. A flip is a rewrite the guard admits. It is shrunk to a 1-minimal operator set (remove one
 *    operator at a time, keep a removal that still keeps the claim and still flips); those
 *    queries are counted apart. A rewrite that lost the forged claim is never queried: `build`
 *    returns undefined, and the discard is counted per arm.
 * 5. An `error` verdict during the attack is never a flip and never a hold: a base that ends
 *    unflipped after one is `error` (counted apart), not `held`.
 *
 * Generic: the guard, the bases and the rewrite function arrive as parameters; nothing here
 * imports generators or guards. Deterministic for a seed (randomness from `seededInts`).
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { UsageError } from '../domain/errors.js';
import { evaluateCase, type ScratchStore } from './evaluate.js';
import { seededInts } from './search.js';

/** One rewrite step: an operator arm and which of its variants (a whole number). */
export interface MoveStep {
  op: string;
  choice: number;
}

/** The attacker's moves: arm ids and a pure rewrite of a base by a sequence of steps. */
export interface AttackMoves {
  /** Operator arms (non-empty). */
  arms: readonly string[];
  /** The base rewritten by `steps` in order, or undefined when the rewrite lost the forged claim. */
  build(base: FuzzCase, steps: readonly MoveStep[]): FuzzCase | undefined;
}

/** What the attacker sees: `auto` uses F when the guard gives one, else the decision. */
export type AttackFeedback = 'auto' | 'score' | 'decision';

/** MCTS-Explore parameters (defaults as in GPTFuzzer's `MCTSExploreSelectPolicy`). */
interface TreePolicy {
  /** Chance of stopping the walk at an inner node (default 0.1). */
  alpha?: number;
  /** Smallest share of a reward that reaches deep nodes (default 0.2). */
  beta?: number;
  /** Weight of the exploration term of UCT (default 0.5). */
  ratio?: number;
}

export interface AttackOptions {
  guard: Guard;
  store: ScratchStore;
  phase: Phase;
  /** Forged base cases, in order (e.g. drawn from an arbitrary with a fixed seed). */
  bases: readonly FuzzCase[];
  moves: AttackMoves;
  /** Queries per base, the original evaluation included (>= 1). */
  budget: number;
  seed: number;
  /** Longest operator sequence (default 6). */
  maxDepth?: number;
  feedback?: AttackFeedback;
  policy?: TreePolicy;
  /** Shrink each flip to a 1-minimal operator set (default true; queries counted apart). */
  minimise?: boolean;
  /** Time bound per async guard call, ms. */
  timeoutMs?: number;
  /** Lost-claim rewrites allowed per base before it is given up (default 8 × budget). */
  maxDiscardsPerBase?: number;
  /** Called once per base when its attack ends. */
  onBase?: (r: BaseResult) => void;
}

/** `skipped`: admitted unmutated; `flipped`: a rewrite was admitted; `held`: budget spent; `error`: the guard errored. */
type BaseStatus = 'skipped' | 'flipped' | 'held' | 'error';

interface FlipResult {
  /** The admitted rewrite, with the minimal operator set (the one reported and stored). */
  case: FuzzCase;
  verdict: Verdict;
  /** Steps of the rewrite the search found. */
  found: MoveStep[];
  /** 1-minimal steps (equal to `found` when not minimised). */
  minimal: MoveStep[];
  /** Queries of this base up to and including the flip (the original included). */
  queriesToFlip: number;
  /** Extra queries the minimisation spent (not in `queriesToFlip`). */
  minimiseQueries: number;
}

export interface BaseResult {
  /** Position in `bases`. */
  index: number;
  status: BaseStatus;
  original: { case: FuzzCase; verdict: Verdict };
  /** Queries spent on this base, the original included (minimisation not included). */
  queries: number;
  /** `error` verdicts among them. */
  queryErrors: number;
  /** The last `error` verdict seen, when any. */
  lastError?: Verdict;
  /** Rewrites proposed and those discarded for a lost claim (never queried). */
  proposed: number;
  discarded: number;
  /** Lowest F seen (1 when no verdict had one; 0 on a flip). */
  bestScore: number;
  flip?: FlipResult;
}

/** Per-arm counters of one attack run. */
interface ArmStats {
  /** Queries whose rewrite added this arm last. */
  queries: number;
  /** Flips found by adding this arm. */
  flips: number;
  /** Rewrites with this arm added that lost the claim. */
  discarded: number;
  /** Flips whose minimal operator set holds this arm. */
  inMinimal: number;
}

export interface AttackOutcome {
  results: BaseResult[];
  arms: Record<string, ArmStats>;
  budget: number;
  feedback: AttackFeedback;
  seed: number;
  /** Queries over all bases, minimisation included. */
  totalQueries: number;
  elapsedMs: number;
}

interface TreeNode {
  steps: MoveStep[];
  depth: number;
  f: number;
  verdict: Verdict;
  children: TreeNode[];
  visits: number;
  reward: number;
}

interface Root extends TreeNode {
  base: FuzzCase;
  result: BaseResult;
  live: boolean;
}

/** UCT of a node (GPTFuzzer's form: reward / (visits + 1) + ratio · sqrt(2 ln step / (visits + 0.01))). */
function uct(n: TreeNode, step: number, ratio: number): number {
  return n.reward / (n.visits + 1) + ratio * Math.sqrt((2 * Math.log(Math.max(step, 1))) / (n.visits + 0.01));
}

function argmax<T>(items: readonly T[], score: (x: T) => number): T | undefined {
  let best: T | undefined;
  let bestScore = -Infinity;
  for (const x of items) {
    const s = score(x);
    if (s > bestScore) {
      best = x;
      bestScore = s;
    }
  }
  return best;
}

/** The search objective of a verdict: 0 for an admit, F for a scored reject (score feedback), else 1. */
function objective(v: Verdict, feedback: AttackFeedback): number {
  if (v.decision === 'admit') return 0;
  if (feedback !== 'decision' && v.decision === 'reject' && v.score !== undefined) return Math.min(1, Math.max(0, v.score));
  return 1;
}

/** Reward in [0,1] of a child over its parent: 1 for a flip; with F, the share of F removed. */
function rewardOf(parent: TreeNode, child: Verdict, f: number, feedback: AttackFeedback): number {
  if (child.decision === 'admit') return 1;
  if (feedback === 'decision' || child.decision === 'error') return 0;
  if (parent.verdict.score === undefined || child.score === undefined) return 0;
  return parent.f > 0 ? Math.max(0, (parent.f - f) / parent.f) : 0;
}

/**
 * Runs attack mode over `bases`.
 * @returns per-base results in base order, per-arm counters and query totals. Never throws for
 *   guard failures (they are `error` verdicts).
 * @throws UsageError for a budget < 1, no arms, or a negative `maxDepth`.
 * @example
 * const out = await runAttack({ guard, store, phase: 'write', bases, moves, budget: 30, seed: 1 });
 * out.results.filter((r) => r.status === 'flipped').map((r) => r.flip?.minimal)
 */
export async function runAttack(o: AttackOptions): Promise<AttackOutcome> {
  if (!Number.isInteger(o.budget) || o.budget < 1) throw new UsageError(`attack budget must be an integer >= 1, got ${o.budget}`);
  if (o.moves.arms.length === 0) throw new UsageError('attack needs at least one operator arm');
  const maxDepth = o.maxDepth ?? 6;
  if (!Number.isInteger(maxDepth) || maxDepth < 0) throw new UsageError(`maxDepth must be an integer >= 0, got ${maxDepth}`);
  const feedback = o.feedback ?? 'auto';
  const alpha = o.policy?.alpha ?? 0.1;
  const beta = o.policy?.beta ?? 0.2;
  const ratio = o.policy?.ratio ?? 0.5;
  const maxDiscards = o.maxDiscardsPerBase ?? 8 * o.budget;
  const started = performance.now();
  const rng = seededInts(o.seed);
  const unit = (): number => rng.nextInt(1 << 30) / (1 << 30);
  let totalQueries = 0;

  const arms: Record<string, ArmStats> = {};
  for (const a of o.moves.arms) arms[a] = { queries: 0, flips: 0, discarded: 0, inMinimal: 0 };
  const armPlays = new Map<string, { plays: number; reward: number }>(o.moves.arms.map((a) => [a, { plays: 0, reward: 0 }]));
  // Unplayed arms are tried first, in a seeded order.
  const firstOrder = [...o.moves.arms];
  for (let i = firstOrder.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [firstOrder[i], firstOrder[j]] = [firstOrder[j] as string, firstOrder[i] as string];
  }
  let armTotal = 0;
  const pickArm = (): string => {
    const unplayed = firstOrder.find((a) => (armPlays.get(a)?.plays ?? 0) === 0);
    if (unplayed !== undefined) return unplayed;
    const lnT = Math.log(Math.max(armTotal, 1));
    return argmax(firstOrder, (a) => {
      const s = armPlays.get(a) as { plays: number; reward: number };
      return s.reward / s.plays + Math.sqrt((2 * lnT) / s.plays);
    }) as string;
  };
  const playArm = (a: string, reward: number): void => {
    const s = armPlays.get(a) as { plays: number; reward: number };
    s.plays += 1;
    s.reward += reward;
    armTotal += 1;
  };

  const evaluate = async (c: FuzzCase): Promise<Verdict> => {
    totalQueries += 1;
    return await evaluateCase(o.guard, c, o.store, o.phase, o.timeoutMs);
  };

  // 1. Evaluate every base once.
  const results: BaseResult[] = [];
  const roots: Root[] = [];
  for (const [index, base] of o.bases.entries()) {
    const verdict = await evaluate(base);
    const status: BaseStatus = verdict.decision === 'admit' ? 'skipped' : verdict.decision === 'error' ? 'error' : 'held';
    const f = objective(verdict, feedback);
    const result: BaseResult = {
      index,
      status,
      original: { case: base, verdict },
      queries: 1,
      queryErrors: verdict.decision === 'error' ? 1 : 0,
      proposed: 0,
      discarded: 0,
      bestScore: verdict.score ?? (verdict.decision === 'admit' ? 0 : 1),
      ...(verdict.decision === 'error' ? { lastError: verdict } : {}),
    };
    results.push(result);
    if (status === 'held') {
      roots.push({ base, result, live: o.budget > 1 && maxDepth > 0, steps: [], depth: 0, f, verdict, children: [], visits: 0, reward: 0 });
    } else o.onBase?.(result);
  }

  // 2. MCTS-Explore over the rejected bases.
  let step = 0;
  const finish = (root: Root): void => {
    root.live = false;
    if (root.result.status === 'held' && root.result.queryErrors > 0) root.result.status = 'error';
    o.onBase?.(root.result);
  };
  for (const r of roots) if (!r.live) finish(r);
  for (;;) {
    const live = roots.filter((r) => r.live);
    if (live.length === 0) break;
    step += 1;
    const root = argmax(live, (r) => uct(r, step, ratio)) as Root;
    const path: TreeNode[] = [root];
    let cur: TreeNode = root;
    for (;;) {
      const open = cur.children.filter((c) => c.depth < maxDepth);
      if (open.length === 0 || unit() < alpha) break;
      cur = argmax(open, (c) => uct(c, step, ratio)) as TreeNode;
      path.push(cur);
    }
    for (const n of path) n.visits += 1;
    const arm = pickArm();
    const steps = [...cur.steps, { op: arm, choice: rng.nextInt(1024) }];
    const res = root.result;
    res.proposed += 1;
    const rewrite = o.moves.build(root.base, steps);
    if (rewrite === undefined) {
      res.discarded += 1;
      (arms[arm] as ArmStats).discarded += 1;
      playArm(arm, 0);
      if (res.discarded >= maxDiscards) finish(root);
      continue;
    }
    const verdict = await evaluate(rewrite);
    res.queries += 1;
    (arms[arm] as ArmStats).queries += 1;
    if (verdict.decision === 'error') {
      res.queryErrors += 1;
      res.lastError = verdict;
    }
    const f = objective(verdict, feedback);
    const reward = rewardOf(cur, verdict, f, feedback);
    playArm(arm, reward);
    const node: TreeNode = { steps, depth: cur.depth + 1, f, verdict, children: [], visits: 0, reward: 0 };
    if (verdict.decision !== 'error') cur.children.push(node);
    const share = Math.max(beta, 1 - 0.1 * cur.depth);
    for (const n of path.reverse()) n.reward += reward * share;
    if (verdict.decision === 'reject' && verdict.score !== undefined) res.bestScore = Math.min(res.bestScore, verdict.score);
    if (verdict.decision === 'admit') {
      (arms[arm] as ArmStats).flips += 1;
      res.status = 'flipped';
      res.bestScore = 0;
      const m = o.minimise === false ? { steps, queries: 0, case: rewrite, verdict } : await minimalSteps(root.base, steps, rewrite, verdict);
      for (const a of new Set(m.steps.map((s) => s.op))) if (arms[a]) (arms[a] as ArmStats).inMinimal += 1;
      res.flip = { case: m.case, verdict: m.verdict, found: steps, minimal: m.steps, queriesToFlip: res.queries, minimiseQueries: m.queries };
      finish(root);
    } else if (res.queries >= o.budget) finish(root);
  }

  async function minimalSteps(base: FuzzCase, steps: MoveStep[], c: FuzzCase, v: Verdict): Promise<{ steps: MoveStep[]; queries: number; case: FuzzCase; verdict: Verdict }> {
    let current = { steps, case: c, verdict: v };
    let queries = 0;
    let changed = true;
    while (changed && current.steps.length > 0) {
      changed = false;
      for (let i = current.steps.length - 1; i >= 0; i--) {
        const fewer = current.steps.filter((_, j) => j !== i);
        const built = o.moves.build(base, fewer);
        if (built === undefined) continue;
        queries += 1;
        const bv = await evaluate(built);
        if (bv.decision === 'admit') {
          current = { steps: fewer, case: built, verdict: bv };
          changed = true;
          break;
        }
      }
    }
    return { ...current, queries };
  }

  return { results, arms, budget: o.budget, feedback, seed: o.seed, totalQueries, elapsedMs: performance.now() - started };
}
