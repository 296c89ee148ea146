/**
 * Sequential stopping of attack mode: bases are attacked ten at a time and a domain stops
 * drawing bases once its bypass rate under attack is settled (the property cells' rule).
 * The rule reads counts only, so a seed stops at the same base; `--exhaustive` (no rule)
 * attacks every base; report.json says how many bases ran and why each domain stopped.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { Guard } from '../../src/domain/guard.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { MemoryStore } from '../../src/memory/index.js';
import { runAttack, type BaseResult, type MoveStep } from '../../src/fuzz/attack.js';
import { attackSettled, ATTACK_STOP_CHUNK, runAttackMode } from '../../src/campaign/attack-mode.js';
import { renderAttackSection } from '../../src/report/adaptive.js';
import { wilson } from '../../src/metrics/wilson.js';
import { createGuard } from '../../src/guards/registry.js';
import { attackBases } from '../../generators/families.js';
import type { CellStopRule } from '../../src/fuzz/property.js';
import { makeEntry } from '../fixtures/guards/make-entry.js';

const store = new MemoryStore(':memory:');
const rule: CellStopRule = { precision: 0.05, target: 0.005 };

const statuses = (counts: Partial<Record<BaseResult['status'], number>>): Pick<BaseResult, 'status'>[] =>
  Object.entries(counts).flatMap(([status, n]) => Array.from({ length: n }, () => ({ status: status as BaseResult['status'] })));

/** The fewest all-through bases whose Wilson 95% half-width is at most `w`. */
function fewestAllThrough(w: number): number {
  for (let n = 1; ; n++) {
    const iv = wilson(n, n);
    if ((iv.high - iv.low) / 2 <= w) return n;
  }
}

describe('attackSettled', () => {
  it('reads the bypass rate under attack: skipped and flipped bases got through, held ones did not', () => {
    const n = fewestAllThrough(0.05);
    expect(attackSettled(rule, statuses({ skipped: n - 1, flipped: 1 }))).toBe(true);
    expect(attackSettled(rule, statuses({ skipped: n - 2, flipped: 1 }))).toBe(false);
    // Half the bases through: the half-width is ±5 points only after about 385 bases.
    expect(attackSettled(rule, statuses({ skipped: 50, held: 50 }))).toBe(false);
  });

  it('a guard that holds every base settles only below the target, and never with an error', () => {
    expect(attackSettled(rule, statuses({ held: 200 }))).toBe(false);
    expect(attackSettled({ precision: 0.05, target: 0.02 }, statuses({ held: 200 }))).toBe(true);
    expect(attackSettled({ precision: 0.05, target: 0.02 }, statuses({ held: 199, error: 1 }))).toBe(false);
  });
});

/** Rejects entries with "BAD" in them (admits the rest). */
function toyGuard(): Guard {
  return {
    id: 'toy',
    mode: 'sync',
    check(entry): Verdict {
      const bad = entry.content.includes('BAD');
      return { decision: bad ? 'reject' : 'admit', trace: [], reasons: [], elapsedUs: 0 };
    },
  };
}

function forged(content: string, id: string): FuzzCase {
  return { entry: makeEntry(content, { id }), truth: { label: 'forged', family: 'seed', domain: 'ehr', template: `t/${id}`, operators: [], claim: { subject: 'X', checks: [] } } };
}

const toyParts = {
  transformation: {
    arms: ['pad', 'fix'],
    apply(base: FuzzCase, steps: readonly MoveStep[]) {
      let text = base.entry.content;
      // `fix` only works on even bases: the attack flips some bases and holds the others.
      for (const s of steps) if (s.op === 'fix' && /[02468]$/.test(base.entry.id)) text = text.replace('BAD', 'ok');
      for (const s of steps) if (s.op === 'pad') text = `${text} pad`;
      return { ...base, entry: { ...base.entry, content: text }, truth: { ...base.truth, family: 'adaptive' as const, operators: steps.map((s) => s.op) } };
    },
  },
  constraint: { check: (_b: FuzzCase, _s: readonly MoveStep[], rewritten: FuzzCase) => ({ kept: true as const, case: rewritten }) },
};

