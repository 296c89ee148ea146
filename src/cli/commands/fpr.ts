/**
 * `farma-fuzz fpr`: the false-positive rate of a guard on benign traces, with Wilson 95%
 * intervals, generated and real side by side (paper §V-E, RQ5): broken down by domain,
 * trace type, format and language; the realism gap |FPR_generated − FPR_real|; and every
 * rejected benign entry with the layer and the signals that fired.
 */
import { realismGap as realismGapOf } from '../../metrics/realism-gap.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { DomainId, FuzzCase } from '../../domain/fuzz-case.js';
import type { Guard, Phase } from '../../domain/guard.js';
import type { MemoryEntry } from '../../domain/entry.js';
import type { Verdict } from '../../domain/verdict.js';
import type { ScratchStore } from '../../fuzz/evaluate.js';
import { mapInOrder } from '../../fuzz/in-flight.js';
import { evaluateCase } from '../../fuzz/evaluate.js';
import { interval, type Interval } from '../../report/model.js';
import { pct } from '../../report/markdown.js';
import { formatSignals, printableLine } from '../../report/format-verdict.js';
import { writeFileAtomic } from '../../corpus/atomic.js';
import { loadBenignJsonl, loadCuratedBenign, loadReactThoughts } from '../../corpus/benign-sets.js';
import { benignTrace } from '../../../generators/benign.js';
import type { Progress } from '../progress.js';

export interface Rejection {
  set: string;
  id: string;
  template?: string;
  traceType: string;
  layer?: string;
  signals: string;
  reasons: string[];
  content: string;
}

export interface FprRow {
  /** `real`: traces nobody here wrote; `curated`: the hand-written set (ours, kept apart from real). */
  kind: 'generated' | 'real' | 'curated';
  set: string;
  dimension: 'all' | 'domain' | 'traceType' | 'format' | 'language' | 'hardNegative';
  value: string;
  fpr: Interval;
  errors: number;
}

