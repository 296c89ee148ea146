/**
 * The budgets of DESIGN.md "Budgets" (plus the 1 MB bound and the workers
 * speed-up), each mapped to the bench rows that measure it. The bench prints one line per
 * budget: met when every matching row met its bound, missed when any missed, and
 * `not measured` when no section produced a matching row (e.g. it was skipped).
 */
import type { BenchRow } from './lib.js';

export interface Budget {
  id: string;
  /** The budget in words, as DESIGN.md states it. */
  text: string;
  /** Rows (with a `budget`) whose id matches belong to this budget. */
  rows: RegExp;
}

export const BUDGETS: readonly Budget[] = [
  { id: 'sentinel-check', text: 'SENTINEL check: median <= 10 µs per ~300-char entry, 1,000 entries in store', rows: /^check\.sentinel\.retrieve\.1000$/ },
  { id: 'sentinel-store-size', text: 'SENTINEL check at 100,000 entries <= 1.5× its cost at 1,000', rows: /^ratio\.sentinel\./ },
  { id: 'store-size', text: "Store size: every built-in guard's check at 100,000 entries <= 2× its cost at 1,000", rows: /^ratio\.(?!sentinel\.)/ },
  { id: 'amemguard-store-size', text: 'A-MemGuard check at 100,000 entries <= 2× its cost at 1,000', rows: /^ratio\.amemguard\./ },
  { id: 'throughput', text: 'Fuzz throughput >= 20,000 cases/s on one core, every family without an LLM', rows: /^throughput\.[a-z-]+$/ },
  { id: 'throughput-chains', text: 'Amplification and adaptive throughput >= 20,000 cases/s against SENTINEL', rows: /^throughput\.(amplification|adaptive)$/ },
  { id: 'shrinking', text: 'A found bypass shrinks in <= 2 s (median)', rows: /^shrink\./ },
  { id: 'replay', text: 'Corpus replay >= 50,000 entries/s', rows: /^replay\.sentinel$/ },
  { id: 'latency-bound', text: 'Latency-bound guards (HTTP, exec, LLM judge): >= 4× serial at N = 8, results identical', rows: /^latency\./ },
  { id: 'cli-start', text: '`list guards` within 3× a bare `node` start', rows: /^cli\./ },
  { id: 'workers', text: '`--workers 2` beats `--workers 1` on a 2-core machine, or refuses with a reason', rows: /^parallel\.speedup$/ },
  { id: 'fuzzer-overhead', text: "The fuzzer's own time per guard call <= the guard's time per call, for SENTINEL", rows: /^overhead\.sentinel$/ },
  { id: 'huge-entry', text: 'A 1 MB entry is checked within 2 s by every built-in guard, both paths', rows: /^huge-entry\./ },
  { id: 'jsonl-long-line', text: 'One 50 MB JSONL line is read within 3× the time of the same bytes as short lines (linear reading)', rows: /^jsonl\.long-line$/ },
];

export type BudgetStatus = 'met' | 'missed' | 'not measured';

/** Each budget with its status and the ids of its missed rows. */
export function budgetStatus(rows: readonly BenchRow[]): Array<{ budget: Budget; status: BudgetStatus; measured: string[]; missed: string[] }> {
  return BUDGETS.map((budget) => {
    const mine = rows.filter((r) => r.budget !== undefined && budget.rows.test(r.id));
    const missed = mine.filter((r) => r.status === 'missed').map((r) => r.id);
    const status: BudgetStatus = mine.length === 0 ? 'not measured' : missed.length > 0 ? 'missed' : 'met';
    return { budget, status, measured: mine.map((r) => r.id), missed };
  });
}
