/** Counted nouns read right: "1 record", "2 records", never "1 records" or "record(s)". */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plural } from '../../src/domain/plural.js';
import { appendRegressions, regressionFile } from '../../src/corpus/regressions.js';
import { sampleRecord } from '../corpus/regression-fixture.js';
import { runCli } from '../helpers/run-cli.js';

describe('plural', () => {
  it('singular for exactly one, plural otherwise, irregular plurals given', () => {
    expect(plural(1, 'record')).toBe('1 record');
    expect(plural(0, 'record')).toBe('0 records');
    expect(plural(2, 'record')).toBe('2 records');
    expect(plural(1, 'family', 'families')).toBe('1 family');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(plural(1.5, 'run')).toBe('1.5 runs');
  });
});

describe('the console', () => {
  it('replay of a one-record corpus says "1 record from", with its single error or not', async () => {
    const corpus = path.join(mkdtempSync(path.join(tmpdir(), 'farma-plural-')), 'corpus');
    await appendRegressions(regressionFile(corpus, 'sentinel'), [sampleRecord('INT-EHR-1')]);
    const r = await runCli(['replay', '--guard', 'sentinel', '--corpus', corpus]);
    expect(r.stdout).toMatch(/\n1 record from /);
    expect(r.stdout).not.toMatch(/\b1 records\b|\(s\)/);
    expect(r.stdout).toMatch(/, 0 errors \(/);
  }, 30_000);

  it('fuzz announces "1 domain × 1 family, 1 run per cell" and its one cell', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'farma-plural-fuzz-'));
    const r = await runCli(['fuzz', '--guard', 'keyword', '--domain', 'ehr', '--family', 'naive', '--runs', '1', '--no-real', '--no-corpus', '--no-html', '--out', out, '--seed', '3']);
    expect(r.stderr).toContain('1 domain × 1 family, 1 run per cell');
    expect(r.stderr).not.toMatch(/\(s\)|\b1 (runs|cells|errors|minimal counterexamples|cases)\b/);
    expect(r.stdout).toMatch(/· 1 case in /);
  }, 60_000);
});
