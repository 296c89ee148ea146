/** Public surface of the guards folder: the registry, SENTINEL and the baselines. */
export { GUARDS, createGuard, listGuards, isBuiltinGuardId } from './registry.js';
export type { GuardEntry, BuiltinGuardId } from './registry.js';
export {
  LAYER_IDS,
  SIGNAL_IDS,
  DEFAULT_SENTINEL_CONFIG,
  resolveSentinelConfig,
  sentinelConfigHash,
  createSentinel,
  looksLikeReasoning,
} from './sentinel/index.js';
export type { LayerId, SignalId, SentinelConfig, SentinelOptions, SentinelGuard } from './sentinel/index.js';
export { createNoDefense, createKeywordFilter, DEFAULT_KEYWORD_BLOCKLIST } from './baselines/index.js';
export type { KeywordFilterOptions, KeywordFilterGuard } from './baselines/index.js';
