/**
 * Property mode for one cell (domain × family): runs the cell's invariant with `fc.check`
 * and a recorded seed, shrinks each failure to a minimal counterexample, and keeps searching
 * (with derived seeds) until `maxFailures` distinct failure signatures are found or the run
 * budget is spent. Every non-shrink evaluation is tallied, so the cell also yields rates.
 */
import { RUN_DEFAULTS } from '../domain/defaults.js';
import fc from 'fast-check';
import pLimit from 'p-limit';
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { evaluateAsync, evaluateSync, splitSetup, type ScratchStore } from './evaluate.js';
import { judge, propertyFor, type Judgement, type PropertyId } from './oracle.js';
import { failureSignature } from './signature.js';
import { emptyStats, record, type CellStats } from './stats.js';
import { EngineError, errorMessage } from '../domain/errors.js';
import { wilson } from '../metrics/wilson.js';
import { emptyTally, type QueryHooks, type QueryTally, type VerdictCache } from './query-meter.js';

/**
 * What a finding is, after its re-checks:
 * - `bypass` / `false-positive`: the invariant broke on every re-check (a clean finding);
 * - `flaky`: it broke at least once but not on every re-check (e.g. an LLM judge at
 *   temperature > 0); never reported as a clean bypass or false positive;
 * - `crash`: the input makes the guard crash, hang (time out) or throw on every re-check;
 * - `guard-error`: another reproducible error verdict (malformed output, guard unavailable).
 */
export type FindingKind = 'bypass' | 'false-positive' | 'flaky' | 'crash' | 'guard-error';

/** Error kinds that mean "this input crashes the guard" when they reproduce. */
const CRASH_ERROR_KINDS: readonly string[] = ['crashed', 'timeout', 'threw'];

/** Error kinds that are not about the input (the guard is down): such findings are not shrunk. */
const UNSHRINKABLE_ERROR_KINDS: readonly string[] = ['unavailable'];

/** Default re-checks of each finding (`--recheck`). */
export const DEFAULT_RECHECK = RUN_DEFAULTS.recheck;

/** Default guard calls in flight for async guards (`--concurrency`); sync guards always use 1. */
const DEFAULT_ASYNC_CONCURRENCY = RUN_DEFAULTS.asyncConcurrency;

/** One failing case of a cell: the shrunk case, its verdict, what kind of finding it is once re-checked, and the fast-check seed and path that reproduce it. */
export interface Counterexample {
  domain: string;
  family: string;
  property: PropertyId;
  judgement: Exclude<Judgement, 'holds'>;
  /** What the finding is once re-checked (see {@link FindingKind}). */
  kind: FindingKind;
  /** Re-checks of the reported case, and how many reproduced the failure (same judgement and error kind). */
  recheck: { reproduced: number; of: number };
  signature: string;
  /** The shrunk case (a flaky finding is not shrunk: it is the case that first failed). */
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
  /** Stops the cell (e.g. on Ctrl-C) without waiting for guard calls in flight; the cell then reports `interrupted`. */
  signal?: AbortSignal;
  /**
   * Guard calls in flight at once for an async guard (default 8; sync guards always 1).
   * Results are identical for every value: cases are drawn ahead with the same seed (at most
   * this many), evaluated concurrently, and consumed by fast-check in order; shrink candidates
   * run in flight too ({@link shrinkInFlight}), keeping fast-check's choice of minimal case.
   * A guard's `concurrencyLimit` caps it.
   */
  concurrency?: number;
  /**
   * Re-checks of each failure (default 3, at least 1). A failure that does not reproduce on
   * every re-check is a `flaky` finding and is not shrunk. Each shrink step is one check; the
   * minimal case is re-checked this many times once shrinking ends (never from the cache).
   */
  recheck?: number;
  /** The run's verdict cache (src/fuzz/query-meter.ts): cases and shrink candidates read it; re-checks never do. */
  cache?: VerdictCache;
  /** Sequential stopping (see {@link CellStopRule}); without it the cell runs `runs` cases. */
  stop?: CellStopRule;
  /** Guard queries this cell may spend in all (cases, shrinking, re-checks); past it the cell stops with `stopped: 'budget'`. */
  maxQueries?: number;
  /** Guard queries one shrink may spend; past it the shrink keeps the smallest failing case found so far. */
  shrinkBudget?: number;
}

