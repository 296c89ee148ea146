/**
 * The query accounting of a report as text: one line per phase for the console and
 * report.md, a table per cell for report.md, and flat name/value pairs for JUnit properties.
 */
import { QUERY_PHASES } from '../fuzz/query-meter.js';
import type { QueryReport } from './model.js';

const PHASE_LABEL: Record<(typeof QUERY_PHASES)[number], string> = {
  cases: 'cases',
  shrink: 'shrinking',
  recheck: 're-checks',
  attack: 'attack mode',
  real: 'real sets',
  loso: 'leave-one-source-out',
};

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** Share of requests the cache answered, in [0,1] (0 when nothing was asked). */
function cacheHitRate(q: QueryReport): number {
  const asked = q.total.queries + q.total.cacheHits;
  return asked > 0 ? q.total.cacheHits / asked : 0;
}

/**
 * Console and markdown lines: the total, each phase that asked anything (queries, cache hits,
 * wall time), a note when the cells' phase times add up to more than the cells took (they ran
 * side by side), the budget and the cost when given.
 * @example
 * queryLines(report.timing.queries); // ['guard queries: 4,210 (cache on: 312 more requests served, 6.9%)', '  cases 3,000 · 41.2 s', ...]
 */
export function queryLines(q: QueryReport): string[] {
  const n = (x: number): string => x.toLocaleString('en-US');
  const head = `guard queries: ${n(q.total.queries)}${q.maxQueries !== undefined ? ` of a budget of ${n(q.maxQueries)}` : ''} (cache ${q.cache ? `on: ${n(q.total.cacheHits)} more requests served from it, ${(cacheHitRate(q) * 100).toFixed(1)}%` : 'off'})`;
  const lines = [head];
  for (const p of QUERY_PHASES) {
    const t = q.byPhase[p];
    if (t.queries === 0 && t.cacheHits === 0 && q.phaseMs[p] === 0) continue;
    lines.push(`  ${PHASE_LABEL[p].padEnd(21)} ${n(t.queries).padStart(9)} queries${t.cacheHits > 0 ? ` (+${n(t.cacheHits)} cached)` : ''} · ${seconds(q.phaseMs[p])}`);
  }
  const cellPhasesMs = q.phaseMs.cases + q.phaseMs.shrink + q.phaseMs.recheck;
  // Cells that overlap (calls in flight, worker threads) each count their own time.
  if (q.cellsMs !== undefined && cellPhasesMs > q.cellsMs * 1.05 + 50) lines.push(`  (cases, shrinking and re-checks add up each cell's own time: the cells ran side by side, ${seconds(cellPhasesMs)} of cell time in ${seconds(q.cellsMs)})`);
  if (q.costPerQuery !== undefined && q.cost !== undefined) lines.push(`  cost: ${n(q.total.queries)} queries × ${q.costPerQuery} = ${q.cost}`);
  return lines;
}

/**
 * report.md: rows of the settings table (`guard queries`, `queries by phase`, `query cost`),
 * beside the throughput row, since like it they vary with the cache and calls in flight.
 * Queries per cell are in report.json (`timing.queries.perCell`) and on the console.
 */
export function queryMarkdownRows(q: QueryReport): string[] {
  const [head = '', ...phases] = queryLines(q);
  const rows = [`| guard queries | ${head.replace(/^guard queries: /, '')} |`, `| queries by phase | ${phases.filter((l) => !l.trimStart().startsWith('cost:')).map((l) => l.trim().replace(/\s+/g, ' ')).join('; ')} |`];
  if (q.cost !== undefined && q.costPerQuery !== undefined) rows.push(`| query cost | ${q.total.queries.toLocaleString('en-US')} queries × ${q.costPerQuery} = ${q.cost} |`);
  return rows;
}

/** JUnit `<property>` pairs: `queries.total`, `queries.<phase>`, `queries.cacheHits`, `queries.cost`. */
export function queryProperties(q: QueryReport): Array<[string, string]> {
  return [
    ['queries.total', String(q.total.queries)],
    ...QUERY_PHASES.map((p): [string, string] => [`queries.${p}`, String(q.byPhase[p].queries)]),
    ['queries.cacheHits', String(q.total.cacheHits)],
    ...(q.maxQueries !== undefined ? [['queries.max', String(q.maxQueries)] as [string, string]] : []),
    ...(q.cost !== undefined ? [['queries.cost', String(q.cost)] as [string, string]] : []),
  ];
}
