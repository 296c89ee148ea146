/**
 * `looks_like_reasoning` (paper §IV-F): decides whether an entry is reasoning-like, so that
 * the Reasoning Guard also judges forged reasoning written to the general store.
 */
import type { MemoryEntry } from '../../domain/index.js';
import type { SentinelConfig } from './config.js';
import { compileSentinelConfig, type CompiledSentinel } from './compiled-config.js';
import { normalizeText } from '../text/text-match.js';

/** Core test on pre-normalised text (used by the guard, which normalises once per check). */
export function looksLikeReasoningNormalized(traceType: string, text: string, compiled: CompiledSentinel): boolean {
  if (compiled.reasoningTraceTypes.has(traceType)) return true;
  const re = compiled.reasoningOpeningRe;
  return re !== null && re.test(text.length > compiled.config.openingWindow ? text.slice(0, compiled.config.openingWindow) : text);
}

/**
 * True when the entry's declared trace type is a reasoning type (`decision_log`,
 * `thought_chain`, `reflection`, `rationale` by default), or when the opening of its
 * content (first `openingWindow` characters after NFKC + lower-casing, leading markup
 * skipped) matches a decision-log opening pattern.
 * @throws UsageError only if `config` holds a pattern that does not compile.
 * @example looksLikeReasoning({ ...entry, traceType: 'fact', content: 'Decision log: ...' }, DEFAULT_SENTINEL_CONFIG) // true
 */
export function looksLikeReasoning(entry: MemoryEntry, config: SentinelConfig): boolean {
  return looksLikeReasoningNormalized(entry.traceType, normalizeText(entry.content), compileSentinelConfig(config));
}
