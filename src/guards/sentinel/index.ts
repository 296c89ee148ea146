export { LAYER_IDS, SIGNAL_IDS, DEFAULT_SENTINEL_CONFIG, resolveSentinelConfig, sentinelConfigHash } from './config.js';
export type { LayerId, SignalId, SentinelConfig } from './config.js';
export { createSentinel } from './sentinel.js';
export { looksLikeReasoning } from './looks-like-reasoning.js';
export { assessProvenance, riskFromTaint } from './provenance.js';
export {
  computeSignals,
  forgeryScore,
  implausibleClaim,
  matchingEntryCount,
  patternDensity,
  provenanceAnomaly,
  roundScore,
  s3Score,
  selfReferenceMismatch,
  structuralAnomaly,
} from './signals.js';
export { maxPrecedentClaim } from './precedent-claims.js';
export { compileSentinelConfig } from './compiled-config.js';
export { normalizeText } from '../text/text-match.js';
