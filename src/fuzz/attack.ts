/**
 * One attack in TextAttack's four parts (`textattack/attack.py`: goal function, constraints,
 * transformation, search method), over forged bases, with TextAttack's result accounting
 * (`textattack/attack_results/`: a skipped result when the original input already fools the
 * model, a failed result when the search ends without success, a successful one otherwise).
 *
 * - goal: `attackGoal` (`./goal.ts`), on `oracle.judge`: one bypass rule and one score;
 * - constraint: the claim check (`Constraint`, `./transformation.ts`), one typed `ClaimCheck`;
 *   a rewrite that lost the forged claim is never queried and is counted per arm;
 * - transformation: the operator arms and their rewrite (`Transformation`);
 * - search method: `mcts()` (here), `greedy()` / `beam()` (`./search.ts`), behind `SearchMethod`.
 *
 * The attack itself (`runAttack`):
 * 1. Each base is evaluated once. A base the guard admits is `skipped` (counted apart: it
 *    needs no attack); a base whose verdict is `error` is `error` (counted apart).
 * 2. The search method attacks every rejected base within its query budget, through
 *    `SearchContext.propose` (transformation + constraint) and `SearchContext.query` (goal).
 * 3. A success is shrunk to a 1-minimal operator set by the one shrinker (`minimalSteps`: remove
 *    one step at a time, keep a removal that still keeps the claim and still succeeds); its
 *    queries are counted apart from the base's.
 * 4. An `error` verdict is never a success and never a hold: a base that ends unflipped after
 *    one is `error` (counted apart), not `held`.
 *
 * Generic: the guard, the bases and the parts arrive as parameters; nothing here imports
 * generators or guards. Deterministic for a seed (randomness from `seededInts`, `./rng.ts`).
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { UsageError } from '../domain/errors.js';
import { evaluateCase, splitSetup, type ScratchStore } from './evaluate.js';
import { attackGoal, type AttackFeedback, type GoalResult } from './goal.js';
import { CompositionPool } from './pool.js';
import { seededInts, type Rng } from './rng.js';
import { rewriteChecked, type Constraint, type MoveStep, type Transformation } from './transformation.js';

export type { AttackFeedback } from './goal.js';
export { CompositionPool } from './pool.js';
export type { MoveStep } from './transformation.js';

export interface AttackOptions {
  guard: Guard;
  store: ScratchStore;
  phase: Phase;
  /** Forged base cases, in order (e.g. drawn from an arbitrary with a fixed seed). */
  bases: readonly FuzzCase[];
  transformation: Transformation;
  constraint: Constraint;
  /** The search method (default `mcts()`). */
  method?: SearchMethod;
  /** Queries per base, the original evaluation included (>= 1). */
  budget: number;
  seed: number;
  /** Seeds of the per-base random sources (`SearchContext.rngOf`); default derived from `seed` and the base index. */
  baseSeeds?: readonly number[];
  /** Longest operator sequence (default: the method's, 6 for MCTS, 8 for greedy and beam). */
  maxDepth?: number;
  feedback?: AttackFeedback;
  /** Shrink each flip to a 1-minimal operator set (default true; queries counted apart). */
  minimise?: boolean;
  /** Time bound per async guard call, ms. */
  timeoutMs?: number;
  /** Called once per base when its attack ends. */
  onBase?: (r: BaseResult) => void;
  /**
   * Sequential stopping over the bases: they are attacked `chunk` at a time (the search method
   * runs over each chunk in turn, keeping what it learnt, e.g. MCTS's operator statistics, and
   * the transfer pool), and after each chunk `settled(results)` reads the finished bases; when
   * it is true no further base is evaluated. Reads only results, so a fixed seed stops at the
   * same base every time. Without it every base is attacked in one batch.
   */
  sequential?: { chunk: number; settled: (results: readonly BaseResult[]) => boolean };
  /**
   * The transfer pool of successful compositions (`./pool.ts`): pass one pool to several runs
   * (the domains of a campaign) to carry what worked from one to the next. Default: a new pool.
   */
  pool?: CompositionPool;
  /** Try the pool's compositions on later bases (default true); false: fresh search only (the pool is still filled). */
  transfer?: boolean;
  /**
   * Hard cap on the run's guard calls (an entry and each attacker write before it, minimisation
   * included; `--max-queries`' attack share). A base or candidate whose calls would pass it is not
   * evaluated: the run ends with `stopped: 'budget'`, minimisation keeps its smallest flip so far.
   * The first base is always evaluated. Default: no cap.
   */
  maxGuardCalls?: number;
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
  /** `pool`: a transferred composition (`composition`) flipped it; `search`: fresh search did. */
  source: 'pool' | 'search';
  /** The pool composition whose transferred try flipped the base (source `pool`). */
  composition?: string;
  /** Search queries of the whole run up to and including this flip (every base's, originals included, minimisation not). */
  runQueries: number;
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
  /** Transferred pool compositions queried on this base. */
  poolTries: number;
  /** Lowest F seen in any verdict (1 when no verdict had one; 0 on a flip). */
  bestScore: number;
  /** Steps of the queried rewrite with the lowest goal score (the first such; [] = the original). */
  bestSteps: MoveStep[];
  /** Times the search went back to the original (greedy and beam; 0 for MCTS). */
  restarts: number;
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
  /** Queries over all bases, minimisation not included (the originals and the search's queries). */
  searchQueries: number;
  /** The first flip of the run: its base and the run's search queries up to it. */
  firstFlip?: { index: number; runQueries: number };
  /** The transfer pool after the run (the one passed in, or the run's own). */
  pool: CompositionPool;
  elapsedMs: number;
  /** `settled`: `sequential.settled` stopped the attack before the last base (`results` then holds fewer bases than given); `budget`: `maxGuardCalls` stopped it; `bases`: every base was attacked. */
  stopped: 'settled' | 'budget' | 'bases';
  /** Guard calls made (entries and attacker writes, minimisation included). */
  guardCalls: number;
}

