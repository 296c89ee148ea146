/**
 * Secrets that reach farma-fuzz by other channels than a secret-named
 * variable. An HTTP guard on 127.0.0.1 echoes what it was sent, the way a debugging endpoint
 * does: the `FARMA_GUARD_HEADERS` values (22.8), the `Authorization` header the URL's
 * `user:password@` turns into, and a key placed right at the 1,000-character cut of a reason
 * (22.9) and in hex (22.11). None of it may reach the console, report md/json/html, JUnit, the
 * corpus, `check` output or the printed replay commands (22.10).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERDICT_BOUNDS, parseVerdict } from '../../src/domain/verdict-schema.js';
import { redactSecrets, secretValues } from '../../src/domain/secrets.js';
import { filesUnder, leaks, type Output } from '../helpers/leaks.js';
import { runCli } from '../helpers/run-cli.js';

const hex = (n: number): string => randomBytes(n).toString('hex');
// Values that match no secret-looking name or prefix on their own: only the channel makes them secret.
const headerKey = `hdr${hex(12)}`;
const bearer = `bt${hex(12)}`;
const password = `pw${hex(10)}`;
const cutKey = `ck${hex(16)}`;

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const h = req.headers;
      // The key starts 16 characters before where the 1,000-character bound cuts a reason.
      const note = `… [cut: 1600 characters]`;
      const pad = 'x'.repeat(VERDICT_BOUNDS.reasonChars - note.length - 16);
      const long = `${pad}${cutKey}${'y'.repeat(1600 - pad.length - cutKey.length)}`;
      const verdict = {
        decision: 'reject',
        layer: `echo ${String(h['x-api-key'])}`,
        signals: { [`s-${String(h['x-api-key'])}`]: 1 },
        reasons: [`x-api-key was ${String(h['x-api-key'])}`, `authorization was ${String(h.authorization)}`, long, `hex ${Buffer.from(cutKey).toString('hex')}`],
        trace: [],
        elapsedUs: 1,
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(verdict));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('secrets from headers, the guard URL, a reason cut and hex never reach an output', () => {
  it('fuzz (console, report md/json/html, JUnit, corpus), check and replay', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'farma-secret-channels-'));
    // The commands run in-process with these variables set for each call: what they write is the
    // subject, not the process (test/robustness/secrets.test.ts spawns a real one).
    const env = {
      FARMA_GUARD_HEADERS: JSON.stringify({ 'x-api-key': headerKey }),
      FARMA_GUARD_AUTHORIZATION: `Bearer ${bearer}`,
      // The cut key comes in through a secret-named variable; the guard echoes it.
      FARMA_TEST_SERVICE_TOKEN: cutKey,
      // The job summary of a CI run is one more output (hostile pass).
      GITHUB_STEP_SUMMARY: join(tmp, 'step-summary.md'),
    };
    const guard = `http://farma:${password}@127.0.0.1:${port}/check`;
    const corpus = join(tmp, 'corpus');
    const out = join(tmp, 'out');
    const junit = join(tmp, 'junit.xml');
    const f = await runCli(['fuzz', '--guard', guard, '--runs', '10', '--domain', 'ehr', '--family', 'benign', '--no-real', '--seed', '3', '--corpus', corpus, '--out', out, '--junit', junit, '--html'], { env });
    expect(f.code, f.stderr).toBe(1); // every benign entry rejected: false positives, into the corpus
    expect(f.stdout).toMatch(/replay --guard/);
    const input = join(tmp, 'entries.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: 'e1', content: 'entry one', source: 'AGENT' })}\n`);
    const c = await runCli(['check', '--guard', guard, '--input', input], { env });
    expect(c.stdout).toMatch(/"decision":"reject"/);
    const r = await runCli(['replay', '--guard', guard, '--corpus', corpus], { env });
    const outputs: Output[] = [
      ['fuzz stdout', f.stdout], ['fuzz stderr', f.stderr], ['check stdout', c.stdout], ['check stderr', c.stderr],
      ['replay stdout', r.stdout], ['replay stderr', r.stderr], ...filesUnder(out), ...filesUnder(corpus), [junit, readFileSync(junit, 'utf8')],
      ['step summary', readFileSync(join(tmp, 'step-summary.md'), 'utf8')],
    ];
    expect(outputs.some(([w]) => w.endsWith('.html'))).toBe(true);
    expect(
      leaks(
        {
          'FARMA_GUARD_HEADERS value': headerKey,
          'bearer token': bearer,
          'URL password': password,
          'URL Basic credentials': Buffer.from(`farma:${password}`).toString('base64'),
          'first 16 characters of the key at the cut': cutKey.slice(0, 16),
          'hex key': Buffer.from(cutKey).toString('hex'),
        },
        outputs,
      ),
    ).toEqual([]);
    // The echo really happened: the redacted forms are there.
    expect(c.stdout).toContain('x-api-key was [redacted]');
    expect(f.stdout).toMatch(/replay --guard '?http:\/\/\S*\[redacted\]@127\.0\.0\.1/);
  }, 120_000);
});

describe('redaction units', () => {
  it('every FARMA_GUARD_HEADERS value is a secret, and the token of an authorization scheme', () => {
    const env = { FARMA_GUARD_HEADERS: JSON.stringify({ 'x-api-key': 'abcdef123', authorization: 'Bearer tok123456' }) };
    expect(redactSecrets('k=abcdef123 a=Bearer tok123456 t=tok123456', env)).toBe('k=[redacted] a=[redacted] t=[redacted]');
  });

  it('a reason is redacted before it is cut (22.9)', () => {
    const key = `ck${hex(16)}`;
    const at = VERDICT_BOUNDS.reasonChars - 40;
    const reason = `${'x'.repeat(at)}${key}${'y'.repeat(2000)}`;
    const saved = process.env.FARMA_TEST_CUT_TOKEN;
    process.env.FARMA_TEST_CUT_TOKEN = key;
    try {
      const v = parseVerdict({ decision: 'reject', reasons: [reason] });
      expect(v.ok).toBe(true);
      const kept = v.ok ? v.verdict.reasons[0]! : '';
      expect(kept.length).toBeLessThanOrEqual(VERDICT_BOUNDS.reasonChars);
      expect(kept).not.toContain(key.slice(0, 8));
      expect(kept).toContain('[redacted]');
    } finally {
      if (saved === undefined) delete process.env.FARMA_TEST_CUT_TOKEN;
      else process.env.FARMA_TEST_CUT_TOKEN = saved;
    }
  });

  it('a secret cut short by any "…" marker is still hidden', () => {
    const env = { FARMA_TEST_TOKEN: 'abcdefghijklmnopqrstuvwxyz' };
    expect(redactSecrets('see abcdefghijklm… (40 more characters)', env)).toBe('see [redacted]… (40 more characters)');
    expect(redactSecrets('ends abcdefghijkl', env)).toBe('ends [redacted]');
    // A short prefix is ordinary text.
    expect(redactSecrets('abc… and abcdefg', env)).toBe('abc… and abcdefg');
  });

  it('a start of a secret masked with ... or * is hidden (a server echoing the key it refused)', () => {
    const env = { OPENAI_API_KEY: 'sk-test-lying-endpoint-key' };
    expect(redactSecrets('Incorrect API key provided: sk-test-lying-e**************-key.', env)).toBe('Incorrect API key provided: [redacted]**************-key.');
    expect(redactSecrets('key sk-test-lying-end... refused', env)).toBe('key [redacted]... refused');
  });

  it('an input line that quotes a secret: the malformed-JSON message shows [redacted] (hostile pass)', async () => {
    const { parseJsonlText, validateMemoryEntry } = await import('../../src/corpus/jsonl.js');
    const key = `tk${hex(12)}`;
    process.env.FARMA_TEST_LINE_TOKEN = key;
    try {
      const r = parseJsonlText(`{"id":"b","content":"${key} is my key" bad\n{"id":"c","content":"${'x'.repeat(40)}${key}\n`, 'in.jsonl', validateMemoryEntry);
      expect(r.issues).toHaveLength(2);
      for (const i of r.issues) expect(i.message).not.toContain(key.slice(0, 8));
      expect(r.issues[0]?.message).toContain('[redacted] is my key');
    } finally {
      delete process.env.FARMA_TEST_LINE_TOKEN;
    }
  });

  it('hex (either case), base64, base64url and URL encodings of a secret are hidden (22.11)', () => {
    const key = 'sk-test-~?>>hexkey';
    const env = { OPENAI_API_KEY: key };
    const forms = [
      Buffer.from(key).toString('hex'),
      Buffer.from(key).toString('hex').toUpperCase(),
      Buffer.from(key).toString('base64'),
      Buffer.from(key).toString('base64url'),
      encodeURIComponent(key),
    ];
    for (const f of forms) expect(redactSecrets(`x ${f} y`, env), f).toBe('x [redacted] y');
    expect(secretValues(env).length).toBeGreaterThanOrEqual(forms.length);
  });
});
