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
  // always use 1. Results are identical for every value.
  concurrency: 8,
  // Re-checks of each finding; one that does not reproduce every time is labelled flaky.
  recheck: 3,
  // Wall-clock bound per cell, seconds; a cell that reaches it reports "interrupted".
  cellTime: 600,
  // Also available: seed (fixed fast-check seed), time (seconds budget), junit ('junit.xml'),
  // out (report directory, default reports/<date>-<time>-<guard>-<seed>).
});
