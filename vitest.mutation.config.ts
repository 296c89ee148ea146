import { defineConfig } from 'vitest/config';

// The tests that pin the built-in guards' behaviour, run against each mutant by `npm run mutation`.
export default defineConfig({
  test: {
    include: ['test/guards/sentinel*.test.ts', 'test/guards/baselines*.test.ts', 'test/guards/keyword*.test.ts', 'test/guards/text-match*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
