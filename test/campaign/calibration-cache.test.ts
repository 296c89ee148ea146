/**
 * The calibration cache (src/campaign/calibration-cache.ts): leave-one-source-out and the fuzz
 * report give the same figures with the cache off, cold and warm; a warm cache computes nothing;
 * a corrupt, truncated or foreign cache file is ignored and rewritten; a cache folder that cannot
 * be written costs only the speed-up; the key follows the sets' content, not their identity.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { calibrationFor } from '../../src/campaign/calibration.js';
import { calibrationCacheDir, calibrationCacheKey, calibrationCacheStats } from '../../src/campaign/calibration-cache.js';
import { leaveOneSourceOut } from '../../src/campaign/fpr.js';
import { runFuzz } from '../../src/campaign/fuzz.js';
import { silentProgress } from '../../src/campaign/progress.js';
import { loadRealBenignSets } from '../../src/corpus/benign-sets.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';

const real = loadRealBenignSets().sets.filter((s) => s.entries.length > 0);
/** The three smallest real sets: leave-one-source-out on them calibrates on small inputs (fast), the same code path. */
const small = [...real].sort((a, b) => a.entries.length - b.entries.length).slice(0, 3);

const saved = { dir: process.env.FARMA_FUZZ_CACHE_DIR, off: process.env.FARMA_FUZZ_CACHE };
const restore = (name: 'FARMA_FUZZ_CACHE_DIR' | 'FARMA_FUZZ_CACHE', v: string | undefined): void => {
  if (v === undefined) delete process.env[name];
  else process.env[name] = v;
};
let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(path.join(tmpdir(), 'farma-calcache-'));
  process.env.FARMA_FUZZ_CACHE_DIR = cacheDir;
  delete process.env.FARMA_FUZZ_CACHE;
});
afterEach(() => {
  restore('FARMA_FUZZ_CACHE_DIR', saved.dir);
  restore('FARMA_FUZZ_CACHE', saved.off);
});

const stats = (): typeof calibrationCacheStats => ({ ...calibrationCacheStats });
const since = (before: typeof calibrationCacheStats): Record<string, number> =>
  Object.fromEntries(Object.entries(calibrationCacheStats).map(([k, v]) => [k, v - before[k as keyof typeof before]]));

async function losoRows(): Promise<unknown> {
  const store = new MemoryStore(':memory:');
  try {
    const realOf = (name: string) => ({ k: name.length % 3, n: 20, errors: 0 });
    return await leaveOneSourceOut({ guard: createGuard('sentinel'), store, domains: ['ehr', 'rap'], runs: 40, seed: 99, phase: 'write' }, small, realOf);
  } finally {
    store.close();
  }
}

describe('leave-one-source-out through the calibration cache', () => {
  it('off, cold and warm give the same rows; warm computes nothing', async () => {
    process.env.FARMA_FUZZ_CACHE = 'off';
    let before = stats();
    const off = await losoRows();
    expect(since(before)).toMatchObject({ hits: 0, misses: 0, writes: 0 });
    delete process.env.FARMA_FUZZ_CACHE;

    before = stats();
    const cold = await losoRows();
    expect(since(before)).toMatchObject({ hits: 0, misses: small.length, writes: small.length });
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.json'))).toHaveLength(small.length);

    before = stats();
    const warm = await losoRows();
    expect(since(before)).toMatchObject({ hits: small.length, misses: 0, writes: 0 });
    expect(cold).toEqual(off);
    expect(warm).toEqual(off);
  }, 300_000);

  it('a corrupt, truncated or foreign cache file is ignored and rewritten, with the same rows', async () => {
    const good = await losoRows();
    const files = readdirSync(cacheDir).filter((f) => f.endsWith('.json')).map((f) => path.join(cacheDir, f));
    expect(files).toHaveLength(small.length);
    const [a, b, c] = files as [string, string, string];
    writeFileSync(a, readFileSync(a, 'utf8').slice(0, 200)); // cut short
    const doc = JSON.parse(readFileSync(b, 'utf8')) as { calibration: { kindRates: Record<string, number> } };
    for (const k of Object.keys(doc.calibration.kindRates)) doc.calibration.kindRates[k] = 0; // edited: digest no longer matches
    writeFileSync(b, JSON.stringify(doc));
    writeFileSync(c, '{"format":"something-else","key":"x"}\n');
    const before = stats();
    expect(await losoRows()).toEqual(good);
    expect(since(before)).toMatchObject({ rejected: 3, misses: 3, writes: 3, hits: 0 });
    const after = stats();
    expect(await losoRows()).toEqual(good);
    expect(since(after)).toMatchObject({ hits: 3, misses: 0 });
  }, 300_000);

  it('a cache folder that cannot be created is no error: the rows are computed', async () => {
    const file = path.join(cacheDir, 'a-file');
    writeFileSync(file, 'not a folder');
    process.env.FARMA_FUZZ_CACHE_DIR = path.join(file, 'cache');
    const before = stats();
    const rows = await losoRows();
    expect(since(before)).toMatchObject({ hits: 0, misses: small.length, writes: 0, writeFailures: small.length });
    process.env.FARMA_FUZZ_CACHE = 'off';
    expect(rows).toEqual(await losoRows());
  }, 300_000);
});

