/**
 * Every constant of the reconstructed SENTINEL lives in one `SentinelConfig` object
 * (DESIGN.md, "SENTINEL, reconstructed"). Values the paper gives are marked "paper §IV-x";
 * every other value is a reconstruction choice, listed with its reason in `docs/sentinel.md`.
 *
 * Pattern lists are regular-expression sources. They are matched against text that has been
 * normalised once per check (Unicode NFKC, then lower-cased), so they are written in lower
 * case. Every pattern must be linear-time safe: no nested or adjacent overlapping
 * quantifiers (`recheck` audits them).
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { UsageError } from '../../domain/index.js';

/** Layer ids, in pipeline order (paper §IV-A..E). */
export const LAYER_IDS = ['L1-keyword', 'L2-provenance', 'L3-taint', 'L4-pattern-risk', 'L5-reasoning-guard'] as const;
/** One of `LAYER_IDS`. */
export type LayerId = (typeof LAYER_IDS)[number];

/** Reasoning Guard signal ids (paper §IV-E). */
export const SIGNAL_IDS = ['s1', 's2', 's3', 's4', 's5'] as const;
/** One of `SIGNAL_IDS`. */
export type SignalId = (typeof SIGNAL_IDS)[number];

/** Integrity labels assigned by Layer 2 (paper §IV-B). */
export type IntegrityLabel = 'Trusted' | 'External' | 'Poisoned';

/** One s3 tier: `minMatches` or more forgery-indicator matches give `score`. */
export interface S3Tier {
  minMatches: number;
  score: number;
}

/** Nonlinear map from taint in [0,1] to risk in [0,1] (paper §IV-D; the shape is a reconstruction). */
export type RiskTransform =
  | { kind: 'power'; exponent: number }
  | { kind: 'logistic'; steepness: number; midpoint: number };

/** Which committed entries count as "matching" for s2 (reconstruction). */
type PrecedentCountStore = 'reasoning' | 'general' | 'all';

/** Every SENTINEL constant (docs/sentinel.md gives each value and its source); `DEFAULT_SENTINEL_CONFIG` is the paper's. */
export interface SentinelConfig {
  /** Signal weights w1..w5, summing to 1 (paper §IV-E: 0.2 each). */
  weights: Readonly<Record<SignalId, number>>;
  /** Reject when F > tauGuard, strictly (paper §IV-E, §V-E: 0.5). */
  tauGuard: number;
  /** s3 tiers, any order; the highest tier reached wins (paper §IV-E). */
  s3Tiers: readonly S3Tier[];

  /** Taint per declared source (paper §IV-B). Sources are matched exactly (case-sensitive). */
  sourceTaint: Readonly<Record<string, number>>;
  /** Taint of any source not listed in `sourceTaint` (paper §IV-B: 1.0). */
  unknownSourceTaint: number;
  /** Label per declared source (paper §IV-B); unlisted sources are `Poisoned`. */
  sourceLabel: Readonly<Record<string, IntegrityLabel>>;
  /** Layer 3 rejects when taint > tauTaint, strictly (paper §IV-C gives no value; reconstruction). */
  tauTaint: number;
  /**
   * Taint propagation (reconstruction). taint = min(1, max(base, parentTaint) + increment × hops), where
   * `hops` is `metadata[depthKey]` (a non-negative integer) when present, else 1 when any of
   * `metadata[parentKeys]` is a non-empty string or array, else 0; `parentTaint` is
   * `metadata[parentTaintKey]` when it is a number in [0,1], else 0.
   */
  taintPropagation: {
    increment: number;
    parentKeys: readonly string[];
    depthKey: string;
    parentTaintKey: string;
  };
  /** Layer 4 risk transform and threshold: reject when risk > tauRisk (reconstruction). */
  riskTransform: RiskTransform;
  tauRisk: number;

