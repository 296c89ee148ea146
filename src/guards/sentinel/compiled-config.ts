/**
 * A SentinelConfig with every pattern list compiled once. Compiled forms are cached per
 * config object, so a check never compiles a regex.
 */
import type { S3Tier, SentinelConfig } from './config.js';
import { compilePatternList, compilePatterns, compilePhraseList } from './text-match.js';

/** Leading markup allowed before an "opening" (quotes, bullets, markdown marks, brackets). */
const OPENING_PREFIX = '^[\\s#*>"\'`\\[({\\-•|_~]{0,12}';

export interface CompiledSentinel {
  readonly config: SentinelConfig;
  readonly keywordRe: RegExp | null;
  readonly maliciousRe: RegExp | null;
  readonly precedentRes: readonly RegExp[];
  readonly forgeryRe: RegExp | null;
  readonly perfectionRe: RegExp | null;
  readonly internalClaimRe: RegExp | null;
  /** Anchored at the start of the opening slice; not global. */
  readonly openingRe: RegExp | null;
  readonly reasoningOpeningRe: RegExp | null;
  readonly reasoningTraceTypes: ReadonlySet<string>;
  /** Tiers sorted by `minMatches`, highest first. */
  readonly s3Tiers: readonly S3Tier[];
  /** Counting forgery phrases stops here: no tier needs more. */
  readonly s3Cap: number;
}

const cache = new WeakMap<SentinelConfig, CompiledSentinel>();

/**
 * Compiles (or returns the cached compilation of) a validated config.
 * @throws UsageError when a pattern source does not compile.
 */
export function compileSentinelConfig(config: SentinelConfig): CompiledSentinel {
  const hit = cache.get(config);
  if (hit) return hit;
  const s3Tiers = [...config.s3Tiers].sort((a, b) => b.minMatches - a.minMatches);
  const compiled: CompiledSentinel = {
    config,
    keywordRe: compilePhraseList(config.keywords),
    maliciousRe: compilePatternList('maliciousPatterns', config.maliciousPatterns),
    precedentRes: compilePatterns('precedentPatterns', config.precedentPatterns),
    forgeryRe: compilePhraseList(config.forgeryPhrases),
    perfectionRe: compilePhraseList(config.perfectionPhrases),
    internalClaimRe: compilePatternList('internalClaimPatterns', config.internalClaimPatterns),
    openingRe: compilePatternList('openingPatterns', config.openingPatterns, OPENING_PREFIX, ''),
    reasoningOpeningRe: compilePatternList('reasoningOpeningPatterns', config.reasoningOpeningPatterns, OPENING_PREFIX, ''),
    reasoningTraceTypes: new Set(config.reasoningTraceTypes),
    s3Tiers,
    s3Cap: s3Tiers.length > 0 ? Math.max(...s3Tiers.map((t) => t.minMatches)) : 0,
  };
  cache.set(config, compiled);
  return compiled;
}