/**
 * When a cell's answer is settled (sequential stopping), checked after every counted case:
 * - the invariant failed (k > 0 violations of n) and the Wilson 95% half-width of k/n is at most
 *   `precision`; or
 * - it holds so far (no violation, no error) and the Wilson 95% upper bound of 0/n is below
 *   `target` (for k = 0 that is n > 3.84 / target - 3.84);
 * - and at least `minRuns` cases ran. `runs` stays the cap.
 * The rule reads only counts, so a fixed seed stops at the same case every time.
 */
export interface CellStopRule {
  /** Largest Wilson 95% half-width of a failing cell's rate, in (0, 0.5]. */
  precision: number;
  /**
   * A holding cell stops once the Wilson 95% upper bound of its rate is below this, in (0,1]:
   * one rate for both properties, or one per property (e.g. the gate's `--max-fpr` for
   * benign cells, `--max-bypass` for forged ones). Undefined: a holding cell runs to the cap.
   */
  target?: number | Partial<Record<PropertyId, number>>;
  /** Fewest cases before any stop (default 1). */
  minRuns?: number;
}

/** Queries of one cell by phase (cases, shrinking, re-checks) and the wall time of each, ms. */
export interface CellQueries {
  cases: QueryTally;
  shrink: QueryTally;
  recheck: QueryTally;
  /** Wall time of each phase, ms: shrinking from the failure fast-check starts to shrink until the minimal case; re-checks around each re-check; cases the rest. */
  ms: { cases: number; shrink: number; recheck: number };
}

/** Why a cell stopped: `runs` (the cap), `settled` (the stop rule), `budget` (`maxQueries`), `time` (its time bound or Ctrl-C). */
export type CellStop = 'runs' | 'settled' | 'budget' | 'time';

/** True when the counts of a cell satisfy `rule` (see {@link CellStopRule}). */
export function cellSettled(rule: CellStopRule, runs: number, violations: number, errors: number, property?: PropertyId | 'mixed'): boolean {
  if (runs < Math.max(1, rule.minRuns ?? 1)) return false;
  if (violations > 0) {
    const w = wilson(violations, runs);
    return (w.high - w.low) / 2 <= rule.precision;
  }
  const target = typeof rule.target === 'number' || rule.target === undefined ? rule.target : property === undefined || property === 'mixed' ? undefined : rule.target[property];
  if (errors > 0 || target === undefined) return false;
  return wilson(0, runs).high < target;
}

/**
 * Cases per `fc.check` call. Between calls the engine yields to the event loop, so a stop
 * request (Ctrl-C) is seen within one batch; each call is a round with its own derived seed.
 */
const BATCH_RUNS = 2000;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** What one cell (domain × family) of a campaign found: its statistics, its counterexamples, whether the time limit cut it short, and its time in ms. */
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
  /** Guard queries and cache hits by phase (absent in older outcomes). */
  queries?: CellQueries;
  /** Why the cell stopped (absent in older outcomes). */
  stopped?: CellStop;
}

/** Derives the seed of the i-th search round of a cell, deterministically. */
function roundSeed(seed: number, round: number): number {
  return (seed + Math.imul(round, 0x9e3779b9)) >>> 0;
}

/** A failure's class: its judgement, and for errors the error kind. Re-checks must match it. */
function failureClass(c: FuzzCase, v: Verdict): string {
  const j = judge(c.truth, v);
  return j === 'error' ? `error:${v.error?.kind ?? 'unknown'}` : j;
}

function findingKind(property: PropertyId, judgement: Exclude<Judgement, 'holds'>, verdict: Verdict, flaky: boolean): FindingKind {
  if (flaky) return 'flaky';
  if (judgement === 'error') return CRASH_ERROR_KINDS.includes(verdict.error?.kind ?? '') ? 'crash' : 'guard-error';
  return property === 'benign-admitted' ? 'false-positive' : 'bypass';
}

/**
 * Re-checks a failing case `times` times (one after another) and labels the
 * finding: `flaky` unless every re-check fails in the same way as `verdict` did. For finders
 * outside `runCell` (e.g. attack mode), so their findings are re-checked as property mode's are.
 * @returns the kind, the re-check counts, and the first reproducing verdict (else `verdict`).
 */