/** A rejected base under attack, as a search method sees it. */
export interface AttackedBase {
  readonly index: number;
  readonly base: FuzzCase;
  readonly result: BaseResult;
  /** The original's verdict and goal reading. */
  readonly start: Evaluated;
  /** False once the base's attack ended (flip, budget, or the method finished it). */
  live: boolean;
}

/** The attack's own bookkeeping of a base: the lowest goal score so far, whether it ended, and the pool keys tried on it. */
interface Tracked extends AttackedBase {
  best: number;
  done: boolean;
  tried: Set<string>;
}

/** A claim-keeping rewrite, ready to query. */
interface Candidate {
  steps: MoveStep[];
  case: FuzzCase;
  /** The pool composition this candidate transfers (its key), when it is a transferred try. */
  transfer?: string;
}

/** A queried candidate: the guard's verdict and the goal's reading of it. */
interface Evaluated {
  verdict: Verdict;
  goal: GoalResult;
}

/** What a search method gets from the attack: the bases, the parts, the budget and the counters. */
export interface SearchContext {
  /** The rejected bases, in base order. */
  readonly bases: readonly AttackedBase[];
  readonly arms: readonly string[];
  /** Queries per base, the original included. */
  readonly budget: number;
  readonly maxDepth: number;
  readonly feedback: AttackFeedback;
  /** The run's random source (seeded with `seed`), the same object for every chunk of a sequential attack. */
  readonly rng: Rng;
  /** State a method keeps across the chunks of a sequential attack (one object per `runAttack` call; empty at the first chunk). */
  readonly memo: Record<string, unknown>;
  /** A base's own random source (seeded with `baseSeeds[i]`), for methods that search one base at a time. */
  rngOf(b: AttackedBase): Rng;
  /**
   * Rewrites `b.base` by `steps` and runs the claim check: the candidate, or undefined when the
   * claim was lost (counted: proposed, discarded, and per arm for the last step's operator).
   */
  propose(b: AttackedBase, steps: readonly MoveStep[]): Candidate | undefined;
  /** The transfer pool (`./pool.ts`), and whether the method should try it on bases (`transfer`). */
  readonly pool: CompositionPool;
  readonly transfer: boolean;
  /** The pool keys already tried on a base (transferred, or found on it). */
  triedOn(b: AttackedBase): Set<string>;
  /** True when a step's arm reads `encoded` (`Transformation.readingOf`); false when readings are unknown. */
  encoded(steps: readonly MoveStep[]): boolean;
  /**
   * Queries the guard with a candidate (counted per base and per arm). On success the flip is
   * shrunk, recorded, and the base finished.
   */
  query(b: AttackedBase, c: Candidate): Promise<Evaluated>;
  /** Ends a base's attack (idempotent). */
  finish(b: AttackedBase): void;
}

