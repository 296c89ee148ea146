/**
 * A-MemGuard as a per-entry `Guard` (baseline; paper §V-D, upstream TangciuYueng/AMemGuard).
 * Upstream filters a set of retrieved memories; here one candidate is checked against its
 * top-k related committed entries: the candidate is admitted iff its chain lands in the
 * consistent set of that group (largest DBSCAN cluster, or judged "consistent and safe").
 * Deviations from upstream are listed in `docs/amemguard.md`.
 */
import { UsageError, errorVerdict, errorMessage } from '../../domain/index.js';
import type { Guard, GuardContext, GuardFactory, LayerResult, MemoryEntry, StoreName, Verdict } from '../../domain/index.js';
import type { AsyncChainExtractor, ChainExtractor } from './chain-extractor.js';
import { createHeuristicChainExtractor, renderChains } from './chain-extractor.js';
import type { ConsensusFilterResult } from './consensus-filter.js';
import { decideByClustering, decideByJudge, recordLessons } from './consensus-filter.js';
import type { DbscanParams } from './dbscan-consensus.js';
import { AMEMGUARD_DBSCAN, distanceToCentroid } from './dbscan-consensus.js';
import type { JudgeFn } from './judge-prompt.js';
import { buildJudgePrompt } from './judge-prompt.js';
import type { LessonStore } from './lesson-store.js';
import { DEFAULT_NUM_LESSONS, createLessonStore } from './lesson-store.js';
import type { AsyncEmbedder, Embedder } from './lexical-embedder.js';
import { createLexicalEmbedder } from './lexical-embedder.js';
import type { RetrievalMode } from './retrieval.js';
import { RETRIEVAL_DEFAULTS, createRetriever } from './retrieval.js';

export interface AMemGuardOptions {
  /** Related committed entries compared with the candidate (top k). Default 8. */
  k?: number;
  /** Restrict the neighbour search to one store; default both. */
  store?: StoreName;
  /**
   * How the top-k related entries are found (see `retrieval.ts`). `terms` (default): bounded
   * candidates from the candidate's most distinctive terms (`StoreView.termMatches`), ranked by
   * lexical-embedding cosine; its cost does not grow with the store. `bm25`: the store's FTS5
   * bm25 search (`StoreView.search`), whose cost grows with the store. A view without
   * `termMatches` always uses `bm25`.
   */
  retrieval?: RetrievalMode;
  /** Distinct terms looked up per check (retrieval `terms`). Default 12. */
  retrievalTerms?: number;
  /** Newest entries taken per term (retrieval `terms`). Default 8. */
  retrievalPerTerm?: number;
  /** DBSCAN radius in cosine distance (≤ eps is a neighbour). Default 0.5 (upstream). */
  eps?: number;
  /** DBSCAN min_samples, the point itself included. Default 2 (upstream). */
  minSamples?: number;
  /** Chain extractor; default heuristic. A function is an async (e.g. LLM) extractor. */
  extractor?: ChainExtractor | AsyncChainExtractor;
  /** Embedder; default lexical. `async: true` embedders make the guard async. */
  embedder?: Embedder | AsyncEmbedder;
  /** LLM judge (prompt → raw text). When set, the judge decides instead of DBSCAN and the guard is async. */
  judge?: JudgeFn;
  /**
   * With no related entry in the store: `decide` (default, upstream behaviour) runs the normal
   * procedure — a lone chain never forms a cluster, so clustering rejects it; the judge still
   * judges it — while `admit` lets the candidate through unchecked.
   */
  emptyStore?: 'decide' | 'admit';
  /** A judge that throws: `reject` (default; upstream fails closed) or an `error` verdict. */
  onJudgeError?: 'reject' | 'error';
  /** Record the chains of rejected entries (candidate and neighbours) as lessons. Default true. */
  recordLessons?: boolean;
  /** Lesson store capacity (oldest dropped). Default 10,000. */
  lessonCapacity?: number;
}

