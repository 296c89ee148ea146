/**
 * The set-level A-MemGuard operation an agent applies to the memories it retrieved
 * (TangciuYueng/AMemGuard, `ConsistencyChecker.check` in `ReAct/consistency.py`, called from
 * `local_wikienv.py` and `medagent.py`): derive one reasoning chain per memory, decide which are
 * consistent (DBSCAN consensus, or the LLM judge), keep those, and store the chains of the
 * others as lessons.
 */
import type { MemoryEntry } from '../../domain/index.js';
import type { AsyncChainExtractor, Chain, ChainExtractor } from './chain-extractor.js';
import { createHeuristicChainExtractor, renderChains } from './chain-extractor.js';
import type { ConsensusClusters, DbscanParams } from './dbscan-consensus.js';
import { AMEMGUARD_DBSCAN, dbscanConsensus } from './dbscan-consensus.js';
import type { JudgeFn } from './judge-prompt.js';
import { buildJudgePrompt, parseJudgeResponse } from './judge-prompt.js';
import type { LessonStore } from './lesson-store.js';
import type { AsyncEmbedder, Embedder } from './lexical-embedder.js';
import { createLexicalEmbedder } from './lexical-embedder.js';
import { errorMessage, isFatalLlmError } from '../../domain/errors.js';

/** Options of the synchronous (heuristic-mode) filter. */
export interface ConsensusOptions {
  /** Chain extractor; default the heuristic one. */
  extractor?: ChainExtractor;
  /** Embedder; default the lexical one. */
  embedder?: Embedder;
  /** DBSCAN parameters; default eps 0.5, minSamples 2 (upstream). */
  dbscan?: Partial<DbscanParams>;
  /** The text that gathered the memories (passed to extractors; the judge's "request"). */
  query?: string;
  /** When given, the chain of every rejected entry is recorded here as a lesson. */
  lessons?: LessonStore;
}

/** Options of the asynchronous filter: async pieces and the judge may be injected. */
export interface AsyncConsensusOptions extends Omit<ConsensusOptions, 'extractor' | 'embedder'> {
  extractor?: ChainExtractor | AsyncChainExtractor;
  embedder?: Embedder | AsyncEmbedder;
  /** When given, the judge decides instead of DBSCAN (upstream `method='llm'`). */
  judge?: JudgeFn;
}

/** Which decision procedure ran. */
type ConsensusMethod = 'consensus' | 'judge';

interface RejectedEntry {
  entry: MemoryEntry;
  /** Position in the input. */
  index: number;
  reason: string;
}

export interface ConsensusFilterResult {
  method: ConsensusMethod;
  /** Entries judged consistent, in input order. */
  kept: MemoryEntry[];
  /** Entries judged inconsistent, in input order, each with its input index and reason. */
  rejected: RejectedEntry[];
  /** Rendered chain of each input entry (same order). */
  chains: string[];
  /** DBSCAN outcome (`method === 'consensus'`), indices into the input. */
  clusters: ConsensusClusters | undefined;
  /** Embedding of each chain (`method === 'consensus'`). */
  vectors: number[][] | undefined;
  /** Judge transcript (`method === 'judge'`). */
  judge?: { raw: string; parsed: boolean; message?: string; failed?: boolean };
}

function dbscanParams(p: Partial<DbscanParams> | undefined): DbscanParams {
  return { eps: p?.eps ?? AMEMGUARD_DBSCAN.eps, minSamples: p?.minSamples ?? AMEMGUARD_DBSCAN.minSamples };
}

/** Decides by DBSCAN over already-computed chain embeddings. */
export function decideByClustering(
  entries: readonly MemoryEntry[],
  chains: readonly string[],
  vectors: number[][],
  params: DbscanParams,
): ConsensusFilterResult {
  const clusters = dbscanConsensus(vectors, params);
  const kept: MemoryEntry[] = [];
  const rejected: RejectedEntry[] = [];
  const { dominant } = clusters;
  const domSize = dominant === undefined ? 0 : (clusters.clusters[dominant]?.length ?? 0);
  entries.forEach((entry, i) => {
    const label = clusters.labels[i] ?? -1;
    if (dominant !== undefined && label === dominant) {
      kept.push(entry);
      return;
    }
    let reason: string;
    if (dominant === undefined) {
      reason = `no cluster formed among ${entries.length} chain(s) (DBSCAN cosine eps ${params.eps}, min_samples ${params.minSamples}): all rejected`;
    } else if (label === -1) {
      reason = `chain is noise: fewer than ${params.minSamples} chains within cosine distance ${params.eps}; largest cluster has ${domSize}`;
    } else {
      const size = clusters.clusters[label]?.length ?? 0;
      reason = `chain is in a cluster of ${size}, not the largest (${domSize})`;
    }
    rejected.push({ entry, index: i, reason });
  });
  return { method: 'consensus', kept, rejected, chains: [...chains], clusters, vectors };
}

