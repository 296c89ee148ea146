/**
 * Global setup of the full tier (vitest.config.ts): fills the calibration cache
 * (`src/campaign/calibration-cache.ts`, the folder `calibrationCacheDir()` gives for this
 * checkout) with the leave-one-source-out calibrations of the bundled real sets, one per set left
 * out, before any test file runs.
 *
 * Every `fuzz` run with the real sets and the `benign` family (and `fpr` without `--no-loso`)
 * needs these same calibrations, about a second each; on a fresh clone the first test file to
 * ask paid for all of them inside one test (real-set-errors took 149 s of its 60 s at load 14,
 * 38 s with the cache warm). Computed here once, each test reads them from the cache, as a second
 * run of the CLI does. The calibration-cache tests use a folder of their own and still see a cold
 * cache. With `FARMA_FUZZ_CACHE=off` nothing is computed here.
 */
import { calibrationFor } from '../../src/campaign/calibration.js';
import { calibrationCacheDir } from '../../src/campaign/calibration-cache.js';
import { loadRealBenignSets } from '../../src/corpus/benign-sets.js';

/** vitest `globalSetup`: runs once in the main process before the tier's files. */
export default function setup(): void {
  if (calibrationCacheDir() === undefined) return;
  const sources = loadRealBenignSets().sets.filter((s) => s.entries.length > 0);
  // The same sets, in the same order, as leaveOneSourceOut (src/campaign/fpr.ts) passes: the same cache keys.
  for (const left of sources) calibrationFor(sources.filter((s) => s !== left));
}
