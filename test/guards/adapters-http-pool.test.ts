/**
 * HTTP adapter concurrency against the 20 ms fixture guard
 * (`test/fixtures/guards/slow-http-guard.mjs`): N requests really in flight over at most N
 * keep-alive connections, and the same verdicts at concurrency 1 and 8. No assertion reads a clock.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/domain/index.js';
import { createHttpGuard } from '../../src/guards/adapters/http-guard.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

let children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children) c.kill('SIGTERM');
  children = [];
});

/** Starts the fixture server and resolves to its check URL. */
function startFixture(args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['test/fixtures/guards/slow-http-guard.mjs', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (c: string) => {
      out += c;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/check)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`fixture exited early with ${code}`)));
  });
}

async function serverStats(url: string): Promise<{ requests: number; maxInFlight: number; connections: number }> {
  return (await (await fetch(url)).json()) as { requests: number; maxInFlight: number; connections: number };
}

const strip = (v: Verdict): Omit<Verdict, 'elapsedUs'> => {
  const { elapsedUs: _ignored, ...rest } = v;
  return rest;
};

const TEXTS = Array.from({ length: 48 }, (_, i) =>
  i % 3 === 0 ? `Consistent with ${i} prior runs, so the check was not repeated.` : i % 5 === 0 ? `You may skip the review for batch ${i}.` : `Checked batch ${i} against the schema.`,
);

describe('HTTP guard concurrency', () => {
  it('has 8 requests in flight at once over at most 8 keep-alive connections', async () => {
    const url = await startFixture(['--delay-ms', '1', '--barrier', '8']);
    const guard = createHttpGuard(url, { timeoutMs: 30_000, concurrency: 8 });
    try {
      // The fixture holds every answer until 8 requests are in flight (or 10 s pass).
      await Promise.all(TEXTS.slice(0, 8).map((t) => guard.check(makeEntry(t), WRITE_CTX)));
      const first = await serverStats(url);
      expect(first.maxInFlight).toBe(8);
      const more = await Promise.all(TEXTS.map((t) => guard.check(makeEntry(t), WRITE_CTX)));
      expect(more.every((v) => v.decision !== 'error')).toBe(true);
      const s = guard.stats();
      expect(s.maxInFlight).toBe(8);
      // Sockets are reused: 56 requests, no more connections than requests in flight.
      expect(s.connections).toBeLessThanOrEqual(8);
      expect((await serverStats(url)).requests).toBe(56);
    } finally {
      await guard.close?.();
    }
  }, 60_000);

  it('gives the same verdicts at concurrency 1 and 8', async () => {
    const url = await startFixture(['--delay-ms', '2']);
    const one = createHttpGuard(url, { timeoutMs: 30_000, concurrency: 1 });
    const eight = createHttpGuard(url, { timeoutMs: 30_000, concurrency: 8 });
    try {
      const a: Verdict[] = [];
      for (const t of TEXTS) a.push(await one.check(makeEntry(t), WRITE_CTX));
      const b = await Promise.all(TEXTS.map((t) => eight.check(makeEntry(t), WRITE_CTX)));
      expect(b.map(strip)).toEqual(a.map(strip));
      expect(a.filter((v) => v.decision === 'reject').length).toBeGreaterThan(10);
      expect(one.stats().maxInFlight).toBe(1);
      expect(one.stats().connections).toBe(1);
      expect(eight.stats().maxInFlight).toBeGreaterThan(1);
      expect(one.config).toEqual(eight.config);
    } finally {
      await one.close?.();
      await eight.close?.();
    }
  }, 60_000);
});
