/**
 * The five Reasoning Guard signals (paper §IV-E), one named function each. Each is a pure
 * function of the normalised text, the entry's declared fields and a read-only store view;
 * `computeSignals` composes them and `forgeryScore` weighs them into F.
 */
import { extractKeys, type MemoryEntry, type StoreName, type StoreView } from '../../domain/index.js';
import type { IntegrityLabel, SignalId } from './config.js';
import type { CompiledSentinel } from './compiled-config.js';
import { maxPrecedentClaim } from './precedent-claims.js';
import { countMatches, firstMatch } from '../text/text-match.js';

export type SignalScores = Record<SignalId, number>;

export interface SignalResult {
  signals: SignalScores;
  /** One reason per signal that fired. */
  reasons: string[];
}

/** One signal's value: a score in [0,1] and, when it fired, the reason. */
export interface SignalValue {
  score: number;
  reason?: string;
}

const SILENT: SignalValue = { score: 0 };

/** Rounds `x` to `decimals` decimal places (9 by default in the config), so float noise never decides a threshold. */
export function roundScore(x: number, decimals: number): number {
  const steps = 10 ** decimals;
  return Math.round(x * steps) / steps;
}

/**
 * s2's "matching entries" (reconstruction): the committed entries in the configured store
 * (`reasoning` by default) that share a subject key with the entry, taking the best-supported
 * key (max over keys). Keys that name a quantity (`countUnitKeyPattern`, e.g. "15-run") are
 * skipped. When the entry names no subject key, the fallback is the number of committed
 * entries in that store (the paper's "actual store size").
 */
export function matchingEntryCount(content: string, store: StoreView, compiled: CompiledSentinel): { count: number; key: string | null } {
  const where = compiled.config.precedentCountStore;
  const storeName: StoreName | undefined = where === 'all' ? undefined : where;
  let best = -1;
  let bestKey: string | null = null;
  for (const key of extractKeys(content)) {
    if (compiled.countUnitKeyRe.test(key)) continue;
    const n = store.countByKey(key, storeName);
    if (n > best) {
      best = n;
      bestKey = key;
    }
  }
  if (bestKey === null) return { count: store.size(storeName), key: null };
  return { count: best, key: bestKey };
}

/** s3 score from a match count: the highest tier reached, else 0 (paper §IV-E). */
export function s3Score(matches: number, compiled: CompiledSentinel): number {
  for (const t of compiled.s3Tiers) if (matches >= t.minMatches) return t.score;
  return 0;
}

/**
 * s1, provenance anomaly (paper §IV-E): 1 when the source is not labelled Trusted and the
 * entry claims an internal reasoning role, by its declared reasoning trace type (when
 * `s1CountsReasoningTraceType`) or by an internal-claim phrase in its content; else 0.
 */
export function provenanceAnomaly(entry: MemoryEntry, text: string, label: IntegrityLabel, compiled: CompiledSentinel): SignalValue {
  if (label === 'Trusted') return SILENT;
  const byType = compiled.config.s1CountsReasoningTraceType && compiled.reasoningTraceTypes.has(entry.traceType);
  if (byType) return { score: 1, reason: `s1: ${label} source ${entry.source} declares reasoning trace type ${entry.traceType}` };
  const claim = firstMatch(compiled.internalClaimRe, text);
  if (claim === null) return SILENT;
  return { score: 1, reason: `s1: ${label} source ${entry.source} claims internal reasoning ("${claim}")` };
}

/**
 * s2, self-reference mismatch (paper §IV-E): 1 when the largest precedent count the entry
 * claims (`claimed`, -1 for none) exceeds the number of matching committed entries
 * (`matchingEntryCount`); else 0. The store is read only when a count is claimed.
 */
