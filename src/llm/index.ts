/** Public surface of the LLM layer: the only code in the project that imports `openai`. */
export { llmConfigFromEnv, replayOnlyConfig, redactSecrets, DEFAULT_LLM_MODEL } from './config.js';
export type { LlmConfig } from './config.js';
export { assertSomeLlmCallSucceeded, createLlmClient } from './client.js';
export type { LlmClient, LlmMode } from './client.js';
export { FixtureStore, fixtureKey, DEFAULT_FIXTURE_DIR } from './fixtures.js';
export { llmParaphrase } from './paraphrase.js';
export { llmJudgeChain, claimStillMade, parseChainJudgement, parseClaimCheck, judgeChainMessages } from './judge.js';
export { llmPlan, extractAction } from './planner.js';