export interface FprReport {
  guard: string;
  seed: number;
  runsPerDomain: number;
  phase: Phase;
  rows: FprRow[];
  /** |FPR_generated − FPR_real| over all generated and all real entries (hand-written set excluded), in [0,1]. */
  realismGap?: number;
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

export interface FprOptions {
  guard: Guard;
  store: ScratchStore;
  domains: DomainId[];
  runs: number;
  seed: number;
  phase: Phase;
  benignFile?: string;
  realData: boolean;
  /** Guard calls in flight for an async guard (default 1); the figures are identical for any value. */
  concurrency?: number;
}

/** Measures FPR on generated and real benign traces. Deterministic for a seed. */
export async function measureFpr(o: FprOptions, progress: Progress): Promise<FprReport> {
  const rows: FprRow[] = [];
  const rejections: Rejection[] = [];
  const issues: string[] = [];
  const evaluate = async (c: FuzzCase): Promise<Verdict> =>
    evaluateCase(o.guard, c, o.store, o.phase);
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

  const genAll = new Map<string, Tally>();
  progress.start(o.domains.length * o.runs, `FPR of ${o.guard.id} on generated benign traces`);
  let done = 0;
  for (const domain of o.domains) {
    const dims = { traceType: new Map<string, Tally>(), format: new Map<string, Tally>(), language: new Map<string, Tally>(), hardNegative: new Map<string, Tally>() };
    const all = new Map<string, Tally>();
    const cases = fc.sample(benignTrace(domain), { seed: o.seed, numRuns: o.runs });
    const verdicts = await mapInOrder(cases, evaluate, o.guard.mode === 'sync' ? 1 : (o.concurrency ?? 1));
    for (const [i, c] of cases.entries()) {
      const v = verdicts[i] as Verdict;
      bump(all, domain, v);
      bump(genAll, 'generated', v);
      bump(dims.traceType, c.entry.traceType, v);
      bump(dims.format, c.truth.format ?? 'unknown', v);
      bump(dims.language, c.truth.language ?? 'unknown', v);
      bump(dims.hardNegative, (c.truth.hardNegatives?.length ?? 0) > 0 ? 'hard negative' : 'ordinary', v);
      reject(`generated/${domain}`, c, v);
      progress.update(++done);
    }
    emit('generated', domain, 'domain', all);
    emit('generated', domain, 'traceType', dims.traceType);
    emit('generated', domain, 'format', dims.format);
    emit('generated', domain, 'language', dims.language);
    emit('generated', domain, 'hardNegative', dims.hardNegative);
  }
  progress.stop();
  emit('generated', 'all domains', 'all', genAll);

  const realAll = new Map<string, Tally>();
  const measureSet = async (set: string, entries: readonly MemoryEntry[], kind: 'real' | 'curated' = 'real'): Promise<void> => {
    const t = new Map<string, Tally>();
    const byType = new Map<string, Tally>();
    for (const entry of entries) {
      const c: FuzzCase = { entry, truth: { label: 'benign', family: 'benign', domain: 'real', template: 'real', operators: [] } };
      const v = await evaluate(c);
      bump(t, set, v);
      bump(byType, entry.traceType, v);
      if (kind === 'real') bump(realAll, 'real', v);
      reject(set, c, v);
    }
    emit(kind, set, 'all', t);
    emit(kind, set, 'traceType', byType);
  };
  if (o.realData) {
    const react = loadReactThoughts();
    issues.push(...react.issues.map((i) => `${i.file}:${i.line}: ${i.message}`));
    for (const s of react.sets) await measureSet(`react-${s.name}`, s.entries);
    const curated = loadCuratedBenign();
    issues.push(...curated.issues.map((i) => `${i.file}:${i.line}: ${i.message}`));
    await measureSet('hand-written rationales', curated.entries, 'curated');
  }
  if (o.benignFile) {
    const user = loadBenignJsonl(o.benignFile);
    issues.push(...user.issues.map((i) => `${i.file}:${i.line}: ${i.message}`));
    await measureSet(path.basename(o.benignFile), user.entries, 'real');
  }
  emit('real', 'all real sets', 'all', realAll);
  const g = genAll.get('generated');
  const r = realAll.get('real');
  // Errored rows are neither admissions nor rejections: the gap is taken over judged rows only.
  const realismGap = g && r ? realismGapOf({ rejected: g.k, n: g.n, errors: g.errors }, { rejected: r.k, n: r.n, errors: r.errors }) : undefined;
  return { guard: o.guard.id, seed: o.seed, runsPerDomain: o.runs, phase: o.phase, rows, ...(realismGap !== undefined ? { realismGap } : {}), rejections, issues };
}

/** Markdown tables: overall side by side, then breakdowns, then the rejected entries. */
export function renderFprMarkdown(r: FprReport, options: { maxRejections?: number } = {}): string {
  const out: string[] = [];
  out.push(`# FPR of \`${r.guard}\` on benign traces`);
  out.push('');
  out.push(`Seed ${r.seed}, ${r.runsPerDomain} generated traces per domain, ${r.phase} path. Rates with Wilson 95% intervals.`);
  out.push('');
  out.push('| kind | set | FPR [95% CI] | rejected / n | errors |');
  out.push('| --- | --- | --- | ---: | ---: |');
  for (const row of r.rows.filter((x) => x.dimension === 'all' || x.dimension === 'domain')) {
    out.push(`| ${row.kind} | ${row.set} | ${pct(row.fpr)} | ${row.fpr.k}/${row.fpr.n} | ${row.errors} |`);
  }
  if (r.realismGap !== undefined) {
    out.push('');
    out.push(`Realism gap |FPR_generated − FPR_real| = ${(r.realismGap * 100).toFixed(2)} percentage points.`);
  }
  for (const dim of ['traceType', 'format', 'language', 'hardNegative'] as const) {
    const rows = r.rows.filter((x) => x.dimension === dim);
    if (rows.length === 0) continue;
    out.push('');
    out.push(`## By ${dim === 'hardNegative' ? 'hard negative or ordinary' : dim}`);
    out.push('');
    out.push(`| kind | set | ${dim} | FPR [95% CI] | rejected / n |`);
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
  for (const [key, list] of [...byTemplate.entries()].sort((a, b) => b[1].length - a[1].length)) {
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
