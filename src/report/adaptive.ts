/**
 * The adaptive-attacker section of a report (issue 4): which rewrites bypass a guard and at
 * what rate (per operator and per operator group, Wilson 95% intervals), the minimal operator
 * sets found, what the rewrites cost in claim losses, and what the black-box search cost in
 * queries. Pure renderers over plain data; nothing here imports generators or guards.
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { CellStats, Tally } from '../fuzz/stats.js';
import { interval, type Interval } from './model.js';
import { pct } from './markdown.js';

/** What the adaptive generator writes for a rewrite that lost the claim (generators/adaptive.ts): a marker, then one prefixed id per operator. */
export const DISCARDED_OPERATOR_PREFIX = 'discarded:';
export const DISCARDED_OPERATOR_MARKER = 'discarded';

/** What the section reads from a fuzz report. */
export interface AdaptiveSectionInput {
  cells: ReadonlyArray<{ domain: string; family: string; runs: number; violations: number; breakdown: CellStats['breakdown'] }>;
  counterexamples: ReadonlyArray<{ family: string; domain: string; case: FuzzCase }>;
  /** Operator id → group (e.g. from `listOperators()`); without it the group table is left out. */
  operatorGroups?: Readonly<Record<string, string>>;
  /** Families to read (default `['adaptive']`). */
  families?: readonly string[];
}

export interface OperatorRate {
  operator: string;
  group?: string;
  /** Bypass rate among runs whose variant used this operator. */
  bypass: Interval;
  /** Rewrites with this operator that lost the claim and fell back to the base case. */
  discarded: number;
}

function add(into: Tally, t: Tally): void {
  into.runs += t.runs;
  into.violations += t.violations;
  into.errors += t.errors;
}

/** Per-operator and per-group bypass rates (Wilson 95%) and discard counts, from the cells' operator breakdowns. */
export function adaptiveRates(input: AdaptiveSectionInput): { operators: OperatorRate[]; groups: Array<{ group: string; bypass: Interval }>; runs: number; discardedRuns: number } {
  const families = input.families ?? ['adaptive'];
  const cells = input.cells.filter((c) => families.includes(c.family));
  const kept = new Map<string, Tally>();
  const discarded = new Map<string, number>();
  for (const cell of cells) {
    for (const [op, t] of Object.entries(cell.breakdown.operator)) {
      if (op === DISCARDED_OPERATOR_MARKER) continue;
      if (op.startsWith(DISCARDED_OPERATOR_PREFIX)) {
        const id = op.slice(DISCARDED_OPERATOR_PREFIX.length);
        discarded.set(id, (discarded.get(id) ?? 0) + t.runs);
      } else {
        const into = kept.get(op) ?? { runs: 0, violations: 0, errors: 0 };
        add(into, t);
        kept.set(op, into);
      }
    }
  }
  const ids = [...new Set([...kept.keys(), ...discarded.keys()])].sort();
  const operators: OperatorRate[] = ids.map((op) => {
    const t = kept.get(op) ?? { runs: 0, violations: 0, errors: 0 };
    const group = input.operatorGroups?.[op];
    return { operator: op, ...(group !== undefined ? { group } : {}), bypass: interval(t.violations, t.runs), discarded: discarded.get(op) ?? 0 };
  });
  const groups: Array<{ group: string; bypass: Interval }> = [];
  if (input.operatorGroups) {
    const byGroup = new Map<string, Tally>();
    for (const [op, t] of kept) {
      const g = op === '(none)' ? '(none)' : input.operatorGroups[op] ?? '(other)';
      const into = byGroup.get(g) ?? { runs: 0, violations: 0, errors: 0 };
      add(into, t);
      byGroup.set(g, into);
    }
    for (const [g, t] of [...byGroup].sort(([a], [b]) => a.localeCompare(b))) groups.push({ group: g, bypass: interval(t.violations, t.runs) });
  }
  const runs = cells.reduce((n, c) => n + c.runs, 0);
  const discardedRuns = cells.reduce((n, c) => n + (c.breakdown.operator[DISCARDED_OPERATOR_MARKER]?.runs ?? 0), 0);
  return { operators, groups, runs, discardedRuns };
}

/** Minimal operator sets among counterexamples: sorted ids joined by ` + ` → count, most frequent first. */
export function minimalOperatorSets(counterexamples: AdaptiveSectionInput['counterexamples'], families: readonly string[] = ['adaptive']): Array<{ set: string; count: number; domains: string[] }> {
  const sets = new Map<string, { count: number; domains: Set<string> }>();
  for (const cx of counterexamples) {
    if (!families.includes(cx.family)) continue;
    const ops = cx.case.truth.operators.filter((o) => o !== DISCARDED_OPERATOR_MARKER && !o.startsWith(DISCARDED_OPERATOR_PREFIX));
    const key = ops.length === 0 ? '(none: the unmutated forgery)' : [...new Set(ops)].sort().join(' + ');
    const s = sets.get(key) ?? { count: 0, domains: new Set<string>() };
    s.count += 1;
    s.domains.add(cx.domain);
    sets.set(key, s);
  }
  return [...sets].map(([set, s]) => ({ set, count: s.count, domains: [...s.domains].sort() })).sort((a, b) => b.count - a.count || a.set.localeCompare(b.set));
}

