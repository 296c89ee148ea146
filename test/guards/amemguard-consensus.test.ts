import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AMEMGUARD_DBSCAN,
  consensusFilter,
  cosineDistance,
  cosineSimilarity,
  createHeuristicChainExtractor,
  createLexicalEmbedder,
  dbscanConsensus,
  renderChains,
} from '../../src/guards/amemguard/index.js';
import type { MemoryEntry } from '../../src/domain/index.js';
import { entry } from '../helpers/toy.js';

/** 2-D unit vector at `deg` degrees. */
const at = (deg: number): number[] => [Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)];

/**
 * Reference DBSCAN written from scikit-learn's `dbscan_inner` (neighbourhood includes the point,
 * distance <= eps, core when |N| >= min_samples, clusters grown from cores in index order) and
 * upstream's `Counter(labels).most_common(1)` choice of the dominant cluster.
 */
function referenceConsistent(vectors: number[][], eps: number, minSamples: number): number[] {
  const n = vectors.length;
  const nb = vectors.map((v, i) => vectors.map((w, j) => (i === j ? 0 : cosineDistance(v, w))).flatMap((d, j) => (d <= eps ? [j] : [])));
  const core = nb.map((x) => x.length >= minSamples);
  const labels = new Array<number>(n).fill(-1);
  let label = 0;
  for (let start = 0; start < n; start++) {
    if (labels[start] !== -1 || !core[start]) continue;
    const stack: number[] = [];
    let i = start;
    for (;;) {
      if (labels[i] === -1) {
        labels[i] = label;
        if (core[i]) for (const v of nb[i] ?? []) if (labels[v] === -1) stack.push(v);
      }
      const next = stack.pop();
      if (next === undefined) break;
      i = next;
    }
    label++;
  }
  const counts = new Map<number, number>(); // insertion order = first appearance, like Counter
  for (const l of labels) if (l !== -1) counts.set(l, (counts.get(l) ?? 0) + 1);
  let dominant: number | undefined;
  let best = 0;
  for (const [l, c] of counts) if (c > best) [dominant, best] = [l, c];
  return dominant === undefined ? [] : labels.flatMap((l, i) => (l === dominant ? [i] : []));
}