/** The full configuration (hashed into reports). */
interface AMemGuardConfig {
  mode: 'heuristic' | 'judge';
  k: number;
  store: StoreName | 'both';
  retrieval: RetrievalMode;
  retrievalTerms: number;
  retrievalPerTerm: number;
  eps: number;
  minSamples: number;
  extractor: string;
  embedder: string;
  emptyStore: 'decide' | 'admit';
  onJudgeError: 'reject' | 'error';
  recordLessons: boolean;
  lessonCapacity: number;
  numLessons: number;
}

/** The A-MemGuard guard, with its lesson store exposed for agents (`lessons.topLessons(text, 4)`). */
export interface AMemGuard extends Guard {
  readonly id: 'amemguard';
  readonly config: AMemGuardConfig;
  readonly lessons: LessonStore;
}

const nowUs = (): number => performance.now() * 1000;

function toVerdict(result: ConsensusFilterResult, candidateIndex: number, neighbours: number, elapsedUs: number): Verdict {
  const layer = result.method;
  const rejected = result.rejected.find((r) => r.index === candidateIndex);
  const reasons: string[] = [];
  let score: number | undefined;
  if (result.method === 'consensus' && result.clusters && result.vectors) {
    const { dominant, clusters } = result.clusters;
    const members = dominant === undefined ? undefined : clusters[dominant];
    const cand = result.vectors[candidateIndex];
    if (members && cand) score = Math.min(1, distanceToCentroid(cand, result.vectors, members));
    if (!rejected) reasons.push(`chain is in the largest cluster (${members?.length ?? 0} of ${result.chains.length} chains)`);
  } else if (!rejected) {
    reasons.push('judge marked the chain consistent and safe');
  }
  if (rejected) reasons.push(rejected.reason);
  reasons.push(`compared with ${neighbours} related entr${neighbours === 1 ? 'y' : 'ies'}`);
  const trace: LayerResult[] = [
    { layer, outcome: rejected ? 'reject' : 'pass', ...(score === undefined ? {} : { value: score }), reasons: [...reasons] },
  ];
  // Keys in the verdict schema's order: the engine takes a built-in guard's verdict as it is.
  return { decision: rejected ? 'reject' : 'admit', layer, trace, ...(score !== undefined ? { score } : {}), reasons, elapsedUs };
}

function admitAlone(t0: number): Verdict {
  const reasons = ['no related entries in the store: admitted unchecked (emptyStore: admit)'];
  return { decision: 'admit', layer: 'consensus', trace: [{ layer: 'consensus', outcome: 'skip', reasons }], reasons, elapsedUs: nowUs() - t0 };
}

/**
 * Builds the A-MemGuard baseline guard (id `amemguard`).
 *
 * For `check(entry, ctx)`: fetch the top-k related committed entries (bounded term lookups
 * ranked by embedding cosine, or bm25 with `retrieval: 'bm25'`; the candidate's own id
 * excluded), append the candidate
 * last, derive one chain per entry, and decide for the whole group:
 * - heuristic mode (default, `mode: 'sync'`): DBSCAN (cosine, eps 0.5, min_samples 2); admit iff
 *   the candidate is in the largest cluster; no cluster → reject. `score` is the cosine distance
 *   from the candidate's embedding to the largest cluster's centroid, in [0,1] (absent when no
 *   cluster formed). Layer `consensus`.
 * - judge mode (`judge` injected, `mode: 'async'`): admit iff the judge marks the candidate's chain
 *   `"consistent and safe": true`; an unparseable answer rejects (fail closed). Layer `judge`.
 * The guard is also async when an async extractor or embedder is injected.
 * Rejected chains (candidate and neighbours) are recorded in `lessons`; lessons never change a
 * verdict. An extractor/embedder that throws gives an `error` verdict (kind `threw`).
 *
 * @throws UsageError for invalid options (k, eps, minSamples, lessonCapacity, retrieval, retrievalTerms, retrievalPerTerm).
 * @example
 * const guard = createAMemGuard();
 * const v = guard.check(entry, { phase: 'write', store }); // Verdict (sync)
 * guard.lessons.topLessons(entry.content, 4);
 */
