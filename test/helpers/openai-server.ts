/**
 * A small OpenAI-compatible HTTP server for tests (node:http on 127.0.0.1, port 0).
 * Serves `POST /v1/chat/completions` from a scripted handler and `POST /v1/embeddings`
 * with deterministic vectors. Bodies are capped, connections are closed on `close()`.
 * It never contacts anything else.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  /** The parsed JSON request body. */
  body: unknown;
  /** The `Authorization` header as received (tests use it to simulate a key being echoed). */
  authorization: string | undefined;
}

export type FakeReply = string | { status: number; body: unknown };

export type FakeHandler = (req: FakeChatRequest) => FakeReply | Promise<FakeReply>;

interface FakeRequestLog {
  path: string;
  body: unknown;
  authorization: string | undefined;
}

export interface FakeOpenAI {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  baseURL: string;
  /** Every request received, in order (at most `maxLoggedRequests`). */
  requests: FakeRequestLog[];
  close(): Promise<void>;
}

export interface FakeOpenAIOptions {
  /** Vectors for `/v1/embeddings`; default: 8 numbers in [-1, 1] from a sha256 of each text. */
  embed?: (input: string[], model: string) => number[][];
  /** Largest accepted request body in bytes (default 1 MiB; larger → 413). */
  maxBodyBytes?: number;
  /** Oldest requests are dropped past this many (default 1000). */
  maxLoggedRequests?: number;
}

/** Deterministic stand-in embedding: 8 numbers in [-1, 1] derived from sha256(text). */
export function fakeEmbedding(text: string): number[] {
  const h = createHash('sha256').update(text).digest();
  return Array.from({ length: 8 }, (_, i) => (h[i] as number) / 127.5 - 1);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the limit, chunks are drained and dropped (memory stays bounded) and the reply is 413.
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limit) chunks.push(c);
    });
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function errorBody(message: string, type = 'invalid_request_error'): unknown {
  return { error: { message, type, param: null, code: null } };
}

/**
 * Starts the fake server. The handler's string reply becomes `choices[0].message.content` of a
 * normal completion (with `usage`); a `{ status, body }` reply is sent as-is (e.g. a 401).
 * A handler that throws gives a 500.
 */
export async function startFakeOpenAI(handler: FakeHandler, options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const maxLogged = options.maxLoggedRequests ?? 1000;
  const embed = options.embed ?? ((input: string[]) => input.map(fakeEmbedding));
  const requests: FakeRequestLog[] = [];
  let counter = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.method !== 'POST') return send(res, 405, errorBody(`method ${req.method} not allowed`));
      const text = await readBody(req, maxBody);
      if (text === null) return send(res, 413, errorBody('request body too large'));
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return send(res, 400, errorBody('body is not JSON'));
      }
      const authorization = req.headers.authorization;
      requests.push({ path, body, authorization });
      if (requests.length > maxLogged) requests.shift();
      const b = (body ?? {}) as Record<string, unknown>;
      const model = typeof b['model'] === 'string' ? b['model'] : '';

      if (path === '/v1/chat/completions') {
        const messages = Array.isArray(b['messages'])
          ? (b['messages'] as unknown[]).map((m) => {
              const r = (m ?? {}) as Record<string, unknown>;
              return { role: String(r['role'] ?? ''), content: typeof r['content'] === 'string' ? r['content'] : JSON.stringify(r['content']) };
            })
          : [];
        let reply: FakeReply;
        try {
          reply = await handler({ model, messages, body, authorization });
        } catch (err) {
          return send(res, 500, errorBody(`fake handler threw: ${(err as Error).message}`, 'server_error'));
        }
        if (typeof reply !== 'string') return send(res, reply.status, reply.body);
        counter += 1;
        const promptTokens = messages.reduce((n, m) => n + m.content.split(/\s+/).length, 0);
        const completionTokens = reply.split(/\s+/).length;
        return send(res, 200, {
          id: `chatcmpl-fake-${counter}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply, refusal: null }, finish_reason: 'stop', logprobs: null }],
          usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
        });
      }

      if (path === '/v1/embeddings') {
        const raw = b['input'];
        const input = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.map(String) : [];
        const vectors = embed(input, model);
        const asBase64 = b['encoding_format'] === 'base64';
        return send(res, 200, {
          object: 'list',
          model,
          data: vectors.map((v, index) => ({
            object: 'embedding',
            index,
            embedding: asBase64 ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v,
          })),
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        });
      }

      return send(res, 404, errorBody(`no route ${path}`));
    })().catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, errorBody(String(err), 'server_error'));
      else res.destroy();
    });
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  server.keepAliveTimeout = 1_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
