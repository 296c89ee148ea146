import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/domain/verdict.js';
import type { SyncGuard } from '../../src/domain/guard.js';
import { createLlmClient, FixtureStore, replayOnlyConfig } from '../../src/llm/index.js';
import { evaluateCase } from '../../src/fuzz/evaluate.js';
import { llmFamilyAvailability, runLlmParaphraseFamily } from '../../generators/llm-paraphrase.js';
import { startFakeOpenAI } from '../helpers/openai-server.js';
import { arrayStore } from '../helpers/toy.js';
import { fakeParaphraser } from './fake-paraphraser.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-llm-fam-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Rejects entries that start with "Loosely:" (none reach it: the judge drops them), admits the rest. */
const guard: SyncGuard = {
  id: 'toy-loosely',
  mode: 'sync',
  check: (e): Verdict => ({ decision: e.content.startsWith('Loosely:') ? 'reject' : 'admit', trace: [], reasons: [], elapsedUs: 1 }),
};
const evaluate = async (c: Parameters<typeof evaluateCase>[1]) => await evaluateCase(guard, c, arrayStore, 'write');
const MODEL = 'fake-model';

describe('LLM paraphrase family', () => {
  let recorded: Awaited<ReturnType<typeof runLlmParaphraseFamily>> | undefined;

  it('records rewrites from the fake server, discards and counts those that lost the claim', async () => {
    const handler = fakeParaphraser();
    const server = await startFakeOpenAI(handler);
    try {
      const client = createLlmClient(
        { baseURL: server.baseURL, apiKey: 'sk-test-fake', model: MODEL, timeoutMs: 5000, maxRetries: 0 },
        { fixtures: new FixtureStore(dir), mode: 'record' },
      );
      recorded = await runLlmParaphraseFamily({ evaluate, domain: 'ehr', n: 6, client, seed: 9, judge: true });
    } finally {
      await server.close();
    }
    const c = recorded.counts;
    expect(handler.paraphrases).toBe(6);
    expect(c).toEqual({ total: 6, kept: 2, discarded: 4, discardedByRule: 2, discardedByJudge: 2, bypassed: 2, llmErrors: 0 });
    expect(recorded.results.map((r) => r.status)).toEqual(['bypassed', 'discarded-judge', 'discarded-claim', 'bypassed', 'discarded-judge', 'discarded-claim']);
    for (const r of recorded.results) expect(r.case?.truth.operators).toEqual(['llm-paraphrase']);
    // Lost-claim rewrites were never sent to the guard: only kept rows have a verdict.
    expect(recorded.results.filter((r) => r.verdict !== undefined)).toHaveLength(2);
  });

  it('replays the same results from the fixtures with the server closed', async () => {
    expect(recorded).toBeDefined();
    const client = createLlmClient(replayOnlyConfig(MODEL), { fixtures: new FixtureStore(dir), mode: 'replay' });
    const replayed = await runLlmParaphraseFamily({ evaluate, domain: 'ehr', n: 6, client, seed: 9, judge: true });
    expect(replayed.counts).toEqual(recorded?.counts);
    expect(replayed.results.map((r) => r.case?.entry.content)).toEqual(recorded?.results.map((r) => r.case?.entry.content));
  });

  it('a replay miss is an error row, not a discard or a bypass', async () => {
    const client = createLlmClient(replayOnlyConfig(MODEL), { fixtures: new FixtureStore(dir), mode: 'replay' });
    const r = await runLlmParaphraseFamily({ evaluate, domain: 'rap', n: 2, client, seed: 9 });
    expect(r.counts).toMatchObject({ total: 2, kept: 0, discarded: 0, bypassed: 0, llmErrors: 2 });
  });

  it('says the family is off, and why, without a key and base URL; replay turns it on when fixtures exist', async () => {
    const off = await llmFamilyAvailability({ env: {}, fixtureDir: dir });
    expect(off.on).toBe(false);
    if (!off.on) expect(off.reason).toMatch(/OPENAI_API_KEY/);
    const replay = await llmFamilyAvailability({ env: {}, replay: true, fixtureDir: dir });
    expect(replay.on && replay.mode).toBe('replay');
    const empty = await llmFamilyAvailability({ env: {}, replay: true, fixtureDir: path.join(dir, 'nothing-here') });
    expect(empty.on).toBe(false);
  });
});
