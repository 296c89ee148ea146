/**
 * The one seeded random source of the attack engine: every search method (MCTS, greedy, beam)
 * draws from it, so a run is a pure function of its seed (no Math.random, no clock).
 */
import fc from 'fast-check';
import { EngineError } from '../domain/errors.js';

/** A source of whole numbers. */
export interface Rng {
  /** A uniformly drawn whole number in [0, n); n must be an integer >= 1. */
  nextInt(n: number): number;
}

/**
 * A seeded source of whole numbers drawn with fast-check (`fc.noBias(fc.integer)`), in chunks
 * of 256 per derived seed.
 * @throws EngineError from `nextInt` when n is not an integer >= 1.
 * @example const rng = seededInts(1); rng.nextInt(6) // 0..5, the same for seed 1 every time
 */
export function seededInts(seed: number): Rng {
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

/** A shuffled copy (Fisher–Yates with `rng`). */
export function shuffle<T>(items: readonly T[], rng: Rng): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
