/**
 * Operator sequences: claim kept under composition, purity, splitting, and shrinking of a
 * bypass to the one operator that matters.
 */
import { describe, expect, vi, afterEach } from 'vitest';
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { DOMAINS } from '../../src/domain/index.js';
import type { FuzzCase, MemoryEntry } from '../../src/domain/index.js';
import { amplificationChain, seedTrace } from '../../generators/farma.js';
import { OPERATOR_IDS, applyOperators, operatorChoiceArb, precedentRule } from '../../generators/paraphrase/operators.js';
import type { OperatorChoice } from '../../generators/paraphrase/operators.js';
import type { OperatorContext } from '../../generators/paraphrase/operator.js';
import { claimPreserved } from '../../generators/paraphrase/claim-check.js';
import { sampleForgedCases } from '../helpers/sample-entries.js';

const forgedCase: fc.Arbitrary<FuzzCase> = fc.oneof(...DOMAINS.flatMap((d) => [seedTrace(d), amplificationChain(d, { maxSeeds: 3, maxCycles: 4 })]));
const ctxOf = (c: FuzzCase): OperatorContext => ({ domain: c.truth.domain as OperatorContext['domain'], claim: c.truth.claim ?? { subject: '', checks: [] }, storeSize: c.setup?.length ?? 0 });

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('applyOperators', () => {
  // Fixed seeds, so the suite gives one answer. 821864122 is the unseeded run that found
  // count-layout then vague-quantifier losing the precedent (fixed: a count after a key keeps its
  // number first); test/generators/paraphrase-pairs.test.ts sweeps every pair of operators.
  describe.each([20261201, 821864122, 1, 424242])('seed %i', (seed) => {
    test.prop([forgedCase, operatorChoiceArb(OPERATOR_IDS, { maxLength: 4 })], { numRuns: 150, seed })(
      'a sequence of operators keeps the claim (precedent rule from the sequence)',
      (c, ops) => {
        const ctx = ctxOf(c);
        const out = applyOperators(c.entry, ops, ctx);
        expect(out.length).toBeGreaterThanOrEqual(1);
        expect(out.length).toBeLessThanOrEqual(2);
        const ok = claimPreserved(ctx.domain, ctx.claim, out, precedentRule(ops));
        expect(ok, `${JSON.stringify(ops)}\n${out.map((e) => e.content).join('\n---\n')}`).toBe(true);
      },
    );
  });

  test.prop([forgedCase, operatorChoiceArb()], { numRuns: 60, seed: 20261201 })(
    'is pure: no Math.random, no Date.now, input not mutated, same output twice',
    (c, ops) => {
      vi.spyOn(Math, 'random').mockImplementation(() => {
        throw new Error('Math.random called');
      });
      vi.spyOn(Date, 'now').mockImplementation(() => {
        throw new Error('Date.now called');
      });
      const ctx = ctxOf(c);
      const entry = deepFreeze(structuredClone(c.entry));
      const a = applyOperators(entry, ops, ctx);
      const b = applyOperators(structuredClone(c.entry), ops, ctx);
      expect(a).toEqual(b);
      vi.restoreAllMocks();
    },
  );

  test('the empty sequence returns the entry unchanged', () => {
    const s = sampleForgedCases()[0];
    if (!s) throw new Error('no samples');
    expect(applyOperators(s.entry, [])).toEqual([s.entry]);
  });

  test('split-entries yields two entries naming the subject, and never splits a part again', () => {
    for (const s of sampleForgedCases()) {
      const ctx: OperatorContext = { domain: s.domain, claim: s.claim };
      const once = applyOperators(s.entry, [{ op: 'split-entries', choice: 1 }], ctx);
      expect(once.map((e) => e.id)).toEqual([`${s.entry.id}-part1`, `${s.entry.id}-part2`]);
      for (const e of once) expect(e.content.toLowerCase()).toContain(s.claim.subject.toLowerCase());
      const twice = applyOperators(s.entry, [{ op: 'split-entries', choice: 1 }, { op: 'split-entries', choice: 2 }], ctx);
      expect(twice).toHaveLength(2);
    }
  });

  test('precedentRule is exact unless a count operator is in the sequence', () => {
    expect(precedentRule([{ op: 'homoglyph', choice: 0 }, { op: 'count-words', choice: 3 }])).toBe('exact');
    expect(precedentRule([{ op: 'homoglyph', choice: 0 }, { op: 'count-range', choice: 3 }])).toBe('count');
    expect(precedentRule([{ op: 'count-within-store', choice: 0 }])).toBe('count');
  });
});

describe('operatorChoiceArb', () => {
  test('a failure that needs one operator shrinks to that operator alone with choice 0', () => {
    const s = sampleForgedCases().find((x) => x.name === 'hand/ehr-amplification');
    if (!s) throw new Error('sample missing');
    const entry: MemoryEntry = s.entry;
    // A stand-in "guard" that is bypassed by any non-ASCII letter in the text.
    const admits = (ops: OperatorChoice[]): boolean => applyOperators(entry, ops).every((e) => /^[\x00-\x7F]*$/.test(e.content));
    const details = fc.check(fc.property(operatorChoiceArb(OPERATOR_IDS, { maxLength: 6 }), admits), { seed: 42, numRuns: 500 });
    expect(details.failed).toBe(true);
    const [ops] = details.counterexample ?? [[]];
    expect(ops).toHaveLength(1);
    expect(ops?.[0]?.choice).toBe(0);
    // The one operator left writes non-ASCII text at choice 0 on its own (a confusable, zero-width or
    // full-width form, other-script letters or digits, superscripts...): the minimal case really is that operator.
    const [only] = ops as OperatorChoice[];
    expect(admits([{ op: only!.op, choice: 0 }])).toBe(false);
    expect(OPERATOR_IDS).toContain(only!.op);
  });

  test('draws only the ids it is given', () => {
    for (const ops of fc.sample(operatorChoiceArb(['backdate', 'hedging'], { maxLength: 3, maxChoice: 5 }), { numRuns: 50, seed: 7 })) {
      expect(ops.length).toBeLessThanOrEqual(3);
      for (const o of ops) {
        expect(['backdate', 'hedging']).toContain(o.op);
        expect(o.choice).toBeLessThanOrEqual(5);
      }
    }
  });
});
