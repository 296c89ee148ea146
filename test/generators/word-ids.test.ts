/**
 * Interned word ids (`generators/word-ids.ts`): a text's ids stand for exactly its
 * `contentWords` and `wordBigrams`, so the trajectory generator's counts of shared words and
 * pairs (and the Jaccard overlaps built from them) equal those on the string sets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentWords, setOverlap, wordBigrams } from '../../generators/calibration/features.js';
import { Marks, textIds, unionIds } from '../../generators/word-ids.js';

/** Texts from a small vocabulary (so words repeat within and across texts), with non-ASCII forms and punctuation. */
const word = fc.constantFrom('the', 'Ward', 'ward', 'MRN', '4411', 'Ｆｕｌｌ', 'straße', 'café', 'ﬁle', '患者', 'of', 'x1', 'I', 'and', 'Glucose');
const sep = fc.constantFrom(' ', ', ', '. ', '\n', ' - ', '; ', '…');
const text = fc.array(fc.tuple(word, sep), { maxLength: 24 }).map((xs) => xs.map(([w, s]) => w + s).join(''));

/** Jaccard of two id arrays through `Marks`, the way the trajectory generator counts. */
function idOverlap(a: Int32Array, b: Int32Array): number {
  const m = new Marks();
  const s = m.markAll(a);
  let shared = 0;
  for (const id of b) if (m.has(id, s)) shared++;
  const union = a.length + b.length - shared;
  return union === 0 ? 0 : shared / union;
}

describe('textIds', () => {
  it('has one id per content word and per word pair, each once', () => {
    fc.assert(
      fc.property(text, (t) => {
        const ids = textIds(t);
        expect(ids.words.length).toBe(contentWords(t).size);
        expect(ids.pairs.length).toBe(wordBigrams(t).size);
        expect(new Set(ids.words).size).toBe(ids.words.length);
        expect(new Set(ids.pairs).size).toBe(ids.pairs.length);
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('gives two texts the overlaps of their string sets (words and pairs)', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(idOverlap(textIds(a).words, textIds(b).words)).toBe(setOverlap(contentWords(a), contentWords(b)));
        expect(idOverlap(textIds(a).pairs, textIds(b).pairs)).toBe(setOverlap(wordBigrams(a), wordBigrams(b)));
      }),
      { numRuns: 300, seed: 8 },
    );
  });

  it('unionIds is the union of the word sets', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const u = unionIds([textIds(a).words, textIds(b).words]);
        expect(u.length).toBe(new Set([...contentWords(a), ...contentWords(b)]).size);
        expect(idOverlap(u, textIds(a).words)).toBe(setOverlap(new Set([...contentWords(a), ...contentWords(b)]), contentWords(a)));
      }),
      { numRuns: 200, seed: 9 },
    );
  });
});

describe('Marks', () => {
  it('a fresh stamp holds no id; add reports first marks only; ids past the initial size grow the array', () => {
    const m = new Marks();
    const s = m.next();
    expect(m.has(3, s)).toBe(false);
    expect(m.add(3, s)).toBe(true);
    expect(m.add(3, s)).toBe(false);
    expect(m.add(100_000, s)).toBe(true);
    expect(m.has(100_000, s)).toBe(true);
    const t = m.next();
    expect(m.has(3, t)).toBe(false);
    expect(m.has(100_000, t)).toBe(false);
  });
});
