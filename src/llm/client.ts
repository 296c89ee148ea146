/**
 * The one place that talks to a model: a thin client over the `openai` SDK (v6) with three
 * modes. `live` calls the server; `record` calls the server and stores each output in a
 * `FixtureStore`; `replay` answers only from the store and never opens a connection.
 * Every error that leaves here is an `LlmError` whose message and cause are redacted.
 */
import OpenAI from 'openai';
import { LlmError, isFatalLlmError, type LlmFailure } from '../domain/index.js';
import { DEFAULT_EMBEDDING_MODEL, redactSecrets } from './config.js';
import type { LlmConfig } from './config.js';
import { fixtureKey } from './fixtures.js';
import type { FixtureRecord, FixtureRequest, FixtureStore } from './fixtures.js';
import type { ChatMessage } from './messages.js';

export type LlmMode = 'live' | 'record' | 'replay';

interface CompleteOptions {
  /** LLM role; names the fixture file and is part of the key (default `'complete'`). */
  role?: string;
  /** Sampling temperature in [0, 2] (default 0, so recordings are as stable as the server allows). */
  temperature?: number;
  /** Upper bound on generated tokens (sent as `max_tokens`). */
  maxTokens?: number;
}

export interface LlmClient {
  readonly mode: LlmMode;
  readonly model: string;
  /**
   * One chat completion; resolves to the text of `choices[0].message.content`, with any secret
   * value (see `redactSecrets`) replaced, so live, record and replay all return the same string.
   * @throws LlmError when the call fails, returns no text, or (replay) no fixture exists.
   */
  complete(messages: readonly ChatMessage[], opts?: CompleteOptions): Promise<string>;
  /**
   * Embeds each text; one vector per input, in input order. An empty list gives `[]` with no call.
   * @throws LlmError as `complete`.
   */
  embed(texts: readonly string[]): Promise<number[][]>;
  /**
   * One tiny chat completion (at most 1 token), sent straight to the server and never recorded,
   * to find a dead endpoint before a run starts. Resolves at once in `replay` mode, and also
   * when the server is only busy or failing (429, 5xx): the run then counts its errors.
   * @throws LlmError whose `failure` is `auth`, `not-found` or `unreachable`.
   */
  preflight?(): Promise<void>;
}

/** Classifies an SDK error: HTTP status first, then the connection error's code or name. */
function failureOf(err: unknown): LlmFailure {
  const e = err as { status?: unknown; name?: unknown; code?: unknown; cause?: unknown };
  const status = typeof e.status === 'number' ? e.status : undefined;
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not-found';
  if (status === 429) return 'rate-limit';
  if (status !== undefined && status >= 500) return 'server';
  if (status !== undefined && status >= 400) return 'bad-request';
  if (err instanceof OpenAI.APIConnectionError) return 'unreachable'; // includes APIConnectionTimeoutError
  const codes = [e.code, (e.cause as { code?: unknown } | undefined)?.code, e.name].map((x) => String(x ?? ''));
  if (codes.some((c) => /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|APIConnection|Timeout|UND_ERR/i.test(c))) return 'unreachable';
  return 'bad-output';
}

