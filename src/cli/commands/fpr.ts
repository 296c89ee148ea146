/**
 * `farma-fuzz fpr`: the false-positive rate of a guard on benign traces, with Wilson 95%
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
 * Every entry, generated or real, is checked in a store holding the 8 benign entries before
 * it (A-MemGuard's verdict depends on its neighbours; SENTINEL's s2 on the counts).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { DomainId, FuzzCase } from '../../domain/fuzz-case.js';
import type { Guard, Phase } from '../../domain/guard.js';
import type { MemoryEntry } from '../../domain/entry.js';
import type { Verdict } from '../../domain/verdict.js';
import type { ScratchStore } from '../../fuzz/evaluate.js';
import { evaluateCase } from '../../fuzz/evaluate.js';
import { mapInOrder } from '../../fuzz/in-flight.js';
import { realSetCases } from '../../fuzz/measure.js';
import { realismGap as realismGapOf } from '../../metrics/realism-gap.js';
import { interval, type Interval } from '../../report/model.js';
import { pct } from '../../report/markdown.js';
import { formatSignals, printableLine } from '../../report/format-verdict.js';
import { writeFileAtomic } from '../../corpus/atomic.js';
import { loadBenignJsonl, loadCuratedBenign, loadRealBenignSets } from '../../corpus/benign-sets.js';
import { HISTORY_ENTRIES, benignStressTrace, benignTrace, withBenignHistory } from '../../../generators/benign.js';
import { defaultCalibration, type Calibration } from '../../../generators/calibration/index.js';
import { calibrationFor } from '../calibration.js';
import type { Progress } from '../progress.js';

interface Rejection {
  set: string;
  id: string;
  template?: string;
  traceType: string;
  layer?: string;
  signals: string;
  reasons: string[];
  content: string;
}

interface FprRow {
  /** `generated`: the natural estimate; `stress`: hard negatives (never the estimate); `real`: traces nobody here wrote; `curated`: the hand-written set (ours, kept apart from real). */
  kind: 'generated' | 'stress' | 'real' | 'curated';
  set: string;
  dimension: 'all' | 'domain' | 'traceType' | 'format' | 'language' | 'hardNegative';
  value: string;
  fpr: Interval;
  errors: number;
}

/** One real set beside the estimate. */
interface RealGap {
  set: string;
  source: string;
  real: Interval;
  errors: number;
  /** |estimate − real| over judged rows, in [0,1]; absent when the set has no judged row. */
  gap?: number;
  /** True when the estimate lies inside the set's Wilson 95% interval (judged rows). */
  estimateInCi: boolean;
}

/** Leave-one-source-out: calibrated without `leftOut`, estimated, compared with it. */
export interface LosoRow {
  leftOut: string;
  estimate: Interval;
  estimateErrors: number;
  real: Interval;
  realErrors: number;
  gap?: number;
}

export interface FprReport {
  guard: string;
  seed: number;
  runsPerDomain: number;
  phase: Phase;
  /** How each entry is checked (store context), one sentence. */
  storeContext: string;
  /** The natural estimate over all domains (errors in `n`; see `estimateErrors`). */
  estimate: Interval;
  estimateErrors: number;
  rows: FprRow[];
  /** |FPR_estimate − FPR_real| over all generated and all real entries (hand-written set excluded), in [0,1]. */
  realismGap?: number;
  /** The gap for every real set (bundled and `--benign`). */
  realGaps: RealGap[];
  /** Leave-one-source-out over the bundled real sources (empty with `--no-real` or `--no-loso`). */
  loso: LosoRow[];
  rejections: Rejection[];
  issues: string[];
}

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

export interface FprOptions {
  guard: Guard;
  store: ScratchStore;
  domains: DomainId[];
  runs: number;
  seed: number;
  phase: Phase;
  benignFile?: string;
  realData: boolean;
  /** Run the leave-one-source-out check (default true; needs the real data). */
  loso?: boolean;
  /** Calibration of the estimate (default: the checked-in weights.json). */
  calibration?: Calibration;
  /** Guard calls in flight for an async guard (default 1); the figures are identical for any value. */
  concurrency?: number;
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
}