describe('the cache key and folder', () => {
  it('follows the content: a copy of the sets has the same key; a changed entry, name, domain or order a new one', () => {
    const copy = small.map((s) => ({ ...s, entries: JSON.parse(JSON.stringify(s.entries)) as typeof s.entries }));
    const key = calibrationCacheKey(small);
    expect(calibrationCacheKey(copy)).toBe(key);
    const edited = copy.map((s, i) => (i === 0 ? { ...s, entries: s.entries.map((e, j) => (j === 0 ? { ...e, content: `${e.content} ` } : e)) } : s));
    expect(calibrationCacheKey(edited)).not.toBe(key);
    expect(calibrationCacheKey(small.map((s, i) => (i === 0 ? { ...s, name: `${s.name}-x` } : s)))).not.toBe(key);
    expect(calibrationCacheKey(small.map((s, i) => (i === 0 ? { ...s, domain: 'other-domain' } : s)))).not.toBe(key);
    expect(calibrationCacheKey([...small].reverse())).not.toBe(key);
  });

  it('lives under node_modules/.cache/farma-fuzz of the project, else the OS temp folder; the environment moves or disables it', () => {
    const project = mkdtempSync(path.join(tmpdir(), 'farma-project-'));
    writeFileSync(path.join(project, 'package.json'), '{"name":"user-project"}\n');
    expect(calibrationCacheDir({}, project)).toBe(path.join(project, 'node_modules', '.cache', 'farma-fuzz'));
    expect(calibrationCacheDir({ FARMA_FUZZ_CACHE_DIR: 'here' }, project)).toBe(path.join(project, 'here'));
    expect(calibrationCacheDir({ FARMA_FUZZ_CACHE: 'off' }, project)).toBeUndefined();
    expect(calibrationCacheDir({ FARMA_FUZZ_CACHE: '0', FARMA_FUZZ_CACHE_DIR: 'here' }, project)).toBeUndefined();
    // No package.json above (a folder at the file-system root): the OS temp folder.
    expect(calibrationCacheDir({}, path.parse(project).root)).toMatch(new RegExp(`^${tmpdir().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
  });

  it('calibrate never reads the cache: cacheDir false computes even when a file has the key', () => {
    const sets = small.slice(0, 1);
    const cached = calibrationFor(sets, { cacheDir });
    const before = stats();
    expect(calibrationFor(sets, { cacheDir: false })).toEqual(cached);
    expect(since(before)).toMatchObject({ hits: 0, misses: 0 });
  }, 60_000);
});

describe('fuzz with the bundled real sets', () => {
  it('report.json is the same with a cold and a warm cache, less timing', async () => {
    const run = async (out: string) => {
      const store = new MemoryStore(':memory:');
      try {
        const r = await runFuzz(
          { guardSpec: 'keyword', guard: createGuard('keyword'), store, domains: ['ehr'], families: ['benign'], runs: 30, seed: 5, phase: 'write', maxFailures: 1, outDir: out, realData: true, generatedAt: '2026-01-01T00:00:00.000Z' },
          silentProgress,
        );
        const { timing: _t, ...rest } = r.report;
        return rest;
      } finally {
        store.close();
      }
    };
    let before = stats();
    const cold = await run(path.join(cacheDir, 'cold'));
    expect(since(before).misses).toBe(real.length);
    before = stats();
    const warm = await run(path.join(cacheDir, 'warm'));
    expect(since(before)).toMatchObject({ hits: real.length, misses: 0 });
    expect(warm.fpr.loso).toHaveLength(real.length);
    expect(warm).toEqual(cold);
  }, 300_000);
});
