/**
 * The KeywordFilter baseline (paper §V-D): a blocklist of overt jailbreak and skip tokens,
 * the simplest mitigation one can deploy. The list is our own and configurable.
 */
import type { GuardContext, MemoryEntry, SyncGuard, Verdict } from '../../domain/index.js';
import { compilePhraseList, firstMatch, normalizeText } from '../text/text-match.js';

/** The default blocklist: whole words/phrases, matched after NFKC + lower-casing. */
export const DEFAULT_KEYWORD_BLOCKLIST: readonly string[] = [
  'skip',
  'bypass',
  'ignore',
  'disregard',
  'override',
  'jailbreak',
  'developer mode',
  'do anything now',
  'dan mode',
  'unfiltered',
  'no restrictions',
  'disable safety',
  'disable validation',
  'without verification',
  'without validation',
];

export interface KeywordFilterOptions {
  /** Replaces the default blocklist. */
  keywords?: readonly string[];
  /** Added to the blocklist in use. */
  extraKeywords?: readonly string[];
}

export interface KeywordFilterGuard extends SyncGuard {
  readonly id: 'keyword';
  readonly config: { keywords: readonly string[] };
}

/**
 * Builds the guard with id `keyword`: rejects an entry whose normalised content contains a
 * blocklisted word or phrase (whole-word match), admits everything else. Single layer `keyword`.
 * @example createKeywordFilter({ extraKeywords: ['circumvent'] })
 */
export function createKeywordFilter(options: KeywordFilterOptions = {}): KeywordFilterGuard {
  const keywords = [...(options.keywords ?? DEFAULT_KEYWORD_BLOCKLIST), ...(options.extraKeywords ?? [])];
  const re = compilePhraseList(keywords);
  return {
    id: 'keyword',
    mode: 'sync',
    config: { keywords },
    check: (entry: MemoryEntry, _ctx: GuardContext): Verdict => {
      const t0 = performance.now();
      const hit = firstMatch(re, normalizeText(entry.content));
      const reasons = hit === null ? [] : [`blocklisted keyword "${hit}"`];
      const verdict: Verdict = {
        decision: hit === null ? 'admit' : 'reject',
        layer: 'keyword',
        trace: [{ layer: 'keyword', outcome: hit === null ? 'pass' : 'reject', reasons }],
        reasons,
        elapsedUs: 0,
      };
      verdict.elapsedUs = Math.max(0, (performance.now() - t0) * 1000);
      return verdict;
    },
  };
}