/** Verdicts of `cases` in order, `concurrency` calls in flight for an async guard. */
function verdictsOf(o: { guard: Guard; store: ScratchStore; phase: Phase; concurrency?: number }, cases: readonly FuzzCase[]): Promise<Verdict[]> {
  return mapInOrder(cases, (c) => evaluateCase(o.guard, c, o.store, o.phase), o.guard.mode === 'sync' ? 1 : (o.concurrency ?? 1));
}

/**
 * The natural estimate under one calibration: `runs` cases per domain of the natural mix, each
 * after `HISTORY_ENTRIES` natural benign entries; rejected, n and errors over all domains.
 * `onDomain` is called after each domain (progress).
 */
async function naturalEstimate(o: EstimateOptions, calibration: Calibration, onDomain: () => void = () => undefined): Promise<{ k: number; n: number; errors: number }> {
  const t = { k: 0, n: 0, errors: 0 };
  for (const domain of o.domains) {
    const cases = fc.sample(withBenignHistory(domain, benignTrace(domain, { calibration }), { calibration }), { seed: o.seed, numRuns: o.runs });
    for (const v of await verdictsOf(o, cases)) {
      t.n += 1;
      if (v.decision === 'reject') t.k += 1;
      if (v.decision === 'error') t.errors += 1;
    }
    onDomain();
  }
  return t;
}

/**
 * Leave-one-source-out (docs/calibration.md): for each real source, calibrate on all the other
 * sources, estimate with the same seed, and compare with the FPR measured on the one left out.
 * `realOf` gives the measured tally of a set (rejected `k`, `n`, `errors`).
 */
export async function leaveOneSourceOut(
  o: EstimateOptions,
  sets: ReadonlyArray<{ name: string; entries: readonly MemoryEntry[] }>,
  realOf: (name: string) => { k: number; n: number; errors: number } | undefined,
  onDomain: () => void = () => undefined,
): Promise<LosoRow[]> {
  const rows: LosoRow[] = [];
  for (const left of sets) {
    const cal = calibrationFor(sets.filter((s) => s !== left && s.entries.length > 0));
    const e = await naturalEstimate(o, cal, onDomain);
    const r = realOf(left.name) ?? { n: 0, k: 0, errors: 0 };
    const gap = realismGapOf(tallyOf(e), tallyOf(r));
    rows.push({ leftOut: left.name, estimate: interval(e.k, e.n), estimateErrors: e.errors, real: interval(r.k, r.n), realErrors: r.errors, ...(gap !== undefined ? { gap } : {}) });
  }
  return rows;
}