/** A search method (TextAttack's fourth part): explores rewrites of the bases until success or budget. */
export interface SearchMethod {
  readonly id: string;
  /** Longest operator sequence when the attack gives none. */
  readonly maxDepth: number;
  run(ctx: SearchContext): Promise<void>;
}

/**
 * Runs the attack over `bases`.
 * @returns per-base results in base order, per-arm counters and query totals. Never throws for
 *   guard failures (they are `error` verdicts).
 * @throws UsageError for a budget < 1, no arms, or a negative `maxDepth`.
 * @example
 * const out = await runAttack({ guard, store, phase: 'write', bases, ...adaptiveAttackParts('ehr'), budget: 30, seed: 1 });
 * out.results.filter((r) => r.status === 'flipped').map((r) => r.flip?.minimal)
 */
export async function runAttack(o: AttackOptions): Promise<AttackOutcome> {
  const run = startRun(o);
  const rng = seededInts(o.seed);
  const memo: Record<string, unknown> = {};
  const chunk = o.sequential ? Math.max(1, Math.floor(o.sequential.chunk)) : Math.max(1, o.bases.length);
  let stopped: AttackOutcome['stopped'] = 'bases';
  for (let from = 0; from < o.bases.length; from += chunk) {
    const attacked = await evaluateBases(run, from, Math.min(o.bases.length, from + chunk));
    // 2. The search method over the rejected bases.
    for (const b of attacked) if (!b.live) finishBase(run, b);
    try {
      if (attacked.some((b) => b.live)) await run.method.run(searchContext(run, attacked, rng, memo));
    } catch (e) {
      if (!(e instanceof BudgetSpent)) throw e;
    }
    for (const b of attacked) finishBase(run, b);
    if (run.overBudget) {
      stopped = 'budget';
      break;
    }
    if (o.sequential && from + chunk < o.bases.length && o.sequential.settled(run.results)) {
      stopped = 'settled';
      break;
    }
  }
  const { results, arms, feedback, totalQueries, searchQueries, firstFlip, pool, started, guardCalls } = run;
  return { results, arms, budget: o.budget, feedback, seed: o.seed, totalQueries, searchQueries, ...(firstFlip ? { firstFlip } : {}), pool, elapsedMs: performance.now() - started, stopped, guardCalls };
}

/** One attack run's parts and counters, shared by its phases (`runAttack`). */
interface AttackRun {
  readonly o: AttackOptions;
  readonly method: SearchMethod;
  readonly maxDepth: number;
  readonly feedback: AttackFeedback;
  readonly started: number;
  readonly pool: CompositionPool;
  readonly arms: Record<string, ArmStats>;
  readonly results: BaseResult[];
  totalQueries: number;
  searchQueries: number;
  firstFlip: { index: number; runQueries: number } | undefined;
  /** Guard calls: one per attacker write in the case's setup, plus the entry. */
  guardCalls: number;
  overBudget: boolean;
}

