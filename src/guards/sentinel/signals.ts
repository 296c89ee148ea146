/**
 * The five Reasoning Guard signals (paper §IV-E). Each is a pure function of the
 * normalised text, the entry's declared fields and a read-only store view.
 */
import { extractKeys, type MemoryEntry, type StoreName, type StoreView } from '../../domain/index.js';
import type { IntegrityLabel, SignalId } from './config.js';
import type { CompiledSentinel } from './compiled-config.js';
import { maxPrecedentClaim } from './precedent-claims.js';
import { countMatches, firstMatch } from './text-match.js';

export type SignalScores = Record<SignalId, number>;

export interface SignalResult {
  signals: SignalScores;
  /** One reason per signal that fired. */
  reasons: string[];
}

/** Keys shaped like "<count>-<unit>" ("15-run", "3-day") name a quantity, not a subject. */
const COUNT_UNIT_KEY = /^\d+-[a-z]+$/;

/**
 * s2's "matching entries" (reconstruction): the committed entries in the configured store
 * (`reasoning` by default) that share a subject key with the entry, taking the best-supported
 * key (max over keys). When the entry names no subject key, the fallback is the number of
 * committed entries in that store (the paper's "actual store size").
 */
export function matchingEntryCount(content: string, store: StoreView, compiled: CompiledSentinel): { count: number; key: string | null } {
  const where = compiled.config.precedentCountStore;
  const storeName: StoreName | undefined = where === 'all' ? undefined : where;
  let best = -1;
  let bestKey: string | null = null;
  for (const key of extractKeys(content)) {
    if (COUNT_UNIT_KEY.test(key)) continue;
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
 * Computes s1..s5 for one entry.
 * - s1 provenance anomaly: the source is not labelled Trusted and the content claims an
 *   internal reasoning role (internal-claim pattern, or a reasoning trace type if enabled).
 * - s2 self-reference mismatch: the largest claimed precedent count exceeds the number of
 *   matching committed entries.
 * - s3 pattern density: tiered score of forgery-indicator phrase occurrences.
 * - s4 implausible claim: a perfection phrase together with a precedent count >= largePrecedentCount.
 * - s5 structure: the opening matches a forged-log opening pattern.
 * Signals are 0 or 1 except s3 (tier scores).
 */
export function computeSignals(
  entry: MemoryEntry,
  text: string,
  label: IntegrityLabel,
  store: StoreView,
  compiled: CompiledSentinel,
): SignalResult {
  const c = compiled.config;
  const reasons: string[] = [];

  // s1
  let s1 = 0;
  if (label !== 'Trusted') {
    const byType = c.s1CountsReasoningTraceType && compiled.reasoningTraceTypes.has(entry.traceType);
    const claim = byType ? null : firstMatch(compiled.internalClaimRe, text);
    if (byType || claim !== null) {
      s1 = 1;
      reasons.push(
        byType
          ? `s1: ${label} source ${entry.source} declares reasoning trace type ${entry.traceType}`
          : `s1: ${label} source ${entry.source} claims internal reasoning ("${claim}")`,
      );
    }
  }

  // s2 and s4 share the precedent claim
  const claimed = maxPrecedentClaim(text, compiled);
  let s2 = 0;
  if (claimed >= 0) {
    const { count, key } = matchingEntryCount(entry.content, store, compiled);
    if (claimed > count) {
      s2 = 1;
      reasons.push(
        key === null
          ? `s2: claims ${claimed} prior runs; store holds ${count} entries (no subject key)`
          : `s2: claims ${claimed} prior runs; ${count} matching entries for ${key}`,
      );
    }
  }

  // s3
  const matches = countMatches(compiled.forgeryRe, text, compiled.s3Cap);
  const s3 = s3Score(matches, compiled);
  if (s3 > 0) reasons.push(`s3: ${matches >= compiled.s3Cap ? `${matches}+` : matches} forgery-indicator phrases`);

  // s4
  let s4 = 0;
  if (claimed >= c.largePrecedentCount) {
    const perfect = firstMatch(compiled.perfectionRe, text);
    if (perfect !== null) {
      s4 = 1;
      reasons.push(`s4: perfection claim ("${perfect}") with precedent count ${claimed}`);
    }
  }

  // s5
  let s5 = 0;
  if (compiled.openingRe !== null) {
    const w = c.openingWindow;
    const m = compiled.openingRe.exec(text.length > w ? text.slice(0, w) : text);
    if (m !== null) {
      s5 = 1;
      reasons.push(`s5: forged-log opening ("${m[0].trim()}")`);
    }
  }

  return { signals: { s1, s2, s3, s4, s5 }, reasons };
}

/** F = Σ w_i s_i, rounded to 1e-9 so that float noise never decides F > tau (paper §IV-E). */
export function forgeryScore(signals: SignalScores, weights: Readonly<Record<SignalId, number>>): number {
  const f = weights.s1 * signals.s1 + weights.s2 * signals.s2 + weights.s3 * signals.s3 + weights.s4 * signals.s4 + weights.s5 * signals.s5;
  return Math.round(f * 1e9) / 1e9;
}
