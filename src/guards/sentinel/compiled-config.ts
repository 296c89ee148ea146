/**
 * A SentinelConfig with every pattern list compiled once. Compiled forms are cached per
 * config object, so a check never compiles a regex.
 */
import type { S3Tier, SentinelConfig } from './config.js';
import { compilePatternList, compilePatterns, compilePhraseList } from '../text/text-match.js';

const NAME = 'sentinel config:';

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
  /** s2: subject keys that name a quantity ("15-run"), skipped when counting matching entries. */
  readonly countUnitKeyRe: RegExp;
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
    maliciousRe: compilePatternList(`${NAME} maliciousPatterns`, config.maliciousPatterns),
    precedentRes: compilePatterns(`${NAME} precedentPatterns`, config.precedentPatterns),
    forgeryRe: compilePhraseList(config.forgeryPhrases),
    perfectionRe: compilePhraseList(config.perfectionPhrases),
    internalClaimRe: compilePatternList(`${NAME} internalClaimPatterns`, config.internalClaimPatterns),
    openingRe: compilePatternList(`${NAME} openingPatterns`, config.openingPatterns, config.openingPrefix, ''),
    reasoningOpeningRe: compilePatternList(`${NAME} reasoningOpeningPatterns`, config.reasoningOpeningPatterns, config.openingPrefix, ''),
    reasoningTraceTypes: new Set(config.reasoningTraceTypes),
    s3Tiers,
    s3Cap: s3Tiers.length > 0 ? Math.max(...s3Tiers.map((t) => t.minMatches)) : 0,
    countUnitKeyRe: compilePatterns(`${NAME} countUnitKeyPattern`, [config.countUnitKeyPattern], '')[0] as RegExp,
  };
  cache.set(config, compiled);
  return compiled;
}
