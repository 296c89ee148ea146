/**
 * The measurement behind `farma-fuzz fpr`: the false-positive rate of a guard on benign traces, with Wilson 95%
 * intervals (paper §V-E, RQ5), and how far to trust it (docs/calibration.md):
 * - the estimate: the natural `benign` mix, calibrated on real traces
 *   (`generators/calibration/weights.json`), broken down by domain, trace type, format,
 *   language and kind;
 * - the real sets (bundled ReAct and ExpeL traces, any `--benign` export) and, apart, the
 *   hand-written rationales;
 * - the realism gap |estimate − real| for every real set, judged rows only (guard errors are
 *   shown as counts and never enter a gap);
 * - a leave-one-source-out check: calibrate on every bundled real source but one, estimate,
 *   compare with the one left out;
 * - the hard negatives (`benign-stress`), reported apart and never the estimate;
 * - every rejected benign entry with the layer and the signals that fired.
 * Every entry, generated or real, is checked in its trajectory's store (`storeContextIndices`):
 * the earlier steps of its episode, then earlier episodes, up to 8 entries (A-MemGuard's verdict
 * depends on its neighbours; SENTINEL's s2 on the counts).
 * The report's shape and markdown are in `src/report/fpr.ts`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { DomainId, FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { MemoryEntry } from '../domain/entry.js';
import type { Verdict } from '../domain/verdict.js';
import type { ScratchStore } from '../fuzz/evaluate.js';
import { evaluateCase } from '../fuzz/evaluate.js';
import { mapInOrder } from '../fuzz/in-flight.js';
import { realSetCases } from '../fuzz/measure.js';
import { realismGap as realismGapOf } from '../metrics/realism-gap.js';
import { validatePredictors } from '../metrics/predictor-validation.js';
import { interval, type Interval } from '../report/model.js';
import { formatSignals } from '../report/format-verdict.js';
import { renderFprMarkdown, type FprBreakdownRow, type FprRejection, type GuardFprReport, type LosoRow, type ProfileRow, type RealSetGap, type StructureRates } from '../report/fpr.js';
import { writeFileAtomic } from '../corpus/atomic.js';
import { loadBenignJsonl, loadCuratedBenign, loadRealBenignSets, type RealBenignSet } from '../corpus/benign-sets.js';
import { HISTORY_ENTRIES } from '../../generators/benign.js';
import { benignInTrajectory } from '../../generators/benign-trajectory.js';
import { defaultCalibration, type Calibration } from '../../generators/calibration/index.js';
import { calibrationFor } from './calibration.js';
import type { Progress } from './progress.js';

interface Tally {
  n: number;
  k: number;
  errors: number;
}

function bump(map: Map<string, Tally>, key: string, v: Verdict): void {
  const t = map.get(key) ?? { n: 0, k: 0, errors: 0 };
  t.n += 1;
  if (v.decision === 'reject') t.k += 1;
  if (v.decision === 'error') t.errors += 1;
  map.set(key, t);
}

const tallyOf = (t: Tally | undefined): { rejected: number; n: number; errors: number } => ({ rejected: t?.k ?? 0, n: t?.n ?? 0, errors: t?.errors ?? 0 });

/** Wilson interval of the judged rows (errors taken out). */
function judged(t: Tally | undefined): Interval {
  return interval(t?.k ?? 0, (t?.n ?? 0) - (t?.errors ?? 0));
}

export interface EstimateOptions {
  guard: Guard;
  store: ScratchStore;
  domains: DomainId[];
  runs: number;
  seed: number;
  phase: Phase;
  /** Guard calls in flight for an async guard (default 1); results are identical for any value. */
  concurrency?: number;
  /** Ctrl-C: once aborted, `leaveOneSourceOut` starts no further calibration and returns the rows so far. */
  signal?: AbortSignal;
}

