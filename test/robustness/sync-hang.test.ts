/**
 * A module guard whose synchronous check never returns (src/guards/adapters/sync-watchdog.ts):
 * the run ends by SIGKILL after the hang limit, and stderr names the guard, the limit and the
 * entry, which is also saved whole to a JSON file. Before the watchdog the run hung with no word.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/spawn-cli.js';
import { hangLimitMs } from '../../src/guards/adapters/sync-watchdog.js';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { GuardLoadError } from '../../src/domain/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-sync-hang-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SPIN = path.resolve('test/fixtures/guards/spin-guard.mjs');

describe('hang limit', () => {
  it('4 × the timeout, at least 30 s, unless FARMA_FUZZ_HANG_MS sets it', () => {
    expect(hangLimitMs(5000, {})).toBe(30_000);
    expect(hangLimitMs(20_000, {})).toBe(80_000);
    expect(hangLimitMs(5000, { FARMA_FUZZ_HANG_MS: '1200' })).toBe(1200);
    expect(() => hangLimitMs(5000, { FARMA_FUZZ_HANG_MS: 'soon' })).toThrow(/FARMA_FUZZ_HANG_MS=soon/);
  });

  it('a bad FARMA_FUZZ_HANG_MS is a load error naming the file and the variable', async () => {
    const before = process.env.FARMA_FUZZ_HANG_MS;
    process.env.FARMA_FUZZ_HANG_MS = '-3';
    try {
      const err = await loadModuleGuard(SPIN).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GuardLoadError);
      expect(String((err as Error).message)).toMatch(/spin-guard\.mjs.*FARMA_FUZZ_HANG_MS=-3/);
    } finally {
      if (before === undefined) delete process.env.FARMA_FUZZ_HANG_MS;
      else process.env.FARMA_FUZZ_HANG_MS = before;
    }
  });
});

describe('a synchronous check that never returns', () => {
  it('fuzz is ended by SIGKILL after the limit, with the guard and the entry named', async () => {
    const out = path.join(dir, 'out');
    const r = await spawnCli(['fuzz', '--guard', SPIN, '-n', '5', '-d', 'ehr', '-f', 'seed', '--no-corpus', '--no-real', '--no-html', '--seed', '1', '--out', out], { env: { ...process.env, FARMA_FUZZ_HANG_MS: '1500' } });
    expect(r.code).toBeNull(); // ended by a signal, not an exit code
    expect(r.stderr).toContain('guard fixture-spin (module');
    expect(r.stderr).toContain('inside one synchronous check() call for 1.5 s');
    expect(r.stderr).toMatch(/entry: id \S+, write path, \d+ characters: "/);
    const saved = /The entry is saved in (\S+\.json)\./.exec(r.stderr)?.[1];
    expect(saved).toBeDefined();
    const entry = JSON.parse(readFileSync(saved as string, 'utf8')) as { id: string; content: string };
    rmSync(saved as string, { force: true });
    expect(r.stderr).toContain(`id ${entry.id},`);
    expect(entry.content.length).toBeGreaterThan(0);
    expect(existsSync(path.join(out, 'report.json'))).toBe(false);
  }, 120_000);

  it('a guard that returns is never stopped, and the process exits on its own', async () => {
    const r = await spawnCli(['fuzz', '--guard', path.resolve('test/fixtures/guards/default-guard.mjs'), '-n', '5', '-d', 'ehr', '-f', 'seed', '--no-corpus', '--no-real', '--no-html', '-q', '--seed', '1', '--out', path.join(dir, 'ok')], { env: { ...process.env, FARMA_FUZZ_HANG_MS: '1500' } });
    expect(r.code).not.toBeNull();
    expect(r.stderr).not.toContain('synchronous check() call');
    expect(existsSync(path.join(dir, 'ok', 'report.json'))).toBe(true);
  }, 120_000);
});
