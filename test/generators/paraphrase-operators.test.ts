/**
 * Each registered operator keeps the forged claim (DESIGN.md "Claim preservation"), keeps
 * the entry fields it declares, and is not a no-op. Cases come from the attack generators
 * (seedTrace, amplificationChain) of all three domains and from rendered sample templates.
 */
import { describe, expect } from 'vitest';
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { DOMAINS } from '../../src/domain/index.js';
import type { FuzzCase, MemoryEntry } from '../../src/domain/index.js';
import { amplificationChain, seedTrace } from '../../generators/farma.js';
import { OPERATORS, OPERATOR_IDS, listOperators } from '../../generators/paraphrase/operators.js';
import { OPERATOR_GROUPS, PRESERVABLE } from '../../generators/paraphrase/operator.js';
import type { Operator, OperatorContext } from '../../generators/paraphrase/operator.js';
import { claimPreserved } from '../../generators/paraphrase/claim-check.js';
import { sampleForgedCases } from '../helpers/sample-entries.js';
import { FAST, runs, sampleOf } from '../helpers/tier.js';

// The fast tier (npm test) draws 2 generated cases, and 6 fixed sample templates with choice 0,
// per operator; the full tier 40 cases, and every sample template with choices 0..11.
const CHOICE_GROUPS: Array<[number, number]> = FAST ? [[0, 0]] : [[0, 3], [4, 7], [8, 11]];
const SAMPLES = sampleOf(sampleForgedCases(), 6);

const forgedCase: fc.Arbitrary<FuzzCase> = fc.oneof(...DOMAINS.flatMap((d) => [seedTrace(d), amplificationChain(d, { maxSeeds: 3, maxCycles: 4 })]));

function ctxOf(c: FuzzCase): OperatorContext {
  const claim = c.truth.claim;
  if (!claim) throw new Error('forged case without a claim');
  return { domain: c.truth.domain as OperatorContext['domain'], claim, storeSize: c.setup?.length ?? 0 };
}

const asArray = (out: MemoryEntry | MemoryEntry[]): MemoryEntry[] => (Array.isArray(out) ? out : [out]);
const FIELDS = ['store', 'source', 'traceType', 'timestamp'] as const;

/** The claim survives and every declared field is unchanged. */
function keeps(op: Operator, entry: MemoryEntry, out: MemoryEntry[], ctx: OperatorContext): void {
  const rule = op.preserves.includes('precedent') ? 'exact' : 'count';
  expect(claimPreserved(ctx.domain, ctx.claim, out, rule), `${op.id} lost the claim:\n${out.map((e) => e.content).join('\n---\n')}`).toBe(true);
  for (const f of FIELDS) if (op.preserves.includes(f)) for (const e of out) expect(e[f]).toBe(entry[f]);
}

describe('operator registry', () => {
  test('has at least 24 operators covering all six groups, keyed by their ids', () => {
    const ops = listOperators();
    expect(ops.length).toBeGreaterThanOrEqual(24);
    expect(new Set(ops.map((o) => o.group))).toEqual(new Set(OPERATOR_GROUPS));
    for (const id of OPERATOR_IDS) {
      const op = OPERATORS[id];
      expect(op.id).toBe(id);
      expect(op.description.length).toBeGreaterThan(10);
      for (const p of op.preserves) expect(PRESERVABLE).toContain(p);
    }
  });

  test('the sample cases are themselves recognised as claims (the check can read them)', () => {
    const cases = sampleForgedCases();
    expect(cases.length).toBeGreaterThan(30);
    for (const c of cases) expect(claimPreserved(c.domain, c.claim, [c.entry]), c.name).toBe(true);
  });
});

describe.each(OPERATOR_IDS)('operator %s', (id) => {
  const op: Operator = OPERATORS[id];

  test.prop([forgedCase, fc.nat({ max: 4095 })], { numRuns: runs(40, 2) })('keeps the forged claim of generated attacks', (c, choice) => {
    const ctx = ctxOf(c);
    keeps(op, c.entry, asArray(op.apply(c.entry, choice, ctx)), ctx);
  });

  // Choices in groups of 4, one test each, so no test nears its time limit on a loaded machine.
  test.each(CHOICE_GROUPS)(`keeps the claim of ${FAST ? `${SAMPLES.length} fixed sample templates` : 'every sample template'}, for choices %i..%i`, (from, to) => {
    for (const s of SAMPLES) {
      const ctx: OperatorContext = { domain: s.domain, claim: s.claim, storeSize: 4 };
      for (let choice = from; choice <= to; choice++) keeps(op, s.entry, asArray(op.apply(s.entry, choice, ctx)), ctx);
    }
  });

  test('changes at least one sample (not a no-op)', () => {
    const changed = sampleForgedCases().some((s) => {
      const ctx: OperatorContext = { domain: s.domain, claim: s.claim, storeSize: 4 };
      return [0, 1, 2, 3].some((choice) => JSON.stringify(asArray(op.apply(s.entry, choice, ctx))) !== JSON.stringify([s.entry]));
    });
    expect(changed).toBe(true);
  });
});