export interface LlmClientOptions {
  fixtures?: FixtureStore;
  /** Default `'record'` when `fixtures` is given, else `'live'`. */
  mode?: LlmMode;
  /** Environment whose secret values are redacted from errors (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

const DEFAULT_ROLE = 'complete';
const EMBED_ROLE = 'embedding';

/**
 * Builds an LLM client. Nothing is contacted until `complete`/`embed` is called, and in
 * `replay` mode never (the config's `model` still selects which fixtures match).
 *
 * @throws LlmError when `mode` is `record` or `replay` without a fixture store.
 * @example
 * const cfg = llmConfigFromEnv();
 * if (!cfg.ok) throw new LlmError(cfg.reason);
 * const llm = createLlmClient(cfg.config, { fixtures: new FixtureStore(), mode: 'record' });
 * const text = await llm.complete([{ role: 'user', content: 'Say hi' }]);
 */
export function createLlmClient(config: LlmConfig, options: LlmClientOptions = {}): LlmClient {
  const fixtures = options.fixtures;
  const mode: LlmMode = options.mode ?? (fixtures ? 'record' : 'live');
  const env = options.env ?? process.env;
  const secrets = config.apiKey ? [config.apiKey] : [];
  const redact = (s: string): string => redactSecrets(s, env, secrets);
  if (mode !== 'live' && !fixtures) throw new LlmError(`LLM mode "${mode}" needs a fixture store`);
  fixtures?.addSecrets(secrets);
  const embeddingModel = config.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;

  let sdk: OpenAI | undefined;
  const api = (): OpenAI =>
    (sdk ??= new OpenAI({
      baseURL: config.baseURL,
      apiKey: config.apiKey,
      timeout: config.timeoutMs,
      maxRetries: config.maxRetries,
    }));

  /** Runs `call` per mode, with fixture lookup/storage around it. */
  async function through<T extends string | number[][]>(request: FixtureRequest, call: () => Promise<T>): Promise<T> {
    if (mode === 'replay') {
      const key = fixtureKey(request);
      const hit = (await (fixtures as FixtureStore).get(request.role, key)) as FixtureRecord | undefined;
      if (!hit || hit.kind !== request.kind) {
        throw new LlmError(
          `replay: no recorded LLM output for role "${request.role}", model "${request.model}", key ${key} ` +
            `(looked in ${(fixtures as FixtureStore).fileFor(request.role)}); record it first with mode "record"`,
          { failure: 'replay-miss' },
        );
      }
      return hit.output as T;
    }
    const output = await call();
    if (mode === 'record') {
      // Return what was stored (redacted), so record and replay give the same value.
      return (await (fixtures as FixtureStore).put(request, output)).output as T;
    }
    return output;
  }

  function wrap(what: string, err: unknown): LlmError {
    if (err instanceof LlmError) return err;
    const e = err as { name?: unknown; message?: unknown; status?: unknown; code?: unknown; cause?: unknown };
    const status = typeof e.status === 'number' ? ` (HTTP ${e.status})` : '';
    const inner = e.cause instanceof Error ? `: ${e.cause.message}` : '';
    // The SDK prefixes API errors with the status, which is already in our message.
    const base = String(e.message ?? err).replace(/^\d{3} /, '');
    const message = redact(`${base}${inner}`);
    // The SDK error can hold the response body and headers; keep only a redacted summary as cause.
    const cause = Object.assign(new Error(message), {
      name: typeof e.name === 'string' ? e.name : 'Error',
      ...(typeof e.status === 'number' ? { status: e.status } : {}),
      ...(typeof e.code === 'string' ? { code: redact(e.code) } : {}),
    });
    const failure = failureOf(err);
    const hint =
      failure === 'auth'
        ? ' (the server refused OPENAI_API_KEY)'
        : failure === 'not-found'
          ? ` (no such endpoint or model at ${redact(config.baseURL)}: check OPENAI_BASE_URL, which includes the /v1 prefix, and FARMA_LLM_MODEL)`
          : failure === 'unreachable'
            ? ` (cannot reach ${redact(config.baseURL)}: check OPENAI_BASE_URL and that the server runs)`
            : '';
    return new LlmError(`${what} failed${status}: ${message}${hint}`, { cause, failure });
  }

  return {
    mode,
    model: config.model,
    async preflight() {
      if (mode === 'replay') return;
      try {
        await api().chat.completions.create({ model: config.model, messages: [{ role: 'user', content: 'Reply with OK.' }], temperature: 0, max_tokens: 1 });
      } catch (err) {
        const e = wrap(`LLM check of ${redact(config.baseURL)} (model "${config.model}")`, err);
        // A busy or failing server (429, 5xx) may recover: the run goes on and counts its errors.
        if (isFatalLlmError(e)) throw e;
      }
    },
    async complete(messages, opts = {}) {
      const role = opts.role ?? DEFAULT_ROLE;
      const msgs = messages.map((m) => ({ role: m.role, content: m.content }));
      return through({ kind: 'chat', role, model: config.model, messages: msgs }, async () => {
        let res: OpenAI.Chat.Completions.ChatCompletion;
        try {
          res = await api().chat.completions.create({
            model: config.model,
            messages: msgs,
            temperature: opts.temperature ?? 0,
            ...(opts.maxTokens !== undefined ? { max_tokens: opts.maxTokens } : {}),
          });
        } catch (err) {
          throw wrap(`LLM chat completion (role "${role}", model "${config.model}")`, err);
        }
        const content = res.choices?.[0]?.message?.content;
        if (typeof content !== 'string') {
          throw new LlmError(`LLM chat completion (role "${role}", model "${config.model}") returned no text`, { failure: 'bad-output' });
        }
        return redact(content);
      });
    },
    async embed(texts) {
      if (texts.length === 0) return [];
      const input = [...texts];
      return through({ kind: 'embedding', role: EMBED_ROLE, model: embeddingModel, input }, async () => {
        let res: OpenAI.Embeddings.CreateEmbeddingResponse;
        try {
          res = await api().embeddings.create({ model: embeddingModel, input, encoding_format: 'float' });
        } catch (err) {
          throw wrap(`LLM embedding (model "${embeddingModel}")`, err);
        }
        const rows = [...(res.data ?? [])].sort((a, b) => a.index - b.index).map((d) => d.embedding);
        if (rows.length !== input.length || !rows.every((r) => Array.isArray(r) && r.every((x) => typeof x === 'number'))) {
          throw new LlmError(`LLM embedding (model "${embeddingModel}") returned ${rows.length} vectors for ${input.length} texts`, { failure: 'bad-output' });
        }
        return rows;
      });
    },
  };
}
