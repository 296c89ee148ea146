/**
 * HTTP adapter: each entry is POSTed as JSON to a guard endpoint, which answers a Verdict.
 * Requests go over a keep-alive connection pool with up to `concurrency` in flight.
 * Protocol: `docs/guard-protocol.md`, "HTTP guards".
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import pLimit from 'p-limit';
import { GuardLoadError, errorVerdict } from '../../domain/index.js';
import { parseVerdict } from '../../domain/verdict-schema.js';
import type { Guard, GuardContext, MemoryEntry, Verdict } from '../../domain/index.js';
import { Circuit, PerInputQueue, INPUT_TIMES_OUT_GUARD, InputFailureMemory, inputKey, sleep } from './failure-memory.js';
import type { InputFailureRecord } from './failure-memory.js';
import { DEFAULT_GUARD_TIMEOUT_MS } from './module-guard.js';
import { DEFAULT_ADAPTER_CONCURRENCY, excerpt, startStopwatch, toWireRequest } from './wire-request.js';

export interface HttpGuardOptions {
  /** Per-attempt time bound in ms (default 5000). A timed-out attempt is not retried. */
  timeoutMs?: number;
  /** Most requests in flight at once, and most open keep-alive connections (default 8). */
  concurrency?: number;
  /** Extra attempts after a network error or a 5xx answer (default 2, so at most 3 attempts). */
  retries?: number;
  /** Backoff before retry k (k = 1, 2, ...) is `retryDelayMs * 2^(k-1)` ms (default 100). */
  retryDelayMs?: number;
  /** Timeouts of one input after which it is not sent again: later checks of it get `timeout` at once (default 2). */
  inputFailureLimit?: number;
  /** Distinct inputs failing in a row (timeout, or unreachable after the retries) that open the circuit (default 10). */
  circuitThreshold?: number;
  /** First open period of the circuit in ms, doubled per failed probe up to 30 s (default 1000). */
  circuitCooldownMs?: number;
  /** Extra request headers (e.g. an authorization token). Their values are not put in `config`. */
  headers?: Record<string, string>;
}

/** The HTTP guard's configuration, as it appears in reports (header values and the pool size left out). */
export interface HttpGuardConfig {
  adapter: 'http';
  url: string;
  timeoutMs: number;
  retries: number;
  retryDelayMs: number;
  inputFailureLimit: number;
  circuitThreshold: number;
  headerNames: string[];
}

/** Counters of an HTTP guard, for progress lines and tests. */
export interface HttpGuardStats {
  /** Attempts sent (retries included). */
  sent: number;
  notResent: number;
  refused: number;
  timeouts: number;
  maxInFlight: number;
  /** TCP connections opened; with keep-alive this stays near `concurrency`. */
  connections: number;
  circuit: 'closed' | 'open' | 'half-open';
  timesOpened: number;
  failingInputs: InputFailureRecord[];
}

/** A Guard backed by an HTTP endpoint, with its counters. */
export interface HttpGuard extends Guard {
  stats(): HttpGuardStats;
}

const MAX_COOLDOWN_MS = 30_000;

/**
 * Creates a guard that asks an HTTP endpoint for each verdict.
 *
 * Each `check` POSTs `{ entry, phase, store: { size: { reasoning, general } } }` as JSON to
 * `url` and expects status 200 with a Verdict JSON body. Connections are kept alive and
 * reused; at most `concurrency` requests are in flight. Redirects are never followed. It never rejects:
 * - 3xx, 4xx, a body over 1 MiB, a body that is not JSON, or JSON that is not a Verdict →
 *   `error` (kind `malformed`);
 * - no answer within `timeoutMs` → `error` (kind `timeout`); an input that timed out
 *   `inputFailureLimit` times gets `timeout` at once, message starting with
 *   {@link INPUT_TIMES_OUT_GUARD}, and is not sent again;
 * - network errors and 5xx are retried with exponential backoff; when the retries run out,
 *   → `error` (kind `unavailable`);
 * - `circuitThreshold` distinct inputs failing in a row (timeouts or unavailable) → the
 *   circuit opens: checks get `unavailable` at once for the cool-down, then one probe is sent;
 *   an answer closes it, a failure opens it for twice as long.
 * `elapsedUs` is the round trip the adapter measured for the answered attempt, including transport.
 *
 * @throws GuardLoadError when `url` is not an http(s) URL or an option is out of range.
 * @example
 * const guard = createHttpGuard('http://127.0.0.1:8787/check', { timeoutMs: 2000, concurrency: 8 });
 * try { await Promise.all(entries.map((e) => guard.check(e, ctx))); } finally { await guard.close?.(); }
 */
