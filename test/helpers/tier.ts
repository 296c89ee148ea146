/**
 * The test tier a file runs in, and the sample sizes that follow from it.
 *
 * vitest.config.ts defines two projects: `fast` (`npm test`, about a minute on two cores)
 * and `full` (`npm run test:all`, every file at its full sample). Each project sets
 * `FARMA_TEST_TIER` to its name. A heavy property file asks `runs(full, fast)` for its
 * `numRuns`: the fast tier draws a fixed smaller sample on the same seed, the full tier the
 * whole one. Outside both projects (another config, such as `vitest.mutation.config.ts`) the
 * tier is `full`, so nothing is silently thinned.
 */

/** `fast` in the fast project, `full` in the full project and anywhere else. */
type TestTier = 'fast' | 'full';

/** The tier of the running test file, read from `FARMA_TEST_TIER` (set per project in vitest.config.ts). */
const TIER: TestTier = process.env.FARMA_TEST_TIER === 'fast' ? 'fast' : 'full';

/** True in the fast tier (`npm test`). */
export const FAST = TIER === 'fast';

/**
 * A property's number of runs: `full` in the full tier, `fast` in the fast tier.
 * `fast` defaults to a fifth of `full`, at least 1. Throws on a count below 1.
 */
export function runs(full: number, fast: number = Math.max(1, Math.ceil(full / 5))): number {
  if (!(full >= 1) || !(fast >= 1)) throw new Error(`runs(${full}, ${fast}): both counts must be at least 1`);
  return FAST ? Math.min(fast, full) : full;
}

/**
 * A fixed, evenly spaced subset of `items` in the fast tier (`count` of them, always the
 * same ones, first and last included), all of `items` in the full tier.
 */
export function sampleOf<T>(items: readonly T[], count: number): readonly T[] {
  if (!FAST || items.length <= count) return items;
  if (count < 1) throw new Error(`sampleOf: count must be at least 1, got ${count}`);
  if (count === 1) return [items[0]!];
  const step = (items.length - 1) / (count - 1);
  return Array.from({ length: count }, (_, i) => items[Math.round(i * step)]!);
}