/**
 * Markdown section for the adaptive family of a fuzz report: bypass rate per operator and per
 * group (Wilson 95%), discards, minimal operator sets; and, when given, the search summary.
 * Returns '' when no cell of the families ran.
 */
export function renderAdaptiveSection(input: AdaptiveSectionInput, search?: SearchSummary): string {
  const rates = adaptiveRates(input);
  if (rates.runs === 0 && search === undefined) return '';
  const out: string[] = ['## Adaptive attacker', ''];
  if (rates.runs > 0) {
    out.push(`${rates.runs} adaptive runs; ${rates.discardedRuns} were rewrites that lost the forged claim and fell back to the unmutated forgery.`);
    out.push('A run counts for every distinct operator it applied, so rows overlap. `(none)` is the unmutated forgery.');
    out.push('');
    out.push('| operator | group | runs | bypass rate [Wilson 95%] | lost-claim rewrites |');
    out.push('| --- | --- | ---: | --- | ---: |');
    for (const r of rates.operators) out.push(`| \`${r.operator}\` | ${r.group ?? ''} | ${r.bypass.n} | ${pct(r.bypass)} | ${r.discarded} |`);
    out.push('');
    if (rates.groups.length > 0) {
      out.push('| operator group | runs | bypass rate [Wilson 95%] |');
      out.push('| --- | ---: | --- |');
      for (const g of rates.groups) out.push(`| ${g.group} | ${g.bypass.n} | ${pct(g.bypass)} |`);
      out.push('');
    }
    const sets = minimalOperatorSets(input.counterexamples, input.families ?? ['adaptive']);
    out.push('Minimal operator sets (shrunk counterexamples):');
    out.push('');
    if (sets.length === 0) out.push('- none: no adaptive counterexample.');
    for (const s of sets) out.push(`- ${s.set}: ${s.count} (${s.domains.join(', ')})`);
    out.push('');
  }
  if (search) out.push(renderSearchSummary(search));
  return out.join('\n');
}

// ---- search summaries -------------------------------------------------------------------

/** One search run: one start case (template) against the guard. */
export interface SearchRow {
  domain: string;
  family: string;
  template: string;
  bypassed: boolean;
  /** Queries spent (queries-to-bypass when bypassed). */
  queries: number;
  /** Mutations of the bypassing case, in order. */
  path: string[];
  /** 1-minimal operator set of the bypass (after removal tests); equals `path` when not minimised. */
  minimal: string[];
  /** Extra queries the minimisation spent (not in `queries`). */
  minimiseQueries: number;
  /** Lowest F seen (0 on a bypass). */
  bestScore: number;
  /** Rewrites proposed and discarded for a lost claim. */
  proposed: number;
  discarded: number;
  restarts: number;
  errors: number;
  partialAdmits: number;
}

export interface SearchSummary {
  guard: string;
  mode: string;
  strategy: string;
  budget: number;
  seed: number;
  rows: SearchRow[];
  /** Bypass rate over start cases within the full budget. */
  bypass: Interval;
  /** Queries-to-bypass over bypassed rows: min, quartiles, max; absent when none bypassed. */
  queries?: { min: number; q1: number; median: number; q3: number; max: number; mean: number };
  /** Bucket label → rows bypassed with that many queries. */
  histogram: Array<{ bucket: string; count: number }>;
  /** Bypass rate as a function of the budget (Wilson 95%), from the same runs. */
  budgetCurve: Array<{ budget: number; bypass: Interval }>;
  minimalSets: Array<{ set: string; count: number }>;
  resisting: Array<{ domain: string; template: string; bestScore: number }>;
  discarded: number;
  proposed: number;
}

/** Linear-interpolation quantile (type 7) of sorted numbers; p in [0,1]. */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(sorted.length - 1, lo + 1)] as number;
  return a + (h - lo) * (b - a);
}

const BUCKETS: Array<[string, number, number]> = [
  ['1', 1, 1],
  ['2–5', 2, 5],
  ['6–10', 6, 10],
  ['11–25', 11, 25],
  ['26–50', 26, 50],
  ['51–100', 51, 100],
  ['101–200', 101, 200],
  ['201–500', 201, 500],
  ['> 500', 501, Infinity],
];

/** Default budgets of the budget curve (those up to the run's budget are used, plus the budget itself). */
export const BUDGET_POINTS = [10, 25, 50, 100, 200] as const;

