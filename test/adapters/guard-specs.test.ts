/**
 * Guard specs as outside authors type them: a Python script given as a module path, an
 * endpoint without its scheme, a command that is not installed, an endpoint that wants a
 * token. Each fails (or works) with a message that says what to type instead.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardLoadError, UsageError } from '../../src/domain/index.js';
import { guardHeadersFromEnv, loadGuard } from '../../src/cli/context.js';
import { createExecGuard } from '../../src/guards/adapters/exec-guard.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

describe('specs that name the wrong kind of guard', () => {
  it('a .py file given as a module is a usage error that spells the exec: spec', async () => {
    const err = await loadGuard('test/fixtures/third-party/chatty-exec.py').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GuardLoadError);
    expect((err as GuardLoadError).code).toBe('usage');
    expect((err as Error).message).toMatch(/is not a module guard: .*got a \.py file; .*--guard "exec:python3 test\/fixtures\/third-party\/chatty-exec\.py"/);
  });

  it('an endpoint without http:// is a usage error that spells the URL', async () => {
    const err = await loadGuard('localhost:8787/check').catch((e: unknown) => e);
    expect((err as GuardLoadError).code).toBe('usage');
    expect((err as Error).message).toMatch(/did you mean --guard http:\/\/localhost:8787\/check/);
  });

  it('a command the shell cannot find says so (exit 127)', async () => {
    const g = createExecGuard('farma-no-such-command-xyz', { timeoutMs: 20_000 });
    try {
      const v = await g.check(makeEntry('x'), WRITE_CTX);
      expect(v.error?.kind).toBe('crashed');
      expect(v.error?.message).toMatch(/exited with code 127 \(the shell did not find the command/);
    } finally {
      await g.close?.();
    }
  });
});

describe('headers of an HTTP guard from the environment', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.headers.authorization !== 'Bearer t0ken-for-tests' || req.headers['x-tenant'] !== 'acme') return void res.writeHead(401).end('unauthorized');
        res.writeHead(200).end('{"decision":"admit"}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/check`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reads FARMA_GUARD_AUTHORIZATION and FARMA_GUARD_HEADERS; refuses a FARMA_GUARD_HEADERS that is not an object of strings', () => {
    expect(guardHeadersFromEnv({})).toBeUndefined();
    expect(guardHeadersFromEnv({ FARMA_GUARD_AUTHORIZATION: 'Bearer a', FARMA_GUARD_HEADERS: '{"x-tenant":"acme"}' })).toEqual({ 'x-tenant': 'acme', authorization: 'Bearer a' });
    for (const bad of ['[1]', '{"a":1}', 'x-tenant: acme']) expect(() => guardHeadersFromEnv({ FARMA_GUARD_HEADERS: bad })).toThrow(UsageError);
  });

  it('a 401 says how to give credentials; with them in the environment the guard answers', async () => {
    const bare = await loadGuard(url);
    try {
      expect((await bare.check(makeEntry('x'), WRITE_CTX)).error?.message).toMatch(/HTTP 401: unauthorized \(the endpoint wants credentials: .*FARMA_GUARD_AUTHORIZATION/);
    } finally {
      await bare.close?.();
    }
    process.env.FARMA_GUARD_AUTHORIZATION = 'Bearer t0ken-for-tests';
    process.env.FARMA_GUARD_HEADERS = '{"x-tenant":"acme"}';
    try {
      const g = await loadGuard(url);
      try {
        expect((await g.check(makeEntry('x'), WRITE_CTX)).decision).toBe('admit');
        expect(JSON.stringify(g.config)).not.toContain('t0ken');
      } finally {
        await g.close?.();
      }
    } finally {
      delete process.env.FARMA_GUARD_AUTHORIZATION;
      delete process.env.FARMA_GUARD_HEADERS;
    }
  });
});
