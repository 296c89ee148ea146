/** Fuzzing deliberately weak guards with the real families: the expected failure, shrunk to a known minimal shape. */
import { afterAll, describe, expect, it } from 'vitest';
import { runCell } from '../../src/fuzz/property.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_REGISTRY } from '../../generators/families.js';
import { admitAll, rejectAll } from '../helpers/toy.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());
const base = { store, phase: 'write' as const, domain: 'ehr', runs: 200, seed: 99, maxFailures: 1 };

describe('weak guards against the real families', () => {
  it('admit-all: an amplification chain shrinks to one seed, one cycle and no benign history', async () => {
    const out = await runCell({ ...base, family: 'amplification', arbitrary: FAMILY_REGISTRY.amplification.arbitrary('ehr'), guard: admitAll });
    expect(out.stats.violations).toBe(200);
    const cx = out.counterexamples[0]!;
    expect(cx.property).toBe('forgery-rejected');
    expect(cx.case.truth.chain).toEqual({ seeds: 1, cycle: 1 });
    expect(cx.case.truth.claim?.precedent).toBe(1);
    expect(cx.case.setup).toHaveLength(1); // the one seed, written by the attacker
    expect(cx.case.truth.attackerSetup).toBe(1);
  });

  it('admit-all: an adaptive case shrinks to no operators', async () => {
    const out = await runCell({ ...base, family: 'adaptive', arbitrary: FAMILY_REGISTRY.adaptive.arbitrary('ehr'), guard: admitAll });
    expect(out.counterexamples[0]!.case.truth.operators).toEqual([]);
  });

  it('reject-all: benign-admitted fails with a benign case that has no setup', async () => {
    const out = await runCell({ ...base, family: 'benign', arbitrary: FAMILY_REGISTRY.benign.arbitrary('ehr'), guard: rejectAll });
    expect(out.stats.violations).toBe(200);
    const cx = out.counterexamples[0]!;
    expect(cx.property).toBe('benign-admitted');
    expect(cx.case.setup ?? []).toEqual([]);
    expect(cx.case.truth.label).toBe('benign');
    expect(cx.case.truth.template.startsWith('ehr/benign/')).toBe(true);
    // fc.oneof does not shrink across branches, so the template is the first one that failed;
    // within it, every shrinkable value shrank (numShrinks > 0).
    expect(cx.numShrinks).toBeGreaterThan(0);
  });
});
