import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GuardLoadError } from '../../src/domain/index.js';
import type { Guard } from '../../src/domain/index.js';
import { guardSpecKind, resolveGuard } from '../../src/guards/resolve.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

const builtin: Guard = {
  id: 'stub',
  mode: 'sync',
  check: () => ({ decision: 'admit', trace: [], reasons: [], elapsedUs: 0 }),
};
const created: string[] = [];
const deps = {
  createBuiltin: (id: string): Guard => {
    created.push(id);
    return builtin;
  },
  knownIds: ['stub', 'no-defense'] as const,
};

describe('guardSpecKind', () => {
  it('classifies each accepted form', () => {
    expect(guardSpecKind('http://127.0.0.1:8787/check')).toBe('http');
    expect(guardSpecKind('HTTPS://guard.example/v1')).toBe('http');
    expect(guardSpecKind('exec:python3 g.py')).toBe('exec');
    expect(guardSpecKind('my-guard.ts')).toBe('module');
    expect(guardSpecKind('guard.cjs')).toBe('module');
    expect(guardSpecKind('dir/guard')).toBe('module');
    expect(guardSpecKind('sentinel')).toBe('builtin');
    expect(guardSpecKind('a-memguard')).toBe('builtin');
  });
});

describe('resolveGuard', () => {
  it('builds a built-in guard through deps.createBuiltin', async () => {
    expect(await resolveGuard('stub', deps)).toBe(builtin);
    expect(created).toEqual(['stub']);
  });

  it('rejects an unknown id, listing the known ids and the spec forms', async () => {
    const err = await resolveGuard('sentinal', deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GuardLoadError);
    expect((err as Error).message).toMatch(/unknown guard "sentinal".*stub, no-defense/);
    expect((err as Error).message).toMatch(/exec:<command>/);
    expect((err as Error).message).toMatch(/http\(s\):\/\//);
    expect(created).toEqual(['stub']);
  });

  it('loads a module spec with the shared timeout', async () => {
    const guard = await resolveGuard('test/fixtures/guards/hanging-guard.mjs', deps, { timeoutMs: 50 });
    expect((await guard.check(makeEntry('hang'), WRITE_CTX)).error?.kind).toBe('timeout');
  });

  it('builds exec and HTTP adapters and checks their specs', async () => {
    const exec = await resolveGuard('exec: python3 examples/exec-guard.py', deps);
    try {
      expect(exec.id).toBe('exec:python3 examples/exec-guard.py');
      expect((await exec.check(makeEntry('fine'), WRITE_CTX)).decision).toBe('admit');
    } finally {
      await exec.close?.();
    }
    const http = await resolveGuard('http://127.0.0.1:9/check', deps, { http: { retries: 1 } });
    expect(http.config).toMatchObject({ adapter: 'http', retries: 1, timeoutMs: 5000 });
    await expect(resolveGuard('exec:  ', deps)).rejects.toThrow(GuardLoadError);
  });

  it('passes `concurrency` to the exec pool, and keeps it out of the config (reports must not depend on it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'farma-resolve-'));
    const exec = await resolveGuard(`exec:python3 test/fixtures/guards/slow-exec-guard.py --delay-ms 1 --track ${dir} --barrier 3`, deps, { concurrency: 3, timeoutMs: 30_000 });
    try {
      const verdicts = await Promise.all([1, 2, 3].map((i) => exec.check(makeEntry(`fine ${i}`), WRITE_CTX)));
      expect(verdicts.map((v) => v.reasons[0])).toEqual(['inflight=3', 'inflight=3', 'inflight=3']);
      expect(JSON.stringify(exec.config)).not.toMatch(/concurrency/);
    } finally {
      await exec.close?.();
    }
    const one = await resolveGuard('http://127.0.0.1:9/check', deps, { concurrency: 1 });
    const eight = await resolveGuard('http://127.0.0.1:9/check', deps, { concurrency: 8 });
    expect(one.config).toEqual(eight.config);
    await expect(resolveGuard('http://127.0.0.1:9/check', deps, { concurrency: 0 })).rejects.toThrow(/concurrency must be an integer >= 1/);
  }, 60_000);
});