export interface GuardFprOptions extends EstimateOptions {
  benignFile?: string;
  realData: boolean;
  /** Run the leave-one-source-out check (default true; needs the real data). */
  loso?: boolean;
  /** Run the matched estimate of every real set (calibrated on that set's text alone; default true). */
  matched?: boolean;
  /** Calibration of the estimate (default: the checked-in weights.json). */
  calibration?: Calibration;
  /**
   * The real sets to measure when `realData` is set (default: every bundled set,
   * `loadRealBenignSets()`). Leave-one-source-out and the matched estimates calibrate once per
   * set (about a second each), so a test passes a few.
   */
  realSets?: readonly RealBenignSet[];
  /**
   * Extra lanes (worker threads) for the matched estimates and the leave-one-source-out check,
   * asked for once, before the matched estimates, with the sources, the cases of both and the
   * wall time per case (ms) the natural estimate took here: the rows are the same with or
   * without them.
   */
  lanes?: (work: { sources: number; cases: number; msPerCase: number }) => { loso: readonly RemoteLeftOut[]; matched: readonly RemoteMatched[] };
  /** A worker lane failed on a job (`<set> (matched)` or `<set> (left out)`); the job was then run in this thread. */
  onRemoteError?: (job: string, error: unknown) => void;
}

/** Verdicts of `cases` in order, `concurrency` calls in flight for an async guard. */
function verdictsOf(o: { guard: Guard; store: ScratchStore; phase: Phase; concurrency?: number }, cases: readonly FuzzCase[]): Promise<Verdict[]> {
  return mapInOrder(cases, (c) => evaluateCase(o.guard, c, o.store, o.phase), o.guard.mode === 'sync' ? 1 : (o.concurrency ?? 1));
}

/**
 * The natural estimate under one calibration: `runs` cases per domain of the natural mix, each
 * in its generated trajectory (`benignInTrajectory`); rejected, n and errors over all domains.
 * `onDomain` is called after each domain (progress).
 */
async function naturalEstimate(o: EstimateOptions, calibration: Calibration, onDomain: () => void = () => undefined, domains: readonly DomainId[] = o.domains): Promise<EstimateTally> {
  const t = { k: 0, n: 0, errors: 0 };
  for (const domain of domains) {
    const cases = fc.sample(benignInTrajectory(domain, { calibration }), { seed: o.seed, numRuns: o.runs });
    for (const v of await verdictsOf(o, cases)) {
      t.n += 1;
      if (v.decision === 'reject') t.k += 1;
      if (v.decision === 'error') t.errors += 1;
    }
    onDomain();
  }
  return t;
}

/** A generated estimate's tally: `k` rejected of `n` cases, `errors` of them answered error. */
export interface EstimateTally {
  k: number;
  n: number;
  errors: number;
}

/**
 * One row of the leave-one-source-out check computed elsewhere (a worker thread,
 * `src/cli/fuzz-worker.ts`): the natural estimate calibrated on every set of the check but
 * `leftOut`, with the same guard, domains, runs, seed and phase. Must give what
 * {@link leftOutEstimate} gives in this thread for the same sets.
 */
export type RemoteLeftOut = (leftOut: string) => Promise<EstimateTally>;

/** A matched estimate: the tally and the store structure (real against generated) of its calibration. */
export interface MatchedTally extends EstimateTally {
  structure: { real: StructureRates; generated: StructureRates };
}

/** A matched estimate computed elsewhere (a worker thread): must give what {@link matchedEstimate} gives here. */
export type RemoteMatched = (job: { set: { name: string; domain: string; entries: readonly MemoryEntry[] }; domains: DomainId[] }) => Promise<MatchedTally>;

/**
 * The matched estimate of one real set (docs/calibration.md, "Per profile"): the natural mix
 * calibrated on that set's text alone, `o.runs` cases per domain of `domains`, with the
 * calibration's store structure.
 */
export async function matchedEstimate(o: EstimateOptions, set: { name: string; domain: string; entries: readonly MemoryEntry[] }, domains: readonly DomainId[], onDomain: () => void = () => undefined): Promise<MatchedTally> {
  const cal = calibrationFor([{ name: set.name, domain: set.domain, entries: set.entries }]);
  const e = await naturalEstimate(o, cal, onDomain, domains);
  return { ...e, structure: matchedStructure(cal, domains) };
}

/**
 * Runs `jobs` over this thread (`local`) and `remote` lanes (worker threads, one function each),
 * which take jobs from one queue in order; the answers come back by job index, so they are the
 * same for any number of lanes when each job is a pure function of itself. Once `signal` is
 * aborted no further job starts (the answers so far are kept; the rest are undefined). A remote
 * lane whose call rejects takes no further job, `onRemoteError` hears of it, and that job runs
 * here once the lanes are done: no answer is lost to a thread. `afterRemote` follows each job a
 * remote lane finished (progress).
 */