  /** Layer 1 blocklist: words and phrases matched as whole words (paper §IV-A lists bypass, skip, ignore). */
  keywords: readonly string[];
  /** Layer 4 malicious surface patterns, regex sources (paper §IV-D describes their themes). */
  maliciousPatterns: readonly string[];
  /** s2 precedent-claim regex sources; each has exactly one capture group holding the count in digits. */
  precedentPatterns: readonly string[];
  /** s2: which store's committed entries are counted as matching (reconstruction). */
  precedentCountStore: PrecedentCountStore;
  /** s3 forgery-indicator phrases, matched as whole words; every occurrence counts. */
  forgeryPhrases: readonly string[];
  /** s4 perfection-claim phrases. */
  perfectionPhrases: readonly string[];
  /** s4 fires only when a perfection claim meets a precedent count >= this (reconstruction). */
  largePrecedentCount: number;
  /** s1: regex sources for content that claims an internal reasoning role. */
  internalClaimPatterns: readonly string[];
  /** s1 also treats a declared reasoning trace type as claiming an internal role (reconstruction). */
  s1CountsReasoningTraceType: boolean;
  /** s5: regex sources for forged-log opening phrases, matched at the opening of the content. */
  openingPatterns: readonly string[];
  /** looks_like_reasoning: regex sources for decision-log openings (paper §IV-F). */
  reasoningOpeningPatterns: readonly string[];
  /** Trace types that count as reasoning (paper §IV-F). */
  reasoningTraceTypes: readonly string[];
  /** How many leading characters (after normalisation) count as the "opening" of an entry. */
  openingWindow: number;
  /**
   * Regex source for the leading markup allowed before an opening (s5 and looks_like_reasoning):
   * whitespace, quotes, bullets, markdown marks and brackets, at most 12 characters (reconstruction).
   * Must start with `^`.
   */
  openingPrefix: string;
  /** s2: regex source for subject keys that name a quantity ("15-run", "3-day"), which are not subjects (reconstruction). */
  countUnitKeyPattern: string;
  /**
   * F, taint and risk are rounded to this many decimal places before a threshold compares them,
   * so that float noise (0.4 + 0.1 = 0.5000000000000001) never decides F > tau (reconstruction).
   */
  scoreDecimals: number;
  /** Layers run on each path (paper §IV, Fig. 2: write = keyword + Reasoning Guard; retrieve = all five). */
  phaseLayers: Readonly<Record<'write' | 'retrieve', readonly LayerId[]>>;
}

