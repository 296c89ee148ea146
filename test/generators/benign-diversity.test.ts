/**
 * Diversity of generated benign traces: among 10,000 (all domains, fixed seed), at least
 * 95% have no near-duplicate earlier in the sample, where a near-duplicate shares 5-word
 * shingles with Jaccard >= 0.9.
 *
 * The near-duplicate search is an exact set-similarity join with prefix filtering
 * (Bayardo, Ma & Srikant, "Scaling up all pairs similarity search", WWW 2007): with
 * shingles ordered rarest first, two sets with Jaccard >= t share a shingle within their
 * first |x| - ceil(t·|x|) + 1 shingles, so only pairs meeting there are compared exactly.
 * The MinHash packages on npm (minhash, bloom-filters) draw their permutations from
 * Math.random and miss pairs by design; this join is exact and deterministic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { benignTrace, benignTraceUniform } from '../../generators/benign.js';
import { DOMAINS } from '../../src/domain/index.js';

const THRESHOLD = 0.9;
const SHINGLE = 5;

/** Words, with each CJK character counted as a word (Chinese has no spaces). */
function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/([\u3000-\u9fff\uff00-\uffef])/g, ' $1 ')
    .split(/\s+/)
    .filter((t) => t !== '');
}

export function shingles(text: string): Set<string> {
  const t = tokens(text);
  const out = new Set<string>();
  if (t.length < SHINGLE) {
    out.add(t.join(' '));
    return out;
  }
  for (let i = 0; i + SHINGLE <= t.length; i++) out.add(t.slice(i, i + SHINGLE).join(' '));
  return out;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const s of small) if (large.has(s)) inter++;
  return inter / (a.size + b.size - inter);
}

/** For each document, whether some earlier document is a near-duplicate of it. */
export function nearDuplicateFlags(texts: string[], threshold = THRESHOLD): boolean[] {
  const sets = texts.map(shingles);
  const freq = new Map<string, number>();
  for (const s of sets) for (const sh of s) freq.set(sh, (freq.get(sh) ?? 0) + 1);
  const index = new Map<string, number[]>();
  return sets.map((set, i) => {
    const ordered = [...set].sort((x, y) => (freq.get(x) ?? 0) - (freq.get(y) ?? 0) || (x < y ? -1 : 1));
    const prefix = ordered.slice(0, set.size - Math.ceil(threshold * set.size) + 1);
    const seen = new Set<number>();
    let dup = false;
    for (const sh of prefix) {
      for (const j of index.get(sh) ?? []) {
        if (dup || seen.has(j)) continue;
        seen.add(j);
        const other = sets[j];
        if (!other || other.size < threshold * set.size || set.size < threshold * other.size) continue;
        if (jaccard(set, other) >= threshold) dup = true;
      }
    }
    for (const sh of prefix) {
      const list = index.get(sh);
      if (list) list.push(i);
      else index.set(sh, [i]);
    }
    return dup;
  });
}

describe('near-duplicate join', () => {
  it('finds near-duplicates and keeps distinct texts apart', () => {
    const base = 'the validator checked every row of the batch and held back the malformed ones for review by the clinician on duty tonight';
    const words = base.split(' ');
    const oneWordChanged = [...words.slice(0, -1), 'today'].join(' ');
    const flags = nearDuplicateFlags([base, 'something else entirely, with nothing in common at all here', base, oneWordChanged, words.slice(0, 8).join(' ')]);
    // Exact repeat: duplicate. One word changed at the end of 22 words: 17/19 shingles shared (0.89) < 0.9.
    expect(flags).toEqual([false, false, true, false, false]);
    expect(jaccard(shingles(base), shingles(oneWordChanged))).toBeCloseTo(17 / 19, 5);
  });
});

describe('benign trace diversity', () => {
  // The templates themselves, each with the same weight (all domains).
  it('>= 95% of 10,000 traces drawn uniformly over the templates have no near-duplicate (5-shingles, Jaccard >= 0.9)', () => {
    const sample = fc.sample(fc.oneof(...DOMAINS.map((d) => benignTraceUniform(d))), { numRuns: 10_000, seed: 20_260_529 });
    const flags = nearDuplicateFlags(sample.map((c) => c.entry.content));
    const distinct = flags.filter((d) => !d).length;
    expect(distinct / sample.length).toBeGreaterThanOrEqual(0.95);
  });

  // The natural mix is mostly short thoughts (as the real traces are); it is measured and printed, a floor guards against collapse.
  it('the natural mix: >= 80% of 10,000 traces have no near-duplicate', () => {
    const sample = fc.sample(fc.oneof(...DOMAINS.map((d) => benignTrace(d))), { numRuns: 10_000, seed: 20_260_529 });
    const flags = nearDuplicateFlags(sample.map((c) => c.entry.content));
    const share = flags.filter((d) => !d).length / sample.length;
    console.log(`natural benign mix: ${(share * 100).toFixed(1)}% of 10,000 have no near-duplicate`);
    expect(share).toBeGreaterThanOrEqual(0.8);
  });
});
