import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { Guard } from '../../src/domain/guard.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { MemoryStore } from '../../src/memory/index.js';
import { mcts, runAttack, type MoveStep } from '../../src/fuzz/attack.js';
import type { Constraint, Transformation } from '../../src/fuzz/transformation.js';
import { evaluateCase } from '../../src/fuzz/evaluate.js';
import { createSentinel } from '../../src/guards/sentinel/sentinel.js';
import { attackBases } from '../../generators/families.js';
import { adaptiveAttackParts } from '../../generators/adaptive.js';
import { claimPreserved, precedentRule, type OperatorChoice } from '../../generators/paraphrase/index.js';
import { makeEntry } from '../fixtures/guards/make-entry.js';

const store = new MemoryStore(':memory:');

function forged(content: string, id = content): FuzzCase {
  return {
    entry: makeEntry(content, { id }),
    truth: { label: 'forged', family: 'seed', domain: 'ehr', template: `t/${id}`, operators: [], claim: { subject: 'X', checks: [] } },
  };
}

/** Rejects "BAD", errors on "ERR", admits the rest; counts its calls. */
function toyGuard(): Guard & { calls: string[] } {
  const calls: string[] = [];
  return {
    id: 'toy',
    mode: 'sync',
    calls,
    check(entry): Verdict {
      calls.push(entry.content);
      if (entry.content.includes('ERR')) return { decision: 'error', trace: [], reasons: ['boom'], elapsedUs: 0, error: { kind: 'threw', message: 'boom' } };
      const bad = entry.content.includes('BAD');
      return { decision: bad ? 'reject' : 'admit', trace: [{ layer: 'toy', outcome: bad ? 'reject' : 'pass', reasons: [] }], reasons: [], elapsedUs: 0 };
    },
  };
}

/**
 * `fix` removes BAD, `pad` appends a word (one of five, by its variant), `lose` marks the text and
 * loses the claim (the constraint discards it), `err` makes the guard error. Each step changes the
 * text, so no rewrite is pruned as one the base already had unless it repeats one.
 */
const toyTransformation = (arms: string[]): Transformation => ({
  arms,
  apply(base, steps: readonly MoveStep[]) {
    let text = base.entry.content;
    for (const s of steps) {
      if (s.op === 'fix') text = text.replace('BAD', 'ok');
      if (s.op === 'pad') text = `${text} pad${s.choice % 5}`;
      if (s.op === 'lose') text = `${text} lost`;
      if (s.op === 'err') text = `${text} ERR`;
    }
    return { ...base, entry: { ...base.entry, content: text }, truth: { ...base.truth, family: 'adaptive', operators: steps.map((s) => s.op) } };
  },
});
const toyConstraint: Constraint = {
  check: (_base, steps, rewritten) => {
    const lost = steps.findIndex((s) => s.op === 'lose');
    return lost < 0 ? { kept: true, case: rewritten } : { kept: false, operator: steps[lost]!.op, operators: steps.map((s) => s.op) };
  },
};
const toyParts = (arms: string[]) => ({ transformation: toyTransformation(arms), constraint: toyConstraint });