async function inLanes<J, R>(
  jobs: readonly J[],
  local: (job: J) => Promise<R>,
  remote: ReadonlyArray<(job: J) => Promise<R>>,
  o: { signal?: AbortSignal; onRemoteError?: (job: J, error: unknown) => void; afterRemote?: (job: J) => void } = {},
): Promise<Array<R | undefined>> {
  const results: Array<R | undefined> = new Array(jobs.length);
  let next = 0;
  const take = (): number | undefined => (o.signal?.aborted || next >= jobs.length ? undefined : next++);
  const here = async (): Promise<void> => {
    for (;;) {
      // A sync guard and the sync calibration leave only microtasks in this loop, and signal
      // handlers (SIGINT, SIGTERM: they abort `o.signal`) run as macrotasks: yield one turn of the
      // event loop before each job so a signal is seen within one calibration.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const i = take();
      if (i === undefined) return;
      results[i] = await local(jobs[i]!);
    }
  };
  const failed: number[] = [];
  const lane = async (run: (job: J) => Promise<R>): Promise<void> => {
    for (let i = take(); i !== undefined; i = take()) {
      try {
        results[i] = await run(jobs[i]!);
      } catch (e) {
        failed.push(i);
        o.onRemoteError?.(jobs[i]!, e);
        return;
      }
      o.afterRemote?.(jobs[i]!);
    }
  };
  await Promise.all([here(), ...remote.map(lane)]);
  for (const i of failed.sort((x, y) => x - y)) {
    if (o.signal?.aborted) break;
    results[i] = await local(jobs[i]!);
  }
  return results;
}

/**
 * The natural estimate without one source: calibrate on every set but `leftOut` (and empty
 * ones), then estimate with `o`'s seed and runs (`runs` per domain). About a second of
 * calibration (cached on disk, `calibration-cache.ts`) plus the cases.
 * @throws Error when `leftOut` names none of `sets`.
 */
export async function leftOutEstimate(o: EstimateOptions, sets: ReadonlyArray<{ name: string; domain?: string; entries: readonly MemoryEntry[] }>, leftOut: string, onDomain: () => void = () => undefined): Promise<EstimateTally> {
  if (!sets.some((s) => s.name === leftOut)) throw new Error(`leave-one-source-out: no real set named "${leftOut}" (have ${sets.map((s) => s.name).join(', ')})`);
  const cal = calibrationFor(sets.filter((s) => s.name !== leftOut && s.entries.length > 0));
  return naturalEstimate(o, cal, onDomain);
}

/**
 * Leave-one-source-out (docs/calibration.md): for each real source, calibrate on all the other
 * sources, estimate with the same seed, and compare with the FPR measured on the one left out.
 * `realOf` gives the measured tally of a set (rejected `k`, `n`, `errors`). When `o.signal` is
 * aborted (Ctrl-C) no further source is left out: the rows finished so far are returned, in
 * `sets` order.
 *
 * `remote` lanes (worker threads, one function each) take sources from the same queue as this
 * thread, so the sources are spread over `1 + remote.length` lanes; each row is a pure function
 * of its source, so the rows are the same for any number of lanes. A lane whose call rejects
 * takes no further source, `onRemoteError` hears of it, and that source is computed in this
 * thread once the lanes are done. `onDomain` is called once per domain of every source (for a
 * remote source, when it finishes).
 */
export async function leaveOneSourceOut(
  o: EstimateOptions,
  sets: ReadonlyArray<{ name: string; domain?: string; entries: readonly MemoryEntry[] }>,
  realOf: (name: string) => { k: number; n: number; errors: number } | undefined,
  onDomain: () => void = () => undefined,
  remote: readonly RemoteLeftOut[] = [],
  onRemoteError: (leftOut: string, error: unknown) => void = () => undefined,
): Promise<LosoRow[]> {
  const results = await inLanes(
    sets.map((x) => x.name),
    (name) => leftOutEstimate(o, sets, name, onDomain),
    remote,
    { ...(o.signal ? { signal: o.signal } : {}), onRemoteError, afterRemote: () => { for (let d = 0; d < o.domains.length; d++) onDomain(); } },
  );
  const rows: LosoRow[] = [];
  for (const [i, left] of sets.entries()) {
    const e = results[i];
    if (e === undefined) continue;
    const r = realOf(left.name) ?? { n: 0, k: 0, errors: 0 };
    const gap = realismGapOf(tallyOf(e), tallyOf(r));
    rows.push({ leftOut: left.name, estimate: interval(e.k, e.n), estimateErrors: e.errors, real: interval(r.k, r.n), realErrors: r.errors, ...(gap !== undefined ? { gap } : {}) });
  }
  return rows;
}

