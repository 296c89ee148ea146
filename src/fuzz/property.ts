/**
 * Property mode for one cell (domain × family): runs the cell's invariant with `fc.check`
 * and a recorded seed, shrinks each failure to a minimal counterexample, and keeps searching
 * (with derived seeds) until `maxFailures` distinct failure signatures are found or the run
 * budget is spent. Every non-shrink evaluation is tallied, so the cell also yields rates.
 */
import fc from 'fast-check';
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { evaluateAsync, evaluateCase, evaluateSync, type ScratchStore } from './evaluate.js';
import { judge, propertyFor, type Judgement, type PropertyId } from './oracle.js';
import { failureSignature } from './signature.js';
import { emptyStats, record, type CellStats } from './stats.js';
import { EngineError, errorMessage } from '../domain/errors.js';

export interface Counterexample {
  domain: string;
  family: string;
  property: PropertyId;
  judgement: Exclude<Judgement, 'holds'>;
  signature: string;
  /** The shrunk case. */
  case: FuzzCase;
  verdict: Verdict;
  /** fast-check seed and path that reproduce the shrunk failure. */
  seed: number;
  path: string;
  numShrinks: number;
}

export interface CellOptions {
  domain: string;
  family: string;
  arbitrary: fc.Arbitrary<FuzzCase>;
  guard: Guard;
  store: ScratchStore;
  phase: Phase;
  /** Cases to evaluate (not counting shrinks). */
  runs: number;
  seed: number;
  /** Distinct failure signatures to find before only counting. Default 5. */
  maxFailures?: number;
  /** Wall-clock budget for the cell, ms. */
  timeLimitMs?: number;
  /** Known cases (e.g. from the regression corpus), tried first. */
  examples?: FuzzCase[];
  /** Called after every counted evaluation. */
  onProgress?: (done: number) => void;
  /** Replays one fast-check path (with `seed`) instead of searching. */
  path?: string;
  /** Time bound per async guard call, ms; past it the verdict is an `error` (timeout). */
  timeoutMs?: number;
  /** Stops the cell between batches (e.g. on Ctrl-C); the cell then reports `interrupted`. */
  signal?: AbortSignal;
}

/**
 * Cases per `fc.check` call. Between calls the engine yields to the event loop, so a stop
 * request (Ctrl-C) is seen within one batch; each call is a round with its own derived seed.
 */
export const BATCH_RUNS = 2000;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface CellOutcome {
  domain: string;
  family: string;
  property: PropertyId | 'mixed';
  seed: number;
  runsRequested: number;
  stats: CellStats;
  counterexamples: Counterexample[];
  /** True when the time limit stopped the cell before `runs` cases. */
  interrupted: boolean;
  elapsedMs: number;
}

/** Derives the seed of the i-th search round of a cell, deterministically. */
export function roundSeed(seed: number, round: number): number {
  return (seed + Math.imul(round, 0x9e3779b9)) >>> 0;
}

/**
 * Runs one cell. Never throws for guard failures (they are `error` verdicts); rejects only
 * when the arbitrary itself throws (e.g. a broken template), naming the cell.
 */
