/**
 * Embedders for A-MemGuard's consensus step. Upstream embeds each reasoning chain with the
 * sentence-transformers model `all-mpnet-base-v2` (`ReAct/consistency.py`, `_get_st_model`).
 * The default here is a lexical stand-in that needs no model; an async embedder (for example
 * OpenAI embeddings, built in `src/llm`) can be injected instead.
 */

/** A synchronous embedder: one vector of length `dim` per text. */
export interface Embedder {
  readonly id: string;
  readonly dim: number;
  readonly async?: false;
  embed(texts: readonly string[]): number[][];
}

/** An injected asynchronous embedder (e.g. a remote embedding model). */
export interface AsyncEmbedder {
  readonly id: string;
  readonly dim: number;
  readonly async: true;
  embed(texts: readonly string[]): Promise<number[][]>;
}

export interface LexicalEmbedderOptions {
  /** Number of hash buckets (vector length). Default 1024. */
  dim?: number;
  /** Weight of word bigrams relative to single words. Default 0.5. */
  bigramWeight?: number;
}

const WORD_RE = /[\p{L}\p{N}]+(?:['’._-][\p{L}\p{N}]+)*/gu;

/** FNV-1a, 32 bit, over UTF-16 code units. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Builds the default lexical embedder (id `lexical-hash`): lower-cased words (letters and digits,
 * inner `-`, `_`, `.`, `'` kept, so `INT-EHR-7742` is one word) and adjacent word pairs are hashed
 * (FNV-1a) into `dim` buckets; each feature adds `log(1 + count)` times its weight (1 for
 * words, `bigramWeight` for pairs) to its bucket; the vector is L2-normalised. All entries are ≥ 0, so cosine
 * similarities lie in [0,1]. A text with no words maps to the zero vector.
 * @throws RangeError when `dim` is not a positive integer.
 * @example
 * const e = createLexicalEmbedder();
 * cosineSimilarity(...e.embed(['a b c', 'a b c']) as [number[], number[]]); // 1
 */
export function createLexicalEmbedder(options: LexicalEmbedderOptions = {}): Embedder {
  const dim = options.dim ?? 1024;
  const bigramWeight = options.bigramWeight ?? 0.5;
  if (!Number.isInteger(dim) || dim <= 0) throw new RangeError(`lexical embedder: dim must be a positive integer, got ${dim}`);
  const embedOne = (text: string): number[] => {
    const v = new Array<number>(dim).fill(0);
    for (const [b, x] of bucketWeights(text, dim, bigramWeight)) v[b] = x;
    return v;
  };
  return { id: 'lexical-hash', dim, embed: (texts) => texts.map(embedOne) };
}

/** `[bucket, L2-normalised weight]` of `text`, non-zero buckets only, ascending, as `createLexicalEmbedder` computes them. */
function bucketWeights(text: string, dim: number, bigramWeight: number): Array<[number, number]> {
  const features = new Map<string, number>();
  const words = Array.from(text.toLowerCase().matchAll(WORD_RE), (m) => m[0]);
  for (let i = 0; i < words.length; i++) {
    const w = `1:${words[i]}`;
    features.set(w, (features.get(w) ?? 0) + 1);
    if (i + 1 < words.length && bigramWeight > 0) {
      const p = `2:${words[i]} ${words[i + 1]}`;
      features.set(p, (features.get(p) ?? 0) + 1);
    }
  }
  const buckets = new Map<number, number>();
  for (const [f, c] of features) {
    const b = fnv1a(f) % dim;
    buckets.set(b, (buckets.get(b) ?? 0) + Math.log1p(c) * (f.startsWith('1:') ? 1 : bigramWeight));
  }
  // Summed in bucket order, as a dense loop over the vector would: the same rounding as before.
  const sorted = [...buckets].sort((x, y) => x[0] - y[0]);
  let norm = 0;
  for (const [, x] of sorted) norm += x * x;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (const e of sorted) e[1] *= inv;
  }
  return sorted;
}

/** A sparse, L2-normalised vector: bucket indices ascending, with their weights. */
export interface SparseVector {
  readonly idx: Int32Array;
  readonly val: Float64Array;
}

/**
 * The default lexical embedding of `text` (`createLexicalEmbedder()` with its defaults), kept
 * sparse: only the non-zero buckets, indices ascending. A text with no words gives an empty vector.
 * @example
 * sparseDot(sparseLexicalVector('a b c'), sparseLexicalVector('a b c')); // 1 (up to rounding)
 */
export function sparseLexicalVector(text: string, options: LexicalEmbedderOptions = {}): SparseVector {
  const dim = options.dim ?? 1024;
  const buckets = bucketWeights(text, dim, options.bigramWeight ?? 0.5);
  return { idx: Int32Array.from(buckets, (x) => x[0]), val: Float64Array.from(buckets, (x) => x[1]) };
}

/** Dot product of two sparse vectors; for normalised vectors it is their cosine similarity, in [0,1] here. */
export function sparseDot(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let dot = 0;
  while (i < a.idx.length && j < b.idx.length) {
    const x = a.idx[i] as number;
    const y = b.idx[j] as number;
    if (x === y) dot += (a.val[i++] as number) * (b.val[j++] as number);
    else if (x < y) i++;
    else j++;
  }
  return dot;
}

/**
 * Cosine similarity of two vectors of equal length. A zero vector has similarity 0 with
 * everything (as in scikit-learn's `cosine_similarity`, which normalises zero rows to zero).
 */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}

/** Cosine distance `1 - cosineSimilarity`, clipped to [0,2] (scikit-learn's `metric='cosine'`). */
export function cosineDistance(a: readonly number[], b: readonly number[]): number {
  return Math.min(2, Math.max(0, 1 - cosineSimilarity(a, b)));
}
