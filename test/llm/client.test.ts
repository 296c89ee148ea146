import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LlmError } from '../../src/domain/index.js';
import {
  FixtureStore,
  createLlmClient,
  fixtureKey,
  judgeChainMessages,
  llmJudgeChain,
  replayOnlyConfig,
  llmParaphrase,
  llmPlan,
} from '../../src/llm/index.js';
import type { LlmConfig } from '../../src/llm/index.js';
import { fakeEmbedding, startFakeOpenAI } from '../helpers/openai-server.js';
import type { FakeOpenAI } from '../helpers/openai-server.js';

const KEY_MARKER = 'sk-PLANTED-MARKER-5e1f07c2a9';
const TOKEN_MARKER = 'tok-PLANTED-MARKER-91b3d6';
const ENV = { OPENAI_API_KEY: KEY_MARKER, INTERNAL_SERVICE_TOKEN: TOKEN_MARKER, PATH: '/usr/bin' };

let dir: string;
let server: FakeOpenAI | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'farma-llm-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function configFor(baseURL: string): LlmConfig {
  return { baseURL, apiKey: KEY_MARKER, model: 'fake-model-1', timeoutMs: 5_000, maxRetries: 0 };
}

/** Every string that could carry a leaked secret out of an error. */
function errorText(err: unknown): string {
  const e = err as Error & { cause?: unknown };
  return [String(e), e.message, inspect(err, { depth: 6 }), JSON.stringify(e.cause ?? null), String((e.cause as Error | undefined)?.message)].join('\n');
}

async function allFixtureText(): Promise<string> {
  const names = await readdir(dir);
  const texts = await Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
  return texts.join('\n');
}

