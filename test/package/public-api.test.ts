/**
 * The public API, pinned: the exported names of `farma-fuzz` (src/index.ts) and
 * `farma-fuzz/generators` (generators/index.ts), each with a TSDoc comment on its
 * declaration. Adding or removing a name is a decision: change the entry file and this list
 * together, and document the name. Engine steps (runCell, cellSeed, evaluateSync and
 * evaluateAsync, the search's neighbour function) are not exported: no documented use needs
 * them outside the package.
 */
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import * as generators from '../../generators/index.js';
import { exportedNames } from '../helpers/exports.js';

const API_VALUES = [
   'CorpusError', 'DEFAULT_CONFIG', 'DEFAULT_SENTINEL_CONFIG', 'DOMAINS', 'EMPTY_STORE', 'FAMILIES', 'FarmaError',
   'GENERAL_TRACE_TYPES', 'GUARDS', 'GuardLoadError', 'InputError', 'KNOWN_SOURCES', 'LAYER_IDS',
   'LlmError', 'MemoryStore', 'PROPERTIES', 'REASONING_TRACE_TYPES', 'SIGNAL_IDS', 'STORE_NAMES',
   'StoreError', 'TRACE_TYPES', 'TemplateError', 'UsageError', 'appendRegressions', 'buildReport',
   'caseId', 'checkInvariant', 'checkInvariantSync', 'compareReports', 'configDifferences',
   'consensusFilter', 'createAMemGuard', 'createGuard', 'createKeywordFilter', 'createNoDefense',
   'createSentinel', 'defineConfig', 'describeDifferences', 'errorVerdict', 'extractKeys', 'fisherExact',
   'getVerdictSchema', 'holmAdjust', 'judge', 'listGuards', 'loadBenignJsonl', 'loadCuratedBenign',
   'loadReactThoughts', 'loadRegressions', 'parseReportJson', 'parseVerdict', 'propertyFor',
   'regressionFile', 'renderComparisonText', 'renderMarkdown', 'replayRecords', 'resolveGuard',
   'rocAuc', 'runCampaign', 'sentinelConfigHash', 'thresholdSweep', 'wilson',
];
const API_TYPES = [
   'AttackConfig', 'BuiltinGuardId', 'CampaignOptions', 'CampaignOutcome', 'CellOutcome', 'CellSpec', 'Claim',
   'Comparison', 'ConfigDifference', 'Counterexample', 'Decision', 'DomainId', 'Family', 'FarmaFuzzConfig', 'FuzzCase',
   'Guard', 'GuardContext', 'GuardEntry', 'GuardErrorKind', 'GuardFactory', 'InvariantResult',
   'Judgement', 'KnownSource', 'KnownTraceType', 'Label', 'LayerId', 'LayerResult', 'MemoryEntry',
   'OperatorRow', 'Phase', 'PropertyId', 'Proportion', 'RateChange', 'RateRow', 'RegressionRecord',
   'ReplayStatus', 'ReplaySummary', 'ReportData', 'ReportSide', 'ScratchStore', 'SentinelConfig',
   'SignalId', 'SignatureRow', 'Source', 'StoreName', 'StoreView', 'SyncGuard', 'ThresholdsConfig', 'TraceType',
   'Truth', 'Verdict', 'WilsonInterval',
];
const GENERATOR_VALUES = [
   'CLAIM_CHECKS', 'DOMAIN_IDS', 'FAMILY_IDS', 'FAMILY_REGISTRY', 'OPERATORS', 'OPERATOR_IDS',
   'adaptiveAttack', 'amplificationChain', 'applyOperators', 'benignHistory', 'benignInTrajectory',
   'benignStressTrace', 'benignTrace', 'benignTraceAnyDomain', 'buildAdaptiveCase',
   'buildChainCase', 'buildNaiveCase', 'buildSeedCase', 'chainValue', 'claimOf', 'claimPreserved',
   'compileTemplate', 'defaultTemplates', 'fakerValue', 'findClaim', 'isDomainId', 'isFamilyId',
   'listOperators', 'llmFamilyAvailability', 'loadTemplates', 'naiveAttack', 'naiveValue',
   'operatorChoiceArb', 'operatorGroupMap', 'renderAmplification', 'renderSeed',
   'runLlmParaphraseFamily', 'seedTrace', 'seedValue',
];
const GENERATOR_TYPES = [
   'AmplificationOptions', 'AttackOptions', 'ChainValue', 'CompiledTemplate', 'EntryValue',
   'FamilyId', 'FamilySpec', 'OperatorChoice', 'OperatorId', 'TemplateMeta', 'TemplateSet',
];

const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

describe.each([
  ['farma-fuzz', 'src/index.ts', api, API_VALUES, API_TYPES],
  ['farma-fuzz/generators', 'generators/index.ts', generators, GENERATOR_VALUES, GENERATOR_TYPES],
] as const)('%s (%s)', (_name, entry, mod, values, types) => {
  const names = exportedNames(entry);

  it('exports exactly the pinned values', () => {
    expect(sorted(Object.keys(mod))).toEqual(sorted(values));
  });

  it('exports exactly the pinned types', () => {
    expect(sorted(names.filter((n) => n.typeOnly).map((n) => n.name))).toEqual(sorted(types));
  });

  it('the source export list and the runtime module agree on the values', () => {
    expect(sorted(names.filter((n) => !n.typeOnly).map((n) => n.name))).toEqual(sorted(Object.keys(mod)));
  });

  it('documents every exported name with a TSDoc comment on its declaration', () => {
    const undocumented = names.filter((n) => !n.doc || n.doc.replace(/[/*\s]/g, '').length < 10).map((n) => `${n.name} (${n.declaredIn})`);
    expect(undocumented).toEqual([]);
  });

  it('exports no engine internals', () => {
    for (const internal of ['runCell', 'cellSeed', 'evaluateSync', 'evaluateAsync', 'adaptiveNeighbours', 'searchBypass', 'minimalOperatorSet']) {
      expect(Object.keys(mod)).not.toContain(internal);
    }
  });
});

describe('the helper that reads the export lists', () => {
  it('finds a declaration through a re-export chain and reads its doc', () => {
    const wilson = exportedNames('src/index.ts').find((n) => n.name === 'wilson');
    expect(wilson?.declaredIn).toBe('src/metrics/wilson.ts');
    expect(wilson?.doc).toMatch(/^\/\*\*/);
  });
});