export function createAMemGuard(options: AMemGuardOptions = {}): AMemGuard {
  const { k, dbscan, lessonCapacity, retrieval, retrievalTerms, retrievalPerTerm } = amemGuardSettings(options);
  const extractor = options.extractor ?? createHeuristicChainExtractor();
  const embedder = options.embedder ?? createLexicalEmbedder();
  const judge = options.judge;
  const emptyStore = options.emptyStore ?? 'decide';
  const onJudgeError = options.onJudgeError ?? 'reject';
  const keepLessons = options.recordLessons ?? true;
  // Lessons are matched lexically even when an async embedder drives consensus (they never affect verdicts).
  const lessons = createLessonStore(embedder.async ? createLexicalEmbedder() : embedder, lessonCapacity);
  const searchStore = options.store;
  const related = createRetriever({ k, store: searchStore, mode: retrieval, terms: retrievalTerms, perTerm: retrievalPerTerm });

  const config: AMemGuardConfig = {
    mode: judge ? 'judge' : 'heuristic',
    k,
    store: searchStore ?? 'both',
    retrieval,
    retrievalTerms,
    retrievalPerTerm,
    eps: dbscan.eps,
    minSamples: dbscan.minSamples,
    extractor: typeof extractor === 'function' ? 'injected-async' : extractor.id,
    embedder: embedder.id,
    emptyStore,
    onJudgeError,
    recordLessons: keepLessons,
    lessonCapacity,
    numLessons: DEFAULT_NUM_LESSONS,
  };
  const isSync = !judge && typeof extractor !== 'function' && !embedder.async;

  // Sync path only: chain + embedding per content, cached (chainEmbedCache).
  const embedCached = chainEmbedCache(extractor as ChainExtractor, embedder as Embedder);

  const checkSync = (entry: MemoryEntry, ctx: GuardContext): Verdict => {
    const t0 = nowUs();
    try {
      const neighbours = related(entry, ctx.store);
      if (neighbours.length === 0 && emptyStore === 'admit') return admitAlone(t0);
      const group = [...neighbours, entry];
      const chains: string[] = [];
      const vectors: number[][] = [];
      for (const e of group) {
        const [chain, vector] = embedCached(e.content, entry.content);
        chains.push(chain);
        vectors.push(vector);
      }
      const result = decideByClustering(group, chains, vectors, dbscan);
      if (keepLessons) recordLessons(result, lessons);
      return toVerdict(result, group.length - 1, neighbours.length, nowUs() - t0);
    } catch (err) {
      return errorVerdict('threw', `amemguard: ${errorMessage(err)}`, nowUs() - t0);
    }
  };

  const checkAsync = async (entry: MemoryEntry, ctx: GuardContext): Promise<Verdict> => {
    const t0 = nowUs();
    try {
      const neighbours = related(entry, ctx.store);
      if (neighbours.length === 0 && emptyStore === 'admit') return admitAlone(t0);
      const group = [...neighbours, entry];
      const query = entry.content;
      const chainLists =
        typeof extractor === 'function'
          ? await Promise.all(group.map((e) => extractor(e.content, query)))
          : group.map((e) => extractor.extract(e.content, query));
      const chains = chainLists.map(renderChains);
      let result: ConsensusFilterResult;
      if (judge) {
        const { raw, failure } = await askJudge(judge, () => buildJudgePrompt(query, chains));
        if (failure !== undefined && onJudgeError === 'error') {
          return errorVerdict('unavailable', `amemguard judge failed: ${failure}`, nowUs() - t0);
        }
        result = decideByJudge(group, chains, raw, failure);
      } else {
        const vectors = embedder.async ? await embedder.embed(chains) : embedder.embed(chains);
        result = decideByClustering(group, chains, vectors, dbscan);
      }
      if (keepLessons) recordLessons(result, lessons);
      return toVerdict(result, group.length - 1, neighbours.length, nowUs() - t0);
    } catch (err) {
      return errorVerdict('threw', `amemguard: ${errorMessage(err)}`, nowUs() - t0);
    }
  };

  return isSync
    ? { id: 'amemguard', mode: 'sync', config, lessons, check: checkSync }
    : { id: 'amemguard', mode: 'async', config, lessons, check: checkAsync };
}