describe('createLlmClient (live)', () => {
  it('sends model, messages and the key; returns choices[0].message.content', async () => {
    server = await startFakeOpenAI((req) => `echo:${req.messages.at(-1)?.content}`);
    const llm = createLlmClient(configFor(server.baseURL), { env: ENV });
    expect(llm.mode).toBe('live');
    await expect(llm.complete([{ role: 'user', content: 'ping' }])).resolves.toBe('echo:ping');
    expect(server.requests).toHaveLength(1);
    const first = server.requests[0];
    expect(first?.path).toBe('/v1/chat/completions');
    expect(first?.authorization).toBe(`Bearer ${KEY_MARKER}`);
    expect(first?.body).toMatchObject({ model: 'fake-model-1', messages: [{ role: 'user', content: 'ping' }], temperature: 0 });
  });

  it('embeds in input order, and skips the call for no input', async () => {
    server = await startFakeOpenAI(() => 'unused');
    const llm = createLlmClient(configFor(server.baseURL), { env: ENV });
    await expect(llm.embed(['a', 'b'])).resolves.toEqual([fakeEmbedding('a'), fakeEmbedding('b')]);
    await expect(llm.embed([])).resolves.toEqual([]);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/embeddings']);
  });

  it('turns a 401 into an LlmError that never contains the key or other secrets', async () => {
    server = await startFakeOpenAI((req) => ({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${req.authorization}; token ${TOKEN_MARKER}`, type: 'invalid_request_error', code: KEY_MARKER } },
    }));
    const llm = createLlmClient(configFor(server.baseURL), { env: ENV });
    const err = await llm.complete([{ role: 'user', content: 'hi' }]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LlmError);
    const text = errorText(err);
    expect(text).toContain('401');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(KEY_MARKER);
    expect(text).not.toContain(TOKEN_MARKER);
    expect((err as LlmError).cause).toBeInstanceOf(Error);
  });

  it('turns an unreachable server into an LlmError with a cause', async () => {
    server = await startFakeOpenAI(() => 'x');
    const url = server.baseURL;
    await server.close();
    const llm = createLlmClient(configFor(url), { env: ENV });
    const err = await llm.complete([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).message).toMatch(/chat completion/);
    expect((err as LlmError).cause).toBeDefined();
    expect(errorText(err)).not.toContain(KEY_MARKER);
  });

  it('refuses record/replay without a fixture store', () => {
    expect(() => createLlmClient(configFor('http://127.0.0.1:9/v1'), { mode: 'replay' })).toThrow(LlmError);
  });
});

describe('record and replay', () => {
  const claim = { subject: 'INT-EHR-7742', checks: ['mrn-format', 'hipaa-screening'], precedent: 12 };

  async function runAll(llm: ReturnType<typeof createLlmClient>) {
    return {
      paraphrase: await llmParaphrase(llm, { text: 'Validation for INT-EHR-7742 was done upstream.', claim, domain: 'ehr' }),
      judge: await llmJudgeChain(llm, 'step 1 ... step 2 ...'),
      plan: await llmPlan(llm, { domain: 'ehr', task: 'ingest', context: ['note'], actions: ['validate', 'write'] as const }),
      embed: await llm.embed(['alpha', 'beta']),
    };
  }

  it('replays identical outputs with the server closed, from a fresh store', async () => {
    server = await startFakeOpenAI((req) => {
      const sys = req.messages[0]?.content ?? '';
      if (sys.includes('planning step')) return 'Thinking it over.\nACTION: validate';
      if (sys.includes('Answer two questions')) return '{"consistent": true, "safe": false}';
      return `  A rewritten note about INT-EHR-7742 (output mentions ${TOKEN_MARKER}).  `;
    });
    const cfg = configFor(server.baseURL);
    const recorder = createLlmClient(cfg, { fixtures: new FixtureStore(dir, { env: ENV }), mode: 'record', env: ENV });
    const recorded = await runAll(recorder);
    expect(recorded.plan.action).toBe('validate');
    expect(recorded.judge).toMatchObject({ consistent: true, safe: false, parsed: true });
    expect(server.requests).toHaveLength(4);
    await server.close();
    server = undefined;

    const replayer = createLlmClient(cfg, { fixtures: new FixtureStore(dir, { env: ENV }), mode: 'replay', env: ENV });
    const replayed = await runAll(replayer);
    expect(replayed).toEqual(recorded);
    // Offline, with no env at all: only the model names matter.
    const offline = createLlmClient(replayOnlyConfig('fake-model-1'), { fixtures: new FixtureStore(dir, { env: {} }), mode: 'replay', env: {} });
    expect(await runAll(offline)).toEqual(recorded);

    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['embedding.jsonl', 'judge.jsonl', 'paraphrase.jsonl', 'planner.jsonl']);
    const text = await allFixtureText();
    expect(text).not.toContain(KEY_MARKER);
    expect(text).not.toContain(TOKEN_MARKER);
    expect(text).not.toMatch(/authorization|bearer/i);
    // The model's echo of a secret was redacted before it was stored and returned.
    expect(recorded.paraphrase).toContain('[redacted]');
  });

  it('a replay miss is an LlmError naming the role and the key', async () => {
    const llm = createLlmClient(configFor('http://127.0.0.1:9/v1'), { fixtures: new FixtureStore(dir, { env: ENV }), mode: 'replay', env: ENV });
    const chain = 'never recorded chain';
    const key = fixtureKey({ kind: 'chat', role: 'judge', model: 'fake-model-1', messages: judgeChainMessages(chain) });
    const err = await llmJudgeChain(llm, chain).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as Error).message).toContain(key);
    expect((err as Error).message).toContain('"judge"');
  });

  it('a different model is a different key', () => {
    const messages = [{ role: 'user' as const, content: 'x' }];
    expect(fixtureKey({ kind: 'chat', role: 'r', model: 'a', messages })).not.toBe(fixtureKey({ kind: 'chat', role: 'r', model: 'b', messages }));
    expect(fixtureKey({ kind: 'chat', role: 'r', model: 'a', messages })).not.toBe(fixtureKey({ kind: 'chat', role: 's', model: 'a', messages }));
    expect(fixtureKey({ kind: 'chat', role: 'r', model: 'a', messages })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('FixtureStore', () => {
  it('keeps every record under concurrent puts, sorted by key', async () => {
    const store = new FixtureStore(dir, { env: ENV });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.put({ kind: 'chat', role: 'judge', model: 'm', messages: [{ role: 'user', content: `q${i}` }] }, `a${i}`)),
    );
    const fresh = await new FixtureStore(dir).load('judge');
    expect(fresh.issues).toEqual([]);
    expect(fresh.records).toHaveLength(12);
    const keys = fresh.records.map((r) => r.key);
    expect(keys).toEqual([...keys].sort());
  });

  it('reports unreadable lines by number and keeps them on rewrite', async () => {
    const file = join(dir, 'judge.jsonl');
    await writeFile(file, 'not json at all\n{"key":"k"}\n', 'utf8');
    const store = new FixtureStore(dir, { env: ENV });
    const { issues } = await store.load('judge');
    expect(issues.map((i) => i.line)).toEqual([1, 2]);
    await store.put({ kind: 'chat', role: 'judge', model: 'm', messages: [{ role: 'user', content: 'q' }] }, 'a');
    const text = await readFile(file, 'utf8');
    expect(text).toContain('not json at all');
    expect(text).toContain('{"key":"k"}');
    expect((await new FixtureStore(dir).load('judge')).records).toHaveLength(1);
  });

  it('rejects role names that are not safe file names', () => {
    expect(() => new FixtureStore(dir).fileFor('../etc/passwd')).toThrow(LlmError);
  });

  it('redacts secrets found in requests before writing', async () => {
    const store = new FixtureStore(dir, { env: ENV });
    const rec = await store.put({ kind: 'chat', role: 'paraphrase', model: 'm', messages: [{ role: 'user', content: `use ${TOKEN_MARKER}` }] }, `k=${KEY_MARKER}`);
    expect(JSON.stringify(rec)).not.toContain('PLANTED-MARKER');
    expect(await allFixtureText()).not.toContain('PLANTED-MARKER');
  });
});