/**
 * The store structure of a matched calibration (docs/calibration.md, "Store structure"): the real
 * set's (`target`, the same for every domain of a one-set calibration) and its generated
 * trajectories' (`generated`, averaged over `domains`).
 */
function matchedStructure(cal: Calibration, domains: readonly DomainId[]): { real: StructureRates; generated: StructureRates } {
  const of = (s: { alone: number; win: number; tie: number; lose: number; similarity: { p50: number }; reframe: number; short: number; entityFree: number; indirect: number }): StructureRates => ({ alone: s.alone, win: s.win, tie: s.tie, lose: s.lose, overlap: s.similarity.p50, reframe: s.reframe, short: s.short, entityFree: s.entityFree, indirect: s.indirect });
  const ds = domains.map((d) => cal.trajectory.domains[d]).filter((d) => d !== undefined);
  const real = ds[0] ? of(ds[0].target) : { alone: 0, win: 0, tie: 0, lose: 0, overlap: 0, reframe: 0, short: 0, entityFree: 0, indirect: 0 };
  const mean = (f: (x: StructureRates) => number): number => (ds.length === 0 ? 0 : ds.reduce((a, d) => a + f(of(d.generated)), 0) / ds.length);
  return { real, generated: { alone: mean((x) => x.alone), win: mean((x) => x.win), tie: mean((x) => x.tie), lose: mean((x) => x.lose), overlap: mean((x) => x.overlap), reframe: mean((x) => x.reframe), short: mean((x) => x.short), entityFree: mean((x) => x.entityFree), indirect: mean((x) => x.indirect) } };
}

/**
 * What every phase of {@link measureGuardFpr} adds to: the breakdown rows, the rejected
 * entries, the load issues, and the progress count.
 */
interface FprCollector {
  rows: FprBreakdownRow[];
  rejections: FprRejection[];
  issues: string[];
  /** Adds `n` cases to the progress count. */
  tick(n: number): void;
}

/** A real set that was measured (bundled or `--benign`), for the profile rows. */
interface MeasuredSet {
  name: string;
  domain: string;
  entries: readonly MemoryEntry[];
  tally: Tally;
  userExport: boolean;
}

function rejectedEntry(col: FprCollector, set: string, c: FuzzCase, v: Verdict): void {
  if (v.decision !== 'reject') return;
  col.rejections.push({
    set,
    id: c.entry.id,
    ...(c.truth.template !== 'real' ? { template: c.truth.template } : {}),
    traceType: c.entry.traceType,
    ...(v.layer !== undefined ? { layer: v.layer } : {}),
    signals: formatSignals(v.signals),
    reasons: v.reasons,
    content: c.entry.content,
  });
}

function emitRows(col: FprCollector, kind: FprBreakdownRow['kind'], set: string, dimension: FprBreakdownRow['dimension'], map: Map<string, Tally>): void {
  for (const [value, t] of [...map.entries()].sort(([a], [b]) => a.localeCompare(b))) col.rows.push({ kind, set, dimension, value, fpr: interval(t.k, t.n), errors: t.errors });
}

/**
 * The generated phase: the natural mix (or the hard negatives, `kind: 'stress'`) of every
 * domain under one calibration, with its breakdown rows and rejections when `detail`;
 * `perDomain` gets the per-domain tallies of the natural mix (the profile estimates).
 */
