/**
 * Recorded LLM outputs, so that adaptive corpora replay offline (DESIGN.md "Real parts").
 * One JSONL file per LLM role: `<dir>/<role>.jsonl`, one record per line, sorted by key.
 * Unreadable lines are reported by `load` as line-numbered issues and kept on rewrite.
 * A record is keyed by the sha256 of the canonical (RFC 8785, `canonicalize`) request:
 * kind + model + role + messages (or embedding input). Only the request body's content is
 * kept: never the API key, never any header. Every string is passed through `redactSecrets`
 * before it is written.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import lockfile from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import { LlmError } from '../domain/index.js';
import { redactDeep } from './config.js';
import type { ChatMessage } from './messages.js';

/** Default folder for fixtures, relative to the repository root. */
export const DEFAULT_FIXTURE_DIR = 'corpora/llm-fixtures';

/** What identifies one LLM call. The fixture key is the sha256 of its canonical JSON. */
export type FixtureRequest =
  | { kind: 'chat'; role: string; model: string; messages: readonly ChatMessage[] }
  | { kind: 'embedding'; role: string; model: string; input: readonly string[] };

/** One line of a fixture file: the request, its key, and what the model returned. */
export type FixtureRecord =
  | { key: string; kind: 'chat'; role: string; model: string; messages: ChatMessage[]; output: string }
  | { key: string; kind: 'embedding'; role: string; model: string; input: string[]; output: number[][] };

/** A fixture line that could not be read; `line` is 1-based. */
export interface FixtureIssue {
  file: string;
  line: number;
  message: string;
}

const ROLE_RE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The fixture key of a request: lower-case hex sha256 of its canonical JSON.
 * Pure; the same request always gives the same key, whatever the property order.
 */
export function fixtureKey(request: FixtureRequest): string {
  const body =
    request.kind === 'chat'
      ? { kind: 'chat', role: request.role, model: request.model, messages: request.messages.map((m) => ({ role: m.role, content: m.content })) }
      : { kind: 'embedding', role: request.role, model: request.model, input: [...request.input] };
  const text = canonicalize(body);
  if (text === undefined) throw new LlmError('cannot canonicalize the LLM request');
  return createHash('sha256').update(text).digest('hex');
}

function isRecord(v: unknown): v is FixtureRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  if (typeof r['key'] !== 'string' || typeof r['role'] !== 'string' || typeof r['model'] !== 'string') return false;
  if (r['kind'] === 'chat') {
    return (
      typeof r['output'] === 'string' &&
      Array.isArray(r['messages']) &&
      r['messages'].every((m) => typeof m === 'object' && m !== null && typeof (m as ChatMessage).content === 'string')
    );
  }
  if (r['kind'] === 'embedding') {
    return (
      Array.isArray(r['input']) &&
      Array.isArray(r['output']) &&
      r['output'].every((row) => Array.isArray(row) && row.every((x) => typeof x === 'number'))
    );
  }
  return false;
}

interface Parsed {
  records: Map<string, FixtureRecord>;
  issues: FixtureIssue[];
  /** Lines that could not be read, kept verbatim so a rewrite never drops them. */
  badLines: string[];
}

function parseLines(file: string, text: string): Parsed {
  const records = new Map<string, FixtureRecord>();
  const issues: FixtureIssue[] = [];
  const badLines: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      issues.push({ file, line: i + 1, message: `not JSON: ${(err as Error).message}` });
      badLines.push(line);
      return;
    }
    if (!isRecord(value)) {
      issues.push({ file, line: i + 1, message: 'not a fixture record (needs key, kind, role, model, output)' });
      badLines.push(line);
      return;
    }
    records.set(value.key, value);
  });
  return { records, issues, badLines };
}


export interface FixtureStoreOptions {
  /** Environment whose secret values are redacted from every record (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Further secret values to redact, e.g. an API key passed in code. */
  secrets?: readonly string[];
}

/**
 * Reads and writes fixture files under `dir` (default `corpora/llm-fixtures`).
 * Writes hold a `proper-lockfile` lock on the role file, merge with what is on disk, and
 * replace the file atomically (`write-file-atomic`), so concurrent recorders lose nothing.
 *
 * @throws LlmError for a role name that is not a safe file name (`[a-z0-9][a-z0-9_-]*`),
 *   or when a fixture file cannot be read (other than not existing) or written.
 * @example
 * const store = new FixtureStore('corpora/llm-fixtures');
 * const client = createLlmClient(config, { fixtures: store, mode: 'replay' });
 */
