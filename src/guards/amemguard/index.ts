/** A-MemGuard baseline (TangciuYueng/AMemGuard): public names, listed one by one. */
export { createAMemGuard, parseAMemGuardOptions, amemguardFactory } from './amemguard.js';
export { consensusFilter, consensusFilterAsync } from './consensus-filter.js';
export { createHeuristicChainExtractor, renderChains } from './chain-extractor.js';
export { createLexicalEmbedder, cosineSimilarity, cosineDistance, sparseLexicalVector, sparseDot } from './lexical-embedder.js';
export { createRetriever, distinctiveTerms } from './retrieval.js';
export { AMEMGUARD_DBSCAN, dbscanConsensus } from './dbscan-consensus.js';
export { createLessonStore } from './lesson-store.js';
export { JUDGE_FIELD, buildJudgePrompt, parseJudgeResponse } from './judge-prompt.js';