async function generatedEstimate(o: GuardFprOptions, col: FprCollector, calibration: Calibration, detail: boolean, kind: 'generated' | 'stress', perDomain: Map<string, Tally>): Promise<Tally> {
  const all = new Map<string, Tally>();
  for (const domain of o.domains) {
    const dims = { traceType: new Map<string, Tally>(), format: new Map<string, Tally>(), language: new Map<string, Tally>(), hardNegative: new Map<string, Tally>() };
    const byDomain = new Map<string, Tally>();
    const cases = fc.sample(benignInTrajectory(domain, { calibration, stress: kind === 'stress' }), { seed: o.seed, numRuns: o.runs });
    const verdicts = await verdictsOf(o, cases);
    for (const [i, c] of cases.entries()) {
      const v = verdicts[i]!;
      bump(all, 'all', v);
      if (kind === 'generated') bump(perDomain, domain, v);
      if (detail) {
        bump(byDomain, domain, v);
        bump(dims.traceType, c.entry.traceType, v);
        bump(dims.format, c.truth.format ?? 'unknown', v);
        bump(dims.language, c.truth.language ?? 'unknown', v);
        bump(dims.hardNegative, c.truth.hardNegatives?.[0] ?? 'ordinary', v);
        rejectedEntry(col, `${kind}/${domain}`, c, v);
      }
      col.tick(1);
    }
    if (detail) {
      emitRows(col, kind, domain, 'domain', byDomain);
      emitRows(col, kind, domain, 'traceType', dims.traceType);
      emitRows(col, kind, domain, 'format', dims.format);
      emitRows(col, kind, domain, 'language', dims.language);
      emitRows(col, kind, domain, 'hardNegative', dims.hardNegative);
    }
  }
  return all.get('all') ?? { n: 0, k: 0, errors: 0 };
}

/**
 * The real phase: every bundled real set, the hand-written rationales and a `--benign`
 * export, each in its own trajectory store, with its gap to the estimate `est`. Load issues
 * go to `col.issues`.
 */
async function realSetsPhase(
  o: GuardFprOptions,
  col: FprCollector,
  sets: ReturnType<typeof loadRealBenignSets>['sets'],
  est: Tally,
): Promise<{ realAll: Map<string, Tally>; realGaps: RealSetGap[]; measured: MeasuredSet[]; realTallies: Map<string, Tally> }> {
  const realAll = new Map<string, Tally>();
  const realGaps: RealSetGap[] = [];
  const measured: MeasuredSet[] = [];
  const measureSet = async (set: string, source: string, entries: readonly MemoryEntry[], kind: 'real' | 'curated' = 'real', domain = 'other', userExport = false, unreadLines = 0): Promise<Tally> => {
    const t = new Map<string, Tally>();
    const byType = new Map<string, Tally>();
    const cases = realSetCases(entries, HISTORY_ENTRIES, set);
    const verdicts = await verdictsOf(o, cases);
    for (const [i, c] of cases.entries()) {
      const v = verdicts[i]!;
      bump(t, set, v);
      bump(byType, c.entry.traceType, v);
      if (kind === 'real') bump(realAll, 'real', v);
      rejectedEntry(col, set, c, v);
    }
    emitRows(col, kind, set, 'all', t);
    emitRows(col, kind, set, 'traceType', byType);
    const tally = t.get(set) ?? { n: 0, k: 0, errors: 0 };
    if (kind === 'real') {
      const gap = realismGapOf(tallyOf(est), tallyOf(tally));
      const r = judged(tally);
      const e = judged(est);
      realGaps.push({ set, source, real: interval(tally.k, tally.n), errors: tally.errors, ...(unreadLines > 0 ? { unreadLines } : {}), ...(gap !== undefined ? { gap } : {}), estimateInCi: r.n > 0 && e.n > 0 && e.rate >= r.low && e.rate <= r.high, halfWidth: r.n > 0 ? (r.high - r.low) / 2 : 0 });
      if (entries.length > 0) measured.push({ name: set, domain, entries, tally, userExport });
    }
    return tally;
  };
  const realTallies = new Map<string, Tally>();
  for (const s of sets) realTallies.set(s.name, await measureSet(s.name, s.source, s.entries, 'real', s.domain));
  if (o.realData) {
    const curated = loadCuratedBenign();
    col.issues.push(...curated.issues.map((i) => `${i.file}:${i.line}: ${i.message}`));
    await measureSet('hand-written rationales', 'written for this project', curated.entries, 'curated');
  }
  if (o.benignFile) {
    const user = loadBenignJsonl(o.benignFile);
    col.issues.push(...user.issues.map((i) => `${i.file}:${i.line}: ${i.message}`));
    if (user.entries.length === 0) col.issues.push(`${o.benignFile}: no benign entry to measure`);
    await measureSet(path.basename(o.benignFile), 'user export', user.entries, 'real', 'other', true, user.skipped?.length ?? 0);
  }
  emitRows(col, 'real', 'all real sets', 'all', realAll);
  return { realAll, realGaps, measured, realTallies };
}

