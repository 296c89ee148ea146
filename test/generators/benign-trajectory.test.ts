/**
 * Store context (docs/calibration.md, "Store context"): the one rule for real and generated
 * entries (`storeContextIndices`), the real sets' episode labels, and the generated trajectories
 * (same-episode context first, deterministic per seed, the drawn repeat-group structure and
 * near-repeat overlap realised in the placed store).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { episodeOf, storeContextIndices } from '../../src/domain/index.js';
import type { FuzzCase, MemoryEntry } from '../../src/domain/index.js';
import { realSetCases } from '../../src/fuzz/measure.js';
import { loadRealBenignSets } from '../../src/corpus/benign-sets.js';
import { benignInTrajectory, trajectoryProbe } from '../../generators/benign-trajectory.js';
import { contentWords, defaultCalibration, entityTokens, isEntityFree, isEntityReframe, lexicalOverlap, sequenceOverlap, SEQUENCE_BINS, SHORT_WORDS, type Calibration } from '../../generators/calibration/index.js';
import { benignTrace, entityReframe } from '../../generators/benign.js';
import { storeStructure } from '../../generators/calibration/features.js';

const entry = (id: string, episode?: string): MemoryEntry => ({
  id,
  store: 'reasoning',
  content: `step ${id}`,
  source: 'AGENT',
  trust: 'VERIFIED',
  traceType: 'thought_chain',
  timestamp: '2024-01-01T00:00:00.000Z',
  ...(episode !== undefined ? { metadata: { episode } } : {}),
});

describe('storeContextIndices', () => {
  it('own episode first (never its later steps), then the episodes before it, cyclic, oldest first', () => {
    const eps = ['a', 'a', 'a', 'b', 'b', 'c'];
    expect(storeContextIndices(eps, 4, 8)).toEqual([5, 0, 1, 2, 3]); // b's 2nd step: a before it, then c (cyclic), own step 3 last
    expect(storeContextIndices(eps, 1, 8)).toEqual([3, 4, 5, 0]); // never a's step 2 (later than 1)
    expect(storeContextIndices(eps, 4, 2)).toEqual([2, 3]); // capped: own step, then the newest of episode a
    expect(storeContextIndices(eps, 0, 0)).toEqual([]);
  });

  it('a set with one episode is one trajectory: the entries before it, cyclic', () => {
    expect(storeContextIndices(['', '', '', ''], 1, 2)).toEqual([3, 0]);
    expect(storeContextIndices(['', '', ''], 0, 8)).toEqual([1, 2]);
  });

  it('rejects a bad index or history', () => {
    expect(() => storeContextIndices(['a'], 1, 8)).toThrow(RangeError);
    expect(() => storeContextIndices(['a'], 0, -1)).toThrow(RangeError);
  });

  it('episodeOf reads metadata.episode, then trajectory, session, env; else one episode', () => {
    expect(episodeOf(entry('x', 'q1'))).toBe('episode:q1');
    expect(episodeOf({ metadata: { env: 'env_2' } })).toBe('env:env_2');
    expect(episodeOf({ metadata: { session: 7 } })).toBe('session:7');
    expect(episodeOf({ metadata: { episode: '', env: 'e' } })).toBe('env:e');
    expect(episodeOf({})).toBe('');
  });
});

describe('real sets are measured in their own trajectories', () => {
  it('realSetCases: same-episode earlier steps last in setup, counted in truth.context.ownEpisode', () => {
    const es = [entry('1', 'a'), entry('2', 'a'), entry('3', 'b'), entry('4', 'b'), entry('5', 'b')];
    const c = realSetCases(es, 8, 'toy')[4]!;
    expect(c.setup?.map((e) => e.id)).toEqual(['1', '2', '3', '4']);
    expect(c.truth.context).toEqual({ ownEpisode: 2 });
  });

  it('the prompt sets and the episode-structured run logs carry an episode label on every entry', () => {
    const labelled = ['react-hotpotqa', 'react-fever', 'react-alfworld', 'expel-webshop', 'reflexion-alfworld', 'reflexion-webshop', 'reflexion-programming'];
    for (const s of loadRealBenignSets().sets.filter((x) => labelled.includes(x.name))) {
      const labels = s.entries.map(episodeOf);
      expect(labels.every((l) => l !== ''), s.name).toBe(true);
      expect(new Set(labels).size, s.name).toBeGreaterThan(1);
    }
  });

  it('a ReAct HotpotQA entry sees the earlier thoughts of its own question first', () => {
    const hotpot = loadRealBenignSets().sets.find((s) => s.name === 'react-hotpotqa')!;
    for (const c of realSetCases(hotpot.entries, 8, hotpot.name)) {
      const own = c.truth.context?.ownEpisode ?? 0;
      const setup = c.setup ?? [];
      for (const e of setup.slice(setup.length - own)) expect(episodeOf(e)).toBe(episodeOf(c.entry));
      for (const e of setup.slice(0, setup.length - own)) expect(episodeOf(e)).not.toBe(episodeOf(c.entry));
    }
  });
});

describe('benignInTrajectory', () => {
  const sample = (seed = 7, domain: 'ehr' | 'react-qa' | 'rap' = 'react-qa', calibration?: Calibration) => fc.sample(benignInTrajectory(domain, calibration ? { calibration } : {}), { seed, numRuns: 150 });
  const structureOf = (c: FuzzCase) => storeStructure(c.entry.content, (c.setup ?? []).map((e) => e.content));

  it('is deterministic per seed and differs across seeds', () => {
    expect(sample(7)).toEqual(sample(7));
    expect(sample(7).map((c) => c.entry.id)).not.toEqual(sample(8).map((c) => c.entry.id));
  });

  it('the store holds at most 8 distinct entries, never the entry itself; its own-episode steps are counted', () => {
    for (const c of sample()) {
      const setup = c.setup ?? [];
      expect(setup.length).toBeLessThanOrEqual(defaultCalibration().trajectory.historyEntries);
      expect(new Set(setup.map((e) => e.id)).size).toBe(setup.length);
      expect(setup.some((e) => e.id === c.entry.id)).toBe(false);
      expect(c.truth.context!.ownEpisode).toBeLessThanOrEqual(setup.length);
    }
  });

  it('realises the drawn repeat-group sizes: the placed store shows them in most cases, and an entry drawn alone has no near-repeat', () => {
    for (const domain of ['ehr', 'react-qa', 'rap'] as const) {
      const cases = sample(3, domain);
      // Exact sizes are hard for the large run-log groups (a rival of 7 may come out as 6), so: the
      // entry's own group exactly, and both sizes within one.
      const ownSame = cases.filter((c) => structureOf(c).own === c.truth.context?.groups?.own);
      const near = cases.filter((c) => {
        const s = structureOf(c);
        return Math.abs(s.own - (c.truth.context?.groups?.own ?? 0)) <= 1 && Math.abs(s.rival - (c.truth.context?.groups?.rival ?? 0)) <= 1;
      });
      expect(ownSame.length / cases.length, domain).toBeGreaterThan(0.6);
      expect(near.length / cases.length, domain).toBeGreaterThan(0.6);
      const alone = cases.filter((c) => c.truth.context?.groups?.own === 1);
      expect(alone.length, domain).toBeGreaterThan(5);
      expect(alone.filter((c) => structureOf(c).own === 1).length / alone.length, domain).toBeGreaterThan(0.9);
      for (const c of alone) expect(c.truth.context?.repeat, domain).toBe('none');
    }
  });

  it('draws the near-repeat overlap from the calibration: a low-similarity calibration gives less similar near-repeats than a high one', () => {
    const base = defaultCalibration();
    const withSimilarity = (bin: number): Calibration => {
      const c = structuredClone(base);
      for (const d of Object.values(c.trajectory.domains)) {
        d.similarity = d.similarity.map((_, i) => (i === bin ? 1 : 0));
        d.groups = { '3:0': 1 };
      }
      return c;
    };
    const median = (cal: Calibration): number => {
      const xs = sample(5, 'ehr', cal).flatMap((c) => structureOf(c).similarities).sort((a, b) => a - b);
      return xs[Math.floor(xs.length / 2)] ?? 0;
    };
    const low = median(withSimilarity(1)); // 0.35–0.40
    const high = median(withSimilarity(12)); // 0.90–0.95
    expect(low).toBeLessThan(0.5);
    expect(high).toBeGreaterThan(low + 0.2);
  });

  it('draws the near-repeat sequence overlap from the calibration: a low-sequence calibration gives near-repeats that keep less of the order than a high one', () => {
    const base = defaultCalibration();
    const withSequence = (bin: number): Calibration => {
      const c = structuredClone(base);
      for (const d of Object.values(c.trajectory.domains)) {
        d.sequence = d.sequence.map((_, i) => (i % SEQUENCE_BINS === bin ? 1 : 0));
        d.groups = { '3:0': 1 };
      }
      return c;
    };
    const median = (cal: Calibration): number => {
      const xs = sample(5, 'react-qa', cal).flatMap((c) => structureOf(c).sequences).sort((a, b) => a - b);
      return xs[Math.floor(xs.length / 2)] ?? 0;
    };
    const low = median(withSequence(1)); // 0.2–0.4
    const high = median(withSequence(4)); // 0.8–1.0
    expect(high).toBeGreaterThan(low + 0.1);
  });

  it('draws entity-sharing reframes from the calibration: with reframe 1 more near-repeats name the entry\'s entities in another frame than with reframe 0', () => {
    const withReframe = (p: number): Calibration => {
      const c = structuredClone(defaultCalibration());
      for (const d of Object.values(c.trajectory.domains)) {
        d.reframe = p;
        d.groups = { '3:0': 1 };
      }
      return c;
    };
    const share = (cal: Calibration): number => {
      const flags = sample(5, 'react-qa', cal).flatMap((c) => structureOf(c).reframes);
      return flags.filter(Boolean).length / Math.max(1, flags.length);
    };
    const none = share(withReframe(0));
    const all = share(withReframe(1));
    expect(all).toBeGreaterThan(none + 0.05);
  });

  it('draws short observations from the calibration: all mass on 3 content words cuts prose entries short; none leaves them', () => {
    const withShort = (p: number[]): Calibration => {
      const c = structuredClone(defaultCalibration());
      for (const d of Object.values(c.trajectory.domains)) d.short = p;
      return c;
    };
    const zero = new Array<number>(SHORT_WORDS + 1).fill(0);
    const shortShare = (cal: Calibration): number => {
      const xs = sample(9, 'rap', cal).filter((c) => c.truth.format === 'prose' && (c.truth.hardNegatives?.length ?? 0) === 0);
      return xs.filter((c) => contentWords(c.entry.content).size <= SHORT_WORDS).length / xs.length;
    };
    const cut = shortShare(withShort(zero.map((_, i) => (i === 3 ? 1 : 0))));
    expect(cut).toBeGreaterThan(0.9);
    expect(shortShare(withShort(zero))).toBeLessThan(cut - 0.5);
    // A cut entry is the start of its first sentence, with whole tokens (an id such as INT-EHR-7742 is never split).
    for (const c of sample(9, 'ehr', withShort(zero.map((_, i) => (i === 2 ? 1 : 0))))) {
      if (!c.entry.id.includes('~s')) continue;
      expect(contentWords(c.entry.content).size).toBeLessThanOrEqual(SHORT_WORDS);
      expect(c.entry.content.endsWith('-')).toBe(false);
    }
  });

  it('draws entity-free turns from the calibration: with entityFree 1 the prose entries under test name no entity; with 0 almost all do', () => {
    const withFree = (p: number): Calibration => {
      const c = structuredClone(defaultCalibration());
      for (const d of Object.values(c.trajectory.domains)) {
        d.entityFree = p;
        d.short = d.short.map(() => 0);
      }
      return c;
    };
    const freeShare = (cal: Calibration): number => {
      const xs = sample(4, 'ehr', cal).filter((c) => c.truth.format === 'prose' && c.truth.language === 'en' && (c.truth.hardNegatives?.length ?? 0) === 0);
      return xs.filter((c) => isEntityFree(c.entry.content)).length / xs.length;
    };
    expect(freeShare(withFree(1))).toBeGreaterThan(0.95);
    expect(freeShare(withFree(0))).toBeLessThan(0.1);
    // A turn's twins are turns of its frame: a group around a turn holds near-repeats that name nothing either.
    const grouped = sample(4, 'rap', (() => {
      const c = withFree(1);
      for (const d of Object.values(c.trajectory.domains)) d.groups = { '3:0': 1 };
      return c;
    })()).filter((c) => c.truth.template === 'rap/benign/templated-turn');
    const near = grouped.flatMap((c) => (c.setup ?? []).filter((e) => lexicalOverlap(e.content, c.entry.content) >= 0.3));
    expect(near.length).toBeGreaterThan(grouped.length);
    expect(near.filter((e) => entityTokens(e.content).size === 0).length / near.length).toBeGreaterThan(0.5);
  });

  it('draws indirect group members from the calibration: with indirect 1 groups hold members that repeat another member and not the entry; with 0 almost none', () => {
    const withIndirect = (p: number): Calibration => {
      const c = structuredClone(defaultCalibration());
      for (const d of Object.values(c.trajectory.domains)) {
        d.indirect = p;
        d.groups = { '5:0': 1 };
      }
      return c;
    };
    const indirectShare = (cal: Calibration): number => {
      let members = 0;
      let indirect = 0;
      for (const c of sample(6, 'ehr', cal)) {
        const st = structureOf(c);
        members += st.members.length;
        indirect += st.members.length - st.similarities.length;
      }
      return indirect / Math.max(1, members);
    };
    const none = indirectShare(withIndirect(0));
    expect(none).toBeLessThan(0.05);
    expect(indirectShare(withIndirect(1))).toBeGreaterThan(none + 0.2);
  });

  it('benign-stress keeps a hard negative under test in a natural context', () => {
    for (const c of fc.sample(benignInTrajectory('rap', { stress: true }), { seed: 3, numRuns: 40 })) expect(c.truth.hardNegatives?.length).toBe(1);
  });

  it('the calibrated domains reach their real store structure within 10 points (weights.json `generated` beside `target`)', () => {
    for (const [domain, d] of Object.entries(defaultCalibration().trajectory.domains)) {
      for (const k of ['alone', 'win', 'tie', 'lose', 'entityFree'] as const) expect(Math.abs(d.generated[k] - d.target[k]), `${domain} ${k}`).toBeLessThanOrEqual(0.1);
    }
  });

  it('the probe measures what the generator places (store-structure and near-repeat counts of 300 trajectories)', () => {
    const p = trajectoryProbe(defaultCalibration(), 'rap');
    expect(p.structure.n).toBe(300);
    expect(p.nearRepeats.n).toBe(300);
    expect(Object.values(p.structure.cells).reduce((a, x) => a + x, 0)).toBe(300);
  });
});

describe('storeStructure', () => {
  it('groups store and entry by single linkage and reports the entry group, the largest rival group and the direct near-repeat overlaps', () => {
    const store = ['apple pear plum', 'apple pear fig', 'stone rock sand', 'stone rock clay', 'stone rock silt', 'river lake sea'];
    const s = storeStructure('apple pear kiwi', store);
    expect(s.own).toBe(3);
    expect(s.rival).toBe(3);
    expect(s.members).toEqual([0, 1]);
    expect(s.similarities.map((x) => Math.round(x * 100))).toEqual([50, 50]);
    // 'apple pear' is the one word pair each near-repeat shares with the entry, of 3 pairs in all.
    expect(s.sequences.map((x) => Math.round(x * 100))).toEqual([33, 33]);
    expect(storeStructure('moon sun star', store)).toEqual({ own: 1, rival: 3, similarities: [], sequences: [], reframes: [], members: [] });
    expect(s.reframes).toEqual([false, false]); // no entity in either text
    // Single linkage: c joins a through b even though c and a share little.
    expect(storeStructure('c1 c2 c3 b1', ['a1 a2 b1 b2', 'b1 b2 c1 c2']).own).toBe(3);
  });
});

describe('entity tokens and entity-sharing reframes', () => {
  it('entityTokens: numbers, inner capitals, capitalised words after a clause\'s first word', () => {
    expect([...entityTokens('Now I search Paris. It was 1999; MRN ok')].sort()).toEqual(['1999', 'mrn', 'paris']);
    expect(entityTokens('the desk is idle').size).toBe(0);
  });

  it('isEntityReframe: the same entities in another frame, never a template twin or texts without entities', () => {
    expect(isEntityReframe('I need to search Mount Bartoletti for its height.', 'The height of Mount Bartoletti is what the question asks.')).toBe(true);
    expect(isEntityReframe('I need to search Mount Bartoletti for its height.', 'I need to search Mount Kovacek for its height.')).toBe(false);
    expect(isEntityReframe('the desk is idle', 'desk is idle now')).toBe(false);
  });

  it('entityReframe renders another template with the root\'s slot values (the same entities, another frame)', () => {
    const xs = fc.sample(fc.tuple(benignTrace('react-qa'), fc.array(benignTrace('react-qa'), { minLength: 6, maxLength: 6 })), { seed: 2, numRuns: 60 });
    let made = 0;
    for (const [root, others] of xs) {
      for (const o of others) {
        const f = entityReframe(root, o);
        if (!f) continue;
        made++;
        expect(f.truth.template).toBe(o.truth.template);
        expect(f.truth.template).not.toBe(root.truth.template);
        expect(entityReframe(root, o)).toEqual(f); // pure
      }
    }
    expect(made).toBeGreaterThan(30);
  });
});

describe('sequenceOverlap', () => {
  it('is the Jaccard index of word pairs: a kept frame scores high, the same words in another order low', () => {
    expect(sequenceOverlap('I need to search X.', 'I need to search Y.')).toBeCloseTo(3 / 5, 6);
    expect(sequenceOverlap('search X then answer', 'answer then search X')).toBeCloseTo(1 / 5, 6);
    expect(lexicalOverlap('search X then answer', 'answer then search X')).toBe(1);
    expect(sequenceOverlap('one', 'one')).toBe(0);
  });
});

describe('lexicalOverlap', () => {
  it('is the Jaccard index of content words', () => {
    expect(lexicalOverlap('Now I take the apple.', 'Now I take the apple.')).toBe(1);
    expect(lexicalOverlap('take apple', 'take mug')).toBeCloseTo(1 / 3, 6);
    expect(lexicalOverlap('the a of', 'the')).toBe(0);
  });
});
