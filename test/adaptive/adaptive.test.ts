import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { MemoryEntry } from '../../src/domain/entry.js';
import {
  adaptiveAttack,
  adaptiveNeighbours,
  buildAdaptiveCase,
  countDiscarded,
  DISCARDED_MARKER,
  DISCARDED_PREFIX,
  isDiscarded,
  minimalOperatorSet,
  startCases,
} from '../../generators/adaptive.js';

/** A guard stand-in: rejects everything except entries that declare a SYSTEM source. */
const onlySpoofBypasses = (e: MemoryEntry): boolean => e.source !== 'SYSTEM';

describe('adaptiveAttack', () => {
  it('labels variants forged, family adaptive, operators in order', () => {
    const cases = fc.sample(adaptiveAttack('ehr', { maxOperators: 3 }), { numRuns: 40, seed: 11 });
    for (const c of cases) {
      expect(c.truth.label).toBe('forged');
      expect(c.truth.family).toBe('adaptive');
      expect(c.truth.claim).toBeDefined();
      // A discarded rewrite carries the `discarded` marker in front of its (at most 3) operators.
      expect(c.truth.operators.filter((o) => o !== DISCARDED_MARKER).length).toBeLessThanOrEqual(3);
    }
    expect(cases.some((c) => c.truth.operators.length > 0)).toBe(true);
  });

  it('shrinks a bypass that needs one operator to exactly that operator', () => {
    const details = fc.check(
      fc.property(adaptiveAttack('ehr', { maxOperators: 4 }), (c) => onlySpoofBypasses(c.entry)),
      { seed: 4242, numRuns: 300 },
    );
    expect(details.failed).toBe(true);
    const [c] = details.counterexample ?? [];
    expect(c?.truth.operators).toEqual(['spoof-system']);
  });

  it('puts the first part of a split into setup as an attacker write', () => {
    const [start] = startCases('ehr', 'seed', 3);
    const built = buildAdaptiveCase('ehr', start!.case, [{ op: 'split-entries', choice: 0 }]);
    expect(built.kept).toBe(true);
    expect(built.case.truth.operators).toEqual(['split-entries']);
    expect(built.case.truth.attackerSetup).toBe(1);
    expect(built.case.setup).toHaveLength(1);
    expect(built.case.setup?.[0]?.id).not.toBe(built.case.entry.id);
  });

  it('maps a rewrite that lost its claim back to the unmutated base, marked discarded', () => {
    const [start] = startCases('rap', 'seed', 5);
    const base: FuzzCase = { ...start!.case, truth: { ...start!.case.truth, claim: { subject: 'CAT-NOT-IN-TEXT-1', checks: [] } } };
    const built = buildAdaptiveCase('rap', base, [{ op: 'homoglyph', choice: 2 }]);
    expect(built.kept).toBe(false);
    expect(built.case.entry).toEqual(base.entry);
    expect(built.case.truth.operators).toEqual([DISCARDED_MARKER, `${DISCARDED_PREFIX}homoglyph`]);
    expect(isDiscarded(built.case)).toBe(true);
    expect(countDiscarded([built.case, start!.case])).toBe(1);
  });
});

describe('adaptiveNeighbours and minimalOperatorSet', () => {
  it('proposes claim-preserving one-operator extensions and counts the discarded ones', () => {
    const [start] = startCases('ehr', 'seed', 1);
    const nb = adaptiveNeighbours('ehr', { width: 5 });
    let k = 0;
    const out = nb(start!.case, { index: 0, nextInt: (n) => k++ % n });
    expect(nb.stats.proposed).toBe(5);
    expect(out.length + nb.stats.discarded).toBe(5);
    for (const c of out) expect(c.truth.operators).toHaveLength(1);
    const deeper = out[0] ? nb(out[0], { index: 1, nextInt: (n) => k++ % n }) : [];
    for (const c of deeper) expect(c.truth.operators).toHaveLength(2);
  });

  it('reduces a bypassing sequence to its one necessary operator', async () => {
    const [start] = startCases('ehr', 'seed', 1);
    const ops = [
      { op: 'hedging', choice: 1 },
      { op: 'spoof-system', choice: 0 },
      { op: 'format-bullets', choice: 0 },
    ] as const;
    const r = await minimalOperatorSet('ehr', start!.case, [...ops], async (c) => !onlySpoofBypasses(c.entry));
    expect(r.ops.map((o) => o.op)).toEqual(['spoof-system']);
    expect(r.queries).toBeGreaterThanOrEqual(2);
  });
});