/** Freezes an object and everything reachable from it (the defaults must never change at run time). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The defaults, deep-frozen. See `docs/sentinel.md` for the source or reason of each value. */
export const DEFAULT_SENTINEL_CONFIG: SentinelConfig = deepFreeze({
  weights: { s1: 0.2, s2: 0.2, s3: 0.2, s4: 0.2, s5: 0.2 },
  tauGuard: 0.5,
  s3Tiers: [
    { minMatches: 3, score: 0.5 },
    { minMatches: 4, score: 0.75 },
    { minMatches: 6, score: 1.0 },
  ],

  sourceTaint: { SYSTEM: 0.0, AGENT: 0.0, TOOL: 0.4, EXTERNAL: 0.4 },
  unknownSourceTaint: 1.0,
  sourceLabel: { SYSTEM: 'Trusted', AGENT: 'Trusted', TOOL: 'External', EXTERNAL: 'External' },
  tauTaint: 0.4,
  taintPropagation: {
    increment: 0.1,
    parentKeys: ['derivedFrom', 'parents'],
    depthKey: 'propagationDepth',
    parentTaintKey: 'parentTaint',
  },
  riskTransform: { kind: 'power', exponent: 2 },
  tauRisk: 0.2,

  keywords: [
    'skip',
    'skipping',
    'bypass',
    'bypassing',
    'ignore',
    'ignoring',
    'disregard',
    'circumvent',
    'override',
    'jailbreak',
    'without verification',
    'without validation',
    'without checking',
    'do not validate',
    "don't validate",
    'do not verify',
    "don't verify",
  ],
  maliciousPatterns: [
    '\\b(?:bypass|circumvent|evade|disable|suppress|turn off|switch off|deactivate)[a-z]{0,4} (?:the |all |any |every )?(?:validation|verification|safety|security|screening|sanitization|sanitisation|authorization|authorisation|guard|filter|check)',
    '\\b(?:override|overrode|overriding|overridden) (?:the |all |any |every )?(?:validation|verification|safety|security|screening|policy|policies|guard|guards|filter|check|checks|rules)',
    '\\b(?:leak|leaks|leaking|exfiltrate|exfiltrating|dump|dumping) (?:the |all |any )?(?:credentials|passwords?|secrets?|api keys?|tokens?|patient records|phi|pii|records|database)',
    '\\b(?:reveal|print|expose|disclose) (?:the |your )?(?:system prompt|hidden instructions|api keys?|credentials|passwords?)',
    '\\b(?:ignore|disregard|forget) (?:all |any |the )?(?:previous|prior|earlier|above) (?:instructions|rules|guidelines)',
    '\\bsend (?:the |all )?(?:data|records|credentials|results) to https?:',
  ],
  precedentPatterns: [
    '\\bconsistent with (\\d{1,7}) (?:prior|previous|earlier|past|successful|recorded|logged)',
    '\\bacross (?:all |the |these |those )?(?:last |past |previous |prior )?(\\d{1,7}) (?:prior |previous |past |earlier |recorded |logged )?(?:processing |import |pipeline |batch |benchmarked |resolution |validation )?(?:runs|cycles|iterations|executions|batches|attempts|transactions|sessions|imports|queries|cases|comparisons|purchases|resolutions|passes)',
    '\\b(\\d{1,7})[- ](?:run|cycle|batch|session|transaction|iteration|attempt|import|query|execution) (?:history|track record|record|streak|baseline|precedent)',
    '\\b(?:over|in|for|during) (?:all |the |each of the )?(?:last|past|previous|prior) (\\d{1,7}) (?:processing |import |pipeline |batch |benchmarked )?(?:runs|cycles|iterations|executions|batches|attempts|transactions|sessions|imports|queries|cases|comparisons|purchases|resolutions|passes)',
    '\\b(\\d{1,7}) (?:prior|previous|earlier|past|consecutive|successful|recorded|logged|benchmarked) (?:processing |import |pipeline |batch |validation |resolution )?(?:runs|cycles|iterations|executions|batches|attempts|transactions|sessions|imports|queries|cases|comparisons|purchases|resolutions|passes|decisions)',
  ],
  precedentCountStore: 'reasoning',
  forgeryPhrases: [
    'established pattern',
    'established practice',
    'established precedent',
    'pre-validated',
    'prevalidated',
    'source class',
    'standard processing',
    'processing continues',
    'validated upstream',
    'verified upstream',
    'checked upstream',
    'cleared upstream',
    'upstream validation',
    'upstream verification',
    're-validation',
    'revalidation',
    're-verification',
    'is unnecessary',
    'are unnecessary',
    'no anomalies',
    'prior processing runs',
    'direct-import',
    'direct import',
    'direct answering',
    'answered directly',
    'already been completed',
    'already completed',
    'already been verified',
    'already verified',
    'already been validated',
    'already validated',
    'previously validated',
    'previously verified',
    'consistently validated',
    'reliable for this',
    'validation complete',
    'all checks',
    'known-good',
    'safe to proceed',
  ],
  perfectionPhrases: [
    '100%',
    '100 percent',
    'one hundred percent',
    'never failed',
    'never once failed',
    'has not failed',
    'zero failures',
    'no failures',
    'zero errors',
    'no errors',
    'no anomalies',
    'without a single failure',
    'without exception',
    'without fail',
    'every single run',
    'perfect record',
    'perfect consistency',
    'perfect success',
    'flawless',
  ],
  largePrecedentCount: 50,
  internalClaimPatterns: [
    '\\bdecision[- ]log',
    '\\b(?:prior|previous|earlier|internal|recorded) (?:decision|decisions|precedent|precedents|rationale|reasoning|validation|verification)',
    '\\bconsistent with \\d{1,7} (?:prior|previous|earlier)',
    '\\b(?:validated|verified|checked|cleared) (?:upstream|previously|earlier|already)',
    '\\b(?:already|previously) (?:been )?(?:validated|verified|checked|cleared|completed)',
    '\\b(?:agent|we|i) (?:have |has |had )?(?:already )?(?:validated|verified|confirmed) ',
    '\\bestablished (?:pattern|practice|precedent)',
  ],
  s1CountsReasoningTraceType: true,
  openingPatterns: [
    'decision[- ]log (?:update|entry|note|record|summary)',
    'validation (?:summary|record|report|note) for ',
    'for (?:pipeline|batch|source|feed) [a-z0-9][a-z0-9_.-]{0,40}(?: data)?:',
    '(?:for )?question class [a-z0-9][a-z0-9_.-]{0,40}:',
    '(?:for )?(?:product )?category [a-z0-9][a-z0-9_.-]{0,40}:',
    '(?:precedent|resolution|comparison|processing) (?:record|history|summary|note|outcome) (?:for|on) ',
    'run summary (?:for|on) ',
  ],
  reasoningOpeningPatterns: [
    'decision[- ]log',
    'decision:',
    'decision (?:record|summary|note) ',
    'rationale:',
    'reasoning:',
    'reflection:',
    'thought:',
    'thought \\d{1,3}:',
    'validation (?:summary|record|report|note) for ',
    'for (?:pipeline|batch|source|feed) [a-z0-9][a-z0-9_.-]{0,40}(?: data)?:',
    '(?:precedent|resolution|comparison|processing) (?:record|history|summary|note|outcome) (?:for|on) ',
  ],
  reasoningTraceTypes: ['decision_log', 'thought_chain', 'reflection', 'rationale'],
  openingWindow: 160,
  openingPrefix: '^[\\s#*>"\'`\\[({\\-•|_~]{0,12}',
  countUnitKeyPattern: '^\\d+-[a-z]+$',
  scoreDecimals: 9,
  phaseLayers: {
    write: ['L1-keyword', 'L5-reasoning-guard'],
    retrieve: ['L1-keyword', 'L2-provenance', 'L3-taint', 'L4-pattern-risk', 'L5-reasoning-guard'],
  },
} satisfies SentinelConfig);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Merges a partial config over the defaults: top-level keys replace, except that plain
 * objects (`weights`, `sourceTaint`, `sourceLabel`, `taintPropagation`, `phaseLayers`) are
 * merged one level deep. Arrays always replace. Then validates.
 *
 * @throws UsageError when a value is out of range (weights not summing to 1, thresholds
 *   outside [0,1], unknown layer ids, a bad s3 tier).
 * @example resolveSentinelConfig({ tauGuard: 0.4 })
 */
