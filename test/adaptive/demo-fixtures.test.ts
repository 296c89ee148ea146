/**
 * The shipped LLM fixtures (corpora/llm-fixtures/paraphrase.jsonl) must replay the
 * `search --llm-replay` defaults (seed 1, n 10) with no server and no miss. When templates
 * change, re-record with `npx tsx test/adaptive/record-demo-fixtures.ts`.
 */
import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { createLlmClient, FixtureStore, replayOnlyConfig } from '../../src/llm/index.js';
import { runLlmParaphraseFamily } from '../../generators/llm-paraphrase.js';

describe('shipped LLM fixtures', () => {
  it.each(DOMAINS)('replay the default %s run offline with no miss, counting discarded rewrites', async (domain) => {
    const client = createLlmClient(replayOnlyConfig(), { fixtures: new FixtureStore('corpora/llm-fixtures'), mode: 'replay' });
    const r = await runLlmParaphraseFamily({ domain, n: 10, client, seed: 1, evaluate: async () => ({ decision: 'admit', trace: [], reasons: [], elapsedUs: 0 }) });
    expect(r.counts.llmErrors).toBe(0);
    expect(r.counts.total).toBe(10);
    expect(r.counts.kept + r.counts.discarded).toBe(10);
    expect(r.counts.discarded).toBeGreaterThan(0);
  });
});