/** Checks the options and sets up the run's counters. @throws UsageError as `runAttack`. */
function startRun(o: AttackOptions): AttackRun {
  if (!Number.isInteger(o.budget) || o.budget < 1) throw new UsageError(`attack budget must be an integer >= 1, got ${o.budget}`);
  const armIds = o.transformation.arms;
  if (armIds.length === 0) throw new UsageError('attack needs at least one operator arm');
  const method = o.method ?? mcts();
  const maxDepth = o.maxDepth ?? method.maxDepth;
  if (!Number.isInteger(maxDepth) || maxDepth < 0) throw new UsageError(`maxDepth must be an integer >= 0, got ${maxDepth}`);
  const feedback = o.feedback ?? 'auto';
  const started = performance.now();
  const pool = o.pool ?? new CompositionPool();
  const arms: Record<string, ArmStats> = {};
  for (const a of armIds) arms[a] = { queries: 0, flips: 0, discarded: 0, inMinimal: 0 };
  return { o, method, maxDepth, feedback, started, pool, arms, results: [], totalQueries: 0, searchQueries: 0, firstFlip: undefined, guardCalls: 0, overBudget: false };
}

/** The counters of the arm a rewrite added last, when it has steps. */
function armOf(run: AttackRun, steps: readonly MoveStep[]): ArmStats | undefined {
  const op = steps.at(-1)?.op;
  return op === undefined ? undefined : run.arms[op];
}

/** True when the case's guard calls still fit `maxGuardCalls`. */
function fits(run: AttackRun, c: FuzzCase): boolean {
  return run.o.maxGuardCalls === undefined || run.guardCalls + splitSetup(c).attacker.length + 1 <= run.o.maxGuardCalls;
}

/** One query: the guard's verdict on the case and the goal's reading of it (counted; minimisation apart from the search). */
async function evaluate(run: AttackRun, c: FuzzCase, minimising = false): Promise<Evaluated> {
  const { o } = run;
  run.guardCalls += splitSetup(c).attacker.length + 1;
  run.totalQueries += 1;
  if (!minimising) run.searchQueries += 1;
  const verdict = await evaluateCase(o.guard, c, o.store, o.phase, o.timeoutMs);
  return { verdict, goal: attackGoal(c.truth, verdict, run.feedback) };
}

/** 1. Evaluates every base of the chunk once; returns the rejected ones, to attack. */
async function evaluateBases(run: AttackRun, from: number, to: number): Promise<Tracked[]> {
  const { o, results } = run;
  const attacked: Tracked[] = [];
  for (let index = from; index < to; index++) {
    const base = o.bases[index] as FuzzCase;
    if (results.length > 0 && !fits(run, base)) {
      run.overBudget = true;
      break;
    }
    const start = await evaluate(run, base);
    const { verdict } = start;
    const status: BaseStatus = start.goal.judgement === 'violated' ? 'skipped' : start.goal.judgement === 'error' ? 'error' : 'held';
    const result: BaseResult = {
      index,
      status,
      original: { case: base, verdict },
      queries: 1,
      queryErrors: verdict.decision === 'error' ? 1 : 0,
      proposed: 0,
      discarded: 0,
      poolTries: 0,
      bestScore: verdict.score ?? (verdict.decision === 'admit' ? 0 : 1),
      bestSteps: [],
      restarts: 0,
      ...(verdict.decision === 'error' ? { lastError: verdict } : {}),
    };
    results.push(result);
    if (status === 'held') attacked.push({ index, base, result, start, live: o.budget > 1 && run.maxDepth > 0, best: start.goal.score, done: false, tried: new Set() });
    else o.onBase?.(result);
  }
  return attacked;
}

/** Ends a base's attack once: a held base that saw an `error` verdict becomes `error`. */
function finishBase(run: AttackRun, b: AttackedBase): void {
  const t = b as Tracked;
  b.live = false;
  if (t.done) return;
  t.done = true;
  if (b.result.status === 'held' && b.result.queryErrors > 0) b.result.status = 'error';
  run.o.onBase?.(b.result);
}

function check(run: AttackRun, base: FuzzCase, steps: readonly MoveStep[]) {
  return rewriteChecked(run.o.transformation, run.o.constraint, base, steps);
}