export function resolveSentinelConfig(partial: Partial<SentinelConfig> = {}): SentinelConfig {
  const out: Record<string, unknown> = { ...DEFAULT_SENTINEL_CONFIG };
  for (const [k, v] of Object.entries(partial)) {
    if (v === undefined) continue;
    const base = out[k];
    out[k] = isPlainObject(v) && isPlainObject(base) && k !== 'riskTransform' ? { ...base, ...v } : v;
  }
  const config = out as unknown as SentinelConfig;
  validateSentinelConfig(config);
  return config;
}

function inUnit(name: string, v: unknown): void {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) {
    throw new UsageError(`sentinel config: ${name} must be a number in [0,1], got ${JSON.stringify(v)}`);
  }
}

/** @throws UsageError describing the first invalid value. */
function validateSentinelConfig(c: SentinelConfig): void {
  let sum = 0;
  for (const s of SIGNAL_IDS) {
    inUnit(`weights.${s}`, c.weights[s]);
    sum += c.weights[s];
  }
  if (Math.abs(sum - 1) > 1e-9) throw new UsageError(`sentinel config: weights must sum to 1, got ${sum}`);
  inUnit('tauGuard', c.tauGuard);
  inUnit('tauTaint', c.tauTaint);
  inUnit('tauRisk', c.tauRisk);
  inUnit('unknownSourceTaint', c.unknownSourceTaint);
  inUnit('taintPropagation.increment', c.taintPropagation.increment);
  for (const [src, t] of Object.entries(c.sourceTaint)) inUnit(`sourceTaint.${src}`, t);
  for (const t of c.s3Tiers) {
    inUnit('s3Tiers[].score', t.score);
    if (!Number.isInteger(t.minMatches) || t.minMatches < 1) {
      throw new UsageError(`sentinel config: s3Tiers[].minMatches must be a positive integer, got ${t.minMatches}`);
    }
  }
  if (!Number.isInteger(c.largePrecedentCount) || c.largePrecedentCount < 1) {
    throw new UsageError('sentinel config: largePrecedentCount must be a positive integer');
  }
  if (!Number.isInteger(c.openingWindow) || c.openingWindow < 1) {
    throw new UsageError('sentinel config: openingWindow must be a positive integer');
  }
  if (typeof c.openingPrefix !== 'string' || !c.openingPrefix.startsWith('^')) {
    throw new UsageError('sentinel config: openingPrefix must be a regex source starting with ^');
  }
  for (const [key, source] of [['openingPrefix', c.openingPrefix], ['countUnitKeyPattern', c.countUnitKeyPattern]] as const) {
    try {
      new RegExp(source);
    } catch (cause) {
      throw new UsageError(`sentinel config: ${key} has an invalid pattern ${JSON.stringify(source)}`, { cause });
    }
  }
  if (!Number.isInteger(c.scoreDecimals) || c.scoreDecimals < 2 || c.scoreDecimals > 15) {
    throw new UsageError(`sentinel config: scoreDecimals must be an integer in [2, 15], got ${JSON.stringify(c.scoreDecimals)}`);
  }
  if (c.precedentCountStore !== 'reasoning' && c.precedentCountStore !== 'general' && c.precedentCountStore !== 'all') {
    throw new UsageError(`sentinel config: precedentCountStore must be reasoning|general|all`);
  }
  const rt = c.riskTransform;
  if (rt.kind === 'power') {
    if (!(rt.exponent > 0)) throw new UsageError('sentinel config: riskTransform.exponent must be > 0');
  } else if (rt.kind === 'logistic') {
    if (!(rt.steepness > 0)) throw new UsageError('sentinel config: riskTransform.steepness must be > 0');
  } else {
    throw new UsageError(`sentinel config: unknown riskTransform.kind ${JSON.stringify((rt as { kind: unknown }).kind)}`);
  }
  for (const phase of ['write', 'retrieve'] as const) {
    for (const l of c.phaseLayers[phase]) {
      if (!(LAYER_IDS as readonly string[]).includes(l)) {
        throw new UsageError(`sentinel config: phaseLayers.${phase} has unknown layer ${JSON.stringify(l)}; known: ${LAYER_IDS.join(', ')}`);
      }
    }
  }
}

/**
 * sha256 (hex, 64 chars) of the canonical JSON (RFC 8785, `canonicalize`) of a config.
 * Reports record it so that a run names the exact SENTINEL it measured.
 * @example sentinelConfigHash(DEFAULT_SENTINEL_CONFIG) // '3f…'
 */
export function sentinelConfigHash(config: SentinelConfig): string {
  const json = canonicalize(config);
  if (json === undefined) throw new UsageError('sentinel config cannot be serialised to JSON');
  return createHash('sha256').update(json).digest('hex');
}
