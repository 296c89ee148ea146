import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { MemoryEntry } from '../../src/domain/entry.js';
import { adaptiveAttack, adaptiveAttackParts, buildAdaptiveCase, startCases } from '../../generators/adaptive.js';
import { mcts, runAttack } from '../../src/fuzz/attack.js';
import { emptyStats, record } from '../../src/fuzz/stats.js';
import { renderAdaptiveSection } from '../../src/report/adaptive.js';

/** A guard stand-in: rejects everything except entries that declare a SYSTEM source. */
const onlySpoofBypasses = (e: MemoryEntry): boolean => e.source !== 'SYSTEM';

describe('adaptiveAttack', () => {
  it('labels variants forged, family adaptive, operators in order', () => {
    const cases = fc.sample(adaptiveAttack('ehr', { maxOperators: 3 }), { numRuns: 40, seed: 11 });
    for (const c of cases) {
      expect(c.truth.label).toBe('forged');
      expect(c.truth.family).toBe('adaptive');
      expect(c.truth.claim).toBeDefined();
      expect(c.truth.operators.length).toBeLessThanOrEqual(3);
      // A discarded rewrite is the unmutated base: no operators, the lost ones named apart.
      if (c.truth.discarded) expect(c.truth.operators).toEqual([]);
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
    if (!built.kept) throw new Error('split-entries lost the claim');
    expect(built.case.truth.operators).toEqual(['split-entries']);
    expect(built.case.truth.attackerSetup).toBe(1);
    expect(built.case.truth.claimParts).toBe(2);
    expect(built.case.setup).toHaveLength(1);
    expect(built.case.setup?.[0]?.id).not.toBe(built.case.entry.id);
  });

  it('discards a rewrite that lost its claim with the operator; the property run falls back to the unmutated base', () => {
    const [start] = startCases('rap', 'seed', 5);
    const base: FuzzCase = { ...start!.case, truth: { ...start!.case.truth, claim: { subject: 'CAT-NOT-IN-TEXT-1', checks: [] } } };
    const built = buildAdaptiveCase('rap', base, [{ op: 'hedging', choice: 0 }, { op: 'homoglyph', choice: 2 }]);
    expect(built).toEqual({ kept: false, operator: 'homoglyph', operators: ['hedging', 'homoglyph'] });
  });

  it('a discarded run counts once, and once per lost operator, in the report; the base is its own minimal set', () => {
    const [start] = startCases('rap', 'seed', 5);
    const lost: FuzzCase = { ...start!.case, truth: { ...start!.case.truth, family: 'adaptive', discarded: { operator: 'homoglyph', operators: ['format-json', 'homoglyph'] } } };
    const s = emptyStats();
    const verdict = { decision: 'admit' as const, trace: [], reasons: [], elapsedUs: 0 };
    record(s, lost, verdict, 'violated');
    record(s, { ...start!.case, truth: { ...start!.case.truth, family: 'adaptive', operators: ['homoglyph'] } }, verdict, 'violated');
    const md = renderAdaptiveSection({ cells: [{ domain: 'rap', family: 'adaptive', runs: s.runs, violations: s.violations, breakdown: s.breakdown }], counterexamples: [{ family: 'adaptive', domain: 'rap', case: lost }] });
    expect(md).toContain('2 adaptive runs; 1 were rewrites that lost the forged claim');
    expect(md).toContain('| `homoglyph` |  | 1 | 100.0%');
    expect(md).toMatch(/\| `homoglyph` \|[^\n]*\| 1 \|$/m);
    expect(md).toMatch(/\| `format-json` \|[^\n]*\| 0 \| [^\n]*\| 1 \|$/m);
    expect(md).toContain('- (none: the unmutated forgery): 1 (rap)');
  });
});

describe('adaptiveAttackParts with runAttack', () => {
  it('shrinks a flip to its one necessary operator (the one shrinker, its queries counted apart)', async () => {
    const [start] = startCases('ehr', 'seed', 1);
    const calls: string[] = [];
    const guard = {
      id: 'only-system',
      mode: 'sync' as const,
      check: (e: MemoryEntry) => {
        calls.push(e.content);
        return { decision: onlySpoofBypasses(e) ? ('reject' as const) : ('admit' as const), trace: [], reasons: [], elapsedUs: 0 };
      },
    };
    const { MemoryStore } = await import('../../src/memory/index.js');
    const store = new MemoryStore(':memory:');
    const out = await runAttack({ guard, store, phase: 'write', bases: [start!.case], ...adaptiveAttackParts('ehr', { operators: ['hedging', 'format-bullets', 'spoof-system'] }), method: mcts({ alpha: 0 }), budget: 40, seed: 2 });
    const r = out.results[0]!;
    expect(r.status).toBe('flipped');
    expect(r.flip?.minimal.map((s) => s.op)).toEqual(['spoof-system']);
    expect(out.totalQueries).toBe(r.queries + (r.flip?.minimiseQueries ?? 0));
    store.close();
  });
});