export class FixtureStore {
  readonly dir: string;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #secrets: string[];
  readonly #cache = new Map<string, Map<string, FixtureRecord>>();
  readonly #issues = new Map<string, FixtureIssue[]>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(dir: string = DEFAULT_FIXTURE_DIR, options: FixtureStoreOptions = {}) {
    this.dir = dir;
    this.#env = options.env ?? process.env;
    this.#secrets = [...(options.secrets ?? [])];
  }

  /** Adds secret values to redact (the client registers its API key here). */
  addSecrets(secrets: readonly string[]): void {
    for (const s of secrets) if (s && !this.#secrets.includes(s)) this.#secrets.push(s);
  }

  /** Path of a role's fixture file. @throws LlmError for an unsafe role name. */
  fileFor(role: string): string {
    if (!ROLE_RE.test(role)) throw new LlmError(`invalid LLM role name for a fixture file: ${JSON.stringify(role)}`);
    return join(this.dir, `${role}.jsonl`);
  }

  async #read(role: string): Promise<Parsed> {
    const file = this.fileFor(role);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: new Map(), issues: [], badLines: [] };
      throw new LlmError(`cannot read LLM fixtures ${file}`, { cause: err });
    }
    return parseLines(file, text);
  }

  /** All records of a role plus line-numbered issues for lines that could not be read. */
  async load(role: string): Promise<{ records: FixtureRecord[]; issues: FixtureIssue[] }> {
    const records = await this.#ensure(role);
    return { records: [...records.values()], issues: [...(this.#issues.get(role) ?? [])] };
  }

  async #ensure(role: string): Promise<Map<string, FixtureRecord>> {
    const cached = this.#cache.get(role);
    if (cached) return cached;
    const { records, issues } = await this.#read(role);
    this.#cache.set(role, records);
    this.#issues.set(role, issues);
    return records;
  }

  /** The recorded output for `key` in `role`'s file, or `undefined`. */
  async get(role: string, key: string): Promise<FixtureRecord | undefined> {
    return (await this.#ensure(role)).get(key);
  }

  /**
   * Records (or replaces) one output. The request's strings and the output are redacted first;
   * the returned record is exactly what was written.
   */
  async put(request: FixtureRequest, output: string | number[][]): Promise<FixtureRecord> {
    const key = fixtureKey(request);
    const raw: FixtureRecord =
      request.kind === 'chat'
        ? { key, kind: 'chat', role: request.role, model: request.model, messages: request.messages.map((m) => ({ role: m.role, content: m.content })), output: output as string }
        : { key, kind: 'embedding', role: request.role, model: request.model, input: [...request.input], output: output as number[][] };
    const record = redactDeep(raw, this.#env, this.#secrets);
    const run = this.#queue.then(() => this.#write(request.role, record));
    this.#queue = run.catch(() => undefined);
    await run;
    return record;
  }

  async #write(role: string, record: FixtureRecord): Promise<void> {
    const file = this.fileFor(role);
    try {
      await mkdir(this.dir, { recursive: true });
    } catch (err) {
      throw new LlmError(`cannot create LLM fixture folder ${this.dir}`, { cause: err });
    }
    let release: (() => Promise<void>) | undefined;
    try {
      release = await lockfile.lock(file, { realpath: false, stale: 10_000, retries: { retries: 50, minTimeout: 10, maxTimeout: 200 } });
      const { records, issues, badLines } = await this.#read(role);
      records.set(record.key, record);
      const lines = [...records.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((r) => JSON.stringify(r));
      // Unreadable lines are kept at the end, untouched: nothing is deleted automatically.
      await writeFileAtomic(file, [...lines, ...badLines].join('\n') + '\n', 'utf8');
      this.#cache.set(role, records);
      this.#issues.set(role, issues);
    } catch (err) {
      if (err instanceof LlmError) throw err;
      throw new LlmError(`cannot write LLM fixtures ${file}`, { cause: err });
    } finally {
      if (release) await release().catch(() => undefined);
    }
  }
}
