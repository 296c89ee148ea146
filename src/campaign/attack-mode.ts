/**
 * Attack mode of `fuzz`: for each domain, draws forged bases from every
 * forged family (`attackBases`), attacks the rejected ones with the operator registry as arms
 * (`adaptiveAttackParts`), and turns the outcome into the `adaptive` cell of the campaign (runs =
 * bases, violations = skipped + flipped bases, errors = error bases; so its bypass rate is
 * 1 − detection under attack), flip
 * counterexamples, the attack report and the inputs of the coverage table. One transfer pool
 * (`CompositionPool`, `src/fuzz/pool.ts`) serves every domain in order, so a composition that
 * flipped a base of one domain is tried on the next.
 */
import fc from 'fast-check';
import type { DomainId, FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { errorVerdict } from '../domain/verdict.js';
import { CompositionPool, runAttack, type AttackFeedback, type BaseResult } from '../fuzz/attack.js';
import { cellSeed, type CampaignOutcome } from '../fuzz/campaign.js';
import { splitSetup, type ScratchStore } from '../fuzz/evaluate.js';
import { judge } from '../fuzz/oracle.js';
import { cellSettled, DEFAULT_RECHECK, recheckFinding, type CellOutcome, type CellStopRule, type Counterexample } from '../fuzz/property.js';
import { failureSignature } from '../fuzz/signature.js';
import { emptyStats, record } from '../fuzz/stats.js';
import { summariseAttack, type AttackBaseRow, type AttackReport, type AttackSampling, type AttackTransfer } from '../report/adaptive.js';
import type { ReportFlip } from '../report/model.js';
import { adaptiveAttackParts, operatorGroupMap, operatorReadingMap } from '../../generators/adaptive.js';
import { attackBases } from '../../generators/families.js';
import type { OperatorId } from '../../generators/paraphrase/index.js';

/** Defaults of attack mode in `fuzz` (modest, so the default campaign stays well under a minute). */
export const ATTACK_DEFAULTS = { bases: 200, budget: 30, feedback: 'auto' as AttackFeedback };

/**
 * Bases attacked between two checks of the stop rule (`AttackModeOptions.stop`). Ten: a check
 * every tenth base wastes at most nine bases past the point where the rate settled, while
 * the search still has ten roots to share a chunk's queries among.
 */
export const ATTACK_STOP_CHUNK = 10;

/**
 * True when the attack cell's counts satisfy the stop rule: the bypass rate under attack
 * ((skipped + flipped) / bases, the rate the gate judges for the adaptive cell) settled as a
 * property cell's does (`cellSettled` for `forgery-rejected`: a Wilson 95% half-width at most
 * `precision` when some base got through, an upper bound below the target when none did and
 * no base errored).
 */
export function attackSettled(rule: CellStopRule, results: readonly Pick<BaseResult, 'status'>[]): boolean {
  const through = results.filter((r) => r.status === 'skipped' || r.status === 'flipped').length;
  const errors = results.filter((r) => r.status === 'error').length;
  return cellSettled(rule, results.length, through, errors, 'forgery-rejected');
}

export interface AttackModeOptions {
  guard: Guard;
  store: ScratchStore;
  phase: Phase;
  domains: readonly DomainId[];
  seed: number;
  /** Bases drawn per domain. */
  bases: number;
  /** Queries per base, the original included. */
  budget: number;
  feedback?: AttackFeedback;
  /** Operator ids used as arms (default: every registered operator); ids must be registered (`isOperatorId`). */
  operators?: readonly OperatorId[];
  /** Distinct flip signatures kept as counterexamples per domain. */
  maxFailures: number;
  timeoutMs?: number;
  onDomain?: (domain: string, done: number, total: number) => void;
  /**
   * Sequential stopping (the run's `--precision` / `--target` rule): each domain's bases are
   * attacked {@link ATTACK_STOP_CHUNK} at a time and no further base is drawn once
   * {@link attackSettled}; `bases` stays the cap. Without it (`--exhaustive`) every base is
   * attacked in one batch.
   */
  stop?: CellStopRule;
  /**
   * Guard calls each domain may make in all (`--max-queries`' share per attack domain): the
   * bases, their candidates with every attacker write, minimisation and the re-checks of its
   * flips. The attack stops before a call that would pass it (`stopped: 'budget'`); a flip whose
   * re-checks no longer fit is counted in the cell but not kept as a counterexample. Default: no cap.
   */
  maxQueriesPerDomain?: number;
}

export interface AttackModeResult {
  /** One `adaptive` cell per domain. */
  cells: CellOutcome[];
  report: AttackReport;
  /** The rejected half of each flip counterexample. */
  flips: Map<Counterexample, ReportFlip>;
  /** Original verdicts of every base (forged entries, for the coverage table). */
  originals: Verdict[];
  /** Original and rewrite verdicts of every flip (not only the kept counterexamples). */
  flipVerdicts: Array<{ original: Verdict; rewrite: Verdict }>;
}

function strip(v: Verdict): Omit<Verdict, 'elapsedUs'> {
  const { elapsedUs: _e, ...rest } = v;
  return rest;
}

/** Runs attack mode over the domains, in order. Deterministic for a seed. */
export async function runAttackMode(o: AttackModeOptions): Promise<AttackModeResult> {
  const groups = operatorGroupMap();
  const cells: CellOutcome[] = [];
  const flips = new Map<Counterexample, ReportFlip>();
  const rows: AttackBaseRow[] = [];
  const arms: Record<string, { queries: number; flips: number; discarded: number; inMinimal: number }> = {};
  const originals: Verdict[] = [];
  const flipVerdicts: Array<{ original: Verdict; rewrite: Verdict }> = [];
  let totalQueries = 0;
  const sampling: AttackSampling[] = [];
  // One transfer pool for the campaign: what flipped a base of one domain is tried first on the next.
  const pool = new CompositionPool();
  const transfer: AttackTransfer = { domains: [], poolSize: 0, pool: [] };
  let queriesBefore = 0;
  for (const domain of o.domains) {
    const started = performance.now();
    const seed = cellSeed(o.seed, domain, 'adaptive');
    const bases = fc.sample(attackBases(domain), { numRuns: o.bases, seed });
    let done = 0;
    // Under a cap, the re-checks of the counterexamples are held back from the search: at most
    // half the share, for `maxFailures` flips costing as much as the costliest base.
    const cap = o.maxQueriesPerDomain;
    const recheckCost = (c: FuzzCase): number => DEFAULT_RECHECK * (splitSetup(c).attacker.length + 1);
    const reserve = cap === undefined ? 0 : Math.min(Math.floor(cap / 2), o.maxFailures * Math.max(0, ...bases.map(recheckCost)));
    const out = await runAttack({
      guard: o.guard,
      store: o.store,
      phase: o.phase,
      bases,
      ...adaptiveAttackParts(domain, o.operators ? { operators: o.operators } : {}),
      budget: o.budget,
      seed,
      ...(o.feedback ? { feedback: o.feedback } : {}),
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      onBase: () => o.onDomain?.(domain, ++done, bases.length),
      pool,
      ...(cap !== undefined ? { maxGuardCalls: Math.max(1, cap - reserve) } : {}),
      ...(o.stop ? { sequential: { chunk: ATTACK_STOP_CHUNK, settled: (rs: readonly BaseResult[]) => attackSettled(o.stop as CellStopRule, rs) } } : {}),
    });
    sampling.push({ domain, bases: out.results.length, cap: o.bases, stopped: out.stopped === 'bases' ? 'cap' : out.stopped });
    let spent = out.guardCalls;
    totalQueries += out.totalQueries;
    transfer.domains.push({ domain, ...(out.firstFlip ? { firstFlipQueries: out.firstFlip.runQueries } : {}) });
    if (out.firstFlip && !transfer.firstFlip) transfer.firstFlip = { domain, queries: queriesBefore + out.firstFlip.runQueries };
    queriesBefore += out.searchQueries;
    for (const [a, s] of Object.entries(out.arms)) {
      const acc = (arms[a] ??= { queries: 0, flips: 0, discarded: 0, inMinimal: 0 });
      acc.queries += s.queries;
      acc.flips += s.flips;
      acc.discarded += s.discarded;
      acc.inMinimal += s.inMinimal;
    }
    const stats = emptyStats();
    const found: Counterexample[] = [];
    const seen = new Set<string>();
    for (const r of out.results) {
      originals.push(r.original.verdict);
      rows.push(baseRow(domain, r));
      // Every base is one forged run of the cell: a skipped base is a forged entry the guard
      // admitted, so the cell's bypass rate is 1 − detection under attack (flips are its counterexamples).
      const final = finalOf(r);
      record(stats, final.case, final.verdict, r.status === 'error' ? 'error' : judge(final.case.truth, final.verdict));
      if (r.status !== 'flipped' || !r.flip) continue;
      flipVerdicts.push({ original: r.original.verdict, rewrite: r.flip.verdict });
      const signature = failureSignature(r.flip.case, r.flip.verdict, 'violated');
      if (seen.has(signature) || found.length >= o.maxFailures) continue;
      if (cap !== undefined && spent + recheckCost(r.flip.case) > cap) continue;
      spent += recheckCost(r.flip.case);
      seen.add(signature);
      // Re-checked like property-mode findings: a flip that does not reproduce every time is flaky.
      const checked = await recheckFinding(o.guard, r.flip.case, r.flip.verdict, o.store, o.phase, DEFAULT_RECHECK, o.timeoutMs);
      const cx: Counterexample = {
        domain,
        family: 'adaptive',
        property: 'forgery-rejected',
        judgement: 'violated',
        kind: checked.kind,
        recheck: checked.recheck,
        signature,
        case: r.flip.case,
        verdict: r.flip.verdict,
        seed,
        path: `attack base ${r.index}`,
        numShrinks: r.flip.minimiseQueries,
      };
      found.push(cx);
      flips.set(cx, { original: { case: r.original.case, verdict: strip(r.original.verdict) }, operators: r.flip.minimal.map((s) => s.op), queriesToFlip: r.flip.queriesToFlip });
    }
    cells.push({
      domain,
      family: 'adaptive',
      property: 'forgery-rejected',
      seed,
      runsRequested: o.bases,
      stats,
      counterexamples: found,
      interrupted: false,
      elapsedMs: performance.now() - started,
      stopped: out.stopped === 'bases' ? 'runs' : out.stopped,
    });
  }
  transfer.poolSize = pool.size;
  transfer.pool = pool.top(10);
  const report = summariseAttack({ budget: o.budget, feedback: o.feedback ?? ATTACK_DEFAULTS.feedback, rows, arms, totalQueries, operatorGroups: groups, operatorReadings: operatorReadingMap(), transfer, ...(o.stop || sampling.some((x) => x.stopped === 'budget') ? { sampling } : {}) });
  return { cells, report, flips, originals, flipVerdicts };
}

function finalOf(r: BaseResult): { case: FuzzCase; verdict: Verdict } {
  if (r.status === 'flipped' && r.flip) return { case: r.flip.case, verdict: r.flip.verdict };
  if (r.status === 'error') return { case: r.original.case, verdict: r.lastError ?? errorVerdict('threw', 'guard error during the attack') };
  return r.original;
}

function baseRow(domain: string, r: BaseResult): AttackBaseRow {
  return {
    domain,
    family: String(r.original.case.truth.family),
    status: r.status,
    queries: r.queries,
    queryErrors: r.queryErrors,
    proposed: r.proposed,
    discarded: r.discarded,
    ...(r.flip ? { queriesToFlip: r.flip.queriesToFlip, minimal: r.flip.minimal.map((s) => s.op), flipSource: r.flip.source } : {}),
  };
}

/**
 * Puts the attack cells into a campaign outcome at the position of the `adaptive` family in
 * each domain (the campaign ran without them), and recomputes the totals.
 */
export function mergeAttackCells(outcome: CampaignOutcome, attackCells: readonly CellOutcome[], domains: readonly string[], families: readonly string[], elapsedMs: number): CampaignOutcome {
  const order = (c: { domain: string; family: string }): number => domains.indexOf(c.domain) * 1000 + families.indexOf(c.family);
  const cells = [...outcome.cells, ...attackCells].sort((a, b) => order(a) - order(b));
  return {
    ...outcome,
    cells,
    elapsedMs: outcome.elapsedMs + elapsedMs,
    totalRuns: cells.reduce((a, c) => a + c.stats.runs, 0),
    failed: cells.some((c) => c.stats.violations > 0 || c.stats.errors > 0),
  };
}
