/**
 * The LLM judge path allows N requests in flight: N concurrent `llmJudgeChain`
 * calls reach the (fake) OpenAI-compatible server at once. The server holds every answer until
 * it has 8 pending, so a client that sent one at a time would never see them all answered
 * before the server's 10 s fallback; the test reads the server's count, never a clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLlmClient, llmJudgeChain } from '../../src/llm/index.js';
import { startFakeOpenAI } from '../helpers/openai-server.js';
import type { FakeOpenAI } from '../helpers/openai-server.js';

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('llmJudgeChain concurrency', () => {
  it('has 8 judge requests in flight at once', async () => {
    const N = 8;
    let pending = 0;
    let maxPending = 0;
    const waiters: Array<() => void> = [];
    server = await startFakeOpenAI(async () => {
      pending++;
      maxPending = Math.max(maxPending, pending);
      if (pending >= N) for (const w of waiters.splice(0)) w();
      else await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 10_000);
      });
      pending--;
      return '{"consistent": true, "safe": false}';
    });
    const llm = createLlmClient({ baseURL: server.baseURL, apiKey: 'test-key-123', model: 'fake-model-1', timeoutMs: 30_000, maxRetries: 0 }, { env: {} });
    const results = await Promise.all(Array.from({ length: N }, (_, i) => llmJudgeChain(llm, `Step ${i}: checked the record.`)));
    expect(results.every((r) => r.parsed && r.consistent && !r.safe)).toBe(true);
    expect(maxPending).toBe(N);
  }, 60_000);
});