/** Measures FPR on generated and real benign traces, with the calibration check. Deterministic for a seed. */
export async function measureFpr(o: FprOptions, progress: Progress): Promise<FprReport> {
  const rows: FprRow[] = [];
  const rejections: Rejection[] = [];
  const issues: string[] = [];
  const reject = (set: string, c: FuzzCase, v: Verdict): void => {
    if (v.decision !== 'reject') return;
    rejections.push({
      set,
      id: c.entry.id,
      ...(c.truth.template !== 'real' ? { template: c.truth.template } : {}),
      traceType: c.entry.traceType,
      ...(v.layer !== undefined ? { layer: v.layer } : {}),
      signals: formatSignals(v.signals),
      reasons: v.reasons,
      content: c.entry.content,
    });
  };
  const emit = (kind: FprRow['kind'], set: string, dimension: FprRow['dimension'], map: Map<string, Tally>): void => {
    for (const [value, t] of [...map.entries()].sort(([a], [b]) => a.localeCompare(b))) rows.push({ kind, set, dimension, value, fpr: interval(t.k, t.n), errors: t.errors });
  };
  const withLoso = o.loso !== false && o.realData;
  const realLoaded = o.realData ? loadRealBenignSets() : { sets: [], issues: [] };
  issues.push(...realLoaded.issues.map((i) => `${i.file}:${i.line}: ${i.message}`));
  const losoSets = withLoso ? realLoaded.sets.filter((s) => s.entries.length > 0) : [];
  const total = o.domains.length * o.runs * (2 + losoSets.length);
  progress.start(total, `FPR of ${o.guard.id} on benign traces`);
  let done = 0;

  /** The natural mix of every domain under one calibration: the estimate. */
  const estimate = async (calibration: Calibration, detail: boolean, kind: 'generated' | 'stress' = 'generated'): Promise<Tally> => {
    const all = new Map<string, Tally>();
    for (const domain of o.domains) {
      const dims = { traceType: new Map<string, Tally>(), format: new Map<string, Tally>(), language: new Map<string, Tally>(), hardNegative: new Map<string, Tally>() };
      const byDomain = new Map<string, Tally>();
      const base = kind === 'stress' ? benignStressTrace(domain, { calibration }) : benignTrace(domain, { calibration });
      const cases = fc.sample(withBenignHistory(domain, base, { calibration }), { seed: o.seed, numRuns: o.runs });
      const verdicts = await verdictsOf(o, cases);
      for (const [i, c] of cases.entries()) {
        const v = verdicts[i]!;
        bump(all, 'all', v);
        if (detail) {
          bump(byDomain, domain, v);
          bump(dims.traceType, c.entry.traceType, v);
          bump(dims.format, c.truth.format ?? 'unknown', v);
          bump(dims.language, c.truth.language ?? 'unknown', v);
          bump(dims.hardNegative, c.truth.hardNegatives?.[0] ?? 'ordinary', v);
          reject(`${kind}/${domain}`, c, v);
        }
        progress.update(++done);
      }
      if (detail) {
        emit(kind, domain, 'domain', byDomain);
        emit(kind, domain, 'traceType', dims.traceType);
        emit(kind, domain, 'format', dims.format);
        emit(kind, domain, 'language', dims.language);
        emit(kind, domain, 'hardNegative', dims.hardNegative);
      }
    }
    return all.get('all') ?? { n: 0, k: 0, errors: 0 };
  };

  const calibration = o.calibration ?? defaultCalibration();
  const est = await estimate(calibration, true);
  rows.push({ kind: 'generated', set: 'all domains', dimension: 'all', value: 'all', fpr: interval(est.k, est.n), errors: est.errors });
  const stress = await estimate(calibration, true, 'stress');
  rows.push({ kind: 'stress', set: 'all domains', dimension: 'all', value: 'all', fpr: interval(stress.k, stress.n), errors: stress.errors });

  const realAll = new Map<string, Tally>();
  const realGaps: RealGap[] = [];
  const measureSet = async (set: string, source: string, entries: readonly MemoryEntry[], kind: 'real' | 'curated' = 'real'): Promise<Tally> => {
    const t = new Map<string, Tally>();
    const byType = new Map<string, Tally>();
    const cases = realSetCases(entries, HISTORY_ENTRIES, set);
    const verdicts = await verdictsOf(o, cases);
    for (const [i, c] of cases.entries()) {
      const v = verdicts[i]!;
      bump(t, set, v);
      bump(byType, c.entry.traceType, v);
      if (kind === 'real') bump(realAll, 'real', v);
      reject(set, c, v);
    }
    emit(kind, set, 'all', t);
    emit(kind, set, 'traceType', byType);
    const tally = t.get(set) ?? { n: 0, k: 0, errors: 0 };
    if (kind === 'real') {
      const gap = realismGapOf(tallyOf(est), tallyOf(tally));
      const r = judged(tally);
      const e = judged(est);
      realGaps.push({ set, source, real: interval(tally.k, tally.n), errors: tally.errors, ...(gap !== undefined ? { gap } : {}), estimateInCi: r.n > 0 && e.n > 0 && e.rate >= r.low && e.rate <= r.high });
    }
    return tally;
  };
  const realTallies = new Map<string, Tally>();
  for (const s of realLoaded.sets) realTallies.set(s.name, await measureSet(s.name, s.source, s.entries));
  if (o.realData) {
    const curated = loadCuratedBenign();
    issues.push(...curated.issues.map((i) => `${i.file}:${i.line}: ${i.message}`));
    await measureSet('hand-written rationales', 'written for this project', curated.entries, 'curated');
  }
  if (o.benignFile) {
    const user = loadBenignJsonl(o.benignFile);
    issues.push(...user.issues.map((i) => `${i.file}:${i.line}: ${i.message}`));
    if (user.entries.length === 0) issues.push(`${o.benignFile}: no benign entry to measure`);
    await measureSet(path.basename(o.benignFile), 'user export', user.entries, 'real');
  }
  emit('real', 'all real sets', 'all', realAll);

  const loso = withLoso
    ? await leaveOneSourceOut(
        { guard: o.guard, store: o.store, domains: o.domains, runs: o.runs, seed: o.seed, phase: o.phase, ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}) },
        losoSets,
        (name) => realTallies.get(name),
        () => {
          done += o.runs;
          progress.update(done);
        },
      )
    : [];
  progress.stop();

  // Errored rows are neither admissions nor rejections: the gap is taken over judged rows only.
  const r = realAll.get('real');
  const realismGap = r ? realismGapOf(tallyOf(est), tallyOf(r)) : undefined;
  return {
    guard: o.guard.id,
    seed: o.seed,
    runsPerDomain: o.runs,
    phase: o.phase,
    storeContext: `each entry is checked in a store holding the ${HISTORY_ENTRIES} benign entries before it: generated entries after ${HISTORY_ENTRIES} natural benign entries of their domain, real entries after the ${HISTORY_ENTRIES} entries before them in their own set (cyclic)`,
    estimate: interval(est.k, est.n),
    estimateErrors: est.errors,
    rows,
    ...(realismGap !== undefined ? { realismGap } : {}),
    realGaps,
    loso,
    rejections,
    issues,
  };
}

