import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, defineConfig, givenFlags, loadConfigFile, mergeConfig, validateConfig } from '../../src/config/index.js';
import { UsageError } from '../../src/domain/errors.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'ff-config-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('loadConfigFile', () => {
  it('loads the example config at the repository root, which spells out the defaults', async () => {
    const { config, file } = await loadConfigFile(undefined, ROOT);
    expect(file).toBe(path.join(ROOT, 'farma-fuzz.config.ts'));
    expect(config).toEqual({ ...DEFAULT_CONFIG, corpus: path.join(ROOT, 'corpora/regressions') });
  });

  it('finds farma-fuzz.config.mjs, checks it, and resolves paths against its folder', async () => {
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'farma-fuzz.config.mjs'),
      `export default { guard: './my-guard.mjs', runs: 50, seed: 7, domains: ['ehr'], thresholds: { maxFpr: 0.05 }, junit: 'out/junit.xml', corpus: false, html: false };\n`,
    );
    const { config, file } = await loadConfigFile(undefined, dir);
    expect(file).toBe(path.join(dir, 'farma-fuzz.config.mjs'));
    expect(config).toEqual({ guard: path.join(dir, 'my-guard.mjs'), runs: 50, seed: 7, domains: ['ehr'], thresholds: { maxFpr: 0.05 }, junit: path.join(dir, 'out/junit.xml'), corpus: false, html: false });
  });

  it('reads a farma-fuzz.config.ts in a CommonJS project (export default compiled to exports.default)', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'package.json'), '{ "name": "cjs-project" }\n');
    writeFileSync(path.join(dir, 'farma-fuzz.config.ts'), `export default { runs: 20, domains: ['ehr'], thresholds: { maxFpr: 0.05 } };\n`);
    const { config } = await loadConfigFile(undefined, dir);
    expect(config).toEqual({ runs: 20, domains: ['ehr'], thresholds: { maxFpr: 0.05 } });
    // A bad field there is still named as such, not as an unknown field "default".
    writeFileSync(path.join(dir, 'farma-fuzz.config.ts'), `export default { runz: 20 };\n`);
    await expect(loadConfigFile(undefined, dir)).rejects.toThrow(/runz/);
    await expect(loadConfigFile(undefined, dir)).rejects.not.toThrow(/"default"/);
  });

  it('returns an empty config when no file is there, and fails when a named file is missing', async () => {
    const dir = tempDir();
    expect(await loadConfigFile(undefined, dir)).toEqual({ config: {} });
    await expect(loadConfigFile('nope.config.ts', dir)).rejects.toThrow(UsageError);
  });

  it('names the file and the field of a bad value', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'farma-fuzz.config.js'), `export default { runs: 'many' };\n`);
    const err = await loadConfigFile(undefined, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(`${path.join(dir, 'farma-fuzz.config.js')}: "runs" must be a positive integer, got "many"`);
  });

  it('reports a config that does not load, or has no default export', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'broken.mjs'), `export default {\n`);
    await expect(loadConfigFile('broken.mjs', dir)).rejects.toThrow(/broken\.mjs:\d+: cannot load the config file/);
    writeFileSync(path.join(dir, 'named.mjs'), `export const config = {};\n`);
    await expect(loadConfigFile('named.mjs', dir)).rejects.toThrow(/named\.mjs: no default export/);
  });
});

