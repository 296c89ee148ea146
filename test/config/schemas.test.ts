/**
 * One zod schema each for config files and regression-corpus records; errors name
 * the file, the key and (for the corpus) the line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, validateConfig } from '../../src/config/load-config-file.js';
import { regressionRecordSchema, loadRegressions, validateRegressionRecord } from '../../src/corpus/regressions.js';
import { sampleRecord } from '../corpus/regression-fixture.js';

const bad = (v: unknown): string => {
  try {
    validateConfig(v, 'f.ts', { families: ['seed', 'benign'] });
    return 'accepted';
  } catch (e) {
    return (e as Error).message;
  }
};

describe('the config schema', () => {
  it('accepts every documented key, including guardOptions, concurrency and recheck', () => {
    const c = { guard: 'sentinel', families: ['seed'], domains: 'all', runs: 5, seed: 1, time: 2, phase: 'write', maxFailures: 2, thresholds: { maxFpr: 0.1 }, junit: 'j.xml', html: false, corpus: false, out: 'o', guardOptions: { tauGuard: 0.4 }, concurrency: 8, recheck: 3, cellTime: 10 };
    expect(bad(c)).toBe('accepted');
    expect(configSchema().safeParse(c).success).toBe(true);
  });

  it.each([
    [{ concurrency: 0 }, /^f\.ts: "concurrency" must be a positive integer, got 0$/],
    [{ recheck: 1.5 }, /"recheck" must be a positive integer, got 1\.5/],
    [{ guardOptions: ['tau=1'] }, /"guardOptions" must be an object of guard options/],
    [{ runs: Number.NaN }, /"runs" must be a positive integer/],
    [{ corpus: true }, /"corpus" must be false or a folder path \(a non-empty string\), got true/],
    [{ guard: '  ' }, /"guard" must be a non-empty string/],
    [{ thresholds: [0.1] }, /"thresholds" must be an object \{ maxFpr\?, maxBypass\? \}/],
    [{ thresholds: { maxBypass: -0.1 } }, /"thresholds\.maxBypass" must be a rate in \[0,1\], got -0\.1/],
  ])('%j is refused, naming the key', (v, message) => {
    expect(bad(v)).toMatch(message);
  });
});

describe('the regression record schema', () => {
  const good = JSON.parse(JSON.stringify(sampleRecord('INT-EHR-5'))) as Record<string, unknown>;

  it('accepts a record written by this version and keeps fields a newer writer adds', () => {
    const r = validateRegressionRecord({ ...good, finding: 'flaky', recheck: { failed: 2, of: 3 } });
    expect(r.ok).toBe(true);
    if (r.ok) expect((r.value as unknown as Record<string, unknown>).finding).toBe('flaky');
    expect(regressionRecordSchema().safeParse(good).success).toBe(true);
  });

  it.each([
    [{ seed: '7' }, /field "seed" must be an integer, got "7"/],
    [{ status: 'closed' }, /field "status" must be open or fixed, got "closed"/],
    [{ observed: { decision: 'admit', reasons: [1] } }, /field "observed\.reasons\.0" must be a string, got 1/],
    [{ versions: { node: 20 } }, /field "versions\.node" must be a string, got 20/],
    [{ case: null }, /field "case" must be a FuzzCase object/],
    [{ original: { case: { entry: {}, truth: {} }, observed: { decision: 'maybe', reasons: [] }, operators: [] } }, /field "original\.observed\.decision" must be admit, reject or error/],
  ])('%j is refused, naming the field', (patch, message) => {
    const r = validateRegressionRecord({ ...good, ...patch });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });

  it('a bad line in a corpus file is named by file:line and the good ones are kept', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'farma-schema-')), 'g.jsonl');
    writeFileSync(file, `${JSON.stringify(good)}\n${JSON.stringify({ ...good, id: 'other', seed: null })}\n`);
    const r = loadRegressions(file);
    expect(r.records).toHaveLength(1);
    expect(r.issues).toEqual([{ file, line: 2, message: expect.stringMatching(/field "seed" must be an integer, got null/) }]);
  });
});
