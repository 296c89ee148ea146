/**
 * Black-box bypass search (the adaptive attacker as a measurable part of the fuzzer):
 * starting from one forged case, query the guard with mutated variants until one is admitted
 * or the query budget is spent. Generic: the guard, the start case and the mutation function
 * are parameters; nothing here knows how cases are built.
 *
 * - `decision` mode sees only admit/reject: a random walk that adds one mutation per step and
 *   restarts from the start case after `restartDepth` steps (random restart).
 * - `score` mode also sees the forgery score F (paper §IV-E) and moves toward lower F.
 * - `greedy` keeps one current case; `beam` keeps `beamWidth` of them per generation.
 *
 * A query is one candidate case evaluated (its attacker setup writes included). The order of
 * queries never depends on `budget`, so a run with budget B also answers every budget b < B:
 * the search bypasses within b exactly when `queries <= b`.
 * Deterministic for a seed: randomness comes from `fc.sample` with that seed (no Math.random).
 */
import fc from 'fast-check';
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import { errorVerdict, type Verdict } from '../domain/verdict.js';
import { parseVerdict } from '../domain/verdict-schema.js';
import { EngineError, UsageError } from '../domain/errors.js';
import { splitSetup, type ScratchStore } from './evaluate.js';

/** What the search hands to the mutation function: the step index and a seeded random source. */
interface SearchStep {
  /** Mutation call index (0-based). */
  index: number;
  /** A uniformly drawn whole number in [0, n); n >= 1. */
  nextInt(n: number): number;
}

/** Proposes neighbours (one more mutation each) of a case; may return none. */
export type MutateFn = (c: FuzzCase, step: SearchStep) => FuzzCase[];

export type SearchMode = 'decision' | 'score';
export type SearchStrategy = 'greedy' | 'beam';

export interface SearchOptions {
  guard: Guard;
  /** The unmutated case; queried first. */
  start: FuzzCase;
  mutate: MutateFn;
  /** Largest number of queries (candidate evaluations), >= 1. */
  budget: number;
  mode: SearchMode;
  strategy: SearchStrategy;
  /** Cases kept per generation by `beam` (default 3). */
  beamWidth?: number;
  /** Steps away from the start before a restart (default 4). */
  restartDepth?: number;
  seed: number;
  /** Store the candidates' setup goes into (rolled back after each query). */
  store: ScratchStore;
  /** Guard path (default `write`). */
  phase?: Phase;
  /** The mutation path of a case (default `truth.operators`). */
  pathOf?: (c: FuzzCase) => string[];
  /**
   * What counts as a bypass (default `all-writes`): `all-writes` needs the entry AND every
   * attacker write in its setup (e.g. the first part of a split entry) admitted, since a
   * rejected part never reaches memory; `entry` looks at the entry alone (the engine's oracle).
   */
  bypassRule?: 'all-writes' | 'entry';
}

export interface SearchResult {
  bypassed: boolean;
  /** Queries spent: the queries-to-bypass when `bypassed`, else the budget (or fewer when the search ran dry). */
  queries: number;
  /** Mutations of the admitted case (or of the lowest-F / last case queried when not bypassed). */
  path: string[];
  /** The admitted case. */
  final?: FuzzCase;
  /** Verdict of `final`, or of the best case queried. */
  verdict: Verdict;
  /** Lowest F seen (1 for a reject without a score; 0 for an admit). */
  bestScore: number;
  /** Times the search went back to the start case. */
  restarts: number;
  /** `error` verdicts seen (never counted as rejections nor as bypasses). */
  errors: number;
  /** Queried cases whose entry was admitted while an attacker write of theirs was rejected (not bypasses under `all-writes`). */
  partialAdmits: number;
}

/** Verdict of the entry, plus how many of the case's attacker writes the guard rejected. */
export interface CaseEvaluation {
  verdict: Verdict;
  attackerRejected: number;
}

function accepted(value: unknown): Verdict {
  const parsed = parseVerdict(value);
  return parsed.ok ? parsed.verdict : errorVerdict('malformed', parsed.message);
}

/**
 * Evaluates one case like the engine does (history committed, attacker writes through the
 * guard's write path and committed only when admitted, then the entry on `phase`), and also
 * reports how many attacker writes were not admitted. Rolled back afterwards. Never throws for
 * guard failures.
 */
