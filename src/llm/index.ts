/** Public surface of the LLM layer: the only code in the project that imports `openai`. */
export {
  llmConfigFromEnv,
  replayOnlyConfig,
  redactSecrets,
  secretValues,
  LLM_ENV_VARS,
  SECRET_NAME_RE,
  MIN_REDACTED_LENGTH,
  REDACTED,
  DEFAULT_LLM_MODEL,
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_LLM_MAX_RETRIES,
} from './config.js';
export type { LlmConfig, LlmConfigResult, LlmEnvVar } from './config.js';
export type { ChatMessage, ChatRole } from './messages.js';
export { createLlmClient } from './client.js';
export type { LlmClient, LlmClientOptions, LlmMode, CompleteOptions } from './client.js';
export { FixtureStore, fixtureKey, DEFAULT_FIXTURE_DIR } from './fixtures.js';
export type { FixtureRequest, FixtureRecord, FixtureIssue, FixtureStoreOptions } from './fixtures.js';
export { llmParaphrase, paraphraseMessages, PARAPHRASE_ROLE } from './paraphrase.js';
export type { ParaphraseInput } from './paraphrase.js';
export {
  llmJudgeChain,
  claimStillMade,
  parseChainJudgement,
  parseClaimCheck,
  parseStrictJsonObject,
  judgeChainMessages,
  claimCheckMessages,
  JUDGE_ROLE,
  CLAIM_CHECK_ROLE,
} from './judge.js';
export type { ChainJudgement, ClaimCheckInput } from './judge.js';
export { llmPlan, extractAction, planMessages, PLANNER_ROLE } from './planner.js';
export type { PlanInput, PlanResult, PlanStatus } from './planner.js';