describe('runAttack (attack mode, TextAttack accounting)', () => {
  it('skips admitted bases, counts error bases apart, flips rejected ones', async () => {
    const guard = toyGuard();
    const out = await runAttack({ guard, store, phase: 'write', bases: [forged('fine'), forged('BAD thing'), forged('ERR base')], ...toyParts(['pad', 'fix']), budget: 20, seed: 1 });
    expect(out.results.map((r) => r.status)).toEqual(['skipped', 'flipped', 'error']);
    // Skipped and error bases cost exactly one query each and are never attacked.
    expect(out.results[0]?.queries).toBe(1);
    expect(out.results[2]?.queries).toBe(1);
    const flip = out.results[1]?.flip;
    expect(flip?.minimal.map((s) => s.op)).toEqual(['fix']);
    expect(flip?.case.entry.content).not.toContain('BAD');
    expect(flip?.verdict.decision).toBe('admit');
  });

  it('shrinks a flip to a 1-minimal operator set (queries for it counted apart)', async () => {
    const guard = toyGuard();
    const out = await runAttack({ guard, store, phase: 'write', bases: [forged('BAD one')], ...toyParts(['pad', 'fix']), budget: 50, seed: 3, method: mcts({ alpha: 0 }) });
    const r = out.results[0];
    expect(r?.status).toBe('flipped');
    expect(r?.flip?.minimal).toHaveLength(1);
    expect(r?.flip?.minimal[0]?.op).toBe('fix');
    expect(r?.flip?.found.length).toBeGreaterThanOrEqual(1);
    expect(out.totalQueries).toBe((r?.queries ?? 0) + (r?.flip?.minimiseQueries ?? 0));
  });

  it('never queries a rewrite that lost the claim, and counts the discard per arm', async () => {
    const guard = toyGuard();
    const out = await runAttack({ guard, store, phase: 'write', bases: [forged('BAD BAD')], ...toyParts(['lose', 'pad']), budget: 10, seed: 2 });
    const r = out.results[0];
    expect(r?.status).toBe('held');
    expect(r?.queries).toBe(10);
    expect(r?.discarded).toBeGreaterThan(0);
    expect(out.arms.lose?.discarded).toBe(r?.discarded);
    expect(out.arms.lose?.queries).toBe(0);
    // Every guard call was the base or a padded rewrite: none came from a lost-claim rewrite.
    expect(guard.calls.every((c) => c.startsWith('BAD BAD'))).toBe(true);
    expect(guard.calls).toHaveLength(10);
  });

  it('an unflipped base that met a guard error is an error, never a hold', async () => {
    const guard = toyGuard();
    const out = await runAttack({ guard, store, phase: 'write', bases: [forged('BAD x')], ...toyParts(['pad', 'err']), budget: 8, seed: 4 });
    const r = out.results[0];
    expect(r?.queryErrors).toBeGreaterThan(0);
    expect(r?.status).toBe('error');
    expect(r?.flip).toBeUndefined();
  });

  it('a base that cannot be flipped is held after exactly its budget', async () => {
    const out = await runAttack({ guard: toyGuard(), store, phase: 'write', bases: [forged('BAD y')], ...toyParts(['pad']), budget: 7, seed: 5 });
    expect(out.results[0]?.status).toBe('held');
    expect(out.results[0]?.queries).toBe(7);
  });

  it('UCB1 spends more queries on the arm that flips', async () => {
    const bases = Array.from({ length: 40 }, (_, i) => forged(`BAD base ${i}`, `b${i}`));
    const out = await runAttack({ guard: toyGuard(), store, phase: 'write', bases, ...toyParts(['pad', 'fix']), budget: 10, seed: 6, minimise: false });
    expect(out.results.every((r) => r.status === 'flipped')).toBe(true);
    expect(out.arms.fix?.flips).toBe(40);
    expect(out.arms.fix?.queries ?? 0).toBeGreaterThan(out.arms.pad?.queries ?? 0);
  });

  it('is deterministic for a seed', async () => {
    const bases = fc.sample(attackBases('ehr'), { numRuns: 30, seed: 11 });
    const run = async (): Promise<unknown> => {
      const out = await runAttack({ guard: createSentinel({ config: { tauGuard: 0.25 } }), store, phase: 'write', bases, ...adaptiveAttackParts('ehr'), budget: 15, seed: 9 });
      return out.results.map((r) => [r.status, r.queries, r.flip?.minimal, r.flip?.case.entry.content]);
    };
    expect(await run()).toEqual(await run());
  });

  it('against SENTINEL (tauGuard 0.25): every flip keeps its claim, the original stays rejected and the rewrite admitted', async () => {
    const guard = createSentinel({ config: { tauGuard: 0.25 } });
    const bases = fc.sample(attackBases('rap'), { numRuns: 40, seed: 12 });
    const out = await runAttack({ guard, store, phase: 'write', bases, ...adaptiveAttackParts('rap'), budget: 20, seed: 1 });
    const flips = out.results.filter((r) => r.status === 'flipped');
    expect(flips.length).toBeGreaterThan(0);
    for (const r of flips) {
      const f = r.flip!;
      expect(f.minimal.length).toBeGreaterThan(0);
      const claim = r.original.case.truth.claim!;
      const ops = f.minimal as OperatorChoice[];
      const k = (f.case.truth.claimParts ?? 1) - 1;
      const written = [...(k > 0 ? (f.case.setup ?? []).slice(-k) : []), f.case.entry];
      expect(claimPreserved('rap', claim, written, precedentRule(ops), { original: r.original.case.entry.content })).toBe(true);
      expect((await evaluateCase(guard, r.original.case, store, 'write')).decision).toBe('reject');
      expect((await evaluateCase(guard, f.case, store, 'write')).decision).toBe('admit');
    }
  });
});
