/**
 * Findings made with `--guard-option` (a non-default guard configuration) go into their own
 * corpus file, `<guard>.opts-<hash>.jsonl`, and carry their options: a plain replay never
 * reports them as changed, and a replay with the options reproduces every one.
 */
import path from 'node:path';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { corpusFileGuard, guardOptionsHash, loadRegressions, regressionFile } from '../../src/corpus/regressions.js';
import { canonicalGuardOptions } from '../../src/guards/guard-options.js';
import { runCli } from '../helpers/run-cli.js';

describe('corpus files per guard configuration', () => {
  it('names a configuration by the hash of its normalised options; the defaults keep <guard>.jsonl', () => {
    expect(regressionFile('/c', 'sentinel')).toBe(path.join('/c', 'sentinel.jsonl'));
    expect(regressionFile('/c', 'sentinel', {})).toBe(path.join('/c', 'sentinel.jsonl'));
    const a = regressionFile('/c', 'sentinel', canonicalGuardOptions('sentinel', { tauGuard: 0.9 }));
    const b = regressionFile('/c', 'sentinel', canonicalGuardOptions('sentinel', { config: { tauGuard: 0.9 } }));
    expect(a).toBe(b);
    expect(path.basename(a)).toMatch(/^sentinel\.opts-[0-9a-f]{8}\.jsonl$/);
    expect(regressionFile('/c', 'sentinel', { config: { tauGuard: 0.25 } })).not.toBe(a);
    expect(corpusFileGuard(path.basename(a))).toEqual({ guard: 'sentinel', optionsHash: guardOptionsHash({ config: { tauGuard: 0.9 } }) });
    expect(corpusFileGuard('sentinel.jsonl')).toEqual({ guard: 'sentinel' });
  });

  it('a fuzz run with --guard-option writes its own file; plain replay leaves it alone, replay with the options reproduces it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-optcorpus-'));
    const corpus = path.join(dir, 'corpus');
    const args = ['fuzz', '--guard', 'sentinel', '--guard-option', 'tauGuard=0.9', '--domain', 'ehr', '--family', 'seed,amplification', '--runs', '200', '--seed', '1', '--corpus', corpus, '--no-real', '--no-html', '--out', path.join(dir, 'out'), '-q'];
    const fuzz = await runCli(args);
    expect(fuzz.code).toBe(1);
    const files = readdirSync(corpus);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^sentinel\.opts-[0-9a-f]{8}\.jsonl$/);
    expect(existsSync(path.join(corpus, 'sentinel.jsonl'))).toBe(false);
    const { records } = loadRegressions(path.join(corpus, files[0]!));
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) expect(r.value.guardOptions).toEqual({ config: { tauGuard: 0.9 } });

    const plain = await runCli(['replay', '--guard', 'sentinel', '--corpus', corpus, '--recheck', '1']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`0 records from ${path.join(corpus, 'sentinel.jsonl')}`);
    expect(plain.stdout).not.toMatch(/now-passing/);
    expect(plain.stdout).toContain(`note: ${path.join(corpus, files[0]!)}: records of guard sentinel made with guard options`);
    expect(plain.stdout).toContain('--guard-option "config.tauGuard=0.9"');

    const withOptions = await runCli(['replay', '--guard', 'sentinel', '--guard-option', 'tauGuard=0.9', '--corpus', corpus, '--recheck', '1']);
    expect(withOptions.code).toBe(0);
    expect(withOptions.stdout).toContain(`${records.length} records from ${path.join(corpus, files[0]!)}: ${records.length} open, 0 now passing`);
  });

  it('old records without guardOptions still load', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-optcorpus-old-'));
    const file = path.join(dir, 'sentinel.jsonl');
    const { records } = loadRegressions(path.resolve(import.meta.dirname, '..', '..', 'corpora', 'regressions', 'sentinel.jsonl'));
    const old = { ...records[0]!.value };
    delete old.guardOptions;
    writeFileSync(file, `${JSON.stringify(old)}\n`);
    const back = loadRegressions(file);
    expect(back.issues).toEqual([]);
    expect(back.records[0]?.value.guardOptions).toBeUndefined();
  });
});
