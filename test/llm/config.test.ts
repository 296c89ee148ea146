import { describe, expect, it } from 'vitest';
import { DEFAULT_LLM_MODEL, llmConfigFromEnv, redactSecrets } from '../../src/llm/index.js';

describe('llmConfigFromEnv', () => {
  it('names both missing variables', () => {
    const r = llmConfigFromEnv({});
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toContain('OPENAI_API_KEY');
    expect(r.reason).toContain('OPENAI_BASE_URL');
  });

  it('names only the missing one, and treats blank as missing', () => {
    const r = llmConfigFromEnv({ OPENAI_API_KEY: 'sk-abcdef', OPENAI_BASE_URL: '   ' });
    expect(r).toMatchObject({ ok: false });
    if (r.ok) return;
    expect(r.reason).toMatch(/not set: OPENAI_BASE_URL\./);
    expect(r.reason).not.toContain('sk-abcdef');
  });

  it('builds a config with defaults', () => {
    const r = llmConfigFromEnv({ OPENAI_API_KEY: 'sk-abcdef', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
    expect(r).toEqual({
      ok: true,
      config: expect.objectContaining({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-abcdef', model: DEFAULT_LLM_MODEL, timeoutMs: 60_000, maxRetries: 2 }),
    });
  });

  it('reads model, timeout and retries, and rejects bad numbers and URLs without echoing them', () => {
    const good = llmConfigFromEnv({
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: 'https://example.test/v1',
      FARMA_LLM_MODEL: 'local-7b',
      FARMA_LLM_TIMEOUT_MS: '1500',
      FARMA_LLM_MAX_RETRIES: '0',
    });
    expect(good).toMatchObject({ ok: true, config: { model: 'local-7b', timeoutMs: 1500, maxRetries: 0 } });
    const bad = llmConfigFromEnv({
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: 'ftp://user:hunter22@host',
      FARMA_LLM_TIMEOUT_MS: '-5',
      FARMA_LLM_MAX_RETRIES: 'many',
    });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.reason).toContain('OPENAI_BASE_URL is not a valid http(s) URL');
    expect(bad.reason).toContain('FARMA_LLM_TIMEOUT_MS');
    expect(bad.reason).toContain('FARMA_LLM_MAX_RETRIES');
    expect(bad.reason).not.toContain('hunter22');
  });
});

describe('redactSecrets', () => {
  const env = {
    OPENAI_API_KEY: 'sk-live-0123456789',
    GITHUB_TOKEN: 'ghp_tokenvalue42',
    DB_PASSWORD: 'correct-horse',
    SOME_SECRET_SALT: 'pepper-pepper',
    FEATURE_KEY_ENABLED: '1',
    HOME: '/home/user',
  };

  it('replaces the API key and secret-named values, leaving other text alone', () => {
    const text = 'key sk-live-0123456789, token ghp_tokenvalue42, pw correct-horse, salt pepper-pepper, home /home/user, flag 1';
    const out = redactSecrets(text, env);
    expect(out).toBe('key [redacted], token [redacted], pw [redacted], salt [redacted], home /home/user, flag 1');
  });

  it('redacts extra values and replaces the longest secret first', () => {
    const out = redactSecrets('abc-secret-value-long and abc-secret', { MY_SECRET: 'abc-secret' }, ['abc-secret-value-long']);
    expect(out).toBe('[redacted] and [redacted]');
  });
});
