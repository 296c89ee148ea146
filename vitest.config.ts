import { configDefaults, defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';

// Two test tiers, as vitest projects (README "Tests"):
//   fast  `npm test`          about a minute on two cores; heavy property files draw a fixed
//                             smaller sample (test/helpers/tier.ts), the slowest files wait
//                             for the full tier.
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
 * Files that run in the full tier only: each takes tens of seconds to minutes on a quiet
 * two-core machine (per-file durations measured with vitest's JSON reporter, docs/results/).
 * What they cover in the fast tier, if anything, is said next to each.
 */
export const FULL_TIER_ONLY: readonly string[] = [
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