/** 3. The one 1-minimal shrinker: drop one step at a time (last first), keep a drop that keeps the claim and still succeeds. */
async function minimalSteps(run: AttackRun, base: FuzzCase, steps: MoveStep[], c: FuzzCase, v: Verdict): Promise<{ steps: MoveStep[]; queries: number; case: FuzzCase; verdict: Verdict }> {
  let current = { steps, case: c, verdict: v };
  let queries = 0;
  let changed = true;
  while (changed && current.steps.length > 0) {
    changed = false;
    for (let i = current.steps.length - 1; i >= 0; i--) {
      const fewer = current.steps.filter((_, j) => j !== i);
      const built = check(run, base, fewer);
      if (!built.kept) continue;
      if (!fits(run, built.case)) return { ...current, queries };
      queries += 1;
      const e = await evaluate(run, built.case, true);
      if (e.goal.judgement === 'violated') {
        current = { steps: fewer, case: built.case, verdict: e.verdict };
        changed = true;
        break;
      }
    }
  }
  return { ...current, queries };
}

/** What the search method sees of the run over one chunk's rejected bases. */
function searchContext(run: AttackRun, attacked: readonly Tracked[], rng: Rng, memo: Record<string, unknown>): SearchContext {
  const { o, arms, pool } = run;
  return {
    bases: attacked,
    arms: o.transformation.arms,
    budget: o.budget,
    maxDepth: run.maxDepth,
    feedback: run.feedback,
    rng,
    memo,
    rngOf: (b) => seededInts(o.baseSeeds?.[b.index] ?? (o.seed + Math.imul(b.index + 1, 0x9e3779b9)) | 0),
    propose(b, steps) {
      const res = b.result;
      res.proposed += 1;
      const built = check(run, b.base, steps);
      if (built.kept) return { steps: [...steps], case: built.case };
      res.discarded += 1;
      // The operator the constraint names as the one whose step lost the claim, else the last one.
      const a = (Object.hasOwn(arms, built.operator) ? arms[built.operator] : undefined) ?? armOf(run, steps);
      if (a) a.discarded += 1;
      return undefined;
    },
    pool,
    transfer: o.transfer !== false,
    triedOn: (b) => (b as Tracked).tried,
    encoded: (steps) => steps.some((s) => o.transformation.readingOf?.(s.op) === 'encoded'),
    query: (b, c) => queryCandidate(run, b as Tracked, c),
    finish: (b) => finishBase(run, b),
  };
}

/** `SearchContext.query`: queries a candidate, counts it per base and per arm, and records a success. */
async function queryCandidate(run: AttackRun, b: Tracked, c: Candidate): Promise<Evaluated> {
  const res = b.result;
  if (c.transfer !== undefined) {
    b.tried.add(c.transfer);
    res.poolTries += 1;
  }
  if (!fits(run, c.case)) {
    run.overBudget = true;
    throw new BudgetSpent();
  }
  const e = await evaluate(run, c.case);
  res.queries += 1;
  const a = armOf(run, c.steps);
  if (a) a.queries += 1;
  const { verdict, goal } = e;
  if (verdict.decision === 'error') {
    res.queryErrors += 1;
    res.lastError = verdict;
  }
  if (verdict.decision === 'reject' && verdict.score !== undefined) res.bestScore = Math.min(res.bestScore, verdict.score);
  if (goal.score < b.best) {
    b.best = goal.score;
    res.bestSteps = [...c.steps];
  }
  const runQueries = run.searchQueries;
  if (goal.judgement === 'violated') {
    if (a) a.flips += 1;
    await recordFlip(run, b, c, verdict, runQueries);
  } else if (c.transfer !== undefined) run.pool.recordTry(c.transfer, false);
  return e;
}

