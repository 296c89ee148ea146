/**
 * The transfer pool (`src/fuzz/pool.ts`) and its use by the attack: compositions that flipped a
 * base are tried on the next bases (and the next run, when the pool is shared), ranked by UCB1
 * over their success rate; the figures are the same for a seed whatever the guard's timing.
 */
import { describe, expect, it } from 'vitest';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { Guard, SyncGuard } from '../../src/domain/guard.js';
import type { MemoryEntry } from '../../src/domain/entry.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { MemoryStore } from '../../src/memory/index.js';
import { CompositionPool, compositionKey } from '../../src/fuzz/pool.js';
import { runAttack, type MoveStep } from '../../src/fuzz/attack.js';
import type { Constraint, Transformation } from '../../src/fuzz/transformation.js';
import { makeEntry } from '../fixtures/guards/make-entry.js';

const steps = (...ops: string[]): MoveStep[] => ops.map((op, i) => ({ op, choice: i }));

describe('CompositionPool', () => {
  it('keeps compositions of two or more operators, one entry per operator sequence', () => {
    const pool = new CompositionPool();
    expect(pool.recordFlip(steps('a'))).toBeUndefined();
    expect(pool.recordFlip([])).toBeUndefined();
    const e = pool.recordFlip(steps('a', 'b'));
    expect(e?.key).toBe('a > b');
    // The same sequence with other variants is the same composition; another order is another.
    pool.recordFlip([{ op: 'a', choice: 9 }, { op: 'b', choice: 9 }]);
    pool.recordFlip(steps('b', 'a'));
    expect(pool.size).toBe(2);
    expect(pool.entries[0]).toMatchObject({ key: 'a > b', tries: 2, successes: 2, transferred: 0 });
    // The steps kept are those of the flip that added it.
    expect(pool.entries[0]?.steps).toEqual(steps('a', 'b'));
    expect(new CompositionPool({ minLength: 1 }).recordFlip(steps('a'))?.key).toBe('a');
  });

  it('counts transferred tries, and ranks by UCB1 over the success rate', () => {
    const pool = new CompositionPool();
    pool.recordFlip(steps('a', 'b'));
    pool.recordFlip(steps('c', 'd'));
    // Equal records: the first to join wins the tie.
    expect(pool.best(new Set())?.key).toBe('a > b');
    for (let i = 0; i < 6; i++) pool.recordTry('a > b', false);
    pool.recordTry('c > d', true);
    expect(pool.best(new Set())?.key).toBe('c > d');
    expect(pool.entries[1]).toMatchObject({ tries: 2, successes: 2, transferred: 1 });
    // A key tried on the base at hand, or one the filter refuses, is passed over.
    expect(pool.best(new Set(['c > d']))?.key).toBe('a > b');
    expect(pool.best(new Set(), (e) => e.key !== 'c > d')?.key).toBe('a > b');
    expect(pool.best(new Set(['a > b', 'c > d']))).toBeUndefined();
    // An unknown key changes nothing.
    pool.recordTry('x > y', true);
    expect(pool.size).toBe(2);
    expect(pool.top(1)).toEqual([{ composition: 'c > d', operators: ['c', 'd'], tries: 2, successes: 2, transferred: 1 }]);
    expect(pool.top().map((r) => r.composition)).toEqual(['c > d', 'a > b']);
  });

  it('the exploration term lets a composition with fewer tries overtake a better-known one', () => {
    const fill = (pool: CompositionPool): CompositionPool => {
      pool.recordFlip(steps('a', 'b'));
      for (let i = 0; i < 40; i++) pool.recordTry('a > b', i % 2 === 0);
      pool.recordFlip(steps('c', 'd'));
      for (let i = 0; i < 3; i++) pool.recordTry('c > d', false);
      return pool;
    };
    // 'a > b' flipped 21 of 41 tries, 'c > d' 1 of 4: without the exploration term the better rate
    // wins; with the default weight the less-tried one does.
    expect(fill(new CompositionPool({ ratio: 0 })).best(new Set())?.key).toBe('a > b');
    expect(fill(new CompositionPool()).best(new Set())?.key).toBe('c > d');
  });

  it('refuses a bad ratio or minLength', () => {
    expect(() => new CompositionPool({ ratio: -1 })).toThrow(/ratio/);
    expect(() => new CompositionPool({ minLength: 0 })).toThrow(/minLength/);
    expect(compositionKey(steps('x', 'y', 'z'))).toBe('x > y > z');
  });
});

// ---- the pool in the attack ----------------------------------------------------------------

/** Admits only an entry whose text carries both marks, `[A]` and `[B]` (no single arm flips it). */
function twoMarkGuard(): SyncGuard & { calls: number } {
  const g = {
    id: 'two-marks',
    mode: 'sync' as const,
    calls: 0,
    check(e: MemoryEntry): Verdict {
      g.calls += 1;
      const admit = e.content.includes('[A]') && e.content.includes('[B]');
      return { decision: admit ? 'admit' : 'reject', trace: [{ layer: 'marks', outcome: admit ? 'pass' : 'reject', reasons: [] }], reasons: [], elapsedUs: 0 };
    },
  };
  return g;
}

/** The same guard behind an async boundary whose delay depends on the entry (calls finish in another order). */
function slowTwoMarkGuard(): Guard {
  const inner = twoMarkGuard();
  return {
    id: 'two-marks',
    mode: 'async',
    async check(e: MemoryEntry, ctx: Parameters<Guard['check']>[1]) {
      await new Promise((r) => setTimeout(r, e.content.length % 3));
      return inner.check(e, ctx);
    },
  };
}

