/**
 * A-MemGuard's neighbour retrieval: the top-k committed entries related to a candidate.
 * Upstream (TangciuYueng/AMemGuard) retrieves memories by dense-embedding cosine similarity.
 * Scoring every committed entry costs time in proportion to the store, and so does the store's
 * FTS5 bm25 search (bm25 reads each query term's whole doclist), so the default here is a
 * bounded two-step retrieval whose cost does not grow with the store:
 * 1. candidates: the candidate's most distinctive terms (at most `terms`; digit-bearing and long
 *    words first, function words never), and for each term up to `perTerm` of the newest
 *    entries holding it (`StoreView.termMatches`, an unranked FTS5 lookup that stops at the limit);
 * 2. ranking: the candidates are ranked by cosine similarity of sparse lexical embeddings of their
 *    content to the candidate's content (the same hashing as `lexical-embedder.ts`), best first;
 *    ties keep the order of first find (newest first per term).
 * A view without `termMatches`, or `retrieval: 'bm25'`, uses `StoreView.search` (bm25) instead.
 * See `docs/amemguard.md` (deviation 4) for what this changes.
 */
import type { MemoryEntry, StoreName, StoreView } from '../../domain/index.js';
import { STOPWORDS } from './chain-extractor.js';
import { sparseLexicalVector, sparseDot, type SparseVector } from './lexical-embedder.js';

/** How related entries are found. */
export type RetrievalMode = 'terms' | 'bm25';

export interface RetrievalOptions {
  k: number;
  store?: StoreName | undefined;
  mode: RetrievalMode;
  /** Distinct query terms looked up (mode `terms`). */
  terms: number;
  /** Newest entries taken per term (mode `terms`). */
  perTerm: number;
}

/** Defaults of the bounded retrieval (this project; upstream has no such bound). */
export const RETRIEVAL_DEFAULTS = { mode: 'terms' as RetrievalMode, terms: 12, perTerm: 8 };

// The store's FTS5 tokeniser splits on everything but letters, digits and marks; so does this.
const TERM_RE = /[\p{L}\p{N}\p{M}]+/gu;
const DIGIT_RE = /\p{N}/u;

/**
 * The `max` most distinctive terms of `text`, lower-cased: function words and one- or
 * two-character words without a digit are left out; words with a digit (ids, codes) of 3 or
 * more characters come first, then longer words before shorter ones, then first seen first.
 * Rare words carry most of a lexical match, and long or digit-bearing words tend to be rare.
 * @example
 * distinctiveTerms('Verified INT-EHR-7742 before the dispatch', 3); // ['7742', 'verified', 'dispatch']
 */
export function distinctiveTerms(text: string, max: number): string[] {
  const seen = new Map<string, number>();
  for (const m of text.toLowerCase().matchAll(TERM_RE)) {
    const t = m[0];
    if (seen.has(t) || STOPWORDS.has(t)) continue;
    if (t.length < 3 && !DIGIT_RE.test(t)) continue;
    seen.set(t, seen.size);
  }
  const rank = (t: string): number => (t.length >= 3 && DIGIT_RE.test(t) ? 1000 : 0) + t.length;
  return [...seen.keys()].sort((a, b) => rank(b) - rank(a) || (seen.get(a) as number) - (seen.get(b) as number)).slice(0, Math.max(0, max));
}

/** A retriever: `(candidate, view) => related entries`, best first, the candidate's own id left out. */
export type Retriever = (entry: MemoryEntry, view: StoreView) => MemoryEntry[];

/** Sparse content vectors kept per retriever; cleared when full (it only saves time). */
const VECTOR_CACHE = 8192;

/**
 * Builds the retriever for `createAMemGuard`.
 * @throws RangeError when `terms` or `perTerm` is not a positive integer (mode `terms`).
 */
export function createRetriever(options: RetrievalOptions): Retriever {
  const { k, store, mode, terms, perTerm } = options;
  if (mode === 'terms' && !(Number.isInteger(terms) && terms > 0)) throw new RangeError(`retrieval terms must be a positive integer, got ${terms}`);
  if (mode === 'terms' && !(Number.isInteger(perTerm) && perTerm > 0)) throw new RangeError(`retrieval perTerm must be a positive integer, got ${perTerm}`);
  const cache = new Map<string, SparseVector>();
  const vectorOf = (content: string): SparseVector => {
    const hit = cache.get(content);
    if (hit) return hit;
    const v = sparseLexicalVector(content);
    if (cache.size >= VECTOR_CACHE) cache.clear();
    cache.set(content, v);
    return v;
  };
  const bm25 = (entry: MemoryEntry, view: StoreView): MemoryEntry[] => {
    const seen = new Set<string>([entry.id]);
    const out: MemoryEntry[] = [];
    for (const e of view.search(entry.content, k, store)) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      out.push(e);
    }
    return out;
  };
  return (entry, view) => {
    if (k === 0) return [];
    if (mode === 'bm25' || typeof view.termMatches !== 'function') return bm25(entry, view);
    const query = distinctiveTerms(entry.content, terms);
    if (query.length === 0) return [];
    const seen = new Set<string>([entry.id]);
    const pool: MemoryEntry[] = [];
    for (const e of view.termMatches(query.join(' '), perTerm, store)) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      pool.push(e);
    }
    const q = vectorOf(entry.content);
    const scored = pool.map((e, i) => ({ e, i, s: sparseDot(q, vectorOf(e.content)) }));
    scored.sort((a, b) => b.s - a.s || a.i - b.i);
    return scored.slice(0, k).map((x) => x.e);
  };
}