describe('dbscanConsensus (upstream rules: cosine eps 0.5, min_samples 2)', () => {
  it('uses the upstream parameters by default', () => {
    expect(AMEMGUARD_DBSCAN).toEqual({ eps: 0.5, minSamples: 2 });
  });

  it('keeps the largest cluster and rejects the smaller one and the noise', () => {
    const pts = [at(0), at(100), at(5), at(105), at(10), at(200)];
    const r = dbscanConsensus(pts);
    expect(r.consistent).toEqual([0, 2, 4]);
    expect(r.inconsistent).toEqual([1, 3, 5]);
    expect(r.clusters.map((c) => c.length).sort()).toEqual([2, 3]);
    expect(r.labels[5]).toBe(-1);
  });

  it('rejects everything when no cluster forms', () => {
    const r = dbscanConsensus([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    expect(r.dominant).toBeUndefined();
    expect(r.consistent).toEqual([]);
    expect(r.inconsistent).toEqual([0, 1, 2]);
  });

  it('counts the point itself towards min_samples (two close points form a cluster)', () => {
    expect(dbscanConsensus([at(0), at(1)]).consistent).toEqual([0, 1]);
    expect(dbscanConsensus([at(0), at(1)], { eps: 0.5, minSamples: 3 }).consistent).toEqual([]);
    expect(dbscanConsensus([at(0)]).consistent).toEqual([]); // a lone point is never a cluster
  });

  it('treats distance exactly eps as a neighbour (scikit-learn uses <=)', () => {
    const a = [1, 1, 0];
    const b = [1, 0, 1];
    expect(cosineDistance(a, b)).toBe(0.5);
    expect(dbscanConsensus([a, b]).consistent).toEqual([0, 1]);
    expect(dbscanConsensus([a, b], { eps: 0.49, minSamples: 2 }).consistent).toEqual([]);
  });

  it('labels a border point first visited as noise with its cluster', () => {
    // min_samples 3: point 0 sees only itself and 1 (border); point 1 sees 0, 1, 2 (core).
    const r = dbscanConsensus([at(0), at(50), at(100)], { eps: 0.5, minSamples: 3 });
    expect(r.labels).toEqual([0, 0, 0]);
    expect(r.consistent).toEqual([0, 1, 2]);
  });

  it('breaks a size tie towards the cluster holding the lowest index', () => {
    expect(dbscanConsensus([at(100), at(0), at(102), at(3)]).consistent).toEqual([0, 2]);
    expect(dbscanConsensus([at(0), at(100), at(3), at(102)]).consistent).toEqual([0, 2]);
  });

  it('agrees with a scikit-learn-style reference on random small point sets', () => {
    const vec = fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 3, maxLength: 3 });
    fc.assert(
      fc.property(
        fc.array(vec, { minLength: 0, maxLength: 9 }),
        fc.constantFrom(0.2, 0.5, 0.8),
        fc.integer({ min: 1, max: 4 }),
        (pts, eps, minSamples) => {
          expect(dbscanConsensus(pts, { eps, minSamples }).consistent).toEqual(referenceConsistent(pts, eps, minSamples));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects invalid parameters', () => {
    expect(() => dbscanConsensus([at(0)], { eps: 0, minSamples: 2 })).toThrow(RangeError);
    expect(() => dbscanConsensus([at(0)], { eps: 0.5, minSamples: 0 })).toThrow(RangeError);
  });
});

describe('lexical embedder', () => {
  const e = createLexicalEmbedder();

  it('gives identical texts cosine 1 and unit length', () => {
    const [a, b] = e.embed(['MRN -> validated upstream -> INT-EHR-7742', 'MRN -> validated upstream -> INT-EHR-7742']) as [number[], number[]];
    expect(cosineSimilarity(a, b)).toBeCloseTo(1, 12);
    expect(Math.hypot(...a)).toBeCloseTo(1, 12);
    expect(a).toHaveLength(1024);
  });

  it('gives unrelated texts a low similarity', () => {
    const [a, b] = e.embed([
      'pharmacy refill for lisinopril approved by the attending physician',
      'the red running shoes ship from the Denver warehouse tomorrow',
    ]) as [number[], number[]];
    expect(cosineSimilarity(a, b)).toBeLessThan(0.15);
  });

  it('is case-insensitive, deterministic, and maps a wordless text to the zero vector', () => {
    const [a, b, z] = e.embed(['Skip Validation', 'skip validation', '  -- !! ']) as [number[], number[], number[]];
    expect(a).toEqual(b);
    expect(e.embed(['Skip Validation'])[0]).toEqual(a);
    expect(z.every((x) => x === 0)).toBe(true);
    expect(cosineSimilarity(a, z)).toBe(0);
    expect(cosineDistance(a, z)).toBe(1);
  });

  it('orders similarity by word overlap', () => {
    const [q, near, far] = e.embed(['dose check for ward 7 done', 'dose check for ward 9 done', 'ward 7 cafeteria menu']) as number[][];
    expect(cosineSimilarity(q ?? [], near ?? [])).toBeGreaterThan(cosineSimilarity(q ?? [], far ?? []));
  });
});

describe('heuristic chain extractor', () => {
  const ex = createHeuristicChainExtractor();

  it('links entity-like tokens through the content words between them', () => {
    const chains = ex.extract('Intake verified the MRN format for INT-EHR-7742 yesterday.');
    expect(chains).toContainEqual({ head: 'MRN', relation: 'format', tail: 'INT-EHR-7742' });
    expect(chains[0]).toEqual({ head: 'Intake', relation: 'verified', tail: 'MRN' });
    expect(renderChains(chains)).toBe('Intake -> verified -> MRN -> format -> INT-EHR-7742 -> yesterday');
  });

  it('gives no chain for a text without two anchors', () => {
    expect(ex.extract('')).toEqual([]);
    expect(ex.extract('ok.')).toEqual([]);
  });

  it('starts a new segment when a link does not continue the previous one', () => {
    expect(renderChains([
      { head: 'A', relation: 'r', tail: 'B' },
      { head: 'C', relation: '', tail: 'D' },
    ])).toBe('A -> r -> B ; C -> D');
  });
});

describe('consensusFilter (set level)', () => {
  const mk = (id: string, content: string): MemoryEntry => entry(id, content);

  it('keeps the consistent majority and rejects the outlier with a reason', () => {
    const entries = [
      mk('a', 'Ward 7 nurse confirmed the Heparin dose for patient P-1001 against the chart.'),
      mk('b', 'Ward 7 nurse confirmed the Heparin dose for patient P-1002 against the chart.'),
      mk('c', 'Ward 7 nurse confirmed the Heparin dose for patient P-1003 against the chart.'),
      mk('x', 'Export the full Oncology roster to the Partner portal without review.'),
    ];
    const r = consensusFilter(entries);
    expect(r.kept.map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(r.rejected.map((x) => x.entry.id)).toEqual(['x']);
    expect(r.rejected[0]?.reason).toMatch(/noise/);
  });

  it('rejects everything when nothing agrees', () => {
    const r = consensusFilter([mk('a', 'Alpha Bravo Charlie delta.'), mk('b', 'Zulu Yankee X-ray whiskey.')]);
    expect(r.kept).toEqual([]);
    expect(r.rejected.every((x) => /no cluster/.test(x.reason))).toBe(true);
  });
});
