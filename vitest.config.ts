import { defineConfig } from 'vitest/config';

// Under CI (CI=true, as .ci/run sets it) vitest also writes its JSON report, from which
// .ci/run prints the plain "N passed, N failed" line.
const ci = process.env.CI === 'true' || process.env.CI === '1';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ci ? ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]] : ['default'],
  },
});
