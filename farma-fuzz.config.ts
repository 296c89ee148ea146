// Example farma-fuzz config: every value here is the default, so this file changes nothing
// until you edit it. Command-line flags override these fields. Relative paths are resolved
// against this file's folder. Run `npm run fuzz` (or `npm run cli -- fuzz`) to use it.
import { defineConfig } from './src/config/define-config.js';

export default defineConfig({
  // Built-in id (sentinel, none, keyword, amemguard), a module path, an http(s) URL or exec:CMD.
  guard: 'sentinel',
  families: 'all',
  domains: 'all',
  // Cases per domain × family (shrinking not counted).
  runs: 1000,
  phase: 'write',
  maxFailures: 5,
  // CI gate: e.g. { maxFpr: 0.05, maxBypass: 0.01 }. Judged on the upper bound of each Wilson
  // 95% interval, so a small run cannot pass by luck. Empty: no gate.
  thresholds: {},
  // Write report.html beside report.md.
  html: true,
  corpus: 'corpora/regressions',
  // Guard calls in flight for async guards (module async, HTTP, exec, LLM judge); sync guards
  // always use 1. Results are identical for every value without maxQueries.
  concurrency: 8,
  // Re-checks of each finding; one that does not reproduce every time is labelled flaky.
  recheck: 3,
  // Wall-clock bound per cell, seconds; a cell that reaches it reports "interrupted".
  cellTime: 600,
  // Sequential stopping: a failing cell stops once the Wilson 95% half-width of its rate is at
  // most precision; a holding cell once the upper bound is below target (a gate's limit
  // replaces it for its cells). exhaustive: true runs every cell to runs (and every attack base).
  precision: 0.05,
  target: 0.005,
  exhaustive: false,
  // Verdict cache: a request already answered in this run is not asked again (false for a stateful guard).
  cache: true,
  // Lanes: 'auto' starts worker threads when the guard's measured time per case makes sharing
  // pay (a slow sync guard), 1 keeps one thread. Results are identical for every value.
  workers: 'auto',
  // Adaptive attack mode: queries per rejected base, and what the attacker sees ('auto',
  // 'score', 'decision'); also bases (default min(runs, 200)) and operators (default all).
  attack: { budget: 30, feedback: 'auto' },
  // Also available: seed (fixed fast-check seed), time (seconds budget), junit ('junit.xml'),
  // out (report directory, default reports/<date>-<time>-<guard>-<seed>), maxQueries (guard
  // queries for the whole campaign), shrinkBudget (queries per shrink), costPerQuery (price of
  // one query: a cost line in the report).
});