/** A success: shrinks it (unless `minimise` is false), records it in the arms and the pool, and finishes the base. */
async function recordFlip(run: AttackRun, b: Tracked, c: Candidate, verdict: Verdict, runQueries: number): Promise<void> {
  const { o, arms, pool } = run;
  const res = b.result;
  res.status = 'flipped';
  res.bestScore = 0;
  const m = o.minimise === false ? { steps: c.steps, queries: 0, case: c.case, verdict } : await minimalSteps(run, b.base, c.steps, c.case, verdict);
  for (const op of new Set(m.steps.map((s) => s.op))) if (arms[op]) (arms[op] as ArmStats).inMinimal += 1;
  const source = c.transfer !== undefined ? 'pool' : 'search';
  if (c.transfer !== undefined) pool.recordTry(c.transfer, true);
  else pool.recordFlip(m.steps);
  run.firstFlip ??= { index: b.index, runQueries };
  res.flip = { case: m.case, verdict: m.verdict, found: c.steps, minimal: m.steps, queriesToFlip: res.queries, minimiseQueries: m.queries, source, ...(c.transfer !== undefined ? { composition: c.transfer } : {}), runQueries };
  finishBase(run, b);
}

/** Thrown by `SearchContext.query` when the candidate's guard calls would pass `maxGuardCalls`; ends the search method's run. */
class BudgetSpent extends Error {}

// ---- MCTS-Explore ------------------------------------------------------------------------

/** MCTS-Explore parameters (defaults as in GPTFuzzer's `MCTSExploreSelectPolicy`). */
export interface TreePolicy {
  /** Chance of stopping the walk at an inner node (default 0.1). */
  alpha?: number;
  /** Smallest share of a reward that reaches deep nodes (default 0.2). */
  beta?: number;
  /** Weight of the exploration term of UCT (default 0.5). */
  ratio?: number;
  /** Lost-claim rewrites allowed per base before it is given up (default 8 × budget). */
  maxDiscardsPerBase?: number;
  /** Share of a base's budget (its original left out) that transferred pool compositions may take (default 0.5). */
  poolShare?: number;
  /**
   * Share of a base's budget spent before a pool composition with an `encoded` operator is
   * transferred to it (default 1/3): a rewrite an agent reads as written is worth more to the
   * attacker, so natural compositions are transferred at once and encoded ones only after some
   * fresh search (which may find a natural flip first).
   */
  encodedAfter?: number;
  /**
   * Fresh-search queries a base gets before the pool's first transferred try (default 1: the best
   * single arm of the shared statistics first); after that, transferred tries and fresh queries alternate.
   */
  freshFirst?: number;
  /**
   * Share of a base's budget after which an expansion of a node that never earned a reward and
   * whose verdict carried no F to follow (decision feedback, or a layer that computes none) adds
   * operators up to `maxDepth` at once instead of one, each by UCB1 over the arms not yet in it
   * (default 1/2): when single operators and
   * short sequences have failed and there is no gradient to follow, each query tests a whole
   * fresh sequence, so it holds many pairs and triples of operators at once (a guard with a hole
   * that needs two or three kinds of rewriting at once is reached this way).
   */
  deepAfter?: number;
}

interface TreeNode {
  steps: MoveStep[];
  depth: number;
  /** Goal score of the node's rewrite. */
  f: number;
  scored: boolean;
  children: TreeNode[];
  visits: number;
  reward: number;
}

/** What MCTS-Explore keeps across the chunks of a sequential attack (`SearchContext.memo.mcts`). */
interface MctsShared {
  armPlays: Map<string, { plays: number; reward: number }>;
  firstOrder: string[];
  armTotal: number;
  step: number;
}

