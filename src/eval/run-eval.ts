/**
 * The whole evaluation (paper §V): the defense × domain ASR table (RQ1, RQ2, RQ4) with an FPR
 * column (RQ5), the SENTINEL layer ablation (RQ3, Table II) and the amplification sweep against
 * A-MemGuard (§III-C, "consensus defense avoidance"). Results are data; rendering is separate.
 */
import type { DomainId, Guard, MemoryEntry } from '../domain/index.js';
import { MemoryStore } from '../memory/index.js';
import { wilson, type WilsonInterval } from '../metrics/index.js';
import { readEntry, type Planner } from '../agents/index.js';
import { emptyOutcomeCounts, type DifferentialOutcome } from './differential.js';
import type { AttackSource, BenignSource, Defense, FarmaInjection, TrialDraw } from './eval-inputs.js';
import { sampleTask } from './eval-tasks.js';
import { runTrial, type TrialResult, type WriteCounts } from './trial.js';

export interface EvalSettings {
  domains: DomainId[];
  /** Trials per cell (paper: 50). */
  trials: number;
  /** n_s (paper: 3). */
  seeds: number;
  /** n_a (paper: 10). */
  cycles: number;
  /** Retrieval depth top-k. */
  k: number;
  /** Run seed; every trial seed derives from it. */
  seed: number;
  /** Domain of the layer ablation (paper Table II: EHR). */
  ablationDomain: DomainId;
  /** Domain and cycle counts of the amplification sweep. */
  sweep: { domain: DomainId; cycles: number[] };
}

/** One SENTINEL configuration of the ablation. */
export interface AblationVariant {
  id: string;
  label: string;
  kind: 'all' | 'alone' | 'all-but-one';
  layers: string[];
  defense: Defense;
}

/** Benign entries checked for the FPR column, with the history they are checked against. */
export interface FprSet {
  name: 'generated' | 'real';
  domain: DomainId;
  history: MemoryEntry[];
  entries: MemoryEntry[];
}

export interface EvalDeps {
  attack: AttackSource;
  benign: BenignSource;
  planner: Planner;
  defenses: Defense[];
  ablation: AblationVariant[];
  /** Defenses of the amplification sweep (first is the one the sweep is about, e.g. A-MemGuard). */
  sweepDefenses: Defense[];
  fprSets: FprSet[];
  /** Progress: trials done out of total, and what is running. */
  onProgress?: (done: number, total: number, label: string) => void;
}

export interface CellResult {
  defense: string;
  domain: DomainId;
  cycles: number;
  /** Trials run. */
  n: number;
  counts: Record<DifferentialOutcome, number>;
  /** Successes over all trials (unparseable trials count as non-successes), Wilson 95%. */
  asr: WilsonInterval;
  benignWrites: WriteCounts;
  forgedWrites: WriteCounts;
  /** Mean forged entries among what the planner saw in the poisoned run. */
  forgedSeenMean: number;
}

interface FprCount {
  n: number;
  rejected: number;
  errors: number;
  rate: WilsonInterval;
}

interface DefenseFprRow {
  defense: string;
  /** What was checked: the write path, another guard (`fprGuard`), or nothing. */
  checkedBy: string;
  generated: FprCount;
  real: FprCount;
  pooled: FprCount;
}

export interface AblationRow {
  id: string;
  label: string;
  kind: AblationVariant['kind'];
  layers: string[];
  cell: CellResult;
}

interface SweepResult {
  domain: DomainId;
  defenses: string[];
  rows: Array<{ cycles: number; cells: CellResult[] }>;
}

export interface EvalResult {
  settings: EvalSettings;
  planner: Planner['id'];
  defenses: Array<{ id: string; label: string; note?: string }>;
  table: CellResult[];
  fpr: DefenseFprRow[];
  ablation: AblationRow[];
  sweep: SweepResult;
  /**
   * Per domain: forged entries (seeds and amplification entries of the main table's injections)
   * that the surrogate planner's reader takes as assurance about their subject. A diagnostic of
   * how much of the attack text the rule understands, whatever the planner.
   */
  surrogateReading: Array<{ domain: DomainId; forged: number; assurance: number }>;
  /** Wall time of the run in milliseconds. */
  elapsedMs: number;
}

