/**
 * Store context (docs/calibration.md, "Store context"): the one rule for real and generated
 * entries (`storeContextIndices`), the real sets' episode labels, and the generated trajectories
 * (same-episode context first, deterministic per seed, repeat rates that move the near-repeat
 * rate the way the calibration assumes).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { episodeOf, storeContextIndices } from '../../src/domain/index.js';
import type { MemoryEntry } from '../../src/domain/index.js';
import { realSetCases } from '../../src/fuzz/measure.js';
import { loadRealBenignSets } from '../../src/corpus/benign-sets.js';
import { benignInTrajectory, trajectoryProbe } from '../../generators/benign-trajectory.js';
import { defaultCalibration, lexicalOverlap } from '../../generators/calibration/index.js';

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
  const sample = (rates?: { own: number; other: number }, seed = 7) => fc.sample(benignInTrajectory('react-qa', rates ? { rates } : {}), { seed, numRuns: 150 });

  it('is deterministic per seed and differs across seeds', () => {
    expect(sample(undefined, 7)).toEqual(sample(undefined, 7));
    expect(sample(undefined, 7).map((c) => c.entry.id)).not.toEqual(sample(undefined, 8).map((c) => c.entry.id));
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

  it('with own-repeat rate 1, an entry with own-episode steps has its twin among them (a same-template render)', () => {
    const cases = sample({ own: 1, other: 0 }).filter((c) => (c.truth.context?.ownEpisode ?? 0) > 0);
    expect(cases.length).toBeGreaterThan(30);
    for (const c of cases) expect(c.truth.context?.repeat).toBe('own');
  });

  it('the near-repeat rate rises with the repeat rate and falls when chance repeats are declined', () => {
    const probe = trajectoryProbe(defaultCalibration(), 'ehr');
    const rate = (x: number): number => {
      const c = probe({ own: x, other: x });
      return (c.ownRepeats + c.otherRepeats) / c.n;
    };
    expect(rate(1)).toBeGreaterThan(rate(0) + 0.2);
    expect(rate(-1)).toBeLessThan(rate(0) - 0.2);
  });

  it('benign-stress keeps a hard negative under test in a natural context', () => {
    for (const c of fc.sample(benignInTrajectory('rap', { stress: true }), { seed: 3, numRuns: 40 })) expect(c.truth.hardNegatives?.length).toBe(1);
  });

  it('the calibrated domains reach their real near-repeat rates within 5 points, unless a rate sits at its bound', () => {
    for (const [domain, d] of Object.entries(defaultCalibration().trajectory.domains)) {
      for (const k of ['own', 'other'] as const) {
        if (Math.abs(d.rates[k]) === 1) continue;
        expect(Math.abs(d.generated[k] - d.target[k]), `${domain} ${k}`).toBeLessThanOrEqual(0.05);
      }
    }
  });
});

describe('lexicalOverlap', () => {
  it('is the Jaccard index of content words', () => {
    expect(lexicalOverlap('Now I take the apple.', 'Now I take the apple.')).toBe(1);
    expect(lexicalOverlap('take apple', 'take mug')).toBeCloseTo(1 / 3, 6);
    expect(lexicalOverlap('the a of', 'the')).toBe(0);
  });
});