const pp = (x: number | undefined): string => (x === undefined ? 'n/a (no judged row)' : `${(x * 100).toFixed(2)} pp`);

/** Markdown: the estimate and the calibration check first, then stress, breakdowns and rejections. */
export function renderFprMarkdown(r: FprReport, options: { maxRejections?: number } = {}): string {
  const out: string[] = [];
  out.push(`# FPR of \`${r.guard}\` on benign traces`);
  out.push('');
  out.push(`Seed ${r.seed}, ${r.runsPerDomain} generated traces per domain, ${r.phase} path. Rates with Wilson 95% intervals. Store context: ${r.storeContext}.`);
  out.push('');
  out.push('## Estimate and calibration check');
  out.push('');
  out.push('The estimate is the natural `benign` mix, calibrated on the bundled real traces (docs/calibration.md). Guard errors are counted apart and never enter a gap.');
  out.push('');
  out.push('| kind | set | FPR [95% CI] | rejected / n | errors | gap to estimate | estimate in CI |');
  out.push('| --- | --- | --- | ---: | ---: | ---: | --- |');
  const errs = (n: number): string => String(n);
  out.push(`| **estimate** | natural benign mix, all domains | **${pct(r.estimate)}** | ${r.estimate.k}/${r.estimate.n} | ${errs(r.estimateErrors)} | | |`);
  for (const row of r.rows.filter((x) => x.kind === 'generated' && x.dimension === 'domain')) out.push(`| generated | ${row.set} | ${pct(row.fpr)} | ${row.fpr.k}/${row.fpr.n} | ${row.errors} | | |`);
  for (const g of r.realGaps) out.push(`| real | ${g.set} (${g.source}) | ${pct(g.real)} | ${g.real.k}/${g.real.n} | ${g.errors} | ${pp(g.gap)} | ${g.estimateInCi ? 'yes' : 'no'} |`);
  const pooled = r.rows.find((x) => x.kind === 'real' && x.set === 'all real sets');
  if (pooled) out.push(`| real | all real sets | ${pct(pooled.fpr)} | ${pooled.fpr.k}/${pooled.fpr.n} | ${pooled.errors} | ${pp(r.realismGap)} | |`);
  for (const row of r.rows.filter((x) => x.kind === 'curated' && x.dimension === 'all')) out.push(`| hand-written (not real) | ${row.set} | ${pct(row.fpr)} | ${row.fpr.k}/${row.fpr.n} | ${row.errors} | | |`);
  out.push('');
  out.push(`Realism gap |FPR_estimate − FPR_real| over all real sets: ${pp(r.realismGap)}; largest over the real sets: ${pp(r.realGaps.reduce<number | undefined>((m, g) => (g.gap === undefined ? m : Math.max(m ?? 0, g.gap)), undefined))}.`);
  if (r.loso.length > 0) {
    out.push('');
    out.push('## Leave-one-source-out');
    out.push('');
    out.push('Calibrated on every bundled real source but one, estimated on the same seed, compared with the source left out.');
    out.push('');
    out.push('| left out | estimate without it [95% CI] | errors | FPR on it [95% CI] | errors | gap |');
    out.push('| --- | --- | ---: | --- | ---: | ---: |');
    for (const l of r.loso) out.push(`| ${l.leftOut} | ${pct(l.estimate)} | ${l.estimateErrors} | ${pct(l.real)} | ${l.realErrors} | ${pp(l.gap)} |`);
    const gaps = r.loso.flatMap((l) => (l.gap === undefined ? [] : [l.gap]));
    if (gaps.length > 0) out.push('', `Largest leave-one-source-out gap: ${pp(Math.max(...gaps))}.`);
  }
  const stressAll = r.rows.find((x) => x.kind === 'stress' && x.dimension === 'all');
  if (stressAll) {
    out.push('');
    out.push('## Hard negatives (`benign-stress`; hunts false positives, never the estimate)');
    out.push('');
    out.push('| set | kind of hard negative | FPR [95% CI] | rejected / n | errors |');
    out.push('| --- | --- | --- | ---: | ---: |');
    out.push(`| all domains | all | ${pct(stressAll.fpr)} | ${stressAll.fpr.k}/${stressAll.fpr.n} | ${stressAll.errors} |`);
    for (const row of r.rows.filter((x) => x.kind === 'stress' && x.dimension === 'hardNegative')) out.push(`| ${row.set} | ${row.value} | ${pct(row.fpr)} | ${row.fpr.k}/${row.fpr.n} | ${row.errors} |`);
  }
  for (const dim of ['traceType', 'format', 'language', 'hardNegative'] as const) {
    const rows = r.rows.filter((x) => x.dimension === dim && x.kind !== 'stress');
    if (rows.length === 0) continue;
    out.push('');
    out.push(`## By ${dim === 'hardNegative' ? 'kind (hard negative or ordinary)' : dim}`);
    out.push('');
    out.push(`| kind | set | ${dim === 'hardNegative' ? 'kind' : dim} | FPR [95% CI] | rejected / n |`);
    out.push('| --- | --- | --- | --- | ---: |');
    for (const row of rows) out.push(`| ${row.kind} | ${row.set} | ${row.value} | ${pct(row.fpr)} | ${row.fpr.k}/${row.fpr.n} |`);
  }
  out.push('');
  out.push(`## Rejected benign entries (${r.rejections.length})`);
  out.push('');
  const byTemplate = new Map<string, Rejection[]>();
  for (const x of r.rejections) {
    const key = `${x.set} · ${x.template ?? x.id}`;
    byTemplate.set(key, [...(byTemplate.get(key) ?? []), x]);
  }
  out.push('| set · template | count | layer | signals | reasons | example |');
  out.push('| --- | ---: | --- | --- | --- | --- |');
  for (const [key, list] of [...byTemplate.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))) {
    const x = list[0]!;
    out.push(`| ${printableLine(key)} | ${list.length} | ${printableLine(x.layer ?? '-')} | ${x.signals} | ${printableLine(x.reasons.join('; ')).replace(/\|/g, '\\|')} | ${printableLine(x.content.slice(0, 140).replace(/\s+/g, ' ')).replace(/\|/g, '\\|')} |`);
  }
  const max = options.maxRejections ?? Infinity;
  if (Number.isFinite(max)) return out.join('\n');
  out.push('');
  out.push('Every rejected entry:');
  out.push('');
  for (const x of r.rejections) out.push(`- ${x.set} \`${printableLine(x.id)}\`${x.template ? ` (${x.template})` : ''} at ${printableLine(x.layer ?? '-')}, signals ${x.signals}: ${printableLine(x.content.replace(/\s+/g, ' ').slice(0, 300))}`);
  return out.join('\n');
}

export async function writeFprReport(r: FprReport, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await writeFileAtomic(path.join(dir, 'fpr.json'), `${JSON.stringify(r, null, 2)}\n`);
  await writeFileAtomic(path.join(dir, 'fpr.md'), `${renderFprMarkdown(r)}\n`);
}