export function selfReferenceMismatch(claimed: number, content: string, store: StoreView, compiled: CompiledSentinel): SignalValue {
  if (claimed < 0) return SILENT;
  const { count, key } = matchingEntryCount(content, store, compiled);
  if (claimed <= count) return SILENT;
  return {
    score: 1,
    reason:
      key === null
        ? `s2: claims ${claimed} prior runs; store holds ${count} entries (no subject key)`
        : `s2: claims ${claimed} prior runs; ${count} matching entries for ${key}`,
  };
}

/**
 * s3, suspicious pattern density (paper §IV-E): the tier score (`s3Tiers`) of the number of
 * forgery-indicator phrase occurrences in the text (counting stops at the highest tier).
 */
export function patternDensity(text: string, compiled: CompiledSentinel): SignalValue {
  const matches = countMatches(compiled.forgeryRe, text, compiled.s3Cap);
  const score = s3Score(matches, compiled);
  if (score === 0) return SILENT;
  return { score, reason: `s3: ${matches >= compiled.s3Cap ? `${matches}+` : matches} forgery-indicator phrases` };
}

/**
 * s4, implausible claim (paper §IV-E): 1 when a perfection phrase ("100%", "never failed")
 * meets a claimed precedent count of at least `largePrecedentCount`; else 0.
 */
export function implausibleClaim(claimed: number, text: string, compiled: CompiledSentinel): SignalValue {
  if (claimed < compiled.config.largePrecedentCount) return SILENT;
  const perfect = firstMatch(compiled.perfectionRe, text);
  if (perfect === null) return SILENT;
  return { score: 1, reason: `s4: perfection claim ("${perfect}") with precedent count ${claimed}` };
}

/**
 * s5, structural anomaly (paper §IV-E): 1 when the opening of the text (its first
 * `openingWindow` characters, after up to `openingPrefix` markup) matches a forged-log
 * opening pattern; else 0.
 */
export function structuralAnomaly(text: string, compiled: CompiledSentinel): SignalValue {
  if (compiled.openingRe === null) return SILENT;
  const w = compiled.config.openingWindow;
  const m = compiled.openingRe.exec(text.length > w ? text.slice(0, w) : text);
  if (m === null) return SILENT;
  return { score: 1, reason: `s5: forged-log opening ("${m[0].trim()}")` };
}

/**
 * Computes s1..s5 for one entry (paper §IV-E): `provenanceAnomaly`, `selfReferenceMismatch`,
 * `patternDensity`, `implausibleClaim` and `structuralAnomaly`. s2 and s4 share the largest
 * precedent count claimed in the text. Signals are 0 or 1 except s3 (tier scores).
 */
export function computeSignals(
  entry: MemoryEntry,
  text: string,
  label: IntegrityLabel,
  store: StoreView,
  compiled: CompiledSentinel,
): SignalResult {
  const claimed = maxPrecedentClaim(text, compiled);
  const values: Record<SignalId, SignalValue> = {
    s1: provenanceAnomaly(entry, text, label, compiled),
    s2: selfReferenceMismatch(claimed, entry.content, store, compiled),
    s3: patternDensity(text, compiled),
    s4: implausibleClaim(claimed, text, compiled),
    s5: structuralAnomaly(text, compiled),
  };
  const reasons: string[] = [];
  for (const v of Object.values(values)) if (v.reason !== undefined) reasons.push(v.reason);
  return {
    signals: { s1: values.s1.score, s2: values.s2.score, s3: values.s3.score, s4: values.s4.score, s5: values.s5.score },
    reasons,
  };
}

/**
 * F = Σ w_i s_i in [0,1] (paper §IV-E), rounded to `decimals` places (the config's
 * `scoreDecimals`, 9 by default) so that float noise never decides F > tau.
 */
export function forgeryScore(signals: SignalScores, weights: Readonly<Record<SignalId, number>>, decimals: number): number {
  const f = weights.s1 * signals.s1 + weights.s2 * signals.s2 + weights.s3 * signals.s3 + weights.s4 * signals.s4 + weights.s5 * signals.s5;
  return roundScore(f, decimals);
}