export function createHttpGuard(url: string, options: HttpGuardOptions = {}): HttpGuard {
  const s = httpGuardSettings(url, options);
  const { url: parsedUrl, timeoutMs, retries, retryDelayMs, inputFailureLimit } = s;
  const counts: HttpCounts = { sent: 0, notResent: 0, refused: 0, timeouts: 0, maxInFlight: 0, connections: 0 };
  // Transport: keep-alive POSTs. Pool: `concurrency` checks at once, one at a time per input.
  // Failure memory: inputs that time out are not sent again; the circuit stops calls to a dead endpoint.
  const transport = createHttpTransport(s, counts);
  const limit = pLimit(s.concurrency);
  const perInput = new PerInputQueue();
  const memory = new InputFailureMemory(inputFailureLimit);
  const circuit = new Circuit({ threshold: s.circuitThreshold, cooldownMs: s.cooldownMs, maxCooldownMs: Math.max(s.cooldownMs, MAX_COOLDOWN_MS) });
  let closed = false;

  const config: HttpGuardConfig = {
    adapter: 'http',
    url: parsedUrl.href,
    timeoutMs,
    retries,
    retryDelayMs,
    inputFailureLimit,
    circuitThreshold: s.circuitThreshold,
    headerNames: Object.keys(options.headers ?? {}).sort(),
  };

  async function attempt(body: string): Promise<Attempt> {
    const elapsed = startStopwatch();
    let timedOut = false;
    counts.sent++;
    try {
      const answer = await transport.post(body, () => (timedOut = true));
      // The guard's time ends with its answer; reading the answer is farma-fuzz's work.
      return readAnswer(answer, s.url, elapsed());
    } catch (cause) {
      if (timedOut) return { done: errorVerdict('timeout', `guard endpoint did not answer within ${timeoutMs} ms`, elapsed()), answered: false };
      if (closed) return { done: errorVerdict('unavailable', 'HTTP guard was closed', elapsed()), answered: false };
      return { retry: networkMessage(cause) };
    }
  }

  async function checkOne(entry: MemoryEntry, ctx: GuardContext): Promise<Verdict> {
    if (closed) return errorVerdict('unavailable', 'HTTP guard was closed', 0);
    let body: string;
    let key: string;
    try {
      body = JSON.stringify(toWireRequest(entry, ctx));
      key = inputKey(entry, ctx.phase);
    } catch (cause) {
      return errorVerdict('threw', `could not encode the request: ${cause instanceof Error ? cause.message : String(cause)}`, 0);
    }
    return perInput.run(key, () => decide(entry, key, body));
  }

  /** Answers from the per-input memory or the circuit, or POSTs the request (with retries). */
  async function decide(entry: MemoryEntry, key: string, body: string): Promise<Verdict> {
    const elapsed = startStopwatch();
    if (closed) return errorVerdict('unavailable', 'HTTP guard was closed', 0);
    const known = memory.blocked(key);
    if (known) {
      counts.notResent++;
      return errorVerdict('timeout', `${INPUT_TIMES_OUT_GUARD}: the endpoint did not answer it within ${timeoutMs} ms ${known.record.timeout} times, so it is not sent again`, 0);
    }
    const gate = circuit.admit();
    if (!gate.pass) {
      counts.refused++;
      return errorVerdict('unavailable', `guard endpoint ${parsedUrl.href} is down: ${gate.reason}`, 0);
    }
    const answersAtSend = circuit.answers;
    let last = '';
    let askedWaitMs: number | undefined;
    for (let k = 0; k <= retries; k++) {
      if (k > 0) await sleep(Math.max(retryDelayMs * 2 ** (k - 1), askedWaitMs ?? 0));
      if (closed) return errorVerdict('unavailable', 'HTTP guard was closed', elapsed());
      const result = await attempt(body);
      if ('retry' in result) {
        last = result.retry;
        askedWaitMs = result.waitMs;
        continue;
      }
      if (result.answered) {
        circuit.success(gate.probe);
        return result.done;
      }
      if (closed) return result.done;
      circuit.failure(key, gate.probe, answersAtSend);
      counts.timeouts++;
      const n = memory.record(key, 'timeout', result.done.error?.message ?? 'timeout', excerpt(entry.content, 120));
      const note = n < inputFailureLimit ? `timeout ${n} of this input; after ${inputFailureLimit} it is not sent again` : `timeout ${n} of this input; it is not sent again`;
      return errorVerdict('timeout', `${result.done.error?.message ?? 'timeout'} (${note})`, result.done.elapsedUs);
    }
    if (closed) return errorVerdict('unavailable', 'HTTP guard was closed', elapsed());
    circuit.failure(key, gate.probe, answersAtSend);
    return errorVerdict('unavailable', `guard endpoint ${parsedUrl.href} unavailable after ${retries + 1} attempt(s): ${last}`, elapsed());
  }

  return {
    id: `http:${parsedUrl.host}${parsedUrl.pathname === '/' ? '' : parsedUrl.pathname}`,
    mode: 'async',
    config,
    // Each attempt has its own timer, and the retries are bounded: the engine adds no clock of its own.
    boundsOwnCalls: true,
    check: (entry, ctx) => limit(() => checkOne(entry, ctx)),
    stats: () => ({ ...counts, circuit: circuit.state, timesOpened: circuit.timesOpened, failingInputs: memory.records() }),
    close: () => {
      closed = true;
      transport.destroy();
    },
  };
}