/**
 * The profile phase: every measured real set beside its domain's estimate and, with
 * `withMatched`, the estimate calibrated on its own text alone (docs/calibration.md, "Per profile").
 */
async function profilesPhase(o: GuardFprOptions, col: FprCollector, measured: readonly MeasuredSet[], perDomain: Map<string, Tally>, withMatched: boolean, profileDomains: (d: string) => DomainId[], remote: readonly RemoteMatched[] = []): Promise<ProfileRow[]> {
  const jobs = measured.map((m) => ({ set: { name: m.name, domain: m.domain, entries: m.entries }, domains: profileDomains(m.domain) }));
  const matched = withMatched
    ? await inLanes(jobs, (j) => matchedEstimate(o, j.set, j.domains, () => col.tick(o.runs)), remote, {
        ...(o.onRemoteError ? { onRemoteError: (j: (typeof jobs)[number], e: unknown) => o.onRemoteError?.(`${j.set.name} (matched)`, e) } : {}),
        afterRemote: (j) => col.tick(o.runs * j.domains.length),
      })
    : [];
  const profiles: ProfileRow[] = [];
  for (const [i, m] of measured.entries()) {
    const domains = jobs[i]!.domains;
    const p = domains.reduce<Tally>((a, d) => {
      const t = perDomain.get(d) ?? { n: 0, k: 0, errors: 0 };
      return { n: a.n + t.n, k: a.k + t.k, errors: a.errors + t.errors };
    }, { n: 0, k: 0, errors: 0 });
    const r = judged(m.tally);
    const profileGap = realismGapOf(tallyOf(p), tallyOf(m.tally));
    const row: ProfileRow = { set: m.name, profile: domains.length === 1 ? domains[0]! : 'all domains', real: interval(m.tally.k, m.tally.n), realErrors: m.tally.errors, halfWidth: r.n > 0 ? (r.high - r.low) / 2 : 0, profileEstimate: interval(p.k, p.n), ...(profileGap !== undefined ? { profileGap } : {}), ...(m.userExport ? { userExport: true } : {}) };
    const e = matched[i];
    if (e) {
      const gap = realismGapOf(tallyOf(e), tallyOf(m.tally));
      row.matched = { estimate: interval(e.k, e.n), errors: e.errors, ...(gap !== undefined ? { gap } : {}), structure: e.structure };
    }
    profiles.push(row);
  }
  return profiles;
}

/**
 * Measures FPR on generated and real benign traces, with the calibration check. Deterministic
 * for a seed. Phases: the generated estimate and the hard negatives, the real sets, the
 * profile rows (with matched estimates), leave-one-source-out, and the validation of which
 * predictor to trust.
 */
