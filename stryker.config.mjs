// Mutation testing of the built-in guards (issue 15): `npm run mutation`.
// Stryker mutates the guard sources and runs the guard tests against each mutant through the
// vitest runner. There is no type checker plugin: TypeScript 7 has no compiler API for it, so
// mutants that would not compile are simply killed or reported as runtime errors.
// Widen the scope with: npm run mutation -- --mutate "src/guards/**/*.ts"
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'src/guards/sentinel/**/*.ts',
    'src/guards/text/**/*.ts',
    'src/guards/baselines/**/*.ts',
    '!src/guards/**/index.ts',
  ],
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.tmp/stryker',
  // Nothing to rewrite: the sandbox needs no tsconfig (vitest transpiles), and TypeScript 7 has no API to parse one.
  tsconfigFile: 'no-tsconfig-for-stryker.json',
  concurrency: 2,
  timeoutMS: 5000,
  thresholds: { high: 90, low: 80, break: null },
};
