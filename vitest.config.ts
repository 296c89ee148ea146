import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';

// Two test tiers, as vitest projects (README "Tests"):
//   fast  `npm test`          well under a minute on two cores; heavy property files draw a
//                             fixed smaller sample (test/helpers/tier.ts), the slowest files
//                             wait for the full tier, and files share their worker's imports
//                             (isolate: false, below).
//   full  `npm run test:all`  every file with its full sample; .ci/run runs both.
// Each project sets FARMA_TEST_TIER to its name, which test/helpers/tier.ts reads.
// Without a --project flag (`npx vitest run test/x.test.ts`) only `fast` is defined, so one
// file runs once, not once per tier; `--project full` runs it at the full sample.
//
// Under CI (CI=true, as .ci/run sets it) vitest also writes its JSON report to
// FARMA_TEST_REPORT (default .tmp/vitest-report.json), from which .ci/run prints the plain
// "N passed, N failed" line.
const ci = process.env.CI === 'true' || process.env.CI === '1';
// The CLI colours its output when FORCE_COLOR asks (src/cli/colour.ts); the tests match plain text,
// so a FORCE_COLOR in the shell that runs them must not reach the test processes.
delete process.env.FORCE_COLOR;
const report = process.env.FARMA_TEST_REPORT ?? '.tmp/vitest-report.json';

/**
 * Files that run in the full tier only. Chosen from per-file durations of the whole suite
 * (vitest's JSON reporter, one worker, 2026-12-01 on a heavily loaded 2-core machine; seconds
 * per file as measured there, about 4.5× a quiet run): every file of 12 s or more, except
 * the three paraphrase property files, which run a fixed smaller sample in the fast tier
 * instead (test/helpers/tier.ts). Most are end-to-end runs of the CLI or the campaign
 * (worker threads, real sets, calibrations, subprocess guards); the fast tier keeps the unit
 * tests of the same code.
 */
export const FULL_TIER_ONLY: readonly string[] = [
  'test/robustness/determinism.test.ts', // 169 s: campaigns in-process, on 1 and 2 worker threads
  'test/robustness/secrets.test.ts', // 134 s: fuzz, check, replay and fpr through the CLI (in-process since 2026-12-02 but one run: 54 s at load 15)
  'test/robustness/real-set-errors.test.ts', // 107 s: fuzz with the real sets
  'test/robustness/parallel-campaign.test.ts', // 77 s: worker threads
  'test/fuzz/golden-run.test.ts', // 74 s: two default-size runs (snapshot)
  'test/campaign/calibration-cache.test.ts', // 70 s: cold and warm calibrations
  'test/cli/dead-guard.test.ts', // 67 s
  'test/robustness/worker-run-options.test.ts', // 65 s: worker threads
  'test/campaign/loso-abort.test.ts', // 64 s: leave-one-source-out calibrations
  'test/campaign/loso-lanes.test.ts', // 17 s quiet (2026-12-02): calibrations and a worker thread
  'test/calibration/weights-file.test.ts', // 59 s: recomputes the calibration
  'test/guards/adapters-exec-pool.test.ts', // 53 s: Python guard processes
  'test/guards/module-systems.test.ts', // 49 s: temporary projects
  'test/fuzz/concurrency.test.ts', // 47 s
  'test/robustness/concurrent-runs.test.ts', // 44 s: two CLI runs at once
  'test/campaign/fpr.test.ts', // 29 s
  'test/cli/interrupt.test.ts', // 28 s
  'test/generators/claim-negation.test.ts', // 27 s: every operator over every sample
  'test/adaptive/report.test.ts', // 27 s
  'test/guards/trusted-verdicts.test.ts', // 25 s: every guard × family × domain
  'test/fuzz/coverage-target.test.ts', // 24 s
  'test/fuzz/weak-guards.test.ts', // 24 s
  'test/cli/attack-operators.test.ts', // 21 s
  'test/robustness/store-access.test.ts', // 20 s
  'test/package/install.test.ts', // 19 s: npm pack and install
  'test/robustness/huge-entry.test.ts', // 18 s: 1 MB entries
  'test/knip.test.ts', // 17 s
  'test/cli/main.test.ts', // 16 s
  'test/robustness/corpus-damage.test.ts', // 15 s
  'test/cli/shard-merge.test.ts', // 14 s
  'test/adapters/third-party-commands.test.ts', // 14 s
  'test/cli/plural.test.ts', // 13 s
  'test/cli/start-imports.test.ts', // 13 s
  'test/robustness/guard-failures.test.ts', // 13 s
  'test/robustness/sync-hang.test.ts', // spawns the CLI twice
  'test/generators/benign-diversity.test.ts', // 12 s: 10,000-case samples
  'test/robustness/signals.test.ts', // 51 s alone (added after the measurement): SIGTERM/SIGHUP through the CLI
  'test/robustness/secret-channels.test.ts', // 40 s in the fast tier of a fresh clone under load (added after the measurement): CLI runs (in-process since 2026-12-02: 15 s at load 15)
  'test/fuzz/flaky-and-crash.test.ts', // 42 s in the fast tier of a fresh clone under load
  'test/generators/benign-trajectory.test.ts', // 35 s in the fast tier of a fresh clone under load: 150-case samples per assertion
  // Measured in the fast tier of a fresh clone (2026-12-02 00:09, load 17-24), added after the suite was measured:
  'test/robustness/early-exit.test.ts', // 41 s: guard code that ends the process, through the CLI
  'test/llm/lying-endpoint.test.ts', // 20 s: a lying OpenAI-compatible server, eval and search runs
  'test/fuzz/verdict-cache.test.ts', // 19 s: campaigns with and without the cache
  'test/browser/html-report.test.ts', // 15 s: headless Chromium
  'test/fuzz/prototype-names.test.ts', // 13 s
  // Compiles src/ into a temporary folder (tsc) and checks package.json against what it loads; `npm run dist-imports` does the same by hand.
  'test/package/dist-imports.test.ts',
  // Three small fuzz campaigns (about 10 s); the fast tier covers the baseline section's
  // rendering in test/report/html.test.ts and compare's refusal in test/cli/compare.test.ts.
  'test/cli/fuzz-baseline.test.ts',
  // Runs the sharded GitHub Actions example twice (4 shards + merge each); its static checks of the workflow file run there too.
  'test/examples/github-actions.test.ts',
];

