import { afterAll, describe, expect, it } from 'vitest';
import type { SyncGuard } from '../../src/domain/guard.js';
import { evaluateSync, splitSetup } from '../../src/fuzz/evaluate.js';
import { MemoryStore } from '../../src/memory/index.js';
import { entry } from '../helpers/toy.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

/** Rejects any entry whose id starts with "bad"; the final check reports the reasoning-store size as its score. */
const sizeGuard: SyncGuard = {
  id: 'size',
  mode: 'sync',
  check: (e, ctx) => ({ decision: e.id.startsWith('bad') ? 'reject' : 'admit', trace: [], reasons: [], elapsedUs: 0, score: ctx.store.size('reasoning') }),
};

describe('attacker setup goes through the guard', () => {
  const c = {
    entry: entry('final', 'final entry'),
    truth: { label: 'forged' as const, family: 'amplification', domain: 'ehr', template: 't', operators: [], attackerSetup: 3 },
    setup: [entry('h1', 'history one'), entry('h2', 'history two'), entry('bad-1', 'seed'), entry('ok-2', 'seed two'), entry('bad-3', 'amp')],
  };

  it('splits history from the attacker writes', () => {
    const { history, attacker } = splitSetup(c);
    expect(history.map((e) => e.id)).toEqual(['h1', 'h2']);
    expect(attacker.map((e) => e.id)).toEqual(['bad-1', 'ok-2', 'bad-3']);
  });

  it('commits only the attacker writes the guard admits, then rolls everything back', () => {
    const v = evaluateSync(sizeGuard, c, store, 'write');
    expect(v.score).toBe(3); // h1, h2 and ok-2
    expect(store.view.size()).toBe(0);
    const direct = evaluateSync(sizeGuard, { ...c, truth: { ...c.truth, attackerSetup: 0 } }, store, 'write');
    expect(direct.score).toBe(5);
  });
});

describe('a claim split over several writes', () => {
  const split = {
    entry: entry('part-2', 'second half'),
    truth: { label: 'forged' as const, family: 'adaptive', domain: 'ehr', template: 't', operators: ['split-entries'], attackerSetup: 1, claimParts: 2 },
    setup: [entry('bad-part-1', 'first half')],
  };

  it('counts as rejected when an earlier part was rejected, even if the last part is admitted', () => {
    const v = evaluateSync(sizeGuard, split, store, 'write');
    expect(v.decision).toBe('reject');
    expect(v.reasons[0]).toMatch(/earlier part/);
  });

  it('a rejected attacker write outside the claim parts does not make the entry rejected', () => {
    const chain = { ...split, truth: { ...split.truth, claimParts: 1 } };
    expect(evaluateSync(sizeGuard, chain, store, 'write').decision).toBe('admit');
  });
});