/** The numeric and retrieval options of {@link createAMemGuard} with their defaults, checked. @throws UsageError naming the option. */
function amemGuardSettings(options: AMemGuardOptions) {
  const k = options.k ?? 8;
  const dbscan: DbscanParams = { eps: options.eps ?? AMEMGUARD_DBSCAN.eps, minSamples: options.minSamples ?? AMEMGUARD_DBSCAN.minSamples };
  const lessonCapacity = options.lessonCapacity ?? 10_000;
  if (!Number.isInteger(k) || k < 0) throw new UsageError(`amemguard: k must be an integer >= 0, got ${k}`);
  if (!(dbscan.eps > 0)) throw new UsageError(`amemguard: eps must be > 0, got ${dbscan.eps}`);
  if (!Number.isInteger(dbscan.minSamples) || dbscan.minSamples < 1) throw new UsageError(`amemguard: minSamples must be an integer >= 1, got ${dbscan.minSamples}`);
  if (!Number.isInteger(lessonCapacity) || lessonCapacity < 1) throw new UsageError(`amemguard: lessonCapacity must be an integer >= 1, got ${lessonCapacity}`);
  const retrieval = options.retrieval ?? RETRIEVAL_DEFAULTS.mode;
  const retrievalTerms = options.retrievalTerms ?? RETRIEVAL_DEFAULTS.terms;
  const retrievalPerTerm = options.retrievalPerTerm ?? RETRIEVAL_DEFAULTS.perTerm;
  if (retrieval !== 'terms' && retrieval !== 'bm25') throw new UsageError(`amemguard: retrieval must be terms|bm25, got ${JSON.stringify(retrieval)}`);
  if (!Number.isInteger(retrievalTerms) || retrievalTerms < 1) throw new UsageError(`amemguard: retrievalTerms must be an integer >= 1, got ${retrievalTerms}`);
  if (!Number.isInteger(retrievalPerTerm) || retrievalPerTerm < 1) throw new UsageError(`amemguard: retrievalPerTerm must be an integer >= 1, got ${retrievalPerTerm}`);
  return { k, dbscan, lessonCapacity, retrieval, retrievalTerms, retrievalPerTerm };
}

/**
 * The sync path's chain and embedding per content. The heuristic extractor ignores the query,
 * so the cache is used only with it (at most 1,024 contents, then cleared); it never changes a
 * verdict, it only saves time.
 */
function chainEmbedCache(extractor: ChainExtractor, embedder: Embedder): (content: string, query: string) => [string, number[]] {
  const cache = new Map<string, [string, number[]]>();
  const cacheable = typeof extractor !== 'function' && extractor.id === 'heuristic' && !embedder.async;
  return (content, query) => {
    const hit = cacheable ? cache.get(content) : undefined;
    if (hit) return hit;
    const chain = renderChains(extractor.extract(content, query));
    const value: [string, number[]] = [chain, embedder.embed([chain])[0] ?? []];
    if (cacheable) {
      if (cache.size >= 1024) cache.clear();
      cache.set(content, value);
    }
    return value;
  };
}

/** Asks the judge the prompt `prompt()` makes (a throw there is a judge failure too): its answer (`raw`, empty on a failure) and why it failed (a throw, or an answer that is not a string). */
async function askJudge(judge: NonNullable<AMemGuardOptions['judge']>, prompt: () => string): Promise<{ raw: string; failure?: string }> {
  let raw = '';
  let failure: string | undefined;
  try {
    const answer: unknown = await judge(prompt());
    if (typeof answer === 'string') raw = answer;
    else failure = 'judge returned a non-string';
  } catch (err) {
    failure = errorMessage(err);
  }
  return failure === undefined ? { raw } : { raw, failure };
}