export async function evaluateCase(guard: Guard, c: FuzzCase, store: ScratchStore, phase: Phase): Promise<CaseEvaluation> {
  const { history, attacker } = splitSetup(c);
  return store.scratchAsync(history, async (view) => {
    let attackerRejected = 0;
    for (const e of attacker) {
      try {
        const v = await guard.check(e, { phase: 'write', store: view });
        if (v.decision === 'admit') store.insert(e);
        else attackerRejected += 1;
      } catch {
        attackerRejected += 1;
      }
    }
    let verdict: Verdict;
    try {
      verdict = accepted(await guard.check(c.entry, { phase, store: view }));
    } catch (e) {
      verdict = errorVerdict('threw', e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    }
    return { verdict, attackerRejected };
  });
}

/** A seeded source of whole numbers drawn with fast-check, in chunks. */
export function seededInts(seed: number): { nextInt(n: number): number } {
  let buf: number[] = [];
  let at = 0;
  let chunk = 0;
  const arb = fc.noBias(fc.integer({ min: 0, max: 0x7fffffff }));
  return {
    nextInt(n: number): number {
      if (!Number.isInteger(n) || n < 1) throw new EngineError(`nextInt needs an integer n >= 1, got ${n}`);
      if (at >= buf.length) {
        buf = fc.sample(arb, { numRuns: 256, seed: (seed + Math.imul(chunk, 0x9e3779b9)) | 0 });
        chunk += 1;
        at = 0;
      }
      return (buf[at++] as number) % n;
    },
  };
}

interface Scored {
  c: FuzzCase;
  v: Verdict;
  /** Search objective: F, or 1 for a reject/error without one, 0 for an admit. */
  f: number;
  depth: number;
  bypass: boolean;
}

/** A shuffled copy (Fisher–Yates with the search's random source). */
function shuffle<T>(items: readonly T[], rng: { nextInt(n: number): number }): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Stop searching after this many mutation calls in a row that proposed nothing. */
const DRY_LIMIT = 50;
/** Score-greedy retries of a case whose neighbours were all worse, before a restart. */
const STALL_LIMIT = 2;

/**
 * Searches for a variant of `start` that the guard admits.
 * @returns a `SearchResult`; never throws for guard failures (they are `error` verdicts).
 * @throws UsageError for a budget < 1 or a beam width < 1.
 * @example
 * const r = await searchBypass({ guard, start, mutate: adaptiveNeighbours('ehr'), budget: 200,
 *   mode: 'score', strategy: 'greedy', seed: 1, store });
 * if (r.bypassed) console.log(r.queries, r.path);
 */
export async function searchBypass(o: SearchOptions): Promise<SearchResult> {
  if (!Number.isInteger(o.budget) || o.budget < 1) throw new UsageError(`budget must be an integer >= 1, got ${o.budget}`);
  const beamWidth = o.beamWidth ?? 3;
  if (!Number.isInteger(beamWidth) || beamWidth < 1) throw new UsageError(`beamWidth must be an integer >= 1, got ${beamWidth}`);
  const restartDepth = Math.max(1, o.restartDepth ?? 4);
  const phase = o.phase ?? 'write';
  const pathOf = o.pathOf ?? ((c: FuzzCase) => [...c.truth.operators]);
  const rng = seededInts(o.seed);
  let queries = 0;
  let restarts = 0;
  let errors = 0;
  let stepIndex = 0;
  let partialAdmits = 0;
  let best: Scored | undefined;
  const allWrites = (o.bypassRule ?? 'all-writes') === 'all-writes';

  const query = async (c: FuzzCase, depth: number): Promise<Scored> => {
    queries += 1;
    const { verdict: v, attackerRejected } = await evaluateCase(o.guard, c, o.store, phase);
    if (v.decision === 'error') errors += 1;
    const partial = v.decision === 'admit' && attackerRejected > 0;
    if (partial) partialAdmits += 1;
    const bypass = v.decision === 'admit' && !(allWrites && partial);
    // Objective: 0 for a bypass; F of a scored reject (score mode only); a partial admit sits just below 1.
    const f = bypass ? 0 : partial ? (o.mode === 'score' ? 0.99 : 1) : o.mode === 'score' && v.decision === 'reject' && v.score !== undefined ? v.score : 1;
    const s: Scored = { c, v, f, depth, bypass };
    if (best === undefined || s.f < best.f) best = s;
    return s;
  };
  const done = (s: Scored): SearchResult => ({
    bypassed: true,
    queries,
    path: pathOf(s.c),
    final: s.c,
    verdict: s.v,
    bestScore: 0,
    restarts,
    errors,
    partialAdmits,
  });
  const mutate = (c: FuzzCase): FuzzCase[] => o.mutate(c, { index: stepIndex++, nextInt: (n) => rng.nextInt(n) });

  const start = await query(o.start, 0);
  if (start.bypass) return done(start);
  let frontier: Scored[] = [start];
  let dry = 0;
  let stalls = 0;

  while (queries < o.budget && dry < DRY_LIMIT) {
    // Expand the frontier: every frontier case proposes neighbours; each is queried in turn.
    const evaluated: Scored[] = [];
    let proposed = 0;
    for (const parent of frontier) {
      const nbs = mutate(parent.c);
      proposed += nbs.length;
      for (const nb of nbs) {
        if (queries >= o.budget) break;
        const s = await query(nb, parent.depth + 1);
        if (s.bypass) return done(s);
        evaluated.push(s);
      }
      if (queries >= o.budget) break;
    }
    dry = proposed === 0 ? dry + 1 : 0;
    const keep = o.strategy === 'greedy' ? 1 : beamWidth;
    let next: Scored[];
    if (o.mode === 'score') {
      // Lowest F first; ties in random order (so an uninformative F degrades to the decision walk).
      // Greedy moves only when it does not get worse.
      const ranked = shuffle(evaluated, rng).sort((a, b) => a.f - b.f);
      next = ranked.slice(0, keep);
      if (o.strategy === 'greedy' && next[0] !== undefined && frontier[0] !== undefined && next[0].f > frontier[0].f) {
        // Every neighbour is worse: try the same case again, then restart.
        stalls += 1;
        next = stalls >= STALL_LIMIT ? [] : frontier;
      } else stalls = 0;
    } else {
      // No gradient: keep randomly drawn survivors.
      const pool = [...evaluated];
      next = [];
      while (next.length < keep && pool.length > 0) next.push(...pool.splice(rng.nextInt(pool.length), 1));
    }
    const deepest = Math.max(0, ...next.map((s) => s.depth));
    if (next.length === 0 || deepest >= restartDepth) {
      // Stuck (no neighbour, greedy stalled, or too deep): start again.
      frontier = [start];
      stalls = 0;
      restarts += 1;
    } else {
      frontier = next;
    }
  }
  const b = best ?? start;
  return { bypassed: false, queries, path: pathOf(b.c), verdict: b.v, bestScore: b.f, restarts, errors, partialAdmits };
}