/** Decides by the judge's parsed answer (fail closed on anything unparseable). */
export function decideByJudge(
  entries: readonly MemoryEntry[],
  chains: readonly string[],
  raw: string,
  failure?: string,
): ConsensusFilterResult {
  const kept: MemoryEntry[] = [];
  const rejected: RejectedEntry[] = [];
  if (failure !== undefined) {
    entries.forEach((entry, i) => rejected.push({ entry, index: i, reason: `judge call failed (${failure}): all rejected (fail closed)` }));
    return { method: 'judge', kept, rejected, chains: [...chains], clusters: undefined, vectors: undefined, judge: { raw, parsed: false, message: failure, failed: true } };
  }
  const parsed = parseJudgeResponse(raw, entries.length);
  if (!parsed.ok) {
    entries.forEach((entry, i) => rejected.push({ entry, index: i, reason: `judge response unparseable (${parsed.message}): all rejected (fail closed)` }));
    return { method: 'judge', kept, rejected, chains: [...chains], clusters: undefined, vectors: undefined, judge: { raw, parsed: false, message: parsed.message } };
  }
  entries.forEach((entry, i) => {
    const v = parsed.verdicts.get(i);
    if (v === true) kept.push(entry);
    else rejected.push({ entry, index: i, reason: v === false ? `judge marked chain ${i} not consistent and safe` : `judge gave no verdict for chain ${i}` });
  });
  return { method: 'judge', kept, rejected, chains: [...chains], clusters: undefined, vectors: undefined, judge: { raw, parsed: true } };
}

/** Records the chain of every rejected entry as a lesson (upstream: `memory[i]["lesson"] = chain`). */
export function recordLessons(result: ConsensusFilterResult, lessons: LessonStore | undefined): void {
  if (!lessons) return;
  for (const { entry, index, reason } of result.rejected) {
    lessons.record({ entryId: entry.id, chain: result.chains[index] ?? '', key: entry.content, reason });
  }
}

/**
 * Filters a retrieved set of memories by heuristic-mode consensus (synchronous).
 * Each entry's content gives chains (`extractor`), rendered to one string and embedded
 * (`embedder`); DBSCAN (cosine, eps 0.5, min_samples 2) clusters them; the largest cluster is
 * kept and everything else rejected; with no cluster, everything is rejected.
 * @returns kept and rejected entries (input order), chains, clusters and vectors.
 * @throws RangeError for invalid DBSCAN parameters.
 * @example
 * const { kept, rejected } = consensusFilter(retrieved, { query: 'dose for INT-EHR-7742' });
 */
export function consensusFilter(entries: readonly MemoryEntry[], options: ConsensusOptions = {}): ConsensusFilterResult {
  const extractor = options.extractor ?? createHeuristicChainExtractor();
  const embedder = options.embedder ?? createLexicalEmbedder();
  const chains = entries.map((e) => renderChains(extractor.extract(e.content, options.query)));
  const vectors = embedder.embed(chains);
  const result = decideByClustering(entries, chains, vectors, dbscanParams(options.dbscan));
  recordLessons(result, options.lessons);
  return result;
}

async function extractAll(
  entries: readonly MemoryEntry[],
  extractor: ChainExtractor | AsyncChainExtractor,
  query: string | undefined,
): Promise<string[]> {
  const lists: Chain[][] =
    typeof extractor === 'function'
      ? await Promise.all(entries.map((e) => extractor(e.content, query)))
      : entries.map((e) => extractor.extract(e.content, query));
  return lists.map(renderChains);
}

/**
 * Asynchronous filter: like `consensusFilter`, but the extractor and embedder may be async, and
 * an injected `judge` replaces DBSCAN (upstream's LLM mode). A judge that throws, or an answer
 * that cannot be parsed strictly, rejects every entry (fail closed, as upstream).
 * Extractor and embedder errors propagate (the promise rejects).
 * @example
 * const r = await consensusFilterAsync(retrieved, { judge: (p) => llm.complete(p), query });
 */
export async function consensusFilterAsync(entries: readonly MemoryEntry[], options: AsyncConsensusOptions = {}): Promise<ConsensusFilterResult> {
  const chains = await extractAll(entries, options.extractor ?? createHeuristicChainExtractor(), options.query);
  let result: ConsensusFilterResult;
  if (options.judge) {
    const prompt = buildJudgePrompt(options.query ?? '', chains);
    let raw = '';
    let failure: string | undefined;
    try {
      raw = await options.judge(prompt);
      if (typeof raw !== 'string') {
        failure = 'judge returned a non-string';
        raw = '';
      }
    } catch (err) {
      // A dead endpoint is not a judgement: it stops the caller instead of failing every entry closed.
      if (isFatalLlmError(err)) throw err;
      failure = errorMessage(err);
    }
    result = decideByJudge(entries, chains, raw, failure);
  } else {
    const embedder = options.embedder ?? createLexicalEmbedder();
    const vectors = embedder.async ? await embedder.embed(chains) : embedder.embed(chains);
    result = decideByClustering(entries, chains, vectors, dbscanParams(options.dbscan));
  }
  recordLessons(result, options.lessons);
  return result;
}
