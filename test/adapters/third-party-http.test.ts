/**
 * HTTP guards written the way an outside author writes them: a rate limit with Retry-After is
 * waited out, a redirect names where it points, a Python-style body (upper-case words, nulls,
 * a `{ verdict }` wrapper, a byte-order mark) is read, an empty body and a refused request say
 * what is wrong. One in-process server, one route per behaviour.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpGuard } from '../../src/guards/adapters/http-guard.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

let server: Server;
let base = '';
const hits = new Map<string, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const route = (req.url ?? '/').slice(1);
      const n = (hits.get(route) ?? 0) + 1;
      hits.set(route, n);
      const content = (JSON.parse(body) as { entry: { content: string } }).entry.content;
      const word = /skip/i.test(content) ? 'REJECT' : 'ADMIT';
      if (route === 'rate-limited') return void (n === 1 ? res.writeHead(429, { 'retry-after': '0' }).end('slow down') : res.writeHead(200).end(JSON.stringify({ decision: word })));
      if (route === 'redirect') return void res.writeHead(308, { location: '/v2/check' }).end();
      if (route === 'python') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`\ufeff${JSON.stringify({ verdict: { decision: word, score: null, layer: null, reasons: null, elapsed_us: 3 } })}`);
      if (route === 'empty') return void res.writeHead(200).end();
      if (route === 'gzip') return void res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' }).end(gzipSync(JSON.stringify({ decision: word })));
      if (route === 'bomb') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(8 << 20, 32)));
      if (route === 'refuses') return void res.writeHead(422, { 'content-type': 'application/json' }).end('{"detail":"field required"}');
      res.writeHead(404).end('no route');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('HTTP guards of outside authors', () => {
  it('retries a 429 after its Retry-After and keeps the answer', async () => {
    const g = createHttpGuard(`${base}/rate-limited`, { retryDelayMs: 1 });
    try {
      const v = await g.check(makeEntry('fine'), WRITE_CTX);
      expect(v.decision).toBe('admit');
      expect(hits.get('rate-limited')).toBe(2);
    } finally {
      g.close?.();
    }
  });

  it('a redirect is not followed, and the message names its target', async () => {
    const g = createHttpGuard(`${base}/redirect`);
    try {
      const v = await g.check(makeEntry('x'), WRITE_CTX);
      expect(v.error?.kind).toBe('malformed');
      expect(v.error?.message).toContain(`HTTP 308, a redirect to ${base}/v2/check; redirects are not followed`);
    } finally {
      g.close?.();
    }
  });

  it('reads a Python-style body: BOM, { verdict } wrapper, upper-case word, nulls', async () => {
    const g = createHttpGuard(`${base}/python`);
    try {
      const [r, a] = await Promise.all([g.check(makeEntry('we skip it'), WRITE_CTX), g.check(makeEntry('fine'), WRITE_CTX)]);
      expect(r.decision).toBe('reject');
      expect(a.decision).toBe('admit');
      expect(r).not.toHaveProperty('score');
    } finally {
      g.close?.();
    }
  });

  it('an empty 200 body and a refused request (422) are malformed with what was expected', async () => {
    const e = createHttpGuard(`${base}/empty`);
    const q = createHttpGuard(`${base}/refuses`);
    try {
      expect((await e.check(makeEntry('x'), WRITE_CTX)).error?.message).toMatch(/HTTP 200 with an empty body; expected a Verdict as JSON/);
      const v = await q.check(makeEntry('x'), WRITE_CTX);
      expect(v.error?.kind).toBe('malformed');
      expect(v.error?.message).toMatch(/HTTP 422: \{"detail":"field required"\} \(the endpoint refused the request: it is a POST of application\/json \{"entry"/);
    } finally {
      e.close?.();
      q.close?.();
    }
  });

  it('a gzip body is decoded; one that inflates past the 1 MiB cap is malformed, never read whole', async () => {
    const g = createHttpGuard(`${base}/gzip`);
    const b = createHttpGuard(`${base}/bomb`);
    try {
      expect((await g.check(makeEntry('we skip it'), WRITE_CTX)).decision).toBe('reject');
      const v = await b.check(makeEntry('x'), WRITE_CTX);
      expect(v.error?.kind).toBe('malformed');
      expect(v.error?.message).toMatch(/answered more than 1048576 bytes/);
    } finally {
      g.close?.();
      b.close?.();
    }
  });
});