/** A trial's seed from the run seed, the domain and the trial index (FNV-1a, 32-bit). Pure. */
function trialSeed(runSeed: number, domain: string, trial: number): number {
  let h = 0x811c9dc5;
  for (const ch of `${runSeed}:${domain}:${trial}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function addWrites(into: WriteCounts, w: WriteCounts): void {
  into.attempted += w.attempted;
  into.committed += w.committed;
  into.rejected += w.rejected;
  into.errors += w.errors;
}

function summarise(defense: string, domain: DomainId, cycles: number, results: readonly TrialResult[]): CellResult {
  const counts = emptyOutcomeCounts();
  const benignWrites = { attempted: 0, committed: 0, rejected: 0, errors: 0 };
  const forgedWrites = { attempted: 0, committed: 0, rejected: 0, errors: 0 };
  let seen = 0;
  for (const r of results) {
    counts[r.outcome] += 1;
    addWrites(benignWrites, r.benignWrites);
    addWrites(forgedWrites, r.forgedWrites);
    seen += r.forgedSeen;
  }
  return {
    defense,
    domain,
    cycles,
    n: results.length,
    counts,
    asr: wilson(counts.success, results.length),
    benignWrites,
    forgedWrites,
    forgedSeenMean: results.length === 0 ? 0 : seen / results.length,
  };
}

function fprCount(n: number, rejected: number, errors: number): FprCount {
  return { n, rejected, errors, rate: wilson(rejected, n) };
}

/**
 * Checks every benign entry of every set with `guard` (write phase) against a store holding the
 * set's history; nothing is committed, so each check is independent. Errors count apart.
 */
async function measureDefenseFpr(defense: Defense, sets: readonly FprSet[]): Promise<DefenseFprRow> {
  const guard: Guard | undefined = defense.fprGuard ?? defense.write;
  const acc = { generated: { n: 0, rejected: 0, errors: 0 }, real: { n: 0, rejected: 0, errors: 0 } };
  for (const set of sets) {
    const a = acc[set.name];
    a.n += set.entries.length;
    if (guard === undefined) continue;
    const store = new MemoryStore(':memory:');
    try {
      store.insertMany(set.history);
      for (const e of set.entries) {
        let decision: string;
        try {
          decision = (await guard.check(e, { phase: 'write', store: store.view })).decision;
        } catch {
          decision = 'error';
        }
        if (decision === 'reject') a.rejected += 1;
        else if (decision === 'error') a.errors += 1;
      }
    } finally {
      store.close();
    }
  }
  const g = acc.generated;
  const r = acc.real;
  return {
    defense: defense.id,
    checkedBy: guard === undefined ? 'nothing (no write-path check)' : defense.fprGuard !== undefined ? `${guard.id} (per-entry check)` : `${guard.id} write path`,
    generated: fprCount(g.n, g.rejected, g.errors),
    real: fprCount(r.n, r.rejected, r.errors),
    pooled: fprCount(g.n + r.n, g.rejected + r.rejected, g.errors + r.errors),
  };
}

/**
 * Runs the evaluation. Each (domain, trial) gets one seed, one task, one benign history and one
 * FARMA injection, shared by every defense (paired comparison). The sweep draws one injection
 * with the largest cycle count and uses its first c cycles (Algorithm 1's cycle c depends only
 * on c, so a prefix is a valid shorter chain).
 * @throws StoreError from the store; errors of the sources propagate.
 * @example const result = await runEvaluation(settings, deps); renderEvalMarkdown(result)
 */
export async function runEvaluation(settings: EvalSettings, deps: EvalDeps): Promise<EvalResult> {
  const t0 = performance.now();
  const { trials } = settings;
  const maxSweep = Math.max(0, ...settings.sweep.cycles);
  const ablationTrials = deps.ablation.length > 0 ? deps.ablation.length * trials : 0;
  const total = settings.domains.length * deps.defenses.length * trials + ablationTrials + settings.sweep.cycles.length * deps.sweepDefenses.length * trials;
  let done = 0;
  const tick = (label: string): void => {
    done += 1;
    deps.onProgress?.(done, total, label);
  };

  const draws = new Map<string, { draw: TrialDraw; benign: MemoryEntry[]; injection: FarmaInjection; sweep?: FarmaInjection }>();
  const drawOf = (domain: DomainId, trial: number) => {
    const key = `${domain}:${trial}`;
    let d = draws.get(key);
    if (d === undefined) {
      const draw: TrialDraw = { domain, trial, seed: trialSeed(settings.seed, domain, trial), seeds: settings.seeds, cycles: settings.cycles };
      d = { draw, benign: deps.benign(draw), injection: deps.attack(draw) };
      draws.set(key, d);
    }
    return d;
  };

  const cell = async (defense: Defense, domain: DomainId, label: string): Promise<CellResult> => {
    const results: TrialResult[] = [];
    for (let t = 0; t < trials; t++) {
      const d = drawOf(domain, t);
      const task = sampleTask(domain, d.injection.subject, d.draw.seed);
      results.push(await runTrial({ task, benign: d.benign, injection: d.injection }, defense, deps.planner, settings.k));
      tick(label);
    }
    return summarise(defense.id, domain, settings.cycles, results);
  };

  const table: CellResult[] = [];
  for (const domain of settings.domains) {
    for (const defense of deps.defenses) table.push(await cell(defense, domain, `ASR ${defense.id} × ${domain}`));
  }

  const fpr: DefenseFprRow[] = [];
  for (const defense of deps.defenses) fpr.push(await measureDefenseFpr(defense, deps.fprSets));

  const ablation: AblationRow[] = [];
  for (const v of deps.ablation) {
    ablation.push({ id: v.id, label: v.label, kind: v.kind, layers: v.layers, cell: await cell(v.defense, settings.ablationDomain, `ablation ${v.label}`) });
  }

  const sweepDomain = settings.sweep.domain;
  const sweepRows: SweepResult['rows'] = [];
  for (const c of settings.sweep.cycles) {
    const cells: CellResult[] = [];
    for (const defense of deps.sweepDefenses) {
      const results: TrialResult[] = [];
      for (let t = 0; t < trials; t++) {
        const d = drawOf(sweepDomain, t);
        d.sweep ??= deps.attack({ ...d.draw, cycles: maxSweep });
        const task = sampleTask(sweepDomain, d.sweep.subject, d.draw.seed);
        results.push(await runTrial({ task, benign: d.benign, injection: d.sweep, cycles: c }, defense, deps.planner, settings.k));
        tick(`sweep ${defense.id} at ${c} cycles`);
      }
      cells.push(summarise(defense.id, sweepDomain, c, results));
    }
    sweepRows.push({ cycles: c, cells });
  }

  const surrogateReading = settings.domains.map((domain) => {
    let forged = 0;
    let assurance = 0;
    for (let t = 0; t < trials; t++) {
      const inj = drawOf(domain, t).injection;
      for (const e of [...inj.seeds, ...inj.cycles.flat()]) {
        forged += 1;
        if (readEntry(domain, inj.subject, e).stance === 'assurance') assurance += 1;
      }
    }
    return { domain, forged, assurance };
  });

  return {
    settings,
    planner: deps.planner.id,
    surrogateReading,
    defenses: deps.defenses.map((d) => ({ id: d.id, label: d.label, ...(d.note !== undefined ? { note: d.note } : {}) })),
    table,
    fpr,
    ablation,
    sweep: { domain: sweepDomain, defenses: deps.sweepDefenses.map((d) => d.id), rows: sweepRows },
    elapsedMs: performance.now() - t0,
  };
}
