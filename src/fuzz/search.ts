/**
 * Local search methods of the attack (`SearchMethod`, `./attack.ts`): greedy and beam, one base
 * at a time, each base with its own seeded random source (`SearchContext.rngOf`).
 *
 * - Without F (`feedback: 'decision'`) the search sees only the goal's success: a random walk that
 *   adds one operator per step and restarts from the original after `restartDepth` steps.
 * - With F (`auto` or `score`) it moves toward a lower goal score.
 * - `greedy` keeps one current rewrite; `beam` keeps `width` of them per generation.
 *
 * A query is one candidate evaluated (its attacker setup writes included). The order of queries
 * never depends on `budget`, so a run with budget B also answers every budget b < B: the search
 * succeeds within b exactly when `queriesToFlip <= b`.
 */
import { UsageError } from '../domain/errors.js';
import type { AttackedBase, SearchContext, SearchMethod } from './attack.js';
import { shuffle } from './rng.js';
import type { MoveStep } from './transformation.js';

/** Stop searching after this many expansions in a row that proposed nothing. */
const DRY_LIMIT = 50;
/** Score-greedy retries of a rewrite whose neighbours were all worse, before a restart. */
const STALL_LIMIT = 2;

export interface LocalSearchOptions {
  /** Rewrites kept per generation by beam (default 3; greedy keeps 1). */
  beamWidth?: number;
  /** Steps away from the original before a restart (default 4). */
  restartDepth?: number;
  /** One-operator extensions proposed per kept rewrite and generation (default 6). */
  neighbours?: number;
}

interface Node {
  steps: MoveStep[];
  /** Goal score (0 success, F, or 1). */
  f: number;
  depth: number;
}

/**
 * Greedy search: one current rewrite; with F it moves to the best neighbour unless all are worse.
 * @example runAttack({ ..., method: greedy(), feedback: 'score' })
 */
export function greedy(o: Omit<LocalSearchOptions, 'beamWidth'> = {}): SearchMethod {
  return localSearch('greedy', 1, o);
}

/**
 * Beam search: `beamWidth` (default 3) rewrites kept per generation.
 * @throws UsageError for a beam width that is not an integer >= 1.
 */
export function beam(o: LocalSearchOptions = {}): SearchMethod {
  const width = o.beamWidth ?? 3;
  if (!Number.isInteger(width) || width < 1) throw new UsageError(`beamWidth must be an integer >= 1, got ${width}`);
  return localSearch('beam', width, o);
}

function localSearch(id: 'greedy' | 'beam', keep: number, o: LocalSearchOptions): SearchMethod {
  const restartDepth = Math.max(1, o.restartDepth ?? 4);
  const width = o.neighbours ?? 6;
  return {
    id,
    maxDepth: 8,
    async run(ctx) {
      for (const b of ctx.bases) if (b.live) await searchOne(ctx, b);
    },
  };

  async function searchOne(ctx: SearchContext, b: AttackedBase): Promise<void> {
    const rng = ctx.rngOf(b);
    const scored = ctx.feedback !== 'decision';
    const start: Node = { steps: [], f: b.start.goal.score, depth: 0 };
    let frontier: Node[] = [start];
    let dry = 0;
    let stalls = 0;
    while (b.result.queries < ctx.budget && dry < DRY_LIMIT) {
      // Expand the frontier: every kept rewrite proposes neighbours; each is queried in turn.
      const evaluated: Node[] = [];
      let proposed = 0;
      for (const parent of frontier) {
        const nbs = [];
        if (parent.steps.length < ctx.maxDepth) {
          for (let i = 0; i < width; i++) {
            const op = ctx.arms[rng.nextInt(ctx.arms.length)] as string;
            const c = ctx.propose(b, [...parent.steps, { op, choice: rng.nextInt(1024) }]);
            if (c) nbs.push(c);
          }
        }
        proposed += nbs.length;
        for (const nb of nbs) {
          if (b.result.queries >= ctx.budget) break;
          const e = await ctx.query(b, nb);
          if (e.goal.judgement === 'violated') return;
          evaluated.push({ steps: nb.steps, f: e.goal.score, depth: parent.depth + 1 });
        }
        if (b.result.queries >= ctx.budget) break;
      }
      dry = proposed === 0 ? dry + 1 : 0;
      let next: Node[];
      if (scored) {
        // Lowest score first; ties in random order (so an uninformative F degrades to the decision walk).
        // Greedy moves only when it does not get worse.
        next = shuffle(evaluated, rng)
          .sort((x, y) => x.f - y.f)
          .slice(0, keep);
        if (id === 'greedy' && next[0] !== undefined && frontier[0] !== undefined && next[0].f > frontier[0].f) {
          // Every neighbour is worse: try the same rewrite again, then restart.
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
        b.result.restarts += 1;
      } else {
        frontier = next;
      }
    }
    ctx.finish(b);
  }
}
