/**
 * An LLM endpoint that lies never passes quietly. A server on 127.0.0.1
 * answers in a scripted, hostile way: 200 with an HTML page, JSON that is not a chat completion
 * (empty `choices`, truncated JSON, wrong content type), 500 on every call after a good start-up
 * check, or headers followed by a body that never ends. The start-up check needs a real
 * chat-completion reply; a run in which every LLM call failed exits 2; a body that never ends is
 * bounded by FARMA_LLM_TIMEOUT_MS like the headers are.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { LlmError } from '../../src/domain/errors.js';
import { createLlmClient } from '../../src/llm/client.js';
import { runCli } from '../helpers/run-cli.js';

type Script = (res: ServerResponse, n: number) => void;

const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A server that answers request number n (from 1) with `script(res, n)`; returns its /v1 base URL. */
async function hostile(script: Script): Promise<string> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => script(res, ++n));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const completion = (content: string): string =>
  JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

const reply = (status: number, type: string, body: string): Script => (res) => {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
};

const HTML = '<!doctype html><html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>';

const lies: Array<[string, Script]> = [
  ['200 with an HTML page', reply(200, 'text/html', HTML)],
  ['200 with JSON that is not a completion', reply(200, 'application/json', '{"status":"ok"}')],
  ['200 with empty choices', reply(200, 'application/json', '{"id":"x","object":"chat.completion","choices":[]}')],
  ['200 with truncated JSON', reply(200, 'application/json', completion('OK').slice(0, 40))],
  ['200 with a completion sent as text/html', reply(200, 'text/html', completion('OK'))],
];

function useEndpoint(url: string, timeoutMs = 5000): void {
  vi.stubEnv('OPENAI_BASE_URL', url);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-lying-endpoint-key');
  vi.stubEnv('FARMA_LLM_MAX_RETRIES', '0');
  vi.stubEnv('FARMA_LLM_TIMEOUT_MS', String(timeoutMs));
}

const config = (baseURL: string, timeoutMs = 5000) => ({ baseURL, apiKey: 'sk-x', model: 'm', timeoutMs, maxRetries: 0 });

describe('the start-up check needs a real chat-completion reply (22.6)', () => {
  it.each(lies)('preflight refuses %s', async (_name, script) => {
    const url = await hostile(script);
    const err = await createLlmClient(config(url)).preflight?.().catch((e: unknown) => e);
    // The completion sent as text/html is still a completion: the SDK parses only JSON types, so it is refused too.
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).message).toMatch(/not an OpenAI chat completion/);
  });

  it('a 200 carrying an error object: the message quotes what it says', async () => {
    const url = await hostile(reply(200, 'application/json', '{"error":{"message":"upstream model overloaded","type":"proxy_error"}}'));
    const err = await createLlmClient(config(url)).preflight?.().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).message).toMatch(/no "choices" list; its "error" says "upstream model overloaded"/);
  });

  it('preflight accepts a real completion, even an empty one cut by max_tokens', async () => {
    const url = await hostile(reply(200, 'application/json; charset=utf-8', completion('')));
    await expect(createLlmClient(config(url)).preflight?.()).resolves.toBeUndefined();
  });

  it('eval --planner llm against an HTML page stops with exit 2 before any table', async () => {
    useEndpoint(await hostile(reply(200, 'text/html', HTML)));
    const out = mkdtempSync(path.join(tmpdir(), 'farma-lying-'));
    const r = await runCli(['eval', '--planner', 'llm', '--trials', '1', '--domain', 'ehr', '--sweep-max', '0', '--fpr-per-domain', '1', '--out', out, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/LlmError: .*not an OpenAI chat completion.*text\/html/);
    expect(r.stdout).not.toMatch(/FPR|%/);
    expect(r.stderr).not.toContain('sk-test-lying-endpoint-key');
  }, 60_000);

  it('search --llm against an HTML page stops with exit 2', async () => {
    useEndpoint(await hostile(reply(200, 'text/html', HTML)));
    const out = mkdtempSync(path.join(tmpdir(), 'farma-lying-'));
    const r = await runCli(['search', '--llm', '--guard', 'keyword', '--domain', 'ehr', '--budget', '2', '--llm-n', '2', '--fixtures', out, '--out', out, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not an OpenAI chat completion/);
    expect(r.stdout).not.toMatch(/bypassed/);
  }, 60_000);
});

describe('a run in which every LLM call failed exits 2 (22.6)', () => {
  // The first request (the start-up check) gets a real completion, every later one a 500.
  const goodThen500: Script = (res, n) => (n === 1 ? reply(200, 'application/json', completion('OK'))(res, n) : reply(500, 'application/json', '{"error":{"message":"boom"}}')(res, n));

  it('eval --planner llm', async () => {
    useEndpoint(await hostile(goodThen500));
    const out = mkdtempSync(path.join(tmpdir(), 'farma-lying-'));
    const r = await runCli(['eval', '--planner', 'llm', '--trials', '1', '--domain', 'ehr', '--sweep-max', '0', '--fpr-per-domain', '1', '--out', out, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/every one of the \d+ LLM calls failed \(first: .*HTTP 500/);
  }, 60_000);

  it('search --llm', async () => {
    useEndpoint(await hostile(goodThen500));
    const out = mkdtempSync(path.join(tmpdir(), 'farma-lying-'));
    const r = await runCli(['search', '--llm', '--guard', 'keyword', '--domain', 'ehr', '--budget', '2', '--llm-n', '2', '--fixtures', out, '--out', out, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/every one of the \d+ LLM calls failed/);
  }, 60_000);
});

describe('a body that never ends is bounded by the timeout (22.7)', () => {
  const neverEnds: Script = (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"id":"x","object":"chat.completion","choices":[');
  };

  it('complete() fails within the timeout as an LlmError', async () => {
    const url = await hostile(neverEnds);
    const err = await createLlmClient(config(url, 300)).complete([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).message).toMatch(/timed out/i);
    // The hint names the bound, not a connection problem.
    expect((err as LlmError).message).toMatch(/no complete reply .* within FARMA_LLM_TIMEOUT_MS = 300 ms, headers and body/);
    expect((err as LlmError).message).not.toMatch(/cannot reach/);
  }, 30_000);

  it('a body that drips one byte at a time, never ending, is bounded too', async () => {
    const url = await hostile((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(t));
    });
    const err = await createLlmClient(config(url, 300)).complete([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).message).toMatch(/within FARMA_LLM_TIMEOUT_MS/);
  }, 30_000);

  it('preflight fails on it too', async () => {
    const url = await hostile(neverEnds);
    await expect(createLlmClient(config(url, 300)).preflight?.()).rejects.toThrow(LlmError);
  }, 30_000);

  it('eval --planner llm stops with exit 2 instead of hanging', async () => {
    useEndpoint(await hostile(neverEnds), 300);
    const out = mkdtempSync(path.join(tmpdir(), 'farma-lying-'));
    const r = await runCli(['eval', '--planner', 'llm', '--trials', '1', '--domain', 'ehr', '--sweep-max', '0', '--fpr-per-domain', '1', '--out', out, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/timed out/i);
  }, 60_000);
});
