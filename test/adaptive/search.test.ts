import { describe, expect, it } from 'vitest';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { SyncGuard } from '../../src/domain/guard.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { searchBypass, type MutateFn, type SearchMode, type SearchStrategy } from '../../src/fuzz/search.js';
import { arrayStore, entry } from '../helpers/toy.js';

/** Toy instance: 8 words; positions 1 and 5 hold "bad" words; the guard admits only when both are gone. */
const WORDS = ['w0', 'bad', 'w2', 'w3', 'w4', 'bad', 'w6', 'w7'];
const start: FuzzCase = {
  entry: entry('toy-start', WORDS.join(' ')),
  truth: { label: 'forged', family: 'adaptive', domain: 'toy', template: 'toy/seed/one', operators: [] },
};

/** F = share of bad words left, in [0,1]; reject while any remain. */
function toyGuard(withScore: boolean): SyncGuard & { calls: number } {
  const g = {
    id: 'toy-bad-words',
    mode: 'sync' as const,
    calls: 0,
    check(e: { content: string }): Verdict {
      g.calls += 1;
      const left = e.content.split(' ').filter((w) => w === 'bad').length;
      const f = left / 2;
      return { decision: left === 0 ? 'admit' : 'reject', trace: [], reasons: [], elapsedUs: 1, ...(withScore ? { score: f } : {}) };
    },
  };
  return g;
}

/** One neighbour per draw: blank out one random position (operator `x@i`). */
const blankOne: MutateFn = (c, step) =>
  Array.from({ length: 3 }, () => {
    const i = step.nextInt(WORDS.length);
    const words = c.entry.content.split(' ');
    words[i] = 'x';
    return { ...c, entry: { ...c.entry, content: words.join(' ') }, truth: { ...c.truth, operators: [...c.truth.operators, `x@${i}`] } };
  });

async function run(mode: SearchMode, strategy: SearchStrategy, seed: number, budget = 300) {
  return searchBypass({ guard: toyGuard(true), start, mutate: blankOne, budget, mode, strategy, seed, store: arrayStore });
}

describe('searchBypass', () => {
  it('is deterministic for a seed', async () => {
    const a = await run('decision', 'greedy', 7);
    const b = await run('decision', 'greedy', 7);
    expect(b).toEqual(a);
    const c = await run('score', 'beam', 7);
    const d = await run('score', 'beam', 7);
    expect(d).toEqual(c);
  });

  it.each([
    ['decision', 'greedy'],
    ['decision', 'beam'],
    ['score', 'greedy'],
    ['score', 'beam'],
  ] as const)('finds the planted bypass within budget (%s, %s) and reports its queries', async (mode, strategy) => {
    const guard = toyGuard(true);
    const r = await searchBypass({ guard, start, mutate: blankOne, budget: 300, mode, strategy, seed: 1, store: arrayStore });
    expect(r.bypassed).toBe(true);
    expect(r.queries).toBeGreaterThan(1);
    expect(r.queries).toBeLessThanOrEqual(300);
    expect(guard.calls).toBe(r.queries);
    expect(r.path).toContain('x@1');
    expect(r.path).toContain('x@5');
    expect(r.final?.entry.content.includes('bad')).toBe(false);
  });

  it('needs no more queries with the score than with the decision alone (F informative)', async () => {
    const decision = await run('decision', 'greedy', 3);
    const score = await run('score', 'greedy', 3);
    expect(decision.bypassed && score.bypassed).toBe(true);
    expect(score.queries).toBeLessThanOrEqual(decision.queries);
  });

  it('stops at the budget and reports the best case when nothing bypasses', async () => {
    const never: SyncGuard = { id: 'never', mode: 'sync', check: () => ({ decision: 'reject', trace: [], reasons: [], elapsedUs: 1, score: 0.7 }) };
    const r = await searchBypass({ guard: never, start, mutate: blankOne, budget: 25, mode: 'score', strategy: 'beam', seed: 2, store: arrayStore });
    expect(r.bypassed).toBe(false);
    expect(r.queries).toBe(25);
    expect(r.bestScore).toBeCloseTo(0.7);
  });

  it('bypass order does not depend on the budget: a smaller budget bypasses iff queries fit', async () => {
    const full = await run('decision', 'beam', 5, 300);
    const tight = await run('decision', 'beam', 5, full.queries);
    const short = await run('decision', 'beam', 5, full.queries - 1);
    expect(tight.bypassed).toBe(true);
    expect(tight.queries).toBe(full.queries);
    expect(short.bypassed).toBe(false);
  });

  it('does not count an entry admitted while an attacker write was rejected (all-writes rule)', async () => {
    const rejectsSetup: SyncGuard = {
      id: 'rejects-parts',
      mode: 'sync',
      check: (e) => ({ decision: e.id.endsWith('-part1') ? 'reject' : 'admit', trace: [], reasons: [], elapsedUs: 1 }),
    };
    const split: FuzzCase = { ...start, setup: [entry('toy-part1', 'bad half')], truth: { ...start.truth, attackerSetup: 1 } };
    const strict = await searchBypass({ guard: rejectsSetup, start: split, mutate: () => [], budget: 5, mode: 'decision', strategy: 'greedy', seed: 1, store: arrayStore });
    expect(strict.bypassed).toBe(false);
    expect(strict.partialAdmits).toBe(1);
    const loose = await searchBypass({ guard: rejectsSetup, start: split, mutate: () => [], budget: 5, mode: 'decision', strategy: 'greedy', seed: 1, store: arrayStore, bypassRule: 'entry' });
    expect(loose.bypassed).toBe(true);
  });
});