/** Arms: `a` writes [A], `b` writes [B], forty others append a word of their own. */
const ARMS = ['a', 'b', ...Array.from({ length: 40 }, (_, i) => `p${i + 1}`)];
const marks: Transformation = {
  arms: ARMS,
  apply(base, s: readonly MoveStep[]) {
    let text = base.entry.content;
    for (const x of s) text = x.op === 'a' ? `${text} [A]` : x.op === 'b' ? `${text} [B]` : `${text} ${x.op}`;
    return { ...base, entry: { ...base.entry, content: text }, truth: { ...base.truth, family: 'adaptive', operators: s.map((y) => y.op) } };
  },
};
const keepAll: Constraint = { check: (_b, _s, rewritten) => ({ kept: true, case: rewritten }) };

function forged(i: number): FuzzCase {
  return { entry: makeEntry(`forged entry ${i}`, { id: `b${i}` }), truth: { label: 'forged', family: 'seed', domain: 'ehr', template: `t/${i}`, operators: [], claim: { subject: 'X', checks: [] } } };
}

const store = new MemoryStore(':memory:');
const bases = Array.from({ length: 30 }, (_, i) => forged(i));

describe('transfer in the attack (MCTS)', () => {
  it('after the first flip, later bases flip by the transferred composition at its first try', async () => {
    const out = await runAttack({ guard: twoMarkGuard(), store, phase: 'write', bases, transformation: marks, constraint: keepAll, budget: 20, seed: 3, feedback: 'decision' });
    const flips = out.results.filter((r) => r.flip);
    expect(out.firstFlip).toBeDefined();
    const fromPool = flips.filter((r) => r.flip?.source === 'pool');
    expect(fromPool.length).toBeGreaterThan(0);
    for (const r of fromPool) {
      // Every composition in the pool (a and b, in either order) flips every base: the first transferred try does.
      expect(r.poolTries).toBe(1);
      expect(r.flip!.runQueries).toBeGreaterThan(out.firstFlip!.runQueries);
      expect(r.flip!.composition?.split(' > ').sort()).toEqual(['a', 'b']);
    }
    // Every flip found by fresh search joined the pool; the pool's successes count every flip.
    const top = out.pool.top(10);
    expect(top.reduce((n, e) => n + e.successes, 0)).toBe(flips.length);
    expect(top.reduce((n, e) => n + e.transferred, 0)).toBe(fromPool.length);
    expect(top.every((e) => [...e.operators].sort().join() === 'a,b')).toBe(true);
  });

  it('transfer off: the same bases flip only by fresh search, at a higher cost in queries', async () => {
    const on = await runAttack({ guard: twoMarkGuard(), store, phase: 'write', bases, transformation: marks, constraint: keepAll, budget: 20, seed: 3, feedback: 'decision' });
    const off = await runAttack({ guard: twoMarkGuard(), store, phase: 'write', bases, transformation: marks, constraint: keepAll, budget: 20, seed: 3, feedback: 'decision', transfer: false });
    const flipQueries = (o: typeof on) => o.results.reduce((q, r) => q + (r.flip?.queriesToFlip ?? o.budget), 0);
    expect(off.results.every((r) => r.flip === undefined || r.flip.source === 'search')).toBe(true);
    expect(off.results.every((r) => r.poolTries === 0)).toBe(true);
    expect(on.results.some((r) => r.flip?.source === 'pool')).toBe(true);
    // The single arms of a flip are rewarded in the shared statistics either way; the pool adds
    // the composition itself, so bases flip sooner.
    expect(on.searchQueries).toBeLessThan(off.searchQueries);
    expect(flipQueries(on)).toBeLessThan(flipQueries(off));
  });

  it('a shared pool carries a composition into the next run: its bases flip at query 3', async () => {
    const pool = new CompositionPool();
    await runAttack({ guard: twoMarkGuard(), store, phase: 'write', bases, transformation: marks, constraint: keepAll, budget: 20, seed: 3, feedback: 'decision', pool });
    expect(pool.size).toBeGreaterThan(0);
    const next = await runAttack({ guard: twoMarkGuard(), store, phase: 'write', bases: bases.slice(0, 10), transformation: marks, constraint: keepAll, budget: 20, seed: 4, feedback: 'decision', pool });
    expect(next.results.every((r) => r.flip !== undefined && r.flip.queriesToFlip <= 3)).toBe(true);
    expect(next.results.filter((r) => r.flip?.source === 'pool').length).toBeGreaterThan(0);
  });

  it('the pool and every flip are the same for a seed, sync or async guard with out-of-order timing', async () => {
    const figures = async (guard: Guard) => {
      const out = await runAttack({ guard, store, phase: 'write', bases, transformation: marks, constraint: keepAll, budget: 20, seed: 5, feedback: 'decision' });
      return { pool: out.pool.top(10), first: out.firstFlip, flips: out.results.map((r) => [r.status, r.queries, r.poolTries, r.flip?.source, r.flip?.runQueries, r.flip?.minimal]) };
    };
    const a = await figures(twoMarkGuard());
    expect(a.pool.length).toBeGreaterThan(0);
    expect(await figures(slowTwoMarkGuard())).toEqual(a);
    expect(await figures(twoMarkGuard())).toEqual(a);
  });
});