describe('validateConfig', () => {
  const bad = (v: unknown, known = {}): string => {
    try {
      validateConfig(v, 'f.ts', known);
      return 'no error';
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as Error).message;
    }
  };
  it('rejects unknown fields, bad ids and out-of-range values, naming the field', () => {
    expect(bad({ rnus: 5 })).toMatch(/^f\.ts: unknown field "rnus"/);
    expect(bad({ domains: ['ehr', 'mars'] })).toBe('f.ts: "domains" must be "all", an id, a comma-separated list or an array of ids (ehr, react-qa, rap), got "mars"');
    expect(bad({ domains: 'ehr,rapp' })).toBe('f.ts: "domains" must be "all", an id, a comma-separated list or an array of ids (ehr, react-qa, rap), got "rapp" (did you mean "rap"?)');
    expect(bad({ families: 'benign,' }, { families: ['seed', 'benign'] })).toMatch(/"families" must be/);
    expect(bad({ families: 3 })).toMatch(/"families" must be .*got 3/);
    expect(bad({ families: ['seed', 'x'] }, { families: ['seed', 'benign'] })).toMatch(/"families" must be .*got "x"/);
    expect(bad({ families: [] })).toMatch(/"families" must be/);
    expect(bad({ seed: -1 })).toMatch(/"seed" must be an integer in \[0, 4294967295\]/);
    expect(bad({ phase: 'read' })).toMatch(/"phase" must be "write" or "retrieve"/);
    expect(bad({ thresholds: { maxFpr: 2 } })).toMatch(/"thresholds.maxFpr" must be a rate in \[0,1\], got 2/);
    expect(bad({ thresholds: { maxFPR: 0.1 } })).toMatch(/unknown field "thresholds.maxFPR"/);
    expect(bad({ html: 3 })).toMatch(/"html" must be true, false or a path \(a non-empty string\), got 3/);
    expect(bad([1])).toMatch(/default export must be a config object/);
  });
  it("accepts the CLI's list forms: one id, a comma-separated list, an array, \"all\"", () => {
    const known = { families: ['seed', 'naive', 'benign'] };
    for (const families of ['benign', 'seed,naive', ' seed , naive ', ['seed', 'naive'], 'all']) expect(bad({ families }, known), JSON.stringify(families)).toBe('no error');
    expect(bad({ domains: 'react-qa' })).toBe('no error');
  });
  it('accepts every field with good values', () => {
    const c = defineConfig({ guard: 'none', families: 'all', domains: ['rap'], runs: 1, seed: 0, time: 30, phase: 'retrieve', maxFailures: 2, thresholds: { maxFpr: 0, maxBypass: 1 }, junit: 'j.xml', html: 'r.html', corpus: 'c', out: 'o' });
    expect(validateConfig(c, 'f.ts')).toBe(c);
  });
});

describe('mergeConfig', () => {
  it('lets flags the user gave override the file, per threshold, over optional defaults', () => {
    const file = { runs: 500, seed: 7, guard: 'keyword', thresholds: { maxFpr: 0.05, maxBypass: 0.1 } };
    const flags = { runs: 50, thresholds: { maxBypass: 0.2 }, out: undefined };
    expect(mergeConfig(file, flags, DEFAULT_CONFIG)).toEqual({ ...DEFAULT_CONFIG, runs: 50, seed: 7, guard: 'keyword', thresholds: { maxFpr: 0.05, maxBypass: 0.2 } });
    expect(file.runs).toBe(500);
  });
  it('keeps only options whose value came from the command line', () => {
    const opts = { runs: '50', guard: 'sentinel', phase: 'write' };
    const source: Record<string, string> = { runs: 'cli', guard: 'default', phase: 'default' };
    expect(givenFlags(opts, (k) => source[k])).toEqual({ runs: '50' });
  });
});

describe('DEFAULT_CONFIG and RUN_DEFAULTS', () => {
  it('the config defaults are the run defaults, and the guard adapters use the same timeout', async () => {
    const { RUN_DEFAULTS } = await import('../../src/domain/defaults.js');
    const { DEFAULT_GUARD_TIMEOUT_MS } = await import('../../src/guards/adapters/index.js');
    expect(DEFAULT_CONFIG).toMatchObject({
      guard: RUN_DEFAULTS.guard,
      runs: RUN_DEFAULTS.runs,
      maxFailures: RUN_DEFAULTS.maxFailures,
      phase: RUN_DEFAULTS.phase,
      corpus: RUN_DEFAULTS.corpus,
      concurrency: RUN_DEFAULTS.asyncConcurrency,
      recheck: RUN_DEFAULTS.recheck,
      cellTime: RUN_DEFAULTS.cellTimeS,
    });
    expect(DEFAULT_GUARD_TIMEOUT_MS).toBe(RUN_DEFAULTS.guardTimeoutMs);
    expect(Object.isFrozen(RUN_DEFAULTS)).toBe(true);
  });
});

describe('docs/config.md', () => {
  it('documents every field the config schema accepts, and names no field it refuses', async () => {
    const { configSchema } = await import('../../src/config/load-config-file.js');
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(path.join(ROOT, 'docs', 'config.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-zA-Z.]+)` \|/gm)].map((m) => m[1]!);
    const fields = Object.keys(configSchema().shape);
    expect(rows.filter((r) => !r.includes('.')).sort()).toEqual([...fields].sort());
    const shape = configSchema().shape as Record<string, unknown>;
    const nested = (key: string): string[] => Object.keys((shape[key] as { unwrap: () => { shape: Record<string, unknown> } }).unwrap().shape).map((k) => `${key}.${k}`);
    expect(rows.filter((r) => r.includes('.')).sort()).toEqual([...nested('attack'), ...nested('thresholds')].sort());
  });
  it("is exported from the package entry, with the public API's defineConfig", async () => {
    const api = await import('../../src/index.js');
    expect(api.defineConfig).toBe(defineConfig);
    expect(api.DEFAULT_CONFIG).toBe(DEFAULT_CONFIG);
  });
});
