/**
 * The spending settings in the config file: `precision`, `target`, `exhaustive`,
 * `maxQueries`, `shrinkBudget`, `costPerQuery`, `cache`, `workers` and `attack` are checked by
 * the schema (naming the field), reach the run, and a flag the user typed overrides its field
 * (`attack` per key).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeConfig, validateConfig } from '../../src/config/index.js';
import { runCli } from '../helpers/run-cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function bad(v: unknown): string {
  try {
    validateConfig(v, 'f.ts');
    return 'no error';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('the spending fields of the config schema', () => {
  it('accepts good values', () => {
    expect(bad({ precision: 0.5, target: 1, exhaustive: true, maxQueries: 100, shrinkBudget: 5, costPerQuery: 0, cache: false, workers: 'auto', attack: { bases: 3, budget: 2, feedback: 'decision', operators: ['typo'] } })).toBe('no error');
    expect(bad({ workers: 64, attack: { operators: 'typo,homoglyph' } })).toBe('no error');
  });

  it('refuses bad ones, naming the field', () => {
    expect(bad({ precision: 0 })).toBe('f.ts: "precision" must be a half-width in (0, 0.5], got 0');
    expect(bad({ precision: 0.6 })).toMatch(/"precision" must be a half-width in \(0, 0\.5\]/);
    expect(bad({ target: 0 })).toBe('f.ts: "target" must be a rate in (0,1], got 0');
    expect(bad({ exhaustive: 'yes' })).toBe('f.ts: "exhaustive" must be true or false, got "yes"');
    expect(bad({ maxQueries: 1.5 })).toMatch(/"maxQueries" must be a positive integer, got 1\.5/);
    expect(bad({ shrinkBudget: 0 })).toMatch(/"shrinkBudget" must be a positive integer/);
    expect(bad({ costPerQuery: -1 })).toMatch(/"costPerQuery" must be a number >= 0, got -1/);
    // JSON.stringify would print these as null: the message names the value the file holds.
    expect(bad({ costPerQuery: Infinity })).toBe('f.ts: "costPerQuery" must be a number >= 0, got Infinity');
    expect(bad({ precision: Number.NaN })).toBe('f.ts: "precision" must be a half-width in (0, 0.5], got NaN');
    expect(bad({ cache: 'off' })).toMatch(/"cache" must be true or false/);
    expect(bad({ workers: 0 })).toBe('f.ts: "workers" must be "auto" or a positive integer up to 64, got 0');
    expect(bad({ workers: 'many' })).toMatch(/"workers" must be "auto" or a positive integer up to 64, got "many"/);
    expect(bad({ attack: { feedback: 'loud' } })).toMatch(/"attack\.feedback" must be "auto", "score" or "decision", got "loud"/);
    expect(bad({ attack: { base: 3 } })).toBe('f.ts: unknown field "attack.base" (known: bases, budget, feedback, operators)');
    expect(bad({ attack: { budget: -2 } })).toMatch(/"attack\.budget" must be a positive integer/);
  });

  it('mergeConfig: a flag overrides its own attack key, the file keeps the others', () => {
    expect(mergeConfig({ attack: { bases: 30, budget: 2 }, precision: 0.5 }, { attack: { bases: 20 }, precision: 0.05 })).toEqual({ attack: { bases: 20, budget: 2 }, precision: 0.05 });
  });
});

describe('the config file drives the run, and flags override it', () => {
  function project(config: string): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'ff-spend-config-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'farma-fuzz.config.mjs'), `export default ${config};\n`);
    return dir;
  }
  async function fuzz(dir: string, ...flags: string[]): Promise<{ code: number; report: { cells: Array<{ family: string; runs: number; stopped?: string }>; attack: { budget: number; sampling?: Array<{ bases: number; cap: number; stopped: string }> }; timing: { queries?: { cache: boolean } } }; stderr: string }> {
    const out = path.join(dir, 'report');
    const r = await runCli(['fuzz', '--config', path.join(dir, 'farma-fuzz.config.mjs'), '--guard', 'none', '--domain', 'ehr', '--family', 'naive,adaptive', '--runs', '20', '--seed', '3', '--no-corpus', '--no-real', '--no-html', '--out', out, ...flags]);
    return { code: r.code, report: JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')), stderr: r.stderr };
  }

  it('precision, attack.bases and attack.budget from the file; --precision and --attack-bases override theirs only', async () => {
    const dir = project(`{ precision: 0.5, attack: { bases: 30, budget: 2 }, workers: 1, cache: false }`);
    const fromFile = await fuzz(dir);
    // Every case breaks `none`: at a ±50-point precision the naive cell is settled after its first case, attack mode after its first ten bases.
    expect(fromFile.report.cells.find((c) => c.family === 'naive')).toMatchObject({ runs: 1, stopped: 'settled' });
    expect(fromFile.report.attack.sampling).toEqual([{ domain: 'ehr', bases: 10, cap: 30, stopped: 'settled' }]);
    expect(fromFile.report.attack.budget).toBe(2);
    expect(fromFile.report.timing.queries?.cache).toBe(false);
    expect(fromFile.stderr).not.toMatch(/workers:/);
    const flagged = await fuzz(dir, '--precision', '0.05', '--attack-bases', '20');
    expect(flagged.report.cells.find((c) => c.family === 'naive')).toMatchObject({ runs: 20, stopped: 'runs' });
    expect(flagged.report.attack.sampling).toEqual([{ domain: 'ehr', bases: 20, cap: 20, stopped: 'cap' }]);
    expect(flagged.report.attack.budget).toBe(2);
  }, 60_000);

  it('exhaustive: true in the file runs every case and every base', async () => {
    const dir = project(`{ precision: 0.5, exhaustive: true, attack: { bases: 30 } }`);
    const r = await fuzz(dir);
    expect(r.report.cells.find((c) => c.family === 'naive')).toMatchObject({ runs: 20, stopped: 'runs' });
    expect(r.report.cells.find((c) => c.family === 'adaptive')?.runs).toBe(30);
    expect(r.report.attack.sampling).toBeUndefined();
    // The flags that turn the file's exhaustive: true and cache: false back.
    const back = await fuzz(project(`{ precision: 0.5, exhaustive: true, cache: false, attack: { bases: 30 } }`), '--no-exhaustive', '--cache');
    expect(back.report.cells.find((c) => c.family === 'naive')).toMatchObject({ runs: 1, stopped: 'settled' });
    expect(back.report.attack.sampling).toEqual([{ domain: 'ehr', bases: 10, cap: 30, stopped: 'settled' }]);
    expect(back.report.timing.queries?.cache).toBe(true);
  }, 60_000);

  it('an unknown operator in attack.operators exits 2 naming the config field', async () => {
    const dir = project(`{ attack: { operators: ['no-such-op'] } }`);
    const r = await runCli(['fuzz', '--config', path.join(dir, 'farma-fuzz.config.mjs'), '--guard', 'none', '--domain', 'ehr', '--family', 'adaptive', '--runs', '5', '--no-corpus', '--no-real', '--out', path.join(dir, 'r')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/farma-fuzz\.config\.mjs: attack\.operators: unknown operator no-such-op/);
  }, 60_000);
});
