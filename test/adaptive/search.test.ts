import { describe, expect, it } from 'vitest';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { SyncGuard } from '../../src/domain/guard.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { mcts, runAttack, type AttackFeedback, type SearchMethod } from '../../src/fuzz/attack.js';
import { beam, greedy } from '../../src/fuzz/search.js';
import type { Constraint, Transformation } from '../../src/fuzz/transformation.js';
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

/** Arm `x@i` blanks out position i. */
const blank: Transformation = {
  arms: WORDS.map((_, i) => `x@${i}`),
  apply(c, steps) {
    const words = c.entry.content.split(' ');
    for (const s of steps) words[Number(s.op.slice(2))] = 'x';
    return { ...c, entry: { ...c.entry, content: words.join(' ') }, truth: { ...c.truth, operators: [...c.truth.operators, ...steps.map((s) => s.op)] } };
  },
};
const keepAll: Constraint = { check: (_b, _s, rewritten) => ({ kept: true, case: rewritten }) };

type Mode = 'decision' | 'score';
const methods = { greedy: () => greedy({ neighbours: 3 }), beam: () => beam({ neighbours: 3 }), mcts: () => mcts() } satisfies Record<string, () => SearchMethod>;
type Strategy = keyof typeof methods;

async function search(guard: SyncGuard, mode: Mode, strategy: Strategy, seed: number, budget = 300, base: FuzzCase = start) {
  const feedback: AttackFeedback = mode === 'score' ? 'auto' : 'decision';
  const out = await runAttack({ guard, store: arrayStore, phase: 'write', bases: [base], transformation: blank, constraint: keepAll, method: methods[strategy](), budget, seed, baseSeeds: [seed], feedback, minimise: false });
  const r = out.results[0]!;
  return { bypassed: r.status === 'flipped' || r.status === 'skipped', queries: r.flip?.queriesToFlip ?? r.queries, path: (r.flip?.found ?? r.bestSteps).map((s) => s.op), final: r.flip?.case, bestScore: r.bestScore, restarts: r.restarts };
}

async function run(mode: Mode, strategy: Strategy, seed: number, budget = 300) {
  return search(toyGuard(true), mode, strategy, seed, budget);
}

describe('search methods (greedy, beam, mcts) behind one interface', () => {
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
    ['decision', 'mcts'],
    ['score', 'mcts'],
  ] as const)('finds the planted bypass within budget (%s, %s) and reports its queries', async (mode, strategy) => {
    const guard = toyGuard(true);
    const r = await search(guard, mode, strategy, 1);
    expect(r.bypassed).toBe(true);
    expect(r.queries).toBeGreaterThan(1);
    expect(r.queries).toBeLessThanOrEqual(300);
    expect(guard.calls).toBe(r.queries);
    expect(r.path).toContain('x@1');
    expect(r.path).toContain('x@5');
    expect(r.final?.entry.content.includes('bad')).toBe(false);
  });

  it('needs no more queries with the score than with the decision alone (F informative), over seeds', async () => {
    let decision = 0;
    let score = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const d = await run('decision', 'greedy', seed);
      const s = await run('score', 'greedy', seed);
      expect(d.bypassed && s.bypassed).toBe(true);
      decision += d.queries;
      score += s.queries;
    }
    expect(score).toBeLessThanOrEqual(decision);
  });

  it('stops at the budget and reports the best case when nothing bypasses', async () => {
    const never: SyncGuard = { id: 'never', mode: 'sync', check: () => ({ decision: 'reject', trace: [], reasons: [], elapsedUs: 1, score: 0.7 }) };
    const r = await search(never as SyncGuard & { calls: number }, 'score', 'beam', 2, 25);
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

  it.each(['greedy', 'beam', 'mcts'] as const)('one bypass rule (%s): a split claim with a rejected part is no bypass; a rejected earlier write that is no claim part does not matter', async (strategy) => {
    const rejectsParts: SyncGuard & { calls: number } = {
      id: 'rejects-parts',
      mode: 'sync',
      calls: 0,
      check: (e) => ({ decision: e.id.endsWith('-part1') ? 'reject' : 'admit', trace: [], reasons: [], elapsedUs: 1 }),
    };
    const withWrite: FuzzCase = { ...start, setup: [entry('toy-part1', 'bad half')], truth: { ...start.truth, attackerSetup: 1 } };
    const split: FuzzCase = { ...withWrite, truth: { ...withWrite.truth, claimParts: 2 } };
    expect((await search(rejectsParts, 'decision', strategy, 1, 5, split)).bypassed).toBe(false);
    expect((await search(rejectsParts, 'decision', strategy, 1, 5, withWrite)).bypassed).toBe(true);
  });
});