interface Root extends TreeNode {
  b: AttackedBase;
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

/** Reward in [0,1] of a child over its parent: 1 for a success; with F on both, the share of F removed. */
function rewardOf(parent: TreeNode, child: GoalResult): number {
  if (child.judgement === 'violated') return 1;
  if (!parent.scored || !child.scored) return 0;
  return parent.f > 0 ? Math.max(0, (parent.f - child.score) / parent.f) : 0;
}

/** The operator arms' statistics (and the step count), kept in `ctx.memo` across the chunks of a sequential attack. */
function armStatsOf(ctx: SearchContext): MctsShared {
  const rng = ctx.rng;
  return (ctx.memo.mcts ??= ((): MctsShared => {
    // Unplayed arms are tried first, in a seeded order.
    const firstOrder = [...ctx.arms];
    for (let i = firstOrder.length - 1; i > 0; i--) {
      const j = rng.nextInt(i + 1);
      [firstOrder[i], firstOrder[j]] = [firstOrder[j] as string, firstOrder[i] as string];
    }
    return { armPlays: new Map(ctx.arms.map((a) => [a, { plays: 0, reward: 0 }])), firstOrder, armTotal: 0, step: 0 };
  })()) as MctsShared;
}

/** UCB1 over the arms, leaving out `skip` (the arms already in this expansion) while others remain. */
function pickArmOf(shared: MctsShared, rng: Rng, skip: readonly string[]): string {
  const { armPlays, firstOrder } = shared;
  const left = (a: string): boolean => skip.length === 0 || skip.length >= firstOrder.length || !skip.includes(a);
  const unplayed = firstOrder.find((a) => (armPlays.get(a)?.plays ?? 0) === 0 && left(a));
  if (unplayed !== undefined) return unplayed;
  const lnT = Math.log(Math.max(shared.armTotal, 1));
  const ucb = (a: string): number => {
    const s = armPlays.get(a) as { plays: number; reward: number };
    return s.reward / s.plays + Math.sqrt((2 * lnT) / s.plays);
  };
  // Ties (every arm unrewarded and equally played, as against a decision-only guard that
  // has not been flipped yet) are broken at random: a fixed order would pair each arm
  // with the same few others along a path, and compositions of two or three kinds would
  // never be tried.
  let best = -Infinity;
  let tied: string[] = [];
  for (const a of firstOrder) {
    if (!left(a)) continue;
    const u = ucb(a);
    if (u > best + 1e-12) {
      best = u;
      tied = [a];
    } else if (u >= best - 1e-12) tied.push(a);
  }
  return tied.length === 1 ? (tied[0] as string) : (tied[rng.nextInt(tied.length)] as string);
}

/** Counts one play of an arm and its reward. */
function playArmOf(shared: MctsShared, a: string, reward: number): void {
  const s = shared.armPlays.get(a) as { plays: number; reward: number };
  s.plays += 1;
  s.reward += reward;
  shared.armTotal += 1;
}

/**
 * MCTS-Explore, the tree policy of GPTFuzzer (Yu et al. 2023, `gptfuzzer/fuzzer/selection.py`):
 * each base is the root of a tree of rewrites; a step picks a root by UCT, walks down by UCT
 * (stopping early with probability `alpha`), and expands the node it stops at with one more
 * operator. The operator arm is picked by UCB1 (Auer et al. 2002) over all arms, shared by the
 * bases of the run, so what works against this guard is tried first. Reward: the share of F
 * removed when the goal is scored, else 1 for a success and 0 otherwise.
 * Two additions (`TreePolicy`): transferred tries of the pool's compositions (`ctx.pool`)
 * alternate with fresh queries after a base's first one; and once half a base's budget is spent,
 * a node with no reward and no F is extended by several operators at once (deep expansion).
 * @example runAttack({ ..., method: mcts({ alpha: 0 }) })
 */
export function mcts(policy: TreePolicy = {}): SearchMethod {
  const alpha = policy.alpha ?? 0.1;
  const beta = policy.beta ?? 0.2;
  const ratio = policy.ratio ?? 0.5;
  return {
    id: 'mcts',
    maxDepth: 6,
    async run(ctx) {
      const rng = ctx.rng;
      const unit = (): number => rng.nextInt(1 << 30) / (1 << 30);
      const maxDiscards = policy.maxDiscardsPerBase ?? 8 * ctx.budget;
      const shared = armStatsOf(ctx);
      const pickArm = (skip: readonly string[] = []): string => pickArmOf(shared, rng, skip);
      const playArm = (a: string, reward: number): void => playArmOf(shared, a, reward);

      const poolQuota = Math.ceil((ctx.budget - 1) * (policy.poolShare ?? 0.5));
      const freshFirst = Math.max(1, policy.freshFirst ?? 1);
      const encodedFrom = Math.ceil(ctx.budget * (policy.encodedAfter ?? 1 / 3));
      const deepFrom = Math.ceil(ctx.budget * (policy.deepAfter ?? 1 / 2));
      const roots: Root[] = ctx.bases.map((b) => ({ b, steps: [], depth: 0, f: b.start.goal.score, scored: b.start.goal.scored, children: [], visits: 0, reward: 0 }));
      for (;;) {
        const live = roots.filter((r) => r.b.live);
        if (live.length === 0) break;
        const step = ++shared.step;
        const root = argmax(live, (r) => uct(r, step, ratio)) as Root;
        // Transfer alongside fresh search: after each fresh query of this base, the pool's best
        // composition not yet tried on it (GPTFuzzer's seed pool). Fresh search goes first so that
        // flips keep their variety (one composition that flips every base would hide the others).
        const tried = ctx.triedOn(root.b);
        const res = root.b.result;
        const natural = res.queries < encodedFrom;
        const turn = res.poolTries < res.queries - 1 - res.poolTries - (freshFirst - 1);
        const entry = ctx.transfer && turn && res.poolTries < poolQuota ? ctx.pool.best(tried, natural ? (e) => !ctx.encoded(e.steps) : undefined) : undefined;
        if (entry !== undefined && entry.steps.length <= ctx.maxDepth) {
          tried.add(entry.key);
          const c = ctx.propose(root.b, entry.steps);
          if (c === undefined) {
            if (root.b.result.discarded >= maxDiscards) ctx.finish(root.b);
            continue;
          }
          root.visits += 1;
          const { verdict, goal } = await ctx.query(root.b, { ...c, transfer: entry.key });
          const reward = rewardOf(root, goal);
          // A composition that worked elsewhere joins the tree as a node the search can extend.
          if (verdict.decision !== 'error') root.children.push({ steps: c.steps, depth: c.steps.length, f: goal.score, scored: goal.scored, children: [], visits: 0, reward });
          root.reward += reward;
          if (root.b.live && root.b.result.queries >= ctx.budget) ctx.finish(root.b);
          continue;
        }
        const path: TreeNode[] = [root];
        let cur: TreeNode = root;
        for (;;) {
          const open = cur.children.filter((c) => c.depth < ctx.maxDepth);
          if (open.length === 0 || unit() < alpha) break;
          cur = argmax(open, (c) => uct(c, step, ratio)) as TreeNode;
          path.push(cur);
        }
        for (const n of path) n.visits += 1;
        const b = root.b;
        // Deep expansion: half the budget spent, no reward under this node, and no F to follow.
        const deep = b.result.queries >= deepFrom && cur.reward === 0 && !cur.scored && cur.depth < ctx.maxDepth;
        // One arm by UCB1; a deep expansion adds more, each by UCB1 over the arms not yet in it.
        const added: string[] = [];
        const steps = [...cur.steps];
        for (let k = deep ? ctx.maxDepth - cur.depth : 1; k > 0; k--) {
          const a = pickArm(added);
          added.push(a);
          steps.push({ op: a, choice: rng.nextInt(1024) });
        }
        let candidate = ctx.propose(b, steps);
        // A deep rewrite that lost the claim falls back to the one-arm step (a base whose deep
        // rewrites always lose it is still searched one operator at a time).
        if (candidate === undefined && added.length > 1) {
          steps.splice(cur.steps.length + 1);
          added.splice(1);
          candidate = ctx.propose(b, steps);
        }
        if (candidate === undefined) {
          for (const a of added) playArm(a, 0);
          if (b.result.discarded >= maxDiscards) ctx.finish(b);
          continue;
        }
        const { verdict, goal } = await ctx.query(b, candidate);
        const reward = rewardOf(cur, goal);
        for (const a of added) playArm(a, reward);
        const node: TreeNode = { steps, depth: steps.length, f: goal.score, scored: goal.scored, children: [], visits: 0, reward: 0 };
        if (verdict.decision !== 'error') cur.children.push(node);
        const share = Math.max(beta, 1 - 0.1 * cur.depth);
        for (const n of path.reverse()) n.reward += reward * share;
        if (b.live && b.result.queries >= ctx.budget) ctx.finish(b);
      }
    },
  };
}