/** The options of one HTTP guard, validated, with their defaults. */
interface HttpSettings {
  url: URL;
  timeoutMs: number;
  concurrency: number;
  retries: number;
  retryDelayMs: number;
  inputFailureLimit: number;
  circuitThreshold: number;
  cooldownMs: number;
  headers: Record<string, string>;
}

/** The counters the transport and the failure memory keep (the rest of {@link HttpGuardStats}). */
type HttpCounts = Pick<HttpGuardStats, 'sent' | 'notResent' | 'refused' | 'timeouts' | 'maxInFlight' | 'connections'>;

/** One attempt: an answer to keep, or a failure that may be retried (after `waitMs` when the endpoint asked for it). */
type Attempt = { done: Verdict; answered: boolean } | { retry: string; waitMs?: number };

/** What one POST got back: the status, the headers the adapter reads, and the body text (`undefined` when over the cap). */
interface HttpAnswer {
  status: number;
  text: string | undefined;
  retryAfter?: string;
  location?: string;
}

/** Options: the URL and every bound checked, defaults filled in. @throws GuardLoadError naming the URL and the option. */
function httpGuardSettings(url: string, options: HttpGuardOptions): HttpSettings {
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch (cause) {
    throw new GuardLoadError(`HTTP guard: not a valid URL: ${JSON.stringify(url)}`, { cause, code: 'usage' });
  }
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') {
    throw new GuardLoadError(`HTTP guard: URL must start with http:// or https://, got ${JSON.stringify(url)}`, { code: 'usage' });
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_GUARD_TIMEOUT_MS;
  const concurrency = options.concurrency ?? DEFAULT_ADAPTER_CONCURRENCY;
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 100;
  const inputFailureLimit = options.inputFailureLimit ?? 2;
  const circuitThreshold = options.circuitThreshold ?? 10;
  const cooldownMs = options.circuitCooldownMs ?? 1000;
  if (!(timeoutMs > 0)) throw new GuardLoadError(`HTTP guard ${url}: timeoutMs must be > 0, got ${timeoutMs}`);
  for (const [name, value, min] of [
    ['concurrency', concurrency, 1],
    ['retries', retries, 0],
    ['inputFailureLimit', inputFailureLimit, 1],
    ['circuitThreshold', circuitThreshold, 1],
  ] as const) {
    if (!Number.isInteger(value) || value < min) throw new GuardLoadError(`HTTP guard ${url}: ${name} must be an integer >= ${min}, got ${value}`);
  }
  if (!(retryDelayMs >= 0)) throw new GuardLoadError(`HTTP guard ${url}: retryDelayMs must be >= 0, got ${retryDelayMs}`);
  if (!(cooldownMs >= 0)) throw new GuardLoadError(`HTTP guard ${url}: circuitCooldownMs must be >= 0, got ${cooldownMs}`);

  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...options.headers };
  return { url: parsedUrl, timeoutMs, concurrency, retries, retryDelayMs, inputFailureLimit, circuitThreshold, cooldownMs, headers };
}

