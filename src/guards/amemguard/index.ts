/** A-MemGuard baseline (TangciuYueng/AMemGuard): public names, listed one by one. */
export { createAMemGuard, parseAMemGuardOptions, amemguardFactory } from './amemguard.js';
export type { AMemGuard, AMemGuardConfig, AMemGuardOptions } from './amemguard.js';
export { consensusFilter, consensusFilterAsync, decideByClustering, decideByJudge, recordLessons } from './consensus-filter.js';
export type { AsyncConsensusOptions, ConsensusFilterResult, ConsensusMethod, ConsensusOptions, RejectedEntry } from './consensus-filter.js';
export { createHeuristicChainExtractor, renderChains } from './chain-extractor.js';
export type { AsyncChainExtractor, Chain, ChainExtractor, HeuristicChainOptions } from './chain-extractor.js';
export { createLexicalEmbedder, cosineSimilarity, cosineDistance, sparseLexicalVector, sparseDot } from './lexical-embedder.js';
export type { SparseVector } from './lexical-embedder.js';
export { RETRIEVAL_DEFAULTS, createRetriever, distinctiveTerms } from './retrieval.js';
export type { RetrievalMode, RetrievalOptions, Retriever } from './retrieval.js';
export type { AsyncEmbedder, Embedder, LexicalEmbedderOptions } from './lexical-embedder.js';
export { AMEMGUARD_DBSCAN, dbscanConsensus, distanceToCentroid } from './dbscan-consensus.js';
export type { ConsensusClusters, DbscanParams } from './dbscan-consensus.js';
export { DEFAULT_NUM_LESSONS, createLessonStore } from './lesson-store.js';
export type { Lesson, LessonStore, ScoredLesson } from './lesson-store.js';
export { JUDGE_FIELD, buildJudgePrompt, parseJudgeResponse } from './judge-prompt.js';
export type { JudgeFn, JudgeParse } from './judge-prompt.js';
