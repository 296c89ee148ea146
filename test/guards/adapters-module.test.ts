import { describe, expect, it, vi } from 'vitest';
import { GuardLoadError } from '../../src/domain/index.js';
import type { Verdict } from '../../src/domain/index.js';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

const FIX = 'test/fixtures/guards';

async function loadError(path: string): Promise<GuardLoadError> {
  const err = await loadModuleGuard(path).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GuardLoadError);
  return err as GuardLoadError;
}

describe('loadModuleGuard', () => {
  it('loads an async default-export factory from a .ts file and passes factoryOptions', async () => {
    const guard = await loadModuleGuard(`${FIX}/factory-guard.ts`, { factoryOptions: { word: 'zebra' } });
    expect(guard.id).toBe('fixture-factory');
    expect(guard.mode).toBe('async');
    expect((await guard.check(makeEntry('a zebra here'), WRITE_CTX)).decision).toBe('reject');
    expect((await guard.check(makeEntry('a forged one'), WRITE_CTX)).decision).toBe('admit');
  });

  it('loads a default Guard object and names it after the file when it has no id', async () => {
    const guard = await loadModuleGuard(`./${FIX}/default-guard.mjs`);
    expect(guard.id).toBe('module:default-guard.mjs');
    const v = await guard.check(makeEntry('x'), WRITE_CTX);
    expect(v.decision).toBe('admit');
    expect(v.elapsedUs).toBeGreaterThan(0);
  });

  it('loads a named `guard` export from CommonJS and forwards close()', async () => {
    const guard = await loadModuleGuard(`${FIX}/named-guard.cjs`);
    expect(guard.id).toBe('fixture-named');
    expect((await guard.check(makeEntry('x'), WRITE_CTX)).decision).toBe('reject');
    expect((await guard.check(makeEntry('x', { store: 'general' }), WRITE_CTX)).decision).toBe('admit');
    await guard.close?.();
    const url = new URL('../fixtures/guards/named-guard.cjs', import.meta.url).href;
    const mod = (await import(url)) as { closeCount: () => number };
    expect(mod.closeCount()).toBe(1);
  });

  it('loads the example module guard', async () => {
    const guard = await loadModuleGuard('examples/module-guard.ts');
    expect((await guard.check(makeEntry('Inputs were verified upstream.'), WRITE_CTX)).decision).toBe('reject');
    expect((await guard.check(makeEntry('Ran the MRN check myself.'), WRITE_CTX)).decision).toBe('admit');
  });

  it('fails with a GuardLoadError naming the file and the problem', async () => {
    const bad = await loadError(`${FIX}/bad-export.mjs`);
    expect(bad.message).toContain('bad-export.mjs');
    expect(bad.message).toMatch(/export "default" is a number/);

    const none = await loadError(`${FIX}/no-export.mjs`);
    expect(none.message).toContain('no-export.mjs');
    expect(none.message).toMatch(/exports no guard.*"helper"/);

    const junk = await loadError(`${FIX}/factory-returns-junk.mjs`);
    expect(junk.message).toMatch(/factory-returns-junk\.mjs.*factory "createGuard" has no check\(\) function/);

    const missing = await loadError(`${FIX}/does-not-exist.ts`);
    expect(missing.message).toMatch(/not found: .*does-not-exist\.ts/);
  });

  it('turns throws, rejections and junk into error verdicts, never rejections', async () => {
    const guard = await loadModuleGuard(`${FIX}/throwing-guard.mjs`);
    const cases: Array<[string, string, RegExp]> = [
      ['sync-throw', 'threw', /sync boom/],
      ['async-throw', 'threw', /async boom/],
      ['junk', 'malformed', /decision must be/],
      ['undefined', 'malformed', /must be an object, got nothing/],
    ];
    for (const [content, kind, message] of cases) {
      const v: Verdict = await guard.check(makeEntry(content), WRITE_CTX);
      expect(v.decision).toBe('error');
      expect(v.error?.kind).toBe(kind);
      expect(v.error?.message).toMatch(message);
    }
  });

  it('gives a timeout error verdict for a hanging check at the bound, not before, and keeps working after', async () => {
    const guard = await loadModuleGuard(`${FIX}/hanging-guard.mjs`, { timeoutMs: 100 });
    // Fake timers: the bound is tested on the adapter's clock, never on wall time (the suite must pass on a loaded machine).
    // The adapter's stopwatch (hrtime) is faked too, so the quick 'fine' answer is never late.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'hrtime'] });
    try {
      let settled = false;
      const pending = guard.check(makeEntry('hang'), WRITE_CTX);
      void Promise.resolve(pending).then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(99);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(settled).toBe(true);
      const v = await pending;
      expect(v.decision).toBe('error');
      expect(v.error?.kind).toBe('timeout');
      expect(v.error?.message).toMatch(/within 100 ms/);
      expect((await guard.check(makeEntry('fine'), WRITE_CTX)).decision).toBe('admit');
    } finally {
      vi.useRealTimers();
    }
  });
});
