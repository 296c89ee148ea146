/**
 * The transfer pool of an attack: the compositions (operator sequences, with their variants)
 * that flipped a base, reused on the bases attacked after it. It is the seed pool of GPTFuzzer
 * (Yu et al. 2023: successful jailbreak templates join the seed pool and are picked again by
 * MCTS-Explore / UCB over seeds), here over operator sequences: a composition that got one
 * forged entry past the guard is tried first on the next, before fresh search.
 *
 * - A flip found by fresh search adds its 1-minimal steps (`recordFlip`); a composition already
 *   in the pool gains one success and one try. Only compositions of two or more operators join
 *   (`minLength`): a single operator that works is carried to the next base by the arm
 *   statistics the bases share (UCB1 over the arms, `mcts` in `./attack.ts`), and a pool of
 *   single operators would make every later flip repeat the first one.
 * - A transferred try costs one query and counts one try of the entry (`recordTry`); a flip it
 *   produces counts one success of the entry.
 * - Entries are ranked by UCB1 over their success rate (Auer et al. 2002):
 *   successes / tries + ratio · sqrt(2 ln T / tries), T = tries over the pool; ties by more
 *   successes, then by the order they joined.
 *
 * Pure bookkeeping: no randomness, no clock, no guard. The attack (`runAttack`, `./attack.ts`)
 * updates it in query order, so a seed gives the same pool whatever runs the guard.
 */
import { UsageError } from '../domain/errors.js';
import type { MoveStep } from './transformation.js';

/** One composition of the pool. */
export interface PoolEntry {
  /** The operator sequence, ids joined by ` > ` (variants left out). */
  readonly key: string;
  /** The steps (operator and variant) of the flip that added it. */
  readonly steps: readonly MoveStep[];
  /** Queries of this composition: the flip that added it, then every transferred try. */
  tries: number;
  /** Flips: the one that added it, repeats by fresh search, and transferred tries that flipped. */
  successes: number;
  /** Transferred tries that flipped (successes minus fresh-search finds). */
  transferred: number;
  /** Position in the order entries joined (0 first). */
  readonly order: number;
}

/** One row of the pool's report: a composition and its record. */
export interface PoolRow {
  composition: string;
  operators: string[];
  tries: number;
  successes: number;
  /** Successes that came from transferred tries. */
  transferred: number;
}

/** The key of a step sequence: the operator ids in order, joined by ` > `. */
export function compositionKey(steps: readonly MoveStep[]): string {
  return steps.map((s) => s.op).join(' > ');
}

/** The pool of successful compositions of one attack (or of a campaign, when shared across runs). */
export class CompositionPool {
  private readonly byKey = new Map<string, PoolEntry>();
  private readonly list: PoolEntry[] = [];
  private totalTries = 0;
  private readonly ratio: number;
  private readonly minLength: number;

  /**
   * @param options.ratio weight of the exploration term of the ranking (default 0.5, as the tree policy's);
   * @param options.minLength fewest operators of a composition that joins (default 2).
   * @throws UsageError for a negative ratio or a minLength below 1.
   */
  constructor(options: { ratio?: number; minLength?: number } = {}) {
    this.ratio = options.ratio ?? 0.5;
    this.minLength = options.minLength ?? 2;
    if (!(this.ratio >= 0)) throw new UsageError(`CompositionPool: ratio must be >= 0, got ${options.ratio}`);
    if (!Number.isInteger(this.minLength) || this.minLength < 1) throw new UsageError(`CompositionPool: minLength must be an integer >= 1, got ${options.minLength}`);
  }


  /** Entries in the order they joined. */
  get entries(): readonly PoolEntry[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  /**
   * A flip found by fresh search: adds its (minimal) steps as a composition, or counts one more
   * success and try of the one already there. A sequence shorter than `minLength` is ignored.
   * @returns the entry, or undefined for a sequence too short to join.
   */
  recordFlip(steps: readonly MoveStep[]): PoolEntry | undefined {
    if (steps.length < this.minLength) return undefined;
    const key = compositionKey(steps);
    this.totalTries += 1;
    const had = this.byKey.get(key);
    if (had) {
      had.tries += 1;
      had.successes += 1;
      return had;
    }
    const e: PoolEntry = { key, steps: steps.map((s) => ({ ...s })), tries: 1, successes: 1, transferred: 0, order: this.list.length };
    this.byKey.set(key, e);
    this.list.push(e);
    return e;
  }

  /** A transferred try of `key` on another base: one try, and one success when it flipped. No-op for an unknown key. */
  recordTry(key: string, flipped: boolean): void {
    const e = this.byKey.get(key);
    if (!e) return;
    this.totalTries += 1;
    e.tries += 1;
    if (flipped) {
      e.successes += 1;
      e.transferred += 1;
    }
  }

  /** UCB1 score of an entry over the pool's tries. */
  score(e: PoolEntry): number {
    const lnT = Math.log(Math.max(this.totalTries, 1));
    return e.successes / e.tries + this.ratio * Math.sqrt((2 * lnT) / e.tries);
  }

  /**
   * The best entry not in `exclude` (keys already tried on the base at hand) that `admit` lets
   * through, or undefined.
   * Highest UCB1 first; ties by more successes, then by joining order. Deterministic.
   */
  best(exclude: ReadonlySet<string>, admit: (e: PoolEntry) => boolean = () => true): PoolEntry | undefined {
    let best: PoolEntry | undefined;
    let bestScore = -Infinity;
    for (const e of this.list) {
      if (exclude.has(e.key) || !admit(e)) continue;
      const s = this.score(e);
      if (best === undefined || s > bestScore + 1e-12 || (Math.abs(s - bestScore) <= 1e-12 && e.successes > best.successes)) {
        best = e;
        bestScore = s;
      }
    }
    return best;
  }

  /** The `top` compositions by successes (then success rate, then joining order), as report rows. */
  top(top = 10): PoolRow[] {
    return [...this.list]
      .sort((a, b) => b.successes - a.successes || b.successes / b.tries - a.successes / a.tries || a.order - b.order)
      .slice(0, top)
      .map((e) => ({ composition: e.key, operators: e.steps.map((s) => s.op), tries: e.tries, successes: e.successes, transferred: e.transferred }));
  }
}