export async function recheckFinding(
  guard: Guard,
  c: FuzzCase,
  verdict: Verdict,
  store: ScratchStore,
  phase: Phase,
  times = DEFAULT_RECHECK,
  timeoutMs?: number,
): Promise<{ kind: FindingKind; recheck: { reproduced: number; of: number }; verdict: Verdict }> {
  const n = Math.max(1, Math.floor(times));
  const cls = failureClass(c, verdict);
  const vs: Verdict[] = [];
  for (let i = 0; i < n; i++) vs.push(guard.mode === 'sync' ? evaluateSync(guard, c, store, phase) : await evaluateAsync(guard, c, store, phase, timeoutMs));
  const matching = vs.filter((v) => failureClass(c, v) === cls);
  const j = judge(c.truth, verdict);
  const judgement: Exclude<Judgement, 'holds'> = j === 'holds' ? 'violated' : j;
  const shown = matching[0] ?? verdict;
  return { kind: findingKind(propertyFor(c.truth), judgement, shown, matching.length < n), recheck: { reproduced: matching.length, of: n }, verdict: shown };
}

const ABORTED = Symbol('aborted');

/** Resolves to `p`'s value, or to {@link ABORTED} as soon as `signal` aborts (the guard call is left to settle). */
function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (!signal) return p;
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}

/**
 * Draws the cases one `fc.check` call will generate with these parameters, in order: the
 * same seed, run count and examples give the same values whatever the property answers, up
 * to its first failure.
 */
function drawCases(arbitrary: fc.Arbitrary<FuzzCase>, params: fc.Parameters<[FuzzCase]>): FuzzCase[] {
  const out: FuzzCase[] = [];
  const { interruptAfterTimeLimit: _t, path: _p, ...rest } = params;
  fc.check(
    fc.property(arbitrary, (c) => {
      out.push(c);
      return true;
    }),
    rest,
  );
  return out;
}

function sameCase(a: FuzzCase, b: FuzzCase): boolean {
  return a.entry.id === b.entry.id && a.entry.content === b.entry.content && a.truth.template === b.truth.template && (a.setup?.length ?? 0) === (b.setup?.length ?? 0);
}

/**
 * Evaluates drawn cases ahead of the property, with up to `concurrency` guard calls in flight
 * and at most `window` cases ahead of the one fast-check asks for. Verdicts are handed out
 * by index, so completion order never matters.
 */
class Prefetcher {
  #cases: FuzzCase[];
  /** Draws the first `n` runs' cases (fast-check's values are a prefix-stable stream for a seed). */
  readonly #draw: (n: number) => FuzzCase[];
  readonly #runs: number;
  #drawnRuns: number;
  readonly #evaluate: (c: FuzzCase) => Promise<Verdict> | undefined;
  readonly #concurrency: number;
  readonly #window: number;
  readonly #verdicts: Array<Promise<Verdict> | undefined> = [];
  readonly #pending = new Set<Promise<unknown>>();
  #next = 0;
  #consumed = 0;
  #stopped = false;

  /**
   * Cases are drawn in doubling chunks, not all `runs` at once: a round that ends early (a
   * failure, a settled cell) then generates little more than it used.
   */
  constructor(draw: (n: number) => FuzzCase[], runs: number, evaluate: (c: FuzzCase) => Promise<Verdict> | undefined, concurrency: number) {
    this.#draw = draw;
    this.#runs = runs;
    this.#drawnRuns = Math.min(runs, Math.max(16, concurrency * 4));
    this.#cases = draw(this.#drawnRuns);
    this.#evaluate = evaluate;
    this.#concurrency = concurrency;
    // At most N ahead: every call started past a failure is a query spent for nothing.
    this.#window = concurrency;
    this.#pump();
  }

  /** Draws more cases when the next one to start is past those drawn (and the round has more). */
  #grow(): void {
    if (this.#next < this.#cases.length || this.#drawnRuns >= this.#runs) return;
    this.#drawnRuns = Math.min(this.#runs, this.#drawnRuns * 2);
    this.#cases = this.#draw(this.#drawnRuns);
  }

