/**
 * HTTP adapter: each entry is POSTed as JSON to a guard endpoint, which answers a Verdict.
 * Protocol: `docs/guard-protocol.md`, "HTTP guards".
 */
import pLimit from 'p-limit';
import { GuardLoadError, errorVerdict, parseVerdict } from '../../domain/index.js';
import type { Guard, GuardContext, MemoryEntry, Verdict } from '../../domain/index.js';
import { DEFAULT_GUARD_TIMEOUT_MS } from './module-guard.js';
import { excerpt, startStopwatch, toWireRequest } from './wire-request.js';

export interface HttpGuardOptions {
  /** Per-attempt time bound in ms (default 5000). A timed-out attempt is not retried. */
  timeoutMs?: number;
  /** Most requests in flight at once (default 4). */
  concurrency?: number;
  /** Extra attempts after a network error or a 5xx answer (default 2, so at most 3 attempts). */
  retries?: number;
  /** Backoff before retry k (k = 1, 2, ...) is `retryDelayMs * 2^(k-1)` ms (default 100). */
  retryDelayMs?: number;
  /** Extra request headers (e.g. an authorization token). Their values are not put in `config`. */
  headers?: Record<string, string>;
}

/** The HTTP guard's configuration, as it appears in reports (header values left out). */
export interface HttpGuardConfig {
  adapter: 'http';
  url: string;
  timeoutMs: number;
  concurrency: number;
  retries: number;
  retryDelayMs: number;
  headerNames: string[];
}

/**
 * Creates a guard that asks an HTTP endpoint for each verdict.
 *
 * Each `check` POSTs `{ entry, phase, store: { size: { reasoning, general } } }` as JSON to
 * `url` and expects status 200 with a Verdict JSON body. It never rejects:
 * - 4xx, a body that is not JSON, or JSON that is not a Verdict → `error` (kind `malformed`);
 * - no answer within `timeoutMs` → `error` (kind `timeout`);
 * - network errors and 5xx are retried with exponential backoff; when the retries run out,
 *   → `error` (kind `unavailable`).
 * `elapsedUs` is the round trip the adapter measured for the answered attempt, including transport.
 *
 * @throws GuardLoadError when `url` is not an http(s) URL or an option is out of range.
 * @example
 * const guard = createHttpGuard('http://127.0.0.1:8787/check', { timeoutMs: 2000, concurrency: 8 });
 */
export function createHttpGuard(url: string, options: HttpGuardOptions = {}): Guard {
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch (cause) {
    throw new GuardLoadError(`HTTP guard: not a valid URL: ${JSON.stringify(url)}`, { cause });
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') {
    throw new GuardLoadError(`HTTP guard: URL must start with http:// or https://, got ${JSON.stringify(url)}`);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_GUARD_TIMEOUT_MS;
  const concurrency = options.concurrency ?? 4;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 100;
  if (!(timeoutMs > 0)) throw new GuardLoadError(`HTTP guard ${url}: timeoutMs must be > 0, got ${timeoutMs}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new GuardLoadError(`HTTP guard ${url}: concurrency must be an integer >= 1, got ${concurrency}`);
  }
  if (!Number.isInteger(retries) || retries < 0) throw new GuardLoadError(`HTTP guard ${url}: retries must be an integer >= 0, got ${retries}`);
  if (!(retryDelayMs >= 0)) throw new GuardLoadError(`HTTP guard ${url}: retryDelayMs must be >= 0, got ${retryDelayMs}`);

  const headers = { 'content-type': 'application/json', accept: 'application/json', ...options.headers };
  const limit = pLimit(concurrency);
  const inFlight = new Set<AbortController>();
  let closed = false;

  const config: HttpGuardConfig = {
    adapter: 'http',
    url: parsedUrl.href,
    timeoutMs,
    concurrency,
    retries,
    retryDelayMs,
    headerNames: Object.keys(options.headers ?? {}).sort(),
  };

  /** One attempt: an answer to keep, or a failure that may be retried. */
  type Attempt = { done: Verdict } | { retry: string };

  async function attempt(body: string): Promise<Attempt> {
    const elapsed = startStopwatch();
    const controller = new AbortController();
    inFlight.add(controller);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      // Redirects are not followed: entries go only to the host the user named.
      const res = await fetch(parsedUrl, { method: 'POST', headers, body, signal: controller.signal, redirect: 'manual' });
      const text = await readCapped(res, MAX_RESPONSE_BYTES);
      if (text === undefined) {
        return { done: errorVerdict('malformed', `guard endpoint answered more than ${MAX_RESPONSE_BYTES} bytes`, elapsed()) };
      }
      if (res.status >= 500) return { retry: `HTTP ${res.status}: ${excerpt(text)}` };
      if (res.status !== 200) {
        return { done: errorVerdict('malformed', `guard endpoint answered HTTP ${res.status}: ${excerpt(text)}`, elapsed()) };
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return { done: errorVerdict('malformed', `guard endpoint answered a body that is not JSON: ${excerpt(text)}`, elapsed()) };
      }
      const parsed = parseVerdict(json);
      if (!parsed.ok) return { done: errorVerdict('malformed', `guard endpoint answered a malformed verdict: ${parsed.message}`, elapsed()) };
      return { done: { ...parsed.verdict, elapsedUs: elapsed() } };
    } catch (cause) {
      if (timedOut) return { done: errorVerdict('timeout', `guard endpoint did not answer within ${timeoutMs} ms`, elapsed()) };
      if (closed) return { done: errorVerdict('unavailable', 'HTTP guard was closed', elapsed()) };
      return { retry: networkMessage(cause) };
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
    }
  }

  async function checkOne(entry: MemoryEntry, ctx: GuardContext): Promise<Verdict> {
    const elapsed = startStopwatch();
    if (closed) return errorVerdict('unavailable', 'HTTP guard was closed', 0);
    let body: string;
    try {
      body = JSON.stringify(toWireRequest(entry, ctx));
    } catch (cause) {
      return errorVerdict('threw', `could not encode the request: ${cause instanceof Error ? cause.message : String(cause)}`, 0);
    }
    let last = '';
    for (let k = 0; k <= retries; k++) {
      if (k > 0) await sleep(retryDelayMs * 2 ** (k - 1));
      if (closed) return errorVerdict('unavailable', 'HTTP guard was closed', elapsed());
      const result = await attempt(body);
      if ('done' in result) return result.done;
      last = result.retry;
    }
    return errorVerdict('unavailable', `guard endpoint ${parsedUrl.href} unavailable after ${retries + 1} attempt(s): ${last}`, elapsed());
  }

  return {
    id: `http:${parsedUrl.host}${parsedUrl.pathname === '/' ? '' : parsedUrl.pathname}`,
    mode: 'async',
    config,
    check: (entry, ctx) => limit(() => checkOne(entry, ctx)),
    close: () => {
      closed = true;
      for (const c of inFlight) c.abort();
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((res) => setTimeout(res, ms));
}

/** fetch wraps socket errors as `TypeError: fetch failed` with the real error in `cause`. */
function networkMessage(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause;
  if (inner instanceof Error) {
    const code = (inner as { code?: unknown }).code;
    return `${cause.message} (${typeof code === 'string' ? `${code}: ` : ''}${inner.message})`;
  }
  return cause.message;
}

/** Largest verdict body accepted from an HTTP guard, bytes. */
export const MAX_RESPONSE_BYTES = 1 << 20;

/** Reads a response body up to `max` bytes; `undefined` when it is larger (the rest is not read). */
async function readCapped(res: Response, max: number): Promise<string | undefined> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
