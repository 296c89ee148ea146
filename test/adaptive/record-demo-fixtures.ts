/**
 * Records the offline demo fixtures of the LLM paraphrase family into corpora/llm-fixtures/
 * (role `paraphrase`, model gpt-4o-mini as the key) from the SCRIPTED fake paraphraser
 * (./fake-paraphraser.ts), not from a model. Run: npx tsx test/adaptive/record-demo-fixtures.ts
 * Then: npm run cli -- search --llm-replay (same seed 1 and n 10 as the command's defaults).
 */
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { createLlmClient, DEFAULT_LLM_MODEL, FixtureStore } from '../../src/llm/index.js';
import { runLlmParaphraseFamily } from '../../generators/llm-paraphrase.js';
import { startFakeOpenAI } from '../helpers/openai-server.js';
import { fakeParaphraser } from './fake-paraphraser.js';

const server = await startFakeOpenAI(fakeParaphraser());
try {
  const client = createLlmClient(
    { baseURL: server.baseURL, apiKey: 'sk-fake-recorder', model: DEFAULT_LLM_MODEL, timeoutMs: 5000, maxRetries: 0 },
    { fixtures: new FixtureStore('corpora/llm-fixtures'), mode: 'record' },
  );
  for (const domain of DOMAINS) {
    const r = await runLlmParaphraseFamily({ domain, n: 10, client, seed: 1, evaluate: async () => ({ decision: 'admit', trace: [], reasons: [], elapsedUs: 0 }) });
    process.stdout.write(`${domain}: ${JSON.stringify(r.counts)}\n`);
  }
} finally {
  await server.close();
}
