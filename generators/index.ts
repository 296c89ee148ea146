/**
 * `farma-fuzz/generators`: the fast-check arbitraries of the attacker side and the benign
 * side, for use in users' own property tests. Each name is listed on purpose;
 * test/package/public-api.test.ts pins the list and checks each name has a TSDoc comment.
 */
export { FAMILY_REGISTRY, FAMILY_IDS, DOMAIN_IDS, isFamilyId, isDomainId } from './families.js';
export type { FamilyId, FamilySpec } from './families.js';
export { seedTrace, amplificationChain, seedValue, chainValue, buildSeedCase, buildChainCase, renderSeed, renderAmplification } from './farma.js';
export type { EntryValue, ChainValue, AttackOptions, AmplificationOptions } from './farma.js';
export { naiveAttack, naiveValue, buildNaiveCase } from './naive.js';
export { benignTrace, benignTraceAnyDomain, benignStressTrace, benignHistory } from './benign.js';
export { benignInTrajectory } from './benign-trajectory.js';
export { CLAIM_CHECKS, findClaim, claimOf } from './claims/claims.js';
export { OPERATORS, OPERATOR_IDS, listOperators, applyOperators, operatorChoiceArb, claimPreserved } from './paraphrase/index.js';
export type { OperatorId, OperatorChoice } from './paraphrase/index.js';
export { adaptiveAttack, buildAdaptiveCase, operatorGroupMap } from './adaptive.js';
export { runLlmParaphraseFamily, llmFamilyAvailability } from './llm-paraphrase.js';
export { loadTemplates, defaultTemplates, compileTemplate } from './templates.js';
export type { CompiledTemplate, TemplateSet, TemplateMeta } from './templates.js';
export { fakerValue } from './faker-arb.js';
