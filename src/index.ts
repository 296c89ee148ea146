/**
 * farma-fuzz public API. Each name is listed on purpose (docs/STYLE.md §1); everything else is
 * internal. Generators live in `farma-fuzz/generators`. test/package/public-api.test.ts pins
 * this list and checks each name has a TSDoc comment: change both together. Engine steps
 * (one cell, one evaluation, a cell's seed) stay internal; `runCampaign`, `checkInvariant`
 * and `replayRecords` are the documented ways in.
 */

// Domain: the shared language.
export type { MemoryEntry, StoreName, Source, KnownSource, TraceType, KnownTraceType } from './domain/entry.js';
export { STORE_NAMES, KNOWN_SOURCES, REASONING_TRACE_TYPES, GENERAL_TRACE_TYPES, TRACE_TYPES } from './domain/entry.js';
export type { Verdict, Decision, LayerResult, GuardErrorKind } from './domain/verdict.js';
export { errorVerdict } from './domain/verdict.js';
export { parseVerdict, getVerdictSchema } from './domain/verdict-schema.js';
export type { Guard, SyncGuard, GuardContext, GuardFactory, Phase, StoreView } from './domain/guard.js';
export { EMPTY_STORE } from './domain/guard.js';
export type { FuzzCase, Truth, Claim, Label, Family, DomainId } from './domain/fuzz-case.js';
export { DOMAINS, FAMILIES } from './domain/fuzz-case.js';
export { extractKeys } from './domain/keys.js';
export { FarmaError, UsageError, InputError, TemplateError, GuardLoadError, StoreError, CorpusError, LlmError } from './domain/errors.js';

// Config files: `export default defineConfig({...})` in farma-fuzz.config.ts (docs/config.md).
export { defineConfig, DEFAULT_CONFIG } from './config/define-config.js';
export type { AttackConfig, FarmaFuzzConfig, ThresholdsConfig } from './config/define-config.js';

// Guards under test.
export { GUARDS, createGuard, listGuards } from './guards/registry.js';
export type { BuiltinGuardId, GuardEntry } from './guards/registry.js';
export { createSentinel, DEFAULT_SENTINEL_CONFIG, sentinelConfigHash, LAYER_IDS, SIGNAL_IDS } from './guards/sentinel/index.js';
export type { SentinelConfig, LayerId, SignalId } from './guards/sentinel/index.js';
export { createNoDefense, createKeywordFilter } from './guards/baselines/index.js';
export { createAMemGuard, consensusFilter } from './guards/amemguard/index.js';
export { resolveGuard } from './guards/resolve.js';

// Memory store.
export { MemoryStore } from './memory/index.js';

// Engine: properties, campaigns, replay, invariants for users' own suites.
export { PROPERTIES, propertyFor, judge } from './fuzz/oracle.js';
export type { PropertyId, Judgement } from './fuzz/oracle.js';
export type { CellOutcome, Counterexample } from './fuzz/property.js';
export { runCampaign } from './fuzz/campaign.js';
export type { CampaignOptions, CampaignOutcome, CellSpec } from './fuzz/campaign.js';
export { replayRecords } from './fuzz/replay.js';
export type { ReplaySummary, ReplayStatus } from './fuzz/replay.js';
export { checkInvariant, checkInvariantSync } from './fuzz/invariant.js';
export type { InvariantResult } from './fuzz/invariant.js';
export type { ScratchStore } from './fuzz/evaluate.js';

// Corpora.
export { loadRegressions, appendRegressions, regressionFile } from './corpus/regressions.js';
export type { RegressionRecord } from './corpus/regressions.js';
export { loadReactThoughts, loadCuratedBenign, loadBenignJsonl } from './corpus/benign-sets.js';
export { caseId } from './corpus/case-id.js';

// Measurement and reports.
export { wilson, thresholdSweep, rocAuc } from './metrics/index.js';
export type { WilsonInterval } from './metrics/index.js';
export { buildReport } from './report/model.js';
export type { ReportData } from './report/model.js';
export { renderMarkdown } from './report/markdown.js';
export { compareReports, configDifferences, describeDifferences, renderComparisonText } from './report/compare.js';
export type { Comparison, ConfigDifference, OperatorRow, RateChange, RateRow, ReportSide, SignatureRow } from './report/compare.js';
export { parseReportJson } from './report/report-file.js';
export { fisherExact, holmAdjust } from './metrics/fisher-exact.js';
export type { Proportion } from './metrics/fisher-exact.js';
