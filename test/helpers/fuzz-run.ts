/**
 * An in-process `fuzz` run for the run tests (verdict cache, attack mode, concurrency): `runFuzz`
 * with the settings they share, writing into a folder of its own, and its report.json read back
 * without what differs between two runs of one seed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runFuzz, type FuzzOptions, type FuzzResult } from '../../src/campaign/fuzz.js';
import { silentProgress } from '../../src/campaign/progress.js';

/** The fixed `generatedAt` of every test run, so two runs' reports can be compared whole. */
const GENERATED_AT = '2026-01-01T00:00:00.000Z';

/**
 * What a test must give: the guard (and its spec), the store, domains, families, runs and seed.
 * Everything else of `FuzzOptions` may be given to override the shared settings.
 */
type RunSettings = Pick<FuzzOptions, 'guardSpec' | 'guard' | 'store' | 'domains' | 'families' | 'runs' | 'seed'> & Partial<FuzzOptions>;

/**
 * Runs `runFuzz` silently in the write phase, without the real sets, with at most 2 failures per
 * cell, a fixed `generatedAt`, the report in `<dir>/report` and the corpus in `<dir>/corpus`
 * (each overridable through `o`).
 */
export function fuzzIn(dir: string, o: RunSettings): Promise<FuzzResult> {
  return runFuzz(
    {
      phase: 'write',
      maxFailures: 2,
      outDir: path.join(dir, 'report'),
      corpusDir: path.join(dir, 'corpus'),
      realData: false,
      generatedAt: GENERATED_AT,
      ...o,
    },
    silentProgress,
  );
}

/**
 * `<dir>/report/report.json` without `timing` (wall times, query counts), with the run folder
 * (absolute and relative to the working folder, as replay commands and the corpus path name it)
 * written `<dir>`: the part of a report that a seed fixes.
 */
export function reportJson(dir: string): Record<string, unknown> {
  const text = readFileSync(path.join(dir, 'report', 'report.json'), 'utf8');
  const json = JSON.parse(text.replaceAll(dir, '<dir>').replaceAll(path.relative(process.cwd(), dir), '<dir>')) as Record<string, unknown>;
  delete json.timing;
  return json;
}