/**
 * Transport: POSTs over a keep-alive agent with one socket per request in flight (idle
 * sockets are unref'd by node, so they never keep the process alive), a per-attempt timer,
 * a body cap of {@link MAX_RESPONSE_BYTES} and gzip, deflate or br decoding within that cap.
 * `destroy` ends every request in flight and the agent.
 */
function createHttpTransport(s: HttpSettings, counts: HttpCounts): { post(body: string, onTimeout: () => void): Promise<HttpAnswer>; destroy(): void } {
  const { url: parsedUrl, timeoutMs, headers, concurrency } = s;
  const transport = parsedUrl.protocol === 'https:' ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const inFlight = new Set<http.ClientRequest>();
  /** POSTs `body` once; resolves to the status, the headers the adapter reads and the body text (`undefined` when over the cap). */
  function post(body: string, onTimeout: () => void): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const req = transport.request(parsedUrl, {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      });
      inFlight.add(req);
      counts.maxInFlight = Math.max(counts.maxInFlight, inFlight.size);
      const timer = setTimeout(() => {
        onTimeout();
        req.destroy(new Error('timeout'));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        inFlight.delete(req);
      };
      req.on('socket', (socket) => {
        if (!(socket as { farmaSeen?: boolean }).farmaSeen) {
          (socket as { farmaSeen?: boolean }).farmaSeen = true;
          counts.connections++;
        }
      });
      req.on('error', (e) => {
        done();
        reject(e);
      });
      req.on('close', () => {
        // Closed before the body ended (a destroyed socket): settles nothing that already settled.
        done();
        reject(new Error('connection closed before the answer was complete'));
      });
      req.on('response', (res) => {
        const head = {
          ...(typeof res.headers['retry-after'] === 'string' ? { retryAfter: res.headers['retry-after'] } : {}),
          ...(typeof res.headers.location === 'string' ? { location: res.headers.location } : {}),
        };
        const chunks: Buffer[] = [];
        let size = 0;
        let over = false;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_RESPONSE_BYTES) {
            over = true;
            // The rest is not read: this socket is not reused.
            res.destroy();
            done();
            resolve({ status: res.statusCode ?? 0, text: undefined, ...head });
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => {
          if (over) return;
          done();
          const raw = Buffer.concat(chunks);
          // A server that compresses whatever the request asked (compression middleware): decoded, within the same size cap.
          const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
          let bytes: Buffer | undefined = raw;
          try {
            if (encoding === 'gzip' || encoding === 'x-gzip') bytes = zlib.gunzipSync(raw, { maxOutputLength: MAX_RESPONSE_BYTES });
            else if (encoding === 'deflate') bytes = zlib.inflateSync(raw, { maxOutputLength: MAX_RESPONSE_BYTES });
            else if (encoding === 'br') bytes = zlib.brotliDecompressSync(raw, { maxOutputLength: MAX_RESPONSE_BYTES });
          } catch (e) {
            if (e instanceof RangeError) bytes = undefined;
            else {
              reject(new Error(`the ${encoding} body could not be decoded: ${e instanceof Error ? e.message : String(e)}`));
              return;
            }
          }
          resolve({ status: res.statusCode ?? 0, text: bytes?.toString('utf8'), ...head });
        });
        res.on('error', (e) => {
          if (over) return;
          done();
          reject(e);
        });
      });
      req.end(body);
    });
  }

  return {
    post,
    destroy: () => {
      for (const req of inFlight) req.destroy(new Error('closed'));
      agent.destroy();
    },
  };
}

/**
 * Protocol: what an answer means. A body over the cap, a redirect, a status other than 200
 * (each with a hint at the usual cause), an empty body, text that is not JSON, or JSON that is
 * not a Verdict is a `malformed` error; 429 and 5xx are retried (honouring Retry-After); a
 * Verdict gets the measured round trip as `elapsedUs`.
 */