export async function measureGuardFpr(o: GuardFprOptions, progress: Progress): Promise<GuardFprReport> {
  let done = 0;
  const col: FprCollector = {
    rows: [],
    rejections: [],
    issues: [],
    tick: (n) => {
      done += n;
      progress.update(done);
    },
  };
  const { rows, rejections, issues } = col;
  const withLoso = o.loso !== false && o.realData;
  const realLoaded = !o.realData ? { sets: [], issues: [] } : o.realSets ? { sets: [...o.realSets], issues: [] } : loadRealBenignSets();
  issues.push(...realLoaded.issues.map((i) => `${i.file}:${i.line}: ${i.message}`));
  const losoSets = withLoso ? realLoaded.sets.filter((s) => s.entries.length > 0) : [];
  const withMatched = o.matched !== false;
  /** The generator domains a real set of domain `d` is compared with: its own, else all measured ones. */
  const profileDomains = (d: string): DomainId[] => (o.domains.includes(d as DomainId) ? [d as DomainId] : o.domains);
  const matchedRuns = withMatched ? realLoaded.sets.filter((s) => s.entries.length > 0).reduce((a, s) => a + profileDomains(s.domain).length, 0) + (o.benignFile ? o.domains.length : 0) : 0;
  const total = o.runs * (o.domains.length * (2 + losoSets.length) + matchedRuns);
  progress.start(total, `FPR of ${o.guard.id} on benign traces`);

  /** Tallies of the estimate per domain (the profile estimates). */
  const perDomain = new Map<string, Tally>();
  const calibration = o.calibration ?? defaultCalibration();
  const t0 = performance.now();
  const est = await generatedEstimate(o, col, calibration, true, 'generated', perDomain);
  const msPerCase = (performance.now() - t0) / Math.max(1, est.n);
  rows.push({ kind: 'generated', set: 'all domains', dimension: 'all', value: 'all', fpr: interval(est.k, est.n), errors: est.errors });
  const stress = await generatedEstimate(o, col, calibration, true, 'stress', perDomain);
  rows.push({ kind: 'stress', set: 'all domains', dimension: 'all', value: 'all', fpr: interval(stress.k, stress.n), errors: stress.errors });

  const { realAll, realGaps, measured, realTallies } = await realSetsPhase(o, col, realLoaded.sets, est);
  const lanes = o.lanes?.({ sources: Math.max(losoSets.length, withMatched ? measured.length : 0), cases: losoSets.length * o.domains.length * o.runs + o.runs * matchedRuns, msPerCase }) ?? { loso: [], matched: [] };
  const profiles = await profilesPhase(o, col, measured, perDomain, withMatched, profileDomains, lanes.matched);

  const loso = withLoso
    ? await leaveOneSourceOut(
        { guard: o.guard, store: o.store, domains: o.domains, runs: o.runs, seed: o.seed, phase: o.phase, ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}) },
        losoSets,
        (name) => realTallies.get(name),
        () => col.tick(o.runs),
        lanes.loso,
        (name, e) => o.onRemoteError?.(`${name} (left out)`, e),
      )
    : [];
  progress.stop();

  // Which predictor to trust (docs/calibration.md, "Which estimate to trust"): on each bundled set,
  // the plain estimate calibrated without it (leave-one-source-out) against its matched estimate.
  const losoGap = new Map(loso.flatMap((l) => (l.gap === undefined ? [] : [[l.leftOut, l.gap] as const])));
  const validation = validatePredictors(
    profiles.flatMap((x) => {
      const plainGap = losoGap.get(x.set);
      return x.userExport === true || plainGap === undefined || x.matched?.gap === undefined ? [] : [{ set: x.set, halfWidth: x.halfWidth, plainGap, matchedGap: x.matched.gap }];
    }),
  );

  // Errored rows are neither admissions nor rejections: the gap is taken over judged rows only.
  const r = realAll.get('real');
  const realismGap = r ? realismGapOf(tallyOf(est), tallyOf(r)) : undefined;
  return {
    guard: o.guard.id,
    seed: o.seed,
    runsPerDomain: o.runs,
    domains: [...o.domains],
    phase: o.phase,
    storeContext: `each entry is checked in its trajectory's store: the earlier steps of its own episode, then the entries of the episodes before it, up to ${HISTORY_ENTRIES} entries; generated entries in generated trajectories (episode lengths, repeat-group structure and near-repeat overlap calibrated on the real sets' text), real entries in their own set (episodes from \`metadata.episode\`, earlier episodes cyclic; a set without episode labels is one trajectory, cyclic)`,
    estimate: interval(est.k, est.n),
    estimateErrors: est.errors,
    rows,
    ...(realismGap !== undefined ? { realismGap } : {}),
    realGaps,
    loso,
    profiles,
    ...(validation !== undefined ? { validation } : {}),
    rejections,
    issues,
  };
}


/**
 * Writes `fpr.json` and `fpr.md` (every rejected entry) into `dir`, creating it; each file atomically.
 * @throws the `fs` error when `dir` cannot be created or a file cannot be written.
 */
export async function writeFprReport(r: GuardFprReport, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await writeFileAtomic(path.join(dir, 'fpr.json'), `${JSON.stringify(r, null, 2)}\n`);
  await writeFileAtomic(path.join(dir, 'fpr.md'), `${renderFprMarkdown(r)}\n`);
}
