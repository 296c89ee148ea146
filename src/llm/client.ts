/**
 * The one place that talks to a model: a thin client over the `openai` SDK (v6) with three
 * modes. `live` calls the server; `record` calls the server and stores each output in a
 * `FixtureStore`; `replay` answers only from the store and never opens a connection.
 * Every error that leaves here is an `LlmError` whose message and cause are redacted.
 * `openai` is an optional peer dependency, loaded at the first call that needs the server: a
 * project without it gets an `LlmError` (failure `config`, exit 2) that says how to install it.
 */
import type OpenAI from 'openai';
import { importOptional } from '../domain/optional-package.js';
import { LlmError, isFatalLlmError, type LlmFailure } from '../domain/index.js';
import { plural } from '../domain/plural.js';
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
   * @throws LlmError whose `failure` is `auth`, `not-found` or `unreachable`, or `not-openai` when a
   *   200 reply is not a JSON chat completion with at least one choice (an HTML page, `{}`, an empty
   *   `choices` list, truncated JSON).
   */
  preflight?(): Promise<void>;
  /**
   * Live calls so far (`complete` and `embed` that reached the server or the fixture store, not
   * `preflight`) and how many of them threw, with the first error's redacted message: a run in
   * which every call failed measured nothing.
   */
  readonly calls?: { total: number; failed: number; firstError?: string };
}

/** Most bytes of one reply that are read (a chat completion or a batch of embeddings is far smaller). */
const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/**
 * A `fetch` for the SDK that bounds the whole request, body included, by `timeoutMs` (the SDK's
 * own timeout stops at the headers, so a server that sends headers and never ends the body
 * would hang the run), and reads at most {@link MAX_REPLY_BYTES}. The body is read
 * here in full and handed on as a buffered `Response`. A timeout rejects with an `AbortError`,
 * which the SDK retries and then reports as `APIConnectionTimeoutError`.
 */
function boundedFetch(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const ctl = new AbortController();
    const outer = init?.signal ?? undefined;
    const onAbort = (): void => ctl.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => ctl.abort(new DOMException(`no complete reply within ${timeoutMs} ms (timed out)`, 'AbortError')), timeoutMs);
    try {
      const res = await fetch(input, { ...init, signal: ctl.signal });
      const chunks: Uint8Array[] = [];
      let size = 0;
      if (res.body) {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          size += chunk.byteLength;
          if (size > MAX_REPLY_BYTES) {
            ctl.abort();
            throw new Error(`the reply is larger than ${MAX_REPLY_BYTES} bytes`);
          }
          chunks.push(chunk);
        }
      }
      const body = res.status === 204 || res.status === 304 ? null : Buffer.concat(chunks);
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
  };
}

/** Whether `res` has the shape of a chat completion: an object with a non-empty `choices` list whose first item has a `message`. */
function isChatCompletion(res: unknown): boolean {
  const choices = (res as { choices?: unknown } | null)?.choices;
  if (typeof res !== 'object' || !Array.isArray(choices) || choices.length === 0) return false;
  const message = (choices[0] as { message?: unknown } | null)?.message;
  return typeof message === 'object' && message !== null;
}

/** A short description of a reply that is not a chat completion (never its full text). */
function describeReply(res: unknown, contentType: string | null): string {
  const type = contentType ? `content-type ${contentType}` : 'no content-type';
  if (typeof res === 'string') return `${type}, ${res.length} characters of text starting ${JSON.stringify(res.trim().slice(0, 40))}`;
  if (typeof res === 'object' && res !== null) {
    const choices = (res as { choices?: unknown }).choices;
    const what = Array.isArray(choices) ? (choices.length === 0 ? 'an empty "choices" list' : 'a "choices" item with no "message"') : 'no "choices" list';
    // A proxy or gateway may answer 200 with an error object: its message says what went wrong.
    const err = (res as { error?: { message?: unknown } | string }).error;
    const said = typeof err === 'string' ? err : typeof err?.message === 'string' ? err.message : undefined;
    return `${type}, a JSON ${Array.isArray(res) ? 'array' : 'object'} with ${what}${said !== undefined ? `; its "error" says ${JSON.stringify(said.slice(0, 200))}` : ''}`;
  }
  return `${type}, ${typeof res}`;
}

/** The SDK's module once loaded (by the first call that needs the server). */
let openaiModule: typeof import('openai') | undefined;