function readAnswer({ status, text, retryAfter, location }: HttpAnswer, parsedUrl: URL, tookUs: number): Attempt {
  if (text === undefined) {
    return { done: errorVerdict('malformed', `guard endpoint answered more than ${MAX_RESPONSE_BYTES} bytes`, tookUs), answered: true };
  }
  // 429 (rate limit) and 5xx are retried; a Retry-After the endpoint sends is honoured, up to a bound.
  if (status >= 500 || status === 429) {
    const waitMs = retryAfterMs(retryAfter);
    return { retry: `HTTP ${status}${retryAfter !== undefined ? ` (Retry-After: ${retryAfter})` : ''}: ${excerpt(text)}`, ...(waitMs !== undefined ? { waitMs } : {}) };
  }
  if (status >= 300 && status < 400) {
    const to = location !== undefined ? new URL(location, parsedUrl).href : undefined;
    return {
      done: errorVerdict('malformed', `guard endpoint answered HTTP ${status}, a redirect${to ? ` to ${to}` : ''}; redirects are not followed: give that URL as the guard spec`, tookUs),
      answered: true,
    };
  }
  if (status !== 200) {
    const hint =
      status === 400 || status === 422 || status === 415
        ? ' (the endpoint refused the request: it is a POST of application/json {"entry": {...}, "phase": "write"|"retrieve", "store": {"size": {...}}}, docs/guard-protocol.md)'
        : status === 404
          ? ` (nothing answers at ${parsedUrl.pathname}: the guard spec is the full URL of the check route, e.g. http://host:port/check)`
          : status === 405
            ? ' (the route does not take POST: farma-fuzz POSTs each entry as JSON)'
            : status === 401 || status === 403
              ? ' (the endpoint wants credentials: give them as headers, FARMA_GUARD_AUTHORIZATION or FARMA_GUARD_HEADERS on the command line, HttpGuardOptions.headers in code)'
              : '';
    return { done: errorVerdict('malformed', `guard endpoint answered HTTP ${status}: ${excerpt(text)}${hint}`, tookUs), answered: true };
  }
  const bodyText = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (bodyText.trim() === '') return { done: errorVerdict('malformed', 'guard endpoint answered HTTP 200 with an empty body; expected a Verdict as JSON', tookUs), answered: true };
  let json: unknown;
  try {
    json = JSON.parse(bodyText);
  } catch {
    return { done: errorVerdict('malformed', `guard endpoint answered a body that is not JSON: ${excerpt(bodyText)}`, tookUs), answered: true };
  }
  const parsed = parseVerdict(json);
  if (!parsed.ok) return { done: errorVerdict('malformed', `guard endpoint answered a malformed verdict: ${parsed.message}`, tookUs), answered: true };
  return { done: { ...parsed.verdict, elapsedUs: tookUs }, answered: true };
}

/** Longest wait a `Retry-After` header can ask for before a retry, ms. */
const MAX_RETRY_AFTER_MS = 10_000;

/** A `Retry-After` value (seconds, or an HTTP date) as ms, at most {@link MAX_RETRY_AFTER_MS}; `undefined` when absent or unreadable. */
function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  const ms = /^\d+(\.\d+)?$/.test(v) ? Number(v) * 1000 : Date.parse(v) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : undefined;
}

/** Socket errors carry a `code` (ECONNREFUSED, ECONNRESET, ...): keep it in the message. */
function networkMessage(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  const text = typeof code === 'string' && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
  return `${excerpt(text, 300)}${typeof code === 'string' ? (NETWORK_HINTS[code] ?? '') : ''}`;
}

/** What a socket error usually means for a guard endpoint. */
const NETWORK_HINTS: Readonly<Record<string, string>> = {
  ECONNREFUSED: ' (nothing listens there: is the guard server running, on that host and port?)',
  EPROTO: ' (a TLS handshake failed: is the endpoint plain http:// rather than https://?)',
  DEPTH_ZERO_SELF_SIGNED_CERT: ' (the endpoint has a self-signed certificate: trust it with NODE_EXTRA_CA_CERTS=<its .pem>)',
  SELF_SIGNED_CERT_IN_CHAIN: ' (the certificate chain ends in an untrusted root: trust it with NODE_EXTRA_CA_CERTS=<ca .pem>)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: ' (the certificate cannot be verified: trust its CA with NODE_EXTRA_CA_CERTS=<ca .pem>)',
  ERR_TLS_CERT_ALTNAME_INVALID: " (the certificate does not name this host: use the host name it was issued for)",
  ENOTFOUND: ' (the host name does not resolve)',
};

/** Largest verdict body accepted from an HTTP guard, bytes. */
const MAX_RESPONSE_BYTES = 1 << 20;
