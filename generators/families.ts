/**
 * The family registry: each attack or benign family, its ground-truth label and its
 * arbitrary per domain. Ids are derived from the object, so an id without an
 * implementation fails to compile (docs/STYLE.md §3).
 */
import fc from 'fast-check';
import type { DomainId, FuzzCase, Label } from '../src/domain/fuzz-case.js';
import { DOMAINS } from '../src/domain/fuzz-case.js';
import { amplificationChain, seedTrace } from './farma.js';
import { naiveAttack } from './naive.js';
import { benignHistory } from './benign.js';
import { benignInTrajectory } from './benign-trajectory.js';
import { adaptiveAttack } from './adaptive.js';
import { FAMILY_IDS, type FamilyId } from './family-ids.js';

export { FAMILY_IDS, type FamilyId };

/** A family of the registry: the label of its cases, a description, and its arbitrary per domain. */
export interface FamilySpec {
  label: Label;
  description: string;
  /** The family's arbitrary for one domain. */
  arbitrary: (domain: DomainId) => fc.Arbitrary<FuzzCase>;
}

/** Every built-in family by id, with its label, description and arbitrary. */
export const FAMILY_REGISTRY = {
  seed: {
    label: 'forged',
    description: 'FARMA phase-1 seed traces: evasive entries claiming a safety step was already done upstream (paper §III-B)',
    arbitrary: (domain) => seedTrace(domain),
  },
  amplification: {
    label: 'forged',
    description: 'FARMA phase-2 amplification chains: n_s seeds, then cycles citing n_s + c - 1 prior runs, over benign history (paper §III-C, Algorithm 1)',
    arbitrary: (domain) =>
      amplificationChain(domain, { history: benignHistory(domain, { maxLength: 8 }) }).map((c) => {
        // The seeds and earlier cycles are the attacker's own writes: they go through the guard.
        const chain = c.truth.chain;
        return chain ? { ...c, truth: { ...c.truth, attackerSetup: chain.seeds + 2 * (chain.cycle - 1) } } : c;
      }),
  },
  naive: {
    label: 'forged',
    description: 'Naive attacks: overt instructions to skip the safety step (paper §III-A)',
    arbitrary: (domain) => naiveAttack(domain),
  },
  adaptive: {
    label: 'forged',
    description: 'Adaptive variants: seed traces, naive attacks and amplification chains rewritten by up to 4 paraphrase/mutation operators (generators/paraphrase); rewrites that lose the claim fall back to the base forgery and are counted as discarded',
    arbitrary: (domain) => adaptiveAttack(domain, { naive: true, amplification: true }),
  },
  benign: {
    label: 'benign',
    description: 'The natural benign mix, calibrated on real traces (generators/calibration/weights.json): the FPR estimate; each entry is checked in a generated trajectory: the earlier steps of its episode, then earlier episodes, up to 8 entries (docs/calibration.md)',
    arbitrary: (domain) => benignInTrajectory(domain),
  },
  'benign-stress': {
    label: 'benign',
    description: 'Hard negatives only (code and config literals, negated policy, quoted requests, tool options, other languages, long reflections, omission prose), equally weighted: hunts false positives, never the FPR estimate',
    arbitrary: (domain) => benignInTrajectory(domain, { stress: true }).map((c) => ({ ...c, truth: { ...c.truth, family: 'benign-stress' } })),
  },
} as const satisfies Record<FamilyId, FamilySpec>;
/** The built-in domain ids (the same list as `DOMAINS`). */
export const DOMAIN_IDS: readonly DomainId[] = DOMAINS;

/** True when `id` names a family of `FAMILY_REGISTRY`. */
export function isFamilyId(id: string): id is FamilyId {
  return Object.hasOwn(FAMILY_REGISTRY, id);
}

/** True when `id` names a built-in domain. */
export function isDomainId(id: string): id is DomainId {
  return (DOMAINS as readonly string[]).includes(id);
}

/**
 * The forged families whose cases attack mode starts from: every forged family of
 * the registry except `adaptive` itself, in registry order. New forged families join by
 * being registered.
 */
function attackBaseFamilies(): FamilyId[] {
  return FAMILY_IDS.filter((f) => FAMILY_REGISTRY[f].label === 'forged' && f !== 'adaptive');
}

/**
 * The bases of attack mode for one domain: one of the `attackBaseFamilies` (equally likely),
 * then a case of that family. Each case keeps its own `truth.family`, so results can be split
 * by base family.
 * @example fc.sample(attackBases('ehr'), { numRuns: 100, seed: 1 })
 */
export function attackBases(domain: DomainId): fc.Arbitrary<FuzzCase> {
  return fc.oneof(...attackBaseFamilies().map((f) => FAMILY_REGISTRY[f].arbitrary(domain)));
}