describe('runAttack with sequential stopping', () => {
  const bases = Array.from({ length: 60 }, (_, i) => forged(i % 3 === 0 ? `fine base ${i}` : `BAD base ${i}`, `b${i}`));
  const run = (stopAfterChunks: number | undefined) => {
    let checks = 0;
    return runAttack({
      guard: toyGuard(),
      store,
      phase: 'write',
      bases,
      ...toyParts,
      budget: 6,
      seed: 3,
      ...(stopAfterChunks !== undefined ? { sequential: { chunk: 10, settled: () => ++checks >= stopAfterChunks } } : {}),
    });
  };

  it('stops after the chunk where the rule says settled; its bases are those of a chunked run that never stops', async () => {
    const never = await run(Number.MAX_SAFE_INTEGER);
    const stopped = await run(3);
    expect(never.stopped).toBe('bases');
    expect(never.results).toHaveLength(60);
    expect(stopped.stopped).toBe('settled');
    expect(stopped.results).toHaveLength(30);
    const digest = (r: BaseResult) => [r.index, r.status, r.queries, r.flip?.case.entry.content];
    expect(stopped.results.map(digest)).toEqual(never.results.slice(0, 30).map(digest));
    expect(stopped.totalQueries).toBeLessThan(never.totalQueries);
  });

  it('without a rule every base runs in one batch', async () => {
    const all = await run(undefined);
    expect(all.stopped).toBe('bases');
    expect(all.results.map((r) => r.index)).toEqual(bases.map((_, i) => i));
    expect(all.results.some((r) => r.status === 'flipped')).toBe(true);
    expect(all.results.some((r) => r.status === 'held')).toBe(true);
  });
});

describe('runAttackMode with the stop rule', () => {
  // `none` admits every forged base: each one got through, so the rate is settled once
  // the Wilson half-width of n/n is at most 5 points, at the first check past that n.
  const expected = Math.ceil(fewestAllThrough(0.05) / ATTACK_STOP_CHUNK) * ATTACK_STOP_CHUNK;
  const attack = (stop?: CellStopRule) => runAttackMode({ guard: createGuard('none'), store, phase: 'write', domains: ['ehr', 'rap'], seed: 5, bases: 120, budget: 5, maxFailures: 2, ...(stop ? { stop } : {}) });

  it('draws bases until the rate is settled, the same stop point for the same seed, and reports why', async () => {
    const a = await attack(rule);
    const b = await attack(rule);
    expect(a.cells.map((c) => [c.domain, c.stats.runs, c.stopped, c.runsRequested])).toEqual([
      ['ehr', expected, 'settled', 120],
      ['rap', expected, 'settled', 120],
    ]);
    expect(a.report.sampling).toEqual([
      { domain: 'ehr', bases: expected, cap: 120, stopped: 'settled' },
      { domain: 'rap', bases: expected, cap: 120, stopped: 'settled' },
    ]);
    expect(a.report.overall.bases).toBe(2 * expected);
    expect(JSON.stringify(b.report)).toBe(JSON.stringify(a.report));
    expect(renderAttackSection(a.report)).toContain(`ehr ${expected} of up to 120 (settled)`);
  });

  it('--exhaustive (no rule) attacks every base and reports no sampling', async () => {
    const all = await attack();
    expect(all.cells.map((c) => c.stats.runs)).toEqual([120, 120]);
    expect(all.report.sampling).toBeUndefined();
  });

  it('a rule that never settles before the cap says so', async () => {
    const capped = await runAttackMode({ guard: createGuard('none'), store, phase: 'write', domains: ['ehr'], seed: 5, bases: 20, budget: 5, maxFailures: 2, stop: rule });
    expect(capped.report.sampling).toEqual([{ domain: 'ehr', bases: 20, cap: 20, stopped: 'cap' }]);
    expect(renderAttackSection(capped.report)).toContain('ehr 20 of up to 20 (cap reached)');
  });

  it('bases come from the forged families, so the sample is the same stream for every cap', () => {
    const few = fc.sample(attackBases('ehr'), { numRuns: 10, seed: 1 });
    const many = fc.sample(attackBases('ehr'), { numRuns: 30, seed: 1 });
    expect(many.slice(0, 10).map((c) => c.entry.content)).toEqual(few.map((c) => c.entry.content));
  });
});