const argv = process.argv.slice(2);
const projectFlag = argv.some((a) => a === '--project' || a.startsWith('--project='));

const tier = (name: 'fast' | 'full'): TestProjectInlineConfiguration => ({
  extends: true,
  test: {
    name,
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(name === 'fast' ? FULL_TIER_ONLY : [])],
    env: { FARMA_TEST_TIER: name },
    // vitest's default worker count is availableParallelism() - 1: on two cores one worker, which
    // ran the fast tier's files one after another (122 s wall at load 2). Its files are small, so
    // two run at once; the full tier, whose files start worker threads and processes of their
    // own, keeps the default.
    ...(name === 'fast' ? { maxWorkers: Math.max(2, availableParallelism() - 1) } : {}),
    // The fast tier runs its files without isolation: each of its two worker processes imports
    // node_modules and src once and runs file after file, instead of a fresh process per file.
    // Isolated, the imports were most of its CPU (vitest's "import" phase 148 s of 220 s
    // summed, user+sys 162 s): @fast-check/vitest alone takes about 3.7 s to load (it wraps
    // every chain of vitest's test modifiers), in 14 files, then faker, to-words, zod and
    // handlebars in most files. The fast tier's files restore what they change (spies, timers,
    // environment variables; vitest also restores stubbed environment variables and globals
    // after each test here), and they pass in shuffled order (`--sequence.shuffle.files`).
    // The full tier keeps vitest's default isolation, so a file that leans on state another
    // file left behind still fails there.
    ...(name === 'fast' ? { isolate: false, unstubEnvs: true, unstubGlobals: true } : {}),
    // The full tier first fills the calibration cache with the leave-one-source-out calibrations
    // that many of its files share (test/helpers/warm-calibrations.ts), so no one test pays for all.
    ...(name === 'full' ? { globalSetup: ['test/helpers/warm-calibrations.ts'] } : {}),
  },
});

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: projectFlag ? [tier('fast'), tier('full')] : [tier('fast')],
    reporters: ci ? ['default', ['json', { outputFile: report }]] : ['default'],
  },
});
