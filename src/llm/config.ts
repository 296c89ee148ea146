/**
 * LLM configuration from the environment, and secret redaction for anything that leaves the
 * process (reports, logs, fixtures, error messages). DESIGN.md "Real parts": every LLM role
 * goes through `OPENAI_API_KEY` and `OPENAI_BASE_URL`, so any OpenAI-compatible server works.
 */

/** What `createLlmClient` needs. `timeoutMs` is per request in milliseconds. */
export interface LlmConfig {
  /** Base URL of an OpenAI-compatible API, including its version prefix, e.g. `http://127.0.0.1:8080/v1`. */
  baseURL: string;
  apiKey: string;
  /** Chat model used by every role; part of every fixture key. */
  model: string;
  /** Per-request timeout in milliseconds. */
  timeoutMs: number;
  /** Retries the SDK makes on 408/409/429/5xx and connection errors. */
  maxRetries: number;
  /** Embedding model; `DEFAULT_EMBEDDING_MODEL` when absent. */
  embeddingModel?: string;
}

export type LlmConfigResult = { ok: true; config: LlmConfig } | { ok: false; reason: string };

export const DEFAULT_LLM_MODEL = 'gpt-4o-mini';
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
const DEFAULT_LLM_TIMEOUT_MS = 60_000;
const DEFAULT_LLM_MAX_RETRIES = 2;

/** Environment variables read by `llmConfigFromEnv`, with what each one sets. */
const LLM_ENV_VARS = {
  OPENAI_API_KEY: 'API key (required)',
  OPENAI_BASE_URL: 'base URL of an OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1 (required)',
  FARMA_LLM_MODEL: `chat model (default ${DEFAULT_LLM_MODEL})`,
  FARMA_LLM_EMBEDDING_MODEL: `embedding model (default ${DEFAULT_EMBEDDING_MODEL})`,
  FARMA_LLM_TIMEOUT_MS: `per-request timeout in ms (default ${DEFAULT_LLM_TIMEOUT_MS})`,
  FARMA_LLM_MAX_RETRIES: `retries on transient failures (default ${DEFAULT_LLM_MAX_RETRIES})`,
} as const satisfies Record<string, string>;

type LlmEnvVar = keyof typeof LLM_ENV_VARS;

type Env = Readonly<Record<string, string | undefined>>;

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

function intVar(env: Env, name: LlmEnvVar, fallback: number, min: number): number | string {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) return `${name} must be a whole number >= ${min}`;
  const n = Number(raw);
  return n >= min ? n : `${name} must be a whole number >= ${min}`;
}

/**
 * Reads the LLM configuration. Both `OPENAI_API_KEY` and `OPENAI_BASE_URL` are required
 * (blank counts as missing); nothing here contacts a server.
 *
 * @returns `{ ok: true, config }`, or `{ ok: false, reason }` where `reason` names every missing
 *   or invalid variable (never its value). Never throws.
 * @example
 * const r = llmConfigFromEnv();
 * if (!r.ok) throw new LlmError(r.reason);
 */
export function llmConfigFromEnv(env: Env = process.env): LlmConfigResult {
  const apiKey = nonEmpty(env['OPENAI_API_KEY']);
  const baseURL = nonEmpty(env['OPENAI_BASE_URL']);
  const missing = [apiKey ? null : 'OPENAI_API_KEY', baseURL ? null : 'OPENAI_BASE_URL'].filter(
    (x): x is string => x !== null,
  );
  if (missing.length > 0) {
    return {
      ok: false,
      reason:
        `LLM features need OPENAI_API_KEY and OPENAI_BASE_URL; not set: ${missing.join(', ')}. ` +
        'Set both to use a live OpenAI-compatible server, or replay recorded fixtures instead.',
    };
  }
  const problems: string[] = [];
  let url: URL | undefined;
  try {
    url = new URL(baseURL as string);
  } catch {
    url = undefined;
  }
  // The value itself is never echoed: a URL may carry credentials.
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    problems.push('OPENAI_BASE_URL is not a valid http(s) URL');
  }
  const timeoutMs = intVar(env, 'FARMA_LLM_TIMEOUT_MS', DEFAULT_LLM_TIMEOUT_MS, 1);
  const maxRetries = intVar(env, 'FARMA_LLM_MAX_RETRIES', DEFAULT_LLM_MAX_RETRIES, 0);
  if (typeof timeoutMs === 'string') problems.push(timeoutMs);
  if (typeof maxRetries === 'string') problems.push(maxRetries);
  if (problems.length > 0 || typeof timeoutMs === 'string' || typeof maxRetries === 'string') {
    return { ok: false, reason: `invalid LLM configuration: ${problems.join('; ')}` };
  }
  return {
    ok: true,
    config: {
      baseURL: baseURL as string,
      apiKey: apiKey as string,
      model: nonEmpty(env['FARMA_LLM_MODEL']) ?? DEFAULT_LLM_MODEL,
      embeddingModel: nonEmpty(env['FARMA_LLM_EMBEDDING_MODEL']) ?? DEFAULT_EMBEDDING_MODEL,
      timeoutMs,
      maxRetries,
    },
  };
}

// Secret redaction lives in src/domain/secrets.ts (guards' text needs it too); re-exported here.
export { redactDeep, redactSecrets } from '../domain/secrets.js';

/**
 * A config for `replay` mode when no server is configured: only `model` (and the embedding
 * model) matter, because they are part of every fixture key; the URL and key are placeholders
 * that are never used. Pass the model the fixtures were recorded with.
 *
 * @example
 * const llm = createLlmClient(replayOnlyConfig('gpt-4o-mini'), { fixtures: new FixtureStore(), mode: 'replay' });
 */
export function replayOnlyConfig(model: string = DEFAULT_LLM_MODEL, embeddingModel: string = DEFAULT_EMBEDDING_MODEL): LlmConfig {
  return { baseURL: 'http://127.0.0.1:9/v1', apiKey: '', model, embeddingModel, timeoutMs: DEFAULT_LLM_TIMEOUT_MS, maxRetries: 0 };
}