function num(raw: Record<string, unknown>, key: string): number | undefined {
  const v = raw[key];
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new UsageError(`amemguard: option ${key} must be a number, got ${JSON.stringify(v)}`);
  return n;
}

function oneOf<T extends string>(raw: Record<string, unknown>, key: string, allowed: readonly T[]): T | undefined {
  const v = raw[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new UsageError(`amemguard: option ${key} must be one of ${allowed.join('|')}, got ${JSON.stringify(v)}`);
  }
  return v as T;
}

/**
 * Reads untyped options (CLI, config file, registry) into `AMemGuardOptions`.
 * Numbers may be given as numeric strings; `recordLessons` accepts booleans or `"true"/"false"`;
 * `extractor`, `embedder` and `judge` pass through when they have the right shape.
 * @throws UsageError naming the first bad option.
 */
export function parseAMemGuardOptions(raw: Record<string, unknown> = {}): AMemGuardOptions {
  const out: AMemGuardOptions = {};
  const k = num(raw, 'k');
  if (k !== undefined) out.k = k;
  const eps = num(raw, 'eps');
  if (eps !== undefined) out.eps = eps;
  const minSamples = num(raw, 'minSamples');
  if (minSamples !== undefined) out.minSamples = minSamples;
  const retrievalTerms = num(raw, 'retrievalTerms');
  if (retrievalTerms !== undefined) out.retrievalTerms = retrievalTerms;
  const retrievalPerTerm = num(raw, 'retrievalPerTerm');
  if (retrievalPerTerm !== undefined) out.retrievalPerTerm = retrievalPerTerm;
  const retrievalMode = oneOf(raw, 'retrieval', ['terms', 'bm25'] as const);
  if (retrievalMode !== undefined) out.retrieval = retrievalMode;
  const cap = num(raw, 'lessonCapacity');
  if (cap !== undefined) out.lessonCapacity = cap;
  const store = oneOf(raw, 'store', ['reasoning', 'general'] as const);
  if (store !== undefined) out.store = store;
  const emptyStore = oneOf(raw, 'emptyStore', ['decide', 'admit'] as const);
  if (emptyStore !== undefined) out.emptyStore = emptyStore;
  const onJudgeError = oneOf(raw, 'onJudgeError', ['reject', 'error'] as const);
  if (onJudgeError !== undefined) out.onJudgeError = onJudgeError;
  const rl = raw.recordLessons;
  if (rl !== undefined) {
    if (rl === true || rl === 'true') out.recordLessons = true;
    else if (rl === false || rl === 'false') out.recordLessons = false;
    else throw new UsageError(`amemguard: option recordLessons must be a boolean, got ${JSON.stringify(rl)}`);
  }
  if (raw.judge !== undefined) {
    if (typeof raw.judge !== 'function') throw new UsageError('amemguard: option judge must be a function (prompt) => Promise<string>');
    out.judge = raw.judge as JudgeFn;
  }
  const ex = raw.extractor;
  if (ex !== undefined) {
    if (typeof ex === 'function') out.extractor = ex as AsyncChainExtractor;
    else if (typeof ex === 'object' && ex !== null && typeof (ex as ChainExtractor).extract === 'function') out.extractor = ex as ChainExtractor;
    else throw new UsageError('amemguard: option extractor must be a ChainExtractor or an async function');
  }
  const em = raw.embedder;
  if (em !== undefined) {
    if (typeof em === 'object' && em !== null && typeof (em as Embedder).embed === 'function') out.embedder = em as Embedder | AsyncEmbedder;
    else throw new UsageError('amemguard: option embedder must be an Embedder');
  }
  return out;
}

/** Registry-shaped factory: `parseAMemGuardOptions` then `createAMemGuard`. */
export const amemguardFactory: GuardFactory = (raw) => createAMemGuard(parseAMemGuardOptions(raw ?? {}));
