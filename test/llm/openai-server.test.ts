import { afterEach, describe, expect, it } from 'vitest';
import { LlmError } from '../../src/domain/index.js';
import { createLlmClient } from '../../src/llm/index.js';
import { startFakeOpenAI } from '../helpers/openai-server.js';
import type { FakeOpenAI } from '../helpers/openai-server.js';

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('startFakeOpenAI', () => {
  it('listens on 127.0.0.1 and answers in the OpenAI chat shape with usage', async () => {
    server = await startFakeOpenAI(async (req) => `model=${req.model}`);
    expect(server.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm1', messages: [{ role: 'user', content: 'a b c' }] }),
    });
    const body = (await res.json()) as { choices: { message: { content: string } }[]; usage: { total_tokens: number } };
    expect(body.choices[0]?.message.content).toBe('model=m1');
    expect(body.usage.total_tokens).toBeGreaterThan(0);
  });

  it('is bounded: oversized bodies get 413, unknown routes 404', async () => {
    server = await startFakeOpenAI(() => 'x', { maxBodyBytes: 100 });
    const big = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: JSON.stringify({ pad: 'y'.repeat(500) }) });
    expect(big.status).toBe(413);
    const missing = await fetch(`${server.baseURL}/models/x`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
  });

  it('a throwing handler becomes a 500, which the client reports as LlmError', async () => {
    server = await startFakeOpenAI(() => {
      throw new Error('scripted failure');
    });
    const llm = createLlmClient({ baseURL: server.baseURL, apiKey: 'k-123456', model: 'm', timeoutMs: 5_000, maxRetries: 0 }, { env: {} });
    const err = await llm.complete([{ role: 'user', content: 'q' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as Error).message).toContain('HTTP 500');
  });

  it('close() is idempotent and stops the server', async () => {
    const s = await startFakeOpenAI(() => 'x');
    await Promise.all([s.close(), s.close()]);
    await expect(fetch(`${s.baseURL}/chat/completions`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