export async function runCell(o: CellOptions): Promise<CellOutcome> {
  const started = performance.now();
  const stats = emptyStats();
  const found: Counterexample[] = [];
  const seen = new Set<string>();
  const maxFailures = o.maxFailures ?? 5;
  const deadline = o.timeLimitMs !== undefined ? started + o.timeLimitMs : Infinity;
  let property: PropertyId | 'mixed' | undefined;
  let interrupted = false;
  let round = 0;

  const maxRounds = maxFailures * 4;
  let failRounds = 0;
  while (stats.runs < o.runs && !interrupted) {
    const hunting = found.length < maxFailures && failRounds < maxRounds;
    let shrinking = false;
    let trigger: { signature: string; template: string } | undefined;
    let last: { c: FuzzCase; verdict: Verdict; judgement: Exclude<Judgement, 'holds'> } | undefined;
    const observe = (c: FuzzCase, verdict: Verdict): boolean => {
      const j = judge(c.truth, verdict);
      if (!shrinking) {
        const p = propertyFor(c.truth);
        property = property === undefined || property === p ? p : 'mixed';
        record(stats, c, verdict, j);
        o.onProgress?.(stats.runs);
      }
      if (j === 'holds' || !hunting) return true;
      const signature = failureSignature(c, verdict, j);
      if (!shrinking) {
        if (seen.has(signature)) return true;
        shrinking = true;
        trigger = { signature, template: c.truth.template };
      } else if (seen.has(signature) && c.truth.template !== trigger?.template) {
        // While shrinking, a smaller case of the same template still counts (fewer operators,
        // shorter chains), even when it lands on a known signature; another template does not.
        return true;
      }
      last = { c, verdict, judgement: j };
      return false;
    };
    const remaining = o.runs - stats.runs;
    const seed = roundSeed(o.seed, round);
    if (round > 0) await yieldToEventLoop();
    const timeLeft = deadline - performance.now();
    if (timeLeft <= 0 || o.signal?.aborted) {
      interrupted = true;
      break;
    }
    const params: fc.Parameters<[FuzzCase]> = {
      seed,
      numRuns: Math.min(remaining, BATCH_RUNS),
      ...(round === 0 && o.examples && o.examples.length > 0 ? { examples: o.examples.map((e) => [e] as [FuzzCase]) } : {}),
      ...(Number.isFinite(timeLeft) ? { interruptAfterTimeLimit: Math.max(1, Math.floor(timeLeft)) } : {}),
      ...(o.path !== undefined ? { path: o.path } : {}),
    };
    let details: fc.RunDetails<[FuzzCase]>;
    try {
      if (o.guard.mode === 'sync') {
        details = fc.check(fc.property(o.arbitrary, (c) => observe(c, evaluateSync(o.guard, c, o.store, o.phase))), params);
      } else {
        details = await fc.check(
          fc.asyncProperty(o.arbitrary, async (c) => observe(c, await evaluateAsync(o.guard, c, o.store, o.phase, o.timeoutMs))),
          params,
        );
      }
    } catch (cause) {
      throw new EngineError(`generator failed in cell ${o.domain}/${o.family}: ${errorMessage(cause)}`, { cause });
    }
    if (details.failed && details.counterexample !== null && last !== undefined) {
      const [c] = details.counterexample;
      // Re-evaluate the shrunk case for its own verdict (the last observed one may be a rejected shrink attempt).
      const verdict = await evaluateCase(o.guard, c, o.store, o.phase, o.timeoutMs);
      const j = judge(c.truth, verdict);
      const judgement: Exclude<Judgement, 'holds'> = j === 'holds' ? last.judgement : j;
      const signature = failureSignature(c, verdict, judgement);
      const duplicate = seen.has(signature);
      seen.add(signature);
      // The case that started this shrink is covered when it shrank within its own template.
      if (trigger && trigger.template === c.truth.template) seen.add(trigger.signature);
      // A case that shrinks onto a known finding (e.g. its operators were not needed) is not a new one.
      if (!duplicate) {
        found.push({
          domain: o.domain,
          family: o.family,
          property: propertyFor(c.truth),
          judgement,
          signature,
          case: c,
          verdict,
          seed,
          path: details.counterexamplePath,
          numShrinks: details.numShrinks,
        });
      }
    } else if (details.failed && details.counterexample !== null) {
      // The predicate threw (not the guard: guard throws are error verdicts): a generator or store bug.
      const err = details.errorInstance;
      throw new EngineError(`cell ${o.domain}/${o.family}: evaluating a case threw: ${errorMessage(err)}`, { cause: err });
    } else if (details.failed && details.counterexample === null && !details.interrupted) {
      throw new EngineError(`cell ${o.domain}/${o.family}: fast-check gave up (too many skipped values)`);
    }
    if (details.interrupted && stats.runs < o.runs) interrupted = true;
    if (o.path !== undefined) break;
    if (details.failed) failRounds += 1;
    round += 1;
  }

  return {
    domain: o.domain,
    family: o.family,
    property: property ?? 'forgery-rejected',
    seed: o.seed,
    runsRequested: o.runs,
    stats,
    counterexamples: found,
    interrupted,
    elapsedMs: performance.now() - started,
  };
}