/**
 * Summarises search rows. Because a search's query order does not depend on its budget
 * (src/fuzz/search.ts), a row bypasses within budget b exactly when it bypassed with
 * `queries <= b`, so one run gives the whole budget curve.
 */
export function summariseSearch(meta: { guard: string; mode: string; strategy: string; budget: number; seed: number }, rows: SearchRow[]): SearchSummary {
  const hits = rows.filter((r) => r.bypassed);
  const q = hits.map((r) => r.queries).sort((a, b) => a - b);
  const points = [...new Set([...BUDGET_POINTS.filter((b) => b < meta.budget), meta.budget])];
  const sets = new Map<string, number>();
  for (const r of hits) {
    const key = r.minimal.length === 0 ? '(none: the unmutated forgery)' : [...new Set(r.minimal)].sort().join(' + ');
    sets.set(key, (sets.get(key) ?? 0) + 1);
  }
  return {
    ...meta,
    rows,
    bypass: interval(hits.length, rows.length),
    ...(q.length > 0
      ? {
          queries: {
            min: q[0] as number,
            q1: quantile(q, 0.25),
            median: quantile(q, 0.5),
            q3: quantile(q, 0.75),
            max: q[q.length - 1] as number,
            mean: q.reduce((s, x) => s + x, 0) / q.length,
          },
        }
      : {}),
    histogram: BUCKETS.map(([bucket, lo, hi]) => ({ bucket, count: q.filter((x) => x >= lo && x <= hi).length })).filter((b) => b.count > 0),
    budgetCurve: points.map((b) => ({ budget: b, bypass: interval(hits.filter((r) => r.queries <= b).length, rows.length) })),
    minimalSets: [...sets].map(([set, count]) => ({ set, count })).sort((a, b) => b.count - a.count || a.set.localeCompare(b.set)),
    resisting: rows.filter((r) => !r.bypassed).map((r) => ({ domain: r.domain, template: r.template, bestScore: r.bestScore })),
    discarded: rows.reduce((n, r) => n + r.discarded, 0),
    proposed: rows.reduce((n, r) => n + r.proposed, 0),
  };
}

function num(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/** Markdown for a search summary (the body of `search.md`, or a subsection of a report). */
export function renderSearchSummary(s: SearchSummary): string {
  const out: string[] = [];
  out.push(`### Black-box search: ${s.mode} mode, ${s.strategy}, budget ${s.budget} queries`);
  out.push('');
  out.push(`Start cases: ${s.rows.length} (one per template). Bypassed within the budget: ${pct(s.bypass)}.`);
  if (s.queries) {
    const q = s.queries;
    out.push(`Queries to bypass (bypassed cases only): median ${num(q.median)}, quartiles ${num(q.q1)}–${num(q.q3)}, min ${q.min}, max ${q.max}, mean ${num(q.mean)}.`);
  } else out.push('Queries to bypass: no start case was bypassed.');
  out.push(`Rewrites proposed ${s.proposed}; discarded for a lost claim ${s.discarded} (never sent to the guard, never counted as queries).`);
  out.push('');
  if (s.histogram.length > 0) {
    out.push('| queries to bypass | start cases |');
    out.push('| --- | ---: |');
    for (const h of s.histogram) out.push(`| ${h.bucket} | ${h.count} |`);
    out.push('');
  }
  out.push('| budget (queries) | bypass rate [Wilson 95%] |');
  out.push('| ---: | --- |');
  for (const b of s.budgetCurve) out.push(`| ${b.budget} | ${pct(b.bypass)} |`);
  out.push('');
  out.push('Minimal operator sets of the bypasses (each tested by removing one operator at a time):');
  out.push('');
  if (s.minimalSets.length === 0) out.push('- none');
  for (const m of s.minimalSets) out.push(`- ${m.set}: ${m.count}`);
  out.push('');
  out.push(s.resisting.length === 0 ? 'Templates that resist: none.' : `Templates that resist (${s.resisting.length}):`);
  if (s.resisting.length > 0) {
    out.push('');
    for (const r of s.resisting) out.push(`- \`${r.template}\` (lowest F ${r.bestScore.toFixed(2)})`);
  }
  out.push('');
  out.push('| template | result | queries | path | minimal set | discarded / proposed |');
  out.push('| --- | --- | ---: | --- | --- | ---: |');
  for (const r of s.rows) {
    out.push(
      `| \`${r.template}\` | ${r.bypassed ? 'bypassed' : 'resists'} | ${r.queries} | ${r.bypassed ? r.path.join(' → ') || '(unmutated)' : ''} | ${r.bypassed ? r.minimal.join(' + ') || '(none)' : ''} | ${r.discarded} / ${r.proposed} |`,
    );
  }
  out.push('');
  return out.join('\n');
}