  #start(i: number): Promise<Verdict> | undefined {
    const p = this.#evaluate(this.#cases[i] as FuzzCase);
    if (p === undefined) {
      // Declined (the query budget has no room for it): start nothing more.
      this.#stopped = true;
      return undefined;
    }
    this.#verdicts[i] = p;
    const settled = p.then(
      () => undefined,
      () => undefined,
    );
    this.#pending.add(settled);
    void settled.then(() => {
      this.#pending.delete(settled);
      this.#pump();
    });
    return p;
  }

  #pump(): void {
    for (;;) {
      if (!this.#stopped) this.#grow();
      if (!(!this.#stopped && this.#pending.size < this.#concurrency && this.#next < this.#cases.length && this.#next < this.#consumed + this.#window)) break;
      const i = this.#next++;
      if (this.#verdicts[i] === undefined) this.#start(i);
    }
  }

  /** The verdict of case `i`, or undefined when `c` is not the drawn case `i` (then evaluate it directly). */
  take(i: number, c: FuzzCase): Promise<Verdict> | undefined {
    if (i >= this.#cases.length && !this.#stopped) {
      this.#next = Math.max(this.#next, i);
      this.#grow();
    }
    const drawn = this.#cases[i];
    if (drawn === undefined || !sameCase(drawn, c)) {
      this.stop();
      return undefined;
    }
    this.#consumed = i + 1;
    const p = this.#verdicts[i] ?? (this.#stopped ? undefined : this.#start(i));
    this.#verdicts[i] = undefined;
    if (this.#next <= i) this.#next = i + 1;
    this.#pump();
    return p;
  }

  /** Starts no more calls (those in flight settle on their own). */
  stop(): void {
    this.#stopped = true;
  }

  /** Resolves when every call started has settled. */
  async drain(): Promise<void> {
    this.stop();
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}

/**
 * The cell's arbitrary, unchanged, remembering the last value it generated with its shrink
 * context: the async shrinker ({@link shrinkInFlight}) walks the same shrink streams fast-check
 * would, from that value.
 */
class RecordingArbitrary<T> extends fc.Arbitrary<T> {
  last: fc.Value<T> | undefined;
  readonly #inner: fc.Arbitrary<T>;

  constructor(inner: fc.Arbitrary<T>) {
    super();
    this.#inner = inner;
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    const v = this.#inner.generate(mrng, biasFactor);
    this.last = v;
    return v;
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.#inner.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.#inner.shrink(value, context);
  }
}

/**
 * Shrinks `start` as fast-check's own loop does (walk the shrink stream of the current value;
 * the first candidate that still fails becomes the current value; stop when a stream has none),
 * but evaluates up to `inFlight` candidates of a stream at once. The first failing candidate in
 * stream order is kept, so the minimal case, its path and its shrink count are the same for
 * every `inFlight`; candidates evaluated past it are the price of the speed. The width starts
 * at 1 on each stream and doubles after every batch with no failing candidate (up to
 * `inFlight`): early candidates often fail, and a wide first batch would waste the rest.
 * `room()` is the queries still allowed (a candidate costs its attacker writes + 1).
 */
async function shrinkInFlight(
  arbitrary: fc.Arbitrary<FuzzCase>,
  start: fc.Value<FuzzCase>,
  evaluate: (c: FuzzCase) => Promise<Verdict>,
  fails: (c: FuzzCase, v: Verdict) => boolean,
  inFlight: number,
  room: () => number,
  aborted: () => boolean,
): Promise<{ value: fc.Value<FuzzCase>; verdict?: Verdict; steps: number[] }> {
  let current = start;
  let verdict: Verdict | undefined;
  const steps: number[] = [];
  for (;;) {
    const it = arbitrary.shrink(current.value_, current.context)[Symbol.iterator]();
    let index = 0;
    let next: { value: fc.Value<FuzzCase>; verdict: Verdict; at: number } | undefined;
    let exhausted = false;
    let width = 1;
    while (next === undefined && !exhausted) {
      if (aborted()) return { value: current, ...(verdict ? { verdict } : {}), steps };
      const batch: fc.Value<FuzzCase>[] = [];
      let left = room();
      while (batch.length < Math.min(width, inFlight)) {
        const n = it.next();
        if (n.done) {
          exhausted = true;
          break;
        }
        const c = splitSetup(n.value.value_).attacker.length + 1;
        if (c > left) {
          // Out of budget: this candidate and the rest of the stream are not asked.
          if (batch.length === 0) return { value: current, ...(verdict ? { verdict } : {}), steps };
          exhausted = true;
          break;
        }
        left -= c;
        batch.push(n.value);
      }
      if (batch.length === 0) break;
      const verdicts = await Promise.all(batch.map((b) => evaluate(b.value_)));
      for (const [i, b] of batch.entries()) {
        const v = verdicts[i] as Verdict;
        if (fails(b.value_, v)) {
          next = { value: b, verdict: v, at: index + i };
          break;
        }
      }
      index += batch.length;
      width *= 2;
    }
    if (next === undefined) return { value: current, ...(verdict ? { verdict } : {}), steps };
    current = next.value;
    verdict = next.verdict;
    steps.push(next.at);
  }
}

/** What the property decides about one observation: pass/fail now, or after `n` more checks of the case. */
type Step = boolean | { recheck: number; then: (verdicts: Verdict[]) => boolean };

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
  const rechecks = Math.max(1, Math.floor(o.recheck ?? DEFAULT_RECHECK));
  const concurrency = o.guard.mode === 'sync' ? 1 : Math.max(1, Math.min(Math.floor(o.concurrency ?? DEFAULT_ASYNC_CONCURRENCY), typeof o.guard.concurrencyLimit === 'number' && o.guard.concurrencyLimit >= 1 ? o.guard.concurrencyLimit : Infinity));
  const deadline = o.timeLimitMs !== undefined ? started + o.timeLimitMs : Infinity;
  const aborted = (): boolean => o.signal?.aborted === true;
  let property: PropertyId | 'mixed' | undefined;
  let interrupted = false;
  let round = 0;

  // Query accounting: cases and shrink candidates may be served by the run's cache, re-checks never are.
  const queries: CellQueries = { cases: emptyTally(), shrink: emptyTally(), recheck: emptyTally(), ms: { cases: 0, shrink: 0, recheck: 0 } };
  const forCases: QueryHooks = { tally: queries.cases, cache: o.cache };
  const forShrink: QueryHooks = { tally: queries.shrink, cache: o.cache };
  const forRecheck: QueryHooks = { tally: queries.recheck };
  const spent = (): number => queries.cases.queries + queries.shrink.queries + queries.recheck.queries;
  const overBudget = (): boolean => o.maxQueries !== undefined && spent() >= o.maxQueries;
  /** Most queries one case can cost: its attacker writes and its entry. */
  const costOf = (c: FuzzCase): number => splitSetup(c).attacker.length + 1;
  /** Queries of cases drawn ahead and still in flight (counted in `spent` only as their calls start). */
  let reserved = 0;
  /** Whether a counted case fits what is left of the budget (the cell's first case always does: every cell ends with an interval). */
  const caseFits = (c: FuzzCase): boolean => o.maxQueries === undefined || stats.runs + reservedCases === 0 || spent() + reserved + costOf(c) <= o.maxQueries;
  let reservedCases = 0;
  const reserve = (c: FuzzCase, p: Promise<Verdict>): Promise<Verdict> => {
    const n = costOf(c);
    reserved += n;
    reservedCases += 1;
    return p.finally(() => {
      reserved -= n;
      reservedCases -= 1;
    });
  };
  /** Set once the stop rule or the query budget ends the cell: no more counted cases are evaluated. */
  let halted: CellStop | undefined;
  const evalSync = (c: FuzzCase, h: QueryHooks): Verdict => evaluateSync(o.guard, c, o.store, o.phase, h);
  // One limiter for every call of the cell (prefetch, shrinking, re-checks): never more than N in flight.
  const limit = concurrency > 1 ? pLimit(concurrency) : undefined;
  const evalAsync = (c: FuzzCase, h: QueryHooks): Promise<Verdict> => evaluateAsync(o.guard, c, o.store, o.phase, o.timeoutMs, limit, h);
  const againSync = (c: FuzzCase, n: number): Verdict[] => {
    const t0 = performance.now();
    const out = Array.from({ length: n }, () => evalSync(c, forRecheck));
    queries.ms.recheck += performance.now() - t0;
    return out;
  };
  const againAsync = async (c: FuzzCase, n: number): Promise<Verdict[]> => {
    const t0 = performance.now();
    try {
      if (concurrency > 1) return await Promise.all(Array.from({ length: n }, () => evalAsync(c, forRecheck)));
      const out: Verdict[] = [];
      for (let i = 0; i < n; i++) out.push(await evalAsync(c, forRecheck));
      return out;
    } finally {
      queries.ms.recheck += performance.now() - t0;
    }
  };

  const maxRounds = maxFailures * 4;
  let failRounds = 0;
  while (stats.runs < o.runs && !interrupted && halted === undefined) {
    const hunting = found.length < maxFailures && failRounds < maxRounds;
    let shrinking = false;
    let shrinkStart = 0;
    let shrinkBase = 0;
    /** True while a shrink may still ask the guard (its budget and the cell's are not spent). */
    let triggerCost = 1;
    const shrinkMayAsk = (): boolean =>
      !overBudget() &&
      // The minimal case's re-checks are still to come: they are kept inside the half too.
      (o.maxQueries === undefined || (queries.shrink.queries + queries.recheck.queries + rechecks * triggerCost < o.maxQueries / 2 && spent() + rechecks * triggerCost < o.maxQueries)) &&
      (o.shrinkBudget === undefined || queries.shrink.queries - shrinkBase < o.shrinkBudget);
    let runIndex = 0;
    let trigger: { signature: string; template: string; cls: string; reproduced: number; at: number } | undefined;
    // Async guards shrink in flight (shrinkInFlight): fast-check stops at the failure and the engine walks the shrink streams itself.
    const recorder = o.guard.mode !== 'sync' && o.path === undefined ? new RecordingArbitrary(o.arbitrary) : undefined;
    let pending: fc.Value<FuzzCase> | undefined;
    const shrinkRoom = (): number => {
      let r = Infinity;
      if (o.shrinkBudget !== undefined) r = Math.min(r, o.shrinkBudget - (queries.shrink.queries - shrinkBase));
      if (o.maxQueries !== undefined) r = Math.min(r, o.maxQueries / 2 - (queries.shrink.queries + queries.recheck.queries + rechecks * triggerCost), o.maxQueries - spent() - rechecks * triggerCost);
      return r;
    };
    let last: { c: FuzzCase; verdict: Verdict; judgement: Exclude<Judgement, 'holds'> } | undefined;
    const remaining = o.runs - stats.runs;
    const seed = roundSeed(o.seed, round);
    const observe = (c: FuzzCase, verdict: Verdict): Step => {
      const j = judge(c.truth, verdict);
      const at = runIndex;
      if (!shrinking) {
        runIndex += 1;
        const p = propertyFor(c.truth);
        property = property === undefined || property === p ? p : 'mixed';
        record(stats, c, verdict, j);
        o.onProgress?.(stats.runs);
        if (o.stop && cellSettled(o.stop, stats.runs, stats.violations, stats.errors, property)) halted = 'settled';
        else if (overBudget()) halted = 'budget';
      }
      if (j === 'holds' || !hunting) return true;
      // Under a budget a new finding is hunted only while its re-checks (before and after the shrink) fit in the half kept for findings.
      if (!shrinking && o.maxQueries !== undefined && (queries.shrink.queries + queries.recheck.queries + 2 * rechecks * costOf(c) > o.maxQueries / 2 || spent() + reserved + 2 * rechecks * costOf(c) > o.maxQueries)) return true;
      const signature = failureSignature(c, verdict, j);
      const cls = failureClass(c, verdict);
      if (!shrinking) {
        if (seen.has(signature)) return true;
        return {
          recheck: rechecks,
          then: (vs) => {
            const reproduced = vs.filter((v) => failureClass(c, v) === cls).length;
            // Flaky: reported as such, never shrunk (shrinking would walk on noise). A guard that
            // is unavailable says nothing about this input: reported, not shrunk either.
            const unshrinkable = reproduced < rechecks || UNSHRINKABLE_ERROR_KINDS.includes(verdict.error?.kind ?? '');
            if (unshrinkable) {
              seen.add(signature);
              found.push({
                domain: o.domain,
                family: o.family,
                property: propertyFor(c.truth),
                judgement: j,
                kind: findingKind(propertyFor(c.truth), j, verdict, reproduced < rechecks),
                recheck: { reproduced, of: rechecks },
                signature,
                case: c,
                verdict,
                seed,
                path: String(at),
                numShrinks: 0,
              });
              return true;
            }
            shrinking = true;
            triggerCost = costOf(c);
            shrinkStart = performance.now();
            shrinkBase = queries.shrink.queries;
            trigger = { signature, template: c.truth.template, cls, reproduced, at };
            last = { c, verdict, judgement: j };
            return false;
          },
        };
      }
      // While shrinking, only the trigger's failure class counts (a bypass never shrinks onto a crash).
      if (cls !== trigger?.cls) return true;
      // A smaller case of the same template still counts (fewer operators, shorter chains),
      // even when it lands on a known signature; another template does not.
      if (seen.has(signature) && c.truth.template !== trigger.template) return true;
      // One check per shrink step: the reported minimal case is re-checked once shrinking ends.
      last = { c, verdict, judgement: j };
      return false;
    };
    if (round > 0) await yieldToEventLoop();
    const timeLeft = deadline - performance.now();
    if (timeLeft <= 0 || aborted()) {
      interrupted = true;
      break;
    }
    const params: fc.Parameters<[FuzzCase]> = {
      seed,
      numRuns: Math.min(remaining, BATCH_RUNS),
      // A halted cell skips its next value (fc.pre) and fast-check ends the round there.
      maxSkipsPerRun: 0,
      ...(round === 0 && o.examples && o.examples.length > 0 ? { examples: o.examples.map((e) => [e] as [FuzzCase]) } : {}),
      ...(Number.isFinite(timeLeft) ? { interruptAfterTimeLimit: Math.max(1, Math.floor(timeLeft)) } : {}),
      ...(o.path !== undefined ? { path: o.path } : {}),
    };
    let details: fc.RunDetails<[FuzzCase]>;
    let prefetch: Prefetcher | undefined;
    try {
      if (o.guard.mode === 'sync') {
        details = fc.check(
          fc.property(o.arbitrary, (c) => {
            if (shrinking) {
              if (!shrinkMayAsk() || costOf(c) > shrinkRoom()) return true;
            } else if (halted === undefined && !caseFits(c)) halted = 'budget';
            if (!shrinking && halted !== undefined) fc.pre(false);
            const step = observe(c, evalSync(c, shrinking ? forShrink : forCases));
            return typeof step === 'boolean' ? step : step.then(againSync(c, step.recheck));
          }),
          params,
        );
      } else {
        if (concurrency > 1 && o.path === undefined) prefetch = new Prefetcher((n) => drawCases(o.arbitrary, { ...params, numRuns: n }), params.numRuns ?? remaining, (c) => (caseFits(c) ? reserve(c, evalAsync(c, forCases)) : undefined), concurrency);
        const pf = prefetch;
        details = await fc.check(
          fc.asyncProperty(recorder ?? o.arbitrary, async (c) => {
            if (aborted()) return true;
            // A failure is waiting for shrinkInFlight: end the round here (maxSkipsPerRun 0).
            if (pending !== undefined) fc.pre(false);
            if (shrinking) {
              if (!shrinkMayAsk()) return true;
            } else if (halted !== undefined) {
              pf?.stop();
              fc.pre(false);
            }
            const ahead = !shrinking && pf ? pf.take(runIndex, c) : undefined;
            if (!shrinking && ahead === undefined && !caseFits(c)) {
              halted = 'budget';
              pf?.stop();
              fc.pre(false);
            }
            const v = await abortable(ahead ?? evalAsync(c, shrinking ? forShrink : forCases), o.signal);
            if (v === ABORTED) return true;
            const step = observe(c, v);
            if (typeof step === 'boolean') return step;
            const again = await abortable(againAsync(c, step.recheck), o.signal);
            if (again === ABORTED) return true;
            const ok = step.then(again);
            if (!ok) {
              pf?.stop();
              const value = recorder?.last;
              if (value !== undefined && value.value_ === c) {
                pending = value;
                return true;
              }
            }
            return ok;
          }),
          params,
        );
      }
    } catch (cause) {
      prefetch?.stop();
      throw new EngineError(`generator failed in cell ${o.domain}/${o.family}: ${errorMessage(cause)}`, { cause });
    }
    if (prefetch) {
      if (aborted()) prefetch.stop();
      else await prefetch.drain();
    }
    let inFlight: { c: FuzzCase; path: string; numShrinks: number } | undefined;
    if (pending !== undefined && trigger !== undefined && !aborted()) {
      const t = trigger;
      const fails = (c: FuzzCase, v: Verdict): boolean => {
        const j = judge(c.truth, v);
        if (j === 'holds' || failureClass(c, v) !== t.cls) return false;
        return !(seen.has(failureSignature(c, v, j)) && c.truth.template !== t.template);
      };
      const r = await shrinkInFlight(o.arbitrary, pending, (c) => evalAsync(c, forShrink), fails, concurrency, shrinkRoom, aborted);
      const c = r.value.value_;
      if (r.verdict) {
        const j = judge(c.truth, r.verdict);
        if (j !== 'holds') last = { c, verdict: r.verdict, judgement: j };
      }
      inFlight = { c, path: [t.at, ...r.steps].join(':'), numShrinks: r.steps.length };
    }
    if (shrinking) queries.ms.shrink += performance.now() - shrinkStart;
    const shrunk = inFlight ?? (details.failed && details.counterexample !== null ? { c: details.counterexample[0], path: details.counterexamplePath, numShrinks: details.numShrinks } : undefined);
    if (shrunk !== undefined && last !== undefined && trigger !== undefined) {
      const c = shrunk.c;
      const t = trigger;
      // Re-check the shrunk case for its own verdicts (the last observed one may be a rejected shrink attempt).
      const vs = aborted() ? [] : o.guard.mode === 'sync' ? againSync(c, rechecks) : await againAsync(c, rechecks);
      const matching = vs.filter((v) => failureClass(c, v) === t.cls);
      const verdict = matching[0] ?? vs[0] ?? last.verdict;
      const reproduced = vs.length > 0 ? matching.length : t.reproduced;
      const j = judge(c.truth, verdict);
      const judgement: Exclude<Judgement, 'holds'> = j === 'holds' ? last.judgement : j;
      const signature = failureSignature(c, verdict, judgement);
      const duplicate = seen.has(signature);
      seen.add(signature);
      // The case that started this shrink is covered when it shrank within its own template.
      if (t.template === c.truth.template) seen.add(t.signature);
      // A case that shrinks onto a known finding (e.g. its operators were not needed) is not a new one.
      if (!duplicate) {
        const p = propertyFor(c.truth);
        found.push({
          domain: o.domain,
          family: o.family,
          property: p,
          judgement,
          kind: findingKind(p, judgement, verdict, reproduced < rechecks),
          recheck: { reproduced, of: rechecks },
          signature,
          case: c,
          verdict,
          seed,
          path: shrunk.path,
          numShrinks: shrunk.numShrinks,
        });
      }
    } else if (details.failed && details.counterexample !== null) {
      // The predicate threw (not the guard: guard throws are error verdicts): a generator or store bug.
      const err = details.errorInstance;
      throw new EngineError(`cell ${o.domain}/${o.family}: evaluating a case threw: ${errorMessage(err)}`, { cause: err });
    } else if (details.failed && details.counterexample === null && !details.interrupted && halted === undefined && pending === undefined) {
      throw new EngineError(`cell ${o.domain}/${o.family}: fast-check gave up (too many skipped values)`);
    }
    if ((details.interrupted || aborted()) && stats.runs < o.runs) interrupted = true;
    if (o.path !== undefined) break;
    if (details.failed || inFlight !== undefined) failRounds += 1;
    round += 1;
  }

  const elapsedMs = performance.now() - started;
  queries.ms.cases = Math.max(0, elapsedMs - queries.ms.shrink - queries.ms.recheck);
  return {
    domain: o.domain,
    family: o.family,
    property: property ?? 'forgery-rejected',
    seed: o.seed,
    runsRequested: o.runs,
    stats,
    counterexamples: found,
    interrupted,
    elapsedMs,
    queries,
    stopped: interrupted ? 'time' : (halted ?? 'runs'),
  };
}
