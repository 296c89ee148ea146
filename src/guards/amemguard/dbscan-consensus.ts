/**
 * A-MemGuard's clustering consensus (TangciuYueng/AMemGuard, `ReAct/consistency.py`,
 * `_check_with_clustering`): DBSCAN over chain embeddings with cosine distance, `eps` 0.5 and
 * `min_samples` 2; the largest non-noise cluster is the consistent set; when no cluster forms,
 * every item is inconsistent.
 */
import clustering from 'density-clustering';
import { cosineDistance } from './lexical-embedder.js';

/** DBSCAN parameters with scikit-learn meaning (see `dbscanConsensus`). */
export interface DbscanParams {
  /** Neighbourhood radius in cosine distance; a point at distance ≤ eps is a neighbour. Upstream 0.5. */
  eps: number;
  /** Points (the point itself included) a neighbourhood needs for a core point. Upstream 2. */
  minSamples: number;
}

/** Upstream defaults (`_check_with_clustering(eps=0.5, min_samples=2)`). */
export const AMEMGUARD_DBSCAN: DbscanParams = Object.freeze({ eps: 0.5, minSamples: 2 });

/** The outcome of DBSCAN consensus over n points. */
export interface ConsensusClusters {
  /** One label per point: a cluster id ≥ 0, or -1 for noise (scikit-learn's `labels_`). */
  labels: number[];
  /** Members of each cluster, ascending point indices; cluster ids are array positions. */
  clusters: number[][];
  /** Id of the largest cluster (the consistent one), or `undefined` when no cluster formed. */
  dominant: number | undefined;
  /** Point indices judged consistent (members of the dominant cluster), ascending. */
  consistent: number[];
  /** Point indices judged inconsistent, ascending. */
  inconsistent: number[];
}

/** The smallest double above x (x > 0): turns density-clustering's `d < eps` into `d ≤ eps`. */
function nextUp(x: number): number {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  buf.setBigUint64(0, buf.getBigUint64(0) + 1n);
  return buf.getFloat64(0);
}

/**
 * Row-major n×n cosine distances (`1 - cos`, clipped to [0,2]); the diagonal is 0 and a zero
 * vector is at distance 1 from every other point (as `cosineDistance`).
 */
function pairwiseCosineDistances(vectors: readonly (readonly number[])[]): Float64Array {
  const n = vectors.length;
  const dim = vectors.reduce((m, v) => Math.max(m, v.length), 0);
  const flat = new Float64Array(n * dim);
  const norms = new Float64Array(n); // squared norms
  const nonzero: number[][] = []; // embeddings are usually sparse: dot products walk the nonzeros
  vectors.forEach((v, i) => {
    let s = 0;
    const nz: number[] = [];
    for (let d = 0; d < v.length; d++) {
      const x = v[d] ?? 0;
      if (x === 0) continue;
      flat[i * dim + d] = x;
      s += x * x;
      nz.push(d);
    }
    norms[i] = s;
    nonzero.push(nz);
  });
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const ni = norms[i] as number;
      const nj = norms[j] as number;
      let sim = 0;
      if (ni !== 0 && nj !== 0) {
        const nzi = nonzero[i] as number[];
        const nzj = nonzero[j] as number[];
        const [walk, other] = nzi.length <= nzj.length ? [nzi, j] : [nzj, i];
        const self = walk === nzi ? i : j;
        let dot = 0;
        for (const d of walk) dot += (flat[self * dim + d] as number) * (flat[other * dim + d] as number);
        sim = dot / Math.sqrt(ni * nj);
      }
      const dist = Math.min(2, Math.max(0, 1 - sim));
      out[i * n + j] = dist;
      out[j * n + i] = dist;
    }
  }
  return out;
}

/**
 * Runs DBSCAN (package `density-clustering`) with cosine distance and picks the consistent set.
 *
 * Semantics match scikit-learn's `DBSCAN(metric='cosine')`, which upstream uses:
 * - a point's neighbourhood contains itself; it is a core point when the neighbourhood holds
 *   ≥ `minSamples` points (density-clustering counts the same way);
 * - neighbours are at distance ≤ eps (density-clustering tests `< eps`, so it is given the next
 *   double above eps);
 * - a border point joins the first cluster that reaches it;
 * - the dominant cluster is the largest; on a tie, the one holding the lowest point index
 *   (what Python's `Counter.most_common(1)` returns for upstream's label list).
 * A zero vector has distance 1 to every other point and 0 to itself.
 *
 * @param vectors one embedding per item, all of equal length.
 * @throws RangeError when eps ≤ 0 or minSamples is not an integer ≥ 1.
 * @example
 * dbscanConsensus([[1, 0], [0.9, 0.1], [0, 1]]).consistent; // [0, 1]
 */
export function dbscanConsensus(vectors: readonly (readonly number[])[], params: DbscanParams = AMEMGUARD_DBSCAN): ConsensusClusters {
  if (!(params.eps > 0)) throw new RangeError(`DBSCAN eps must be > 0, got ${params.eps}`);
  if (!Number.isInteger(params.minSamples) || params.minSamples < 1) {
    throw new RangeError(`DBSCAN minSamples must be an integer >= 1, got ${params.minSamples}`);
  }
  const n = vectors.length;
  const dist = pairwiseCosineDistances(vectors);
  const ids = Array.from({ length: n }, (_, i) => i);
  const raw = n === 0 ? [] : new clustering.DBSCAN().run(ids, nextUp(params.eps), params.minSamples, (a, b) => dist[a * n + b] ?? 0);
  const clusters = raw.map((members) => [...members].sort((a, b) => a - b));
  const labels = new Array<number>(n).fill(-1);
  clusters.forEach((members, c) => {
    for (const p of members) labels[p] = c;
  });
  let dominant: number | undefined;
  let best = 0;
  let bestFirst = Infinity;
  clusters.forEach((members, c) => {
    const first = members[0] ?? Infinity;
    if (members.length > best || (members.length === best && first < bestFirst)) {
      dominant = c;
      best = members.length;
      bestFirst = first;
    }
  });
  const consistent = dominant === undefined ? [] : ids.filter((i) => labels[i] === dominant);
  const inconsistent = ids.filter((i) => dominant === undefined || labels[i] !== dominant);
  return { labels, clusters, dominant, consistent, inconsistent };
}

/**
 * Cosine distance from `vector` to the centroid (mean) of the given members, in [0,2]
 * ([0,1] for non-negative embeddings such as the lexical default).
 */
export function distanceToCentroid(vector: readonly number[], vectors: readonly (readonly number[])[], members: readonly number[]): number {
  const dim = vector.length;
  const centroid = new Array<number>(dim).fill(0);
  for (const m of members) {
    const v = vectors[m];
    if (!v) continue;
    for (let i = 0; i < dim; i++) centroid[i] = (centroid[i] ?? 0) + (v[i] ?? 0);
  }
  return cosineDistance(vector, centroid);
}