/** Loads `openai`, or throws LlmError (failure `config`) naming the package and the install command. */
async function loadOpenAI(): Promise<typeof import('openai')> {
  if (openaiModule) return openaiModule;
  const r = await importOptional('openai', () => import('openai'), 'LLM features');
  if (!r.ok) throw new LlmError(r.hint, { failure: 'config' });
  return (openaiModule = r.module);
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
  // A reply over the size cap of boundedFetch surfaces as a connection error; it is the server's output that is wrong.
  if (openaiModule && err instanceof openaiModule.APIConnectionError && /the reply is larger than/.test(String((e.cause as { message?: unknown } | undefined)?.message ?? ''))) return 'bad-output';
  if (openaiModule && err instanceof openaiModule.APIConnectionError) return 'unreachable'; // includes APIConnectionTimeoutError
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

/** What the client's parts share: its config, mode, fixture store, redaction and the lazily built SDK client. */
interface ClientParts {
  config: LlmConfig;
  mode: LlmMode;
  fixtures: FixtureStore | undefined;
  /** Redacts the run's secrets (the environment's and the API key) from a text. */
  redact: (s: string) => string;
  /** The SDK client, built on first use (the `openai` package loads then). */
  api: () => Promise<OpenAI>;
}

/**
 * Runs `call` per mode, with fixture lookup/storage around it: `replay` answers from the
 * fixture store only, `record` stores the (redacted) output and returns what was stored, so
 * record and replay give the same value; `live` just calls.
 * @throws LlmError (`replay-miss`) in replay mode when no output of that request was recorded.
 */
async function throughFixtures<T extends string | number[][]>(p: ClientParts, request: FixtureRequest, call: () => Promise<T>): Promise<T> {
  if (p.mode === 'replay') {
    const key = fixtureKey(request);
    const hit = (await (p.fixtures as FixtureStore).get(request.role, key)) as FixtureRecord | undefined;
    if (!hit || hit.kind !== request.kind) {
      throw new LlmError(
        `replay: no recorded LLM output for role "${request.role}", model "${request.model}", key ${key} ` +
          `(looked in ${(p.fixtures as FixtureStore).fileFor(request.role)}); record it first with mode "record"`,
        { failure: 'replay-miss' },
      );
    }
    return hit.output as T;
  }
  const output = await call();
  if (p.mode === 'record') {
    // Return what was stored (redacted), so record and replay give the same value.
    return (await (p.fixtures as FixtureStore).put(request, output)).output as T;
  }
  return output;
}

/**
 * An SDK or transport error of `what` as an LlmError: redacted message, the HTTP status, its
 * failure class (`failureOf`) and a hint on what to check; the cause keeps only a redacted
 * summary (the SDK error can hold the response body and headers). An LlmError passes as it is.
 */
function wrapLlmError(p: ClientParts, what: string, err: unknown): LlmError {
  if (err instanceof LlmError) return err;
  const { config, redact } = p;
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
        : failure === 'unreachable' && openaiModule !== undefined && err instanceof openaiModule.APIConnectionTimeoutError
          ? ` (no complete reply from ${redact(config.baseURL)} within FARMA_LLM_TIMEOUT_MS = ${config.timeoutMs} ms, headers and body, in ${plural(config.maxRetries + 1, 'attempt')}: the server is too slow or never ends its reply)`
          : failure === 'unreachable'
            ? ` (cannot reach ${redact(config.baseURL)}: check OPENAI_BASE_URL and that the server runs)`
            : '';
  return new LlmError(`${what} failed${status}: ${message}${hint}`, { cause, failure });
}

/**
 * The client's `preflight`: one one-token chat completion, which must come back as a JSON chat
 * completion with a choice. A busy or failing server (429, 5xx) passes (the run counts its
 * errors); nothing is asked in replay mode.
 * @throws LlmError when the server is unreachable, refuses the key, has no such model, or
 *   answers with something that is not an OpenAI chat completion (`not-openai`).
 */
async function preflightCheck(p: ClientParts): Promise<void> {
  const { config, redact } = p;
  if (p.mode === 'replay') return;
  const what = `LLM check of ${redact(config.baseURL)} (model "${config.model}")`;
  let reply: { data: unknown; response: Response };
  try {
    reply = await (await p.api()).chat.completions.create({ model: config.model, messages: [{ role: 'user', content: 'Reply with OK.' }], temperature: 0, max_tokens: 1 }).withResponse();
  } catch (err) {
    const e = wrapLlmError(p, what, err);
    // A 200 whose body the SDK cannot parse (truncated or broken JSON) is no model either.
    if (e.failure === 'bad-output') {
      throw new LlmError(`${what} failed: the reply is not an OpenAI chat completion (the body could not be read as JSON: ${e.message.replace(/^.*? failed: /, '')})`, { cause: e, failure: 'not-openai' });
    }
    if (isFatalLlmError(e)) throw e;
    // A busy or failing server (429, 5xx) may recover: the run goes on and counts its errors.
    return;
  }
  // A 200 from a web server, a proxy's login page or a health endpoint is not a model:
  // the check needs a JSON chat completion with at least one choice.
  const contentType = reply.response.headers.get('content-type');
  if (!/\bjson\b/i.test(contentType ?? '') || !isChatCompletion(reply.data)) {
    throw new LlmError(
      `${what} failed: the reply is not an OpenAI chat completion (${redact(describeReply(reply.data, contentType))}); ` +
        'check that OPENAI_BASE_URL points at an OpenAI-compatible API, including its /v1 prefix',
      { failure: 'not-openai' },
    );
  }
}

/** One chat completion of the live API (inside {@link throughFixtures}): the reply's text, redacted. @throws LlmError on an SDK error or a reply with no text (`bad-output`). */
async function liveCompletion(p: ClientParts, role: string, msgs: ChatMessage[], opts: { temperature?: number; maxTokens?: number }): Promise<string> {
  const { config } = p;
  let res: OpenAI.Chat.Completions.ChatCompletion;
  try {
    res = await (await p.api()).chat.completions.create({
      model: config.model,
      messages: msgs,
      temperature: opts.temperature ?? 0,
      ...(opts.maxTokens !== undefined ? { max_tokens: opts.maxTokens } : {}),
    });
  } catch (err) {
    throw wrapLlmError(p, `LLM chat completion (role "${role}", model "${config.model}")`, err);
  }
  const content = res.choices?.[0]?.message?.content;
  if (typeof content !== 'string') {
    throw new LlmError(`LLM chat completion (role "${role}", model "${config.model}") returned no text`, { failure: 'bad-output' });
  }
  return p.redact(content);
}

/** One embedding call of the live API (inside {@link throughFixtures}): one vector per text, in input order. @throws LlmError on an SDK error or a reply of the wrong shape (`bad-output`). */
async function liveEmbedding(p: ClientParts, model: string, input: string[]): Promise<number[][]> {
  let res: OpenAI.Embeddings.CreateEmbeddingResponse;
  try {
    res = await (await p.api()).embeddings.create({ model, input, encoding_format: 'float' });
  } catch (err) {
    throw wrapLlmError(p, `LLM embedding (model "${model}")`, err);
  }
  const rows = [...(res.data ?? [])].sort((a, b) => a.index - b.index).map((d) => d.embedding);
  if (rows.length !== input.length || !rows.every((r) => Array.isArray(r) && r.every((x) => typeof x === 'number'))) {
    throw new LlmError(`LLM embedding (model "${model}") returned ${rows.length} vectors for ${input.length} texts`, { failure: 'bad-output' });
  }
  return rows;
}

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
  const api = async (): Promise<OpenAI> =>
    (sdk ??= new (await loadOpenAI()).default({
      baseURL: config.baseURL,
      apiKey: config.apiKey,
      timeout: config.timeoutMs,
      maxRetries: config.maxRetries,
      fetch: boundedFetch(config.timeoutMs),
    }));
  const parts: ClientParts = { config, mode, fixtures, redact, api };

  const calls: { total: number; failed: number; firstError?: string } = { total: 0, failed: 0 };
  /** Counts one call of `run` in {@link calls}, and its failure. */
  async function counted<T>(run: () => Promise<T>): Promise<T> {
    calls.total += 1;
    try {
      return await run();
    } catch (err) {
      calls.failed += 1;
      calls.firstError ??= redact(err instanceof Error ? err.message : String(err));
      throw err;
    }
  }

  return {
    mode,
    model: config.model,
    calls,
    preflight: () => preflightCheck(parts),
    async complete(messages, opts = {}) {
      const role = opts.role ?? DEFAULT_ROLE;
      const msgs = messages.map((m) => ({ role: m.role, content: m.content }));
      return counted(() => throughFixtures(parts, { kind: 'chat', role, model: config.model, messages: msgs }, () => liveCompletion(parts, role, msgs, opts)));
    },
    async embed(texts) {
      if (texts.length === 0) return [];
      const input = [...texts];
      return counted(() => throughFixtures(parts, { kind: 'embedding', role: EMBED_ROLE, model: embeddingModel, input }, () => liveEmbedding(parts, embeddingModel, input)));
    },
  };
}

/**
 * Throws when `client` made at least one call and every one of them failed: such a run measured
 * nothing from the model (each failure was counted as an error or an unparseable answer), so it
 * must not end as a success. `after` says what was already written.
 * @throws LlmError (exit 2) naming the count and the first error.
 * @example
 * const rows = await runLlmFamily({ ...o, client });
 * assertSomeLlmCallSucceeded(client, 'the report is written');
 */
export function assertSomeLlmCallSucceeded(client: LlmClient | undefined, after?: string): void {
  const t = client?.calls;
  if (t === undefined || t.total === 0 || t.failed < t.total) return;
  throw new LlmError(
    `every one of the ${t.total} LLM calls failed (first: ${t.firstError ?? 'unknown error'}), so nothing was measured from the model${after ? `; ${after}` : ''}`,
    { failure: 'server' },
  );
}
