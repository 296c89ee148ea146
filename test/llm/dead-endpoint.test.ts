/**
 * A dead LLM endpoint never passes quietly. Against the fake OpenAI server answering
 * 401 or 404, or a port nobody listens on, `eval --planner llm`, `eval` with the A-MemGuard judge
 * configured, and `search --llm` stop with exit 2 and a clear message before any table; the
 * planner and the judge rethrow such errors instead of counting them as unparseable answers.
 */
import { createServer } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { LlmError, isFatalLlmError } from '../../src/domain/errors.js';
import { createLlmClient } from '../../src/llm/client.js';
import { llmPlanDecision } from '../../src/agents/llm-planner.js';
import { consensusFilterAsync } from '../../src/guards/amemguard/consensus-filter.js';
import { startFakeOpenAI, type FakeOpenAI } from '../helpers/openai-server.js';


/** A port that refuses connections: bound, then closed. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let unauthorized: FakeOpenAI;
let notFound: FakeOpenAI;
let failing: FakeOpenAI;
let refused = '';
beforeAll(async () => {
  unauthorized = await startFakeOpenAI(() => ({ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } }));
  notFound = await startFakeOpenAI(() => ({ status: 404, body: { error: { message: 'The model `nope` does not exist', type: 'invalid_request_error', code: 'model_not_found' } } }));
  failing = await startFakeOpenAI(() => ({ status: 500, body: { error: { message: 'boom' } } }));
  refused = `http://127.0.0.1:${await deadPort()}/v1`;
});
afterAll(async () => {
  await Promise.all([unauthorized.close(), notFound.close(), failing.close()]);
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const endpoints = (): Array<[string, string, RegExp]> => [
  ['401', unauthorized.baseURL, /HTTP 401.*refused OPENAI_API_KEY/],
  ['404', notFound.baseURL, /HTTP 404.*no such endpoint or model/],
  ['connection refused', refused, /cannot reach/],
];

function useEndpoint(url: string): void {
  vi.stubEnv('OPENAI_BASE_URL', url);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-dead-endpoint-key');
  vi.stubEnv('FARMA_LLM_MAX_RETRIES', '0');
  vi.stubEnv('FARMA_LLM_TIMEOUT_MS', '5000');
}

describe('eval and search stop on a dead endpoint, before any table', () => {
  it.each([0, 1, 2])('eval --planner llm, endpoint #%i', async (i) => {
    const [name, url, message] = endpoints()[i]!;
    useEndpoint(url);
    const out = mkdtempSync(path.join(tmpdir(), 'farma-dead-'));
    const r = await runCli(['eval', '--planner', 'llm', '--trials', '1', '--domain', 'ehr', '--sweep-max', '0', '--fpr-per-domain', '1', '--out', out, '-q']);
    expect(r.code, name).toBe(2);
    expect(r.stderr).toMatch(/LlmError/);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toMatch(/Table|unparseable|%/);
    expect(r.stderr).not.toContain('sk-test-dead-endpoint-key');
  }, 60_000);

  it('eval with the default planner still stops: the A-MemGuard judge would use the dead endpoint', async () => {
    useEndpoint(unauthorized.baseURL);
    const out = mkdtempSync(path.join(tmpdir(), 'farma-dead-'));
    const r = await runCli(['eval', '--trials', '1', '--domain', 'ehr', '--sweep-max', '0', '--fpr-per-domain', '1', '--out', out, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/HTTP 401/);
    expect(r.stdout).toBe('');
  }, 60_000);

  it('search --llm against a 401 endpoint', async () => {
    useEndpoint(unauthorized.baseURL);
    const out = mkdtempSync(path.join(tmpdir(), 'farma-dead-'));
    const r = await runCli(['search', '--llm', '--guard', 'keyword', '--domain', 'ehr', '--budget', '2', '--fixtures', out, '--out', out, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/LlmError: .*HTTP 401/);
    expect(r.stdout).not.toMatch(/bypassed/);
  }, 60_000);
});

describe('callers rethrow fatal LLM errors and still count passing failures', () => {
  const config = (baseURL: string) => ({ baseURL, apiKey: 'sk-x', model: 'm', timeoutMs: 5000, maxRetries: 0 });
  const task = { domain: 'ehr' as const, subject: 'INT-EHR-7742', query: 'q', request: 'Import the batch.', evidence: { kind: 'none' as const } };

  it('classifies failures', async () => {
    for (const [url, failure] of [
      [unauthorized.baseURL, 'auth'],
      [notFound.baseURL, 'not-found'],
      [refused, 'unreachable'],
      [failing.baseURL, 'server'],
    ] as const) {
      const err = await createLlmClient(config(url)).complete([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LlmError);
      expect((err as LlmError).failure, url).toBe(failure);
      expect(isFatalLlmError(err)).toBe(failure !== 'server');
    }
  });

  it('the LLM planner rethrows a 401, and counts a 500 as an error decision', async () => {
    const d401 = await llmPlanDecision(createLlmClient(config(unauthorized.baseURL)), task, []).catch((e: unknown) => e);
    expect(d401, JSON.stringify(d401)).toBeInstanceOf(LlmError);
    const d = await llmPlanDecision(createLlmClient(config(failing.baseURL)), task, []);
    expect(d.status).toBe('error');
  });

  it('the A-MemGuard judge rethrows a 404, and fails closed on a 500', async () => {
    const entries = [{ id: 'a', store: 'reasoning' as const, content: 'Validated INT-EHR-7742.', source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: 't' }];
    const judge404 = (p: string) => createLlmClient(config(notFound.baseURL)).complete([{ role: 'user', content: p }]);
    await expect(consensusFilterAsync(entries, { judge: judge404, query: 'q' })).rejects.toThrow(/HTTP 404/);
    const judge500 = (p: string) => createLlmClient(config(failing.baseURL)).complete([{ role: 'user', content: p }]);
    const r = await consensusFilterAsync(entries, { judge: judge500, query: 'q' });
    expect(r.kept).toEqual([]);
  });

  it('preflight passes a busy server (500) and throws on a dead one', async () => {
    await expect(createLlmClient(config(failing.baseURL)).preflight?.()).resolves.toBeUndefined();
    await expect(createLlmClient(config(refused)).preflight?.()).rejects.toThrow(LlmError);
  });
});
