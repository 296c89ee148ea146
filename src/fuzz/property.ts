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
import { evaluateAsync, evaluateSync, splitSetup, type CallLimit, type ScratchStore } from './evaluate.js';
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
  /** Wall-clock budget for the cell, ms (from its start; with `leads`, from when it leads). */
  timeLimitMs?: number;
  /**
   * When the cell's time bound starts, and how long it is then (ms; undefined: none). Without
   * it the bound is `timeLimitMs` from the cell's start. `runCampaign` passes it to a cell that
   * starts while earlier cells still run ({@link CellOptions.limit}): its bound starts once every
   * earlier cell has ended, so the time it spent in their spare call slots is not held against it.
   * Until then the cell has no time bound; a round that began before it is stopped at its next
   * case once the bound has passed.
   */
  leads?: Promise<number | undefined>;
  /**
   * The limiter of the cell's guard calls, shared with other cells that run at the same time
   * (`runCampaign`); it must allow at most the cell's `concurrency` calls at once. Default: one
   * limiter of the cell's own.
   */
  limit?: CallLimit;
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
function drawCases(arbitrary: fc.Arbitrary<FuzzCase>, params: fc.Parameters<[FuzzCase]>, drawn?: fc.Value<FuzzCase>[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  const { interruptAfterTimeLimit: _t, path: _p, ...rest } = params;
  fc.check(
    fc.property(drawn ? new RecordingArbitrary(arbitrary, drawn) : arbitrary, (c) => {
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
  readonly #slowStart: boolean;
  readonly #verdicts: Array<Promise<Verdict> | undefined> = [];
  readonly #pending = new Set<Promise<unknown>>();
  #next = 0;
  #consumed = 0;
  #stopped = false;

  /**
   * Cases are drawn in doubling chunks, not all `runs` at once: a round that ends early (a
   * failure, a settled cell) then generates little more than it used.
   */
  constructor(draw: (n: number) => FuzzCase[], runs: number, evaluate: (c: FuzzCase) => Promise<Verdict> | undefined, concurrency: number, slowStart = false) {
    this.#draw = draw;
    this.#runs = runs;
    this.#drawnRuns = Math.min(runs, Math.max(16, concurrency * 4));
    this.#cases = draw(this.#drawnRuns);
    this.#evaluate = evaluate;
    this.#concurrency = concurrency;
    // At most N ahead: every call started past a failure is a query spent for nothing.
    this.#window = concurrency;
    this.#slowStart = slowStart;
    this.#pump();
  }

  /**
   * Cases asked ahead of the last one fast-check read: N, or in a round that a new failure
   * ends (a hunting round, `slowStart`) as many as it has read so far, at least 1 and at most
   * N (as TCP's slow start). A round that fails at its first case (a guard that lets most
   * forgeries through) then asks one case past it, and a round that runs on reaches N after N
   * cases. Which cases are asked never changes a verdict, only the queries spent past a failure.
   */
  #ahead(): number {
    return this.#slowStart ? Math.max(1, Math.min(this.#window, this.#consumed)) : this.#window;
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
      if (!(!this.#stopped && this.#pending.size < this.#concurrency && this.#next < this.#cases.length && this.#next < this.#consumed + this.#ahead())) break;
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
 *
 * With `drawn`, the values of one round (one seed) are generated once: the k-th `generate` call
 * takes `drawn[k]` when a pass over the same round already made it, and a new value is appended
 * there. This gives the values fast-check would generate, because a run's value depends only on
 * the seed and the run's index: fast-check jumps the round's random generator once per run and
 * hands `generate` a clone of it (`Random` clones its source), with the bias of the run's index.
 * So the drawing ahead of the prefetcher (in doubling chunks) and fast-check's own pass over the
 * round share their values instead of rendering each case three times.
 */
class RecordingArbitrary<T> extends fc.Arbitrary<T> {
  last: fc.Value<T> | undefined;
  readonly #inner: fc.Arbitrary<T>;
  readonly #drawn: fc.Value<T>[] | undefined;
  #calls = 0;

  constructor(inner: fc.Arbitrary<T>, drawn?: fc.Value<T>[]) {
    super();
    this.#inner = inner;
    this.#drawn = drawn;
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    const k = this.#calls++;
    const known = this.#drawn?.[k];
    const v = known ?? this.#inner.generate(mrng, biasFactor);
    if (known === undefined && this.#drawn !== undefined && k === this.#drawn.length) this.#drawn.push(v);
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

/** A shrink stream being walked; `head`, when set, is its first candidate, already asked. */
interface ShrinkStream {
  it: Iterator<fc.Value<FuzzCase>>;
  head?: { value: fc.Value<FuzzCase>; verdict: Promise<Verdict> } | undefined;
}

/**
 * Shrinks `start` as fast-check's own loop does (walk the shrink stream of the current value;
 * the first candidate that still fails becomes the current value; stop when a stream has none),
 * but evaluates up to `inFlight` candidates of a stream at once. The first failing candidate in
 * stream order is kept, so the minimal case, its path and its shrink count are the same for
 * every `inFlight`; candidates evaluated past it are the price of the speed. The width starts
 * at 1 on each stream and doubles after every batch with no failing candidate (up to
 * `inFlight`): early candidates often fail, and a wide first batch would waste the rest.
 * Since a first candidate so often fails, a lone first candidate is asked with the first
 * candidates of its own shrink stream, of that one's, and so on, up to `inFlight - 1` levels
 * down (when no budget bounds the shrink): when it fails, the next step's first ask is already
 * in flight, and a shrink along first candidates takes one guard call's time per `inFlight`
 * steps instead of one per step. When it holds, the asks below it are spent for nothing.
 * `room()` is the queries still allowed (a candidate costs its attacker writes + 1).
 */
/** Streams of first candidates asked ahead, by value: one chain of first candidates below a value. */
type ShrinkAhead = Map<fc.Value<FuzzCase>, ShrinkStream>;

/** The shrink stream of `v`, from its start. */
function streamOf(arbitrary: fc.Arbitrary<FuzzCase>, v: fc.Value<FuzzCase>): ShrinkStream {
  return { it: arbitrary.shrink(v.value_, v.context)[Symbol.iterator]() };
}

/** Asks `v`'s case; a rejection (a store error) is left to whoever awaits it. */
function askValue(evaluate: (c: FuzzCase) => Promise<Verdict>, v: fc.Value<FuzzCase>): Promise<Verdict> {
  const p = evaluate(v.value_);
  p.catch(() => undefined);
  return p;
}

/** Asks the first candidates below `v`, `depth` levels down, into `ahead` (those already asked are kept). */
function askAhead(arbitrary: fc.Arbitrary<FuzzCase>, ahead: ShrinkAhead, evaluate: (c: FuzzCase) => Promise<Verdict>, v: fc.Value<FuzzCase>, depth: number): void {
  let x = v;
  for (let k = 0; k < depth; k++) {
    let st = ahead.get(x);
    if (!st) {
      st = streamOf(arbitrary, x);
      const n = st.it.next();
      if (!n.done) st.head = { value: n.value, verdict: askValue(evaluate, n.value) };
      ahead.set(x, st);
    }
    if (!st.head) return;
    x = st.head.value;
  }
}

/**
 * @param ahead first candidates already asked below `start` (see {@link askAhead}), e.g. while
 *   the failure that starts the shrink was re-checked.
 */
async function shrinkInFlight(
  arbitrary: fc.Arbitrary<FuzzCase>,
  start: fc.Value<FuzzCase>,
  evaluate: (c: FuzzCase) => Promise<Verdict>,
  fails: (c: FuzzCase, v: Verdict) => boolean,
  inFlight: number,
  room: () => number,
  aborted: () => boolean,
  ahead: ShrinkAhead = new Map(),
): Promise<{ value: fc.Value<FuzzCase>; verdict?: Verdict; steps: number[] }> {
  let current = start;
  let verdict: Verdict | undefined;
  const steps: number[] = [];
  const speculate = inFlight > 1 && room() === Infinity;
  for (;;) {
    const stream = ahead.get(current) ?? streamOf(arbitrary, current);
    ahead.delete(current);
    let index = 0;
    let next: { value: fc.Value<FuzzCase>; verdict: Verdict; at: number } | undefined;
    let exhausted = false;
    let width = 1;
    while (next === undefined && !exhausted) {
      if (aborted()) return { value: current, ...(verdict ? { verdict } : {}), steps };
      const batch: Array<{ value: fc.Value<FuzzCase>; verdict?: Promise<Verdict> }> = [];
      let left = room();
      while (batch.length < Math.min(width, inFlight)) {
        const head = stream.head;
        if (head) {
          stream.head = undefined;
          batch.push(head);
          continue;
        }
        const n = stream.it.next();
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
        batch.push({ value: n.value });
      }
      if (batch.length === 0) break;
      const asked = batch.map((b) => b.verdict ?? askValue(evaluate, b.value));
      const lone = batch.length === 1 ? batch[0]?.value : undefined;
      if (speculate && lone !== undefined) askAhead(arbitrary, ahead, evaluate, lone, inFlight - 1);
      const verdicts = await Promise.all(asked);
      for (const [i, b] of batch.entries()) {
        const v = verdicts[i] as Verdict;
        if (fails(b.value.value_, v)) {
          next = { value: b.value, verdict: v, at: index + i };
          break;
        }
      }
      // The asks below a first candidate that holds were for nothing (left to settle).
      if (next === undefined || next.value !== lone) ahead.clear();
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
 * The state one {@link runCell} call shares across its rounds: its options, counts, findings,
 * query accounting and the evaluators every phase uses. Made by {@link startCell}.
 */
interface Cell {
  readonly o: CellOptions;
  /** `performance.now()` at the start, ms. */
  readonly started: number;
  readonly stats: CellStats;
  readonly found: Counterexample[];
  /** Signatures already reported (or covered by a reported shrink). */
  readonly seen: Set<string>;
  readonly maxFailures: number;
  /** Re-checks of each failure, at least 1. */
  readonly rechecks: number;
  /** Guard calls in flight at once (1 for sync guards). */
  readonly concurrency: number;
  /** Wall-clock deadline (`performance.now()` scale), ms; Infinity without a time limit, or until the cell leads. */
  deadline: number;
  /** False while the cell waits for `CellOptions.leads` (no time bound until then). */
  leading: boolean;
  property: PropertyId | 'mixed' | undefined;
  interrupted: boolean;
  /** Set once the stop rule or the query budget ends the cell: no more counted cases are evaluated. */
  halted: CellStop | undefined;
  readonly queries: CellQueries;
  /** Cases and shrink candidates may be served by the run's cache, re-checks never are. */
  readonly forCases: QueryHooks;
  readonly forShrink: QueryHooks;
  readonly forRecheck: QueryHooks;
  /** Queries of cases drawn ahead and still in flight (counted in `spent` only as their calls start). */
  reserved: number;
  /** Cases drawn ahead and still in flight. */
  reservedCases: number;
  /** One limiter for every call of the cell (prefetch, shrinking, re-checks): never more than N in flight. */
  readonly limit: CallLimit | undefined;
}

/** The failure that started a round's shrink: what a smaller case must keep to replace it. */
interface Trigger {
  signature: string;
  template: string;
  /** Its {@link failureClass}. */
  cls: string;
  /** Re-checks of the trigger that reproduced it. */
  reproduced: number;
  /** Its run index in the round (the first step of its path). */
  at: number;
}

/** A failing observation: the case, its verdict and judgement. */
interface Failing {
  c: FuzzCase;
  verdict: Verdict;
  judgement: Exclude<Judgement, 'holds'>;
}

/** The state of one search round (one `fc.check` call with its own derived seed). Made by {@link startRound}. */
interface Round {
  readonly seed: number;
  /** Whether this round looks for new findings (else it only counts). */
  readonly hunting: boolean;
  /** True from the trigger's re-checks on: observations are shrink candidates, not counted cases. */
  shrinking: boolean;
  /** `performance.now()` when shrinking began, ms. */
  shrinkStart: number;
  /** Shrink queries of the cell when shrinking began. */
  shrinkBase: number;
  /** Queries one re-check of the trigger costs (its attacker writes + 1). */
  triggerCost: number;
  /** Counted cases of this round so far. */
  runIndex: number;
  trigger: Trigger | undefined;
  /** Async guards shrink in flight (shrinkInFlight): fast-check stops at the failure and the engine walks the shrink streams itself. */
  readonly recorder: RecordingArbitrary<FuzzCase> | undefined;
  /** This round's generated values, shared by the prefetcher's draws and fast-check's own pass (see {@link RecordingArbitrary}). */
  readonly drawn: fc.Value<FuzzCase>[];
  /** First shrink candidates of the trigger asked while it was re-checked (see {@link asksAheadOfShrink}). */
  shrinkAhead: ShrinkAhead | undefined;
  /** The generated value (with its shrink context) waiting for {@link shrinkInFlight}. */
  pending: fc.Value<FuzzCase> | undefined;
  /** The last failing case observed (the trigger, then each accepted shrink step). */
  last: Failing | undefined;
}

/** A case that ended a shrink, with the fast-check path and shrink count that reproduce it. */
interface Shrunk {
  c: FuzzCase;
  path: string;
  numShrinks: number;
}

/** Resolves the options of {@link runCell} into the cell's shared state (defaults, concurrency cap, deadline, query tallies, limiter). */
/**
 * Guard calls a cell keeps in flight: 1 for a sync guard, else `requested` (default 8) capped by
 * the guard's `concurrencyLimit`; at least 1.
 */
export function callConcurrency(guard: Guard, requested: number | undefined): number {
  return guard.mode === 'sync' ? 1 : Math.max(1, Math.min(Math.floor(requested ?? DEFAULT_ASYNC_CONCURRENCY), typeof guard.concurrencyLimit === 'number' && guard.concurrencyLimit >= 1 ? guard.concurrencyLimit : Infinity));
}

function startCell(o: CellOptions): Cell {
  const started = performance.now();
  const concurrency = callConcurrency(o.guard, o.concurrency);
  const queries: CellQueries = { cases: emptyTally(), shrink: emptyTally(), recheck: emptyTally(), ms: { cases: 0, shrink: 0, recheck: 0 } };
  return {
    o,
    started,
    stats: emptyStats(),
    found: [],
    seen: new Set<string>(),
    maxFailures: o.maxFailures ?? 5,
    rechecks: Math.max(1, Math.floor(o.recheck ?? DEFAULT_RECHECK)),
    concurrency,
    deadline: o.timeLimitMs !== undefined && o.leads === undefined ? started + o.timeLimitMs : Infinity,
    leading: o.leads === undefined,
    property: undefined,
    interrupted: false,
    halted: undefined,
    queries,
    forCases: { tally: queries.cases, cache: o.cache },
    forShrink: { tally: queries.shrink, cache: o.cache },
    forRecheck: { tally: queries.recheck },
    reserved: 0,
    reservedCases: 0,
    limit: concurrency > 1 ? (o.limit ?? pLimit(concurrency)) : undefined,
  };
}

/** Starts the cell's time bound when `CellOptions.leads` resolves. */
function awaitLead(cell: Cell): void {
  cell.o.leads?.then(
    (ms) => {
      cell.leading = true;
      cell.deadline = ms === undefined ? Infinity : performance.now() + ms;
    },
    () => undefined,
  );
}

const aborted = (cell: Cell): boolean => cell.o.signal?.aborted === true;

/** Guard queries the cell has spent in all phases. */
const spent = (cell: Cell): number => cell.queries.cases.queries + cell.queries.shrink.queries + cell.queries.recheck.queries;

const overBudget = (cell: Cell): boolean => cell.o.maxQueries !== undefined && spent(cell) >= cell.o.maxQueries;

/** Most queries one case can cost: its attacker writes and its entry. */
const costOf = (c: FuzzCase): number => splitSetup(c).attacker.length + 1;

/** Whether a counted case fits what is left of the budget (the cell's first case always does: every cell ends with an interval). */
const caseFits = (cell: Cell, c: FuzzCase): boolean => cell.o.maxQueries === undefined || cell.stats.runs + cell.reservedCases === 0 || spent(cell) + cell.reserved + costOf(c) <= cell.o.maxQueries;

/** Holds a case drawn ahead against the budget until its verdict settles. */
function reserve(cell: Cell, c: FuzzCase, p: Promise<Verdict>): Promise<Verdict> {
  const n = costOf(c);
  cell.reserved += n;
  cell.reservedCases += 1;
  return p.finally(() => {
    cell.reserved -= n;
    cell.reservedCases -= 1;
  });
}

const evalSync = (cell: Cell, c: FuzzCase, h: QueryHooks): Verdict => evaluateSync(cell.o.guard, c, cell.o.store, cell.o.phase, h);

const evalAsync = (cell: Cell, c: FuzzCase, h: QueryHooks): Promise<Verdict> => evaluateAsync(cell.o.guard, c, cell.o.store, cell.o.phase, cell.o.timeoutMs, cell.limit, h);

/** Re-checks `c` `n` times against a sync guard (never from the cache), timing it as re-check time. */
function againSync(cell: Cell, c: FuzzCase, n: number): Verdict[] {
  const t0 = performance.now();
  const out = Array.from({ length: n }, () => evalSync(cell, c, cell.forRecheck));
  cell.queries.ms.recheck += performance.now() - t0;
  return out;
}

/** Re-checks `c` `n` times against an async guard (at once when calls may be in flight, else one after another), timing it as re-check time. */
async function againAsync(cell: Cell, c: FuzzCase, n: number): Promise<Verdict[]> {
  const t0 = performance.now();
  try {
    if (cell.concurrency > 1) return await Promise.all(Array.from({ length: n }, () => evalAsync(cell, c, cell.forRecheck)));
    const out: Verdict[] = [];
    for (let i = 0; i < n; i++) out.push(await evalAsync(cell, c, cell.forRecheck));
    return out;
  } finally {
    cell.queries.ms.recheck += performance.now() - t0;
  }
}

/** A fresh round `index` of the cell: its derived seed, and whether it still hunts new findings. */
function startRound(cell: Cell, index: number, hunting: boolean, drawn: fc.Value<FuzzCase>[] = []): Round {
  return {
    seed: roundSeed(cell.o.seed, index),
    hunting,
    shrinking: false,
    shrinkStart: 0,
    shrinkBase: 0,
    triggerCost: 1,
    runIndex: 0,
    trigger: undefined,
    recorder: cell.o.guard.mode !== 'sync' && cell.o.path === undefined ? new RecordingArbitrary(cell.o.arbitrary, drawn) : undefined,
    drawn,
    shrinkAhead: undefined,
    pending: undefined,
    last: undefined,
  };
}

/** True while a shrink may still ask the guard (its budget and the cell's are not spent). */
function shrinkMayAsk(cell: Cell, r: Round): boolean {
  const { maxQueries, shrinkBudget } = cell.o;
  const { shrink, recheck } = cell.queries;
  return (
    !overBudget(cell) &&
    // The minimal case's re-checks are still to come: they are kept inside the half too.
    (maxQueries === undefined || (shrink.queries + recheck.queries + cell.rechecks * r.triggerCost < maxQueries / 2 && spent(cell) + cell.rechecks * r.triggerCost < maxQueries)) &&
    (shrinkBudget === undefined || shrink.queries - r.shrinkBase < shrinkBudget)
  );
}

/** Queries the round's shrink may still spend (Infinity without budgets); the minimal case's re-checks are kept aside. */
function shrinkRoom(cell: Cell, r: Round): number {
  const { maxQueries, shrinkBudget } = cell.o;
  const { shrink, recheck } = cell.queries;
  let room = Infinity;
  if (shrinkBudget !== undefined) room = Math.min(room, shrinkBudget - (shrink.queries - r.shrinkBase));
  if (maxQueries !== undefined) room = Math.min(room, maxQueries / 2 - (shrink.queries + recheck.queries + cell.rechecks * r.triggerCost), maxQueries - spent(cell) - cell.rechecks * r.triggerCost);
  return room;
}

/**
 * Stop rule: tallies one counted case (its property, stats and progress) and halts the cell
 * when the counts settle it ({@link cellSettled}) or the query budget is spent.
 */
function countCase(cell: Cell, c: FuzzCase, verdict: Verdict, judgement: Judgement): void {
  const p = propertyFor(c.truth);
  cell.property = cell.property === undefined || cell.property === p ? p : 'mixed';
  record(cell.stats, c, verdict, judgement);
  cell.o.onProgress?.(cell.stats.runs);
  if (cell.o.stop && cellSettled(cell.o.stop, cell.stats.runs, cell.stats.violations, cell.stats.errors, cell.property)) cell.halted = 'settled';
  else if (overBudget(cell)) cell.halted = 'budget';
}

/** Under a budget a new finding is hunted only while its re-checks (before and after the shrink) fit in the half kept for findings. */
function findingOverBudget(cell: Cell, c: FuzzCase): boolean {
  const { maxQueries } = cell.o;
  if (maxQueries === undefined) return false;
  const rechecks = 2 * cell.rechecks * costOf(c);
  return cell.queries.shrink.queries + cell.queries.recheck.queries + rechecks > maxQueries / 2 || spent(cell) + cell.reserved + rechecks > maxQueries;
}

/** One counterexample of the cell, in its round, with its re-check counts and fast-check path. */
function counterexampleOf(cell: Cell, r: Round, f: Failing, signature: string, reproduced: number, path: string, numShrinks: number): Counterexample {
  const p = propertyFor(f.c.truth);
  return {
    domain: cell.o.domain,
    family: cell.o.family,
    property: p,
    judgement: f.judgement,
    kind: findingKind(p, f.judgement, f.verdict, reproduced < cell.rechecks),
    recheck: { reproduced, of: cell.rechecks },
    signature,
    case: f.c,
    verdict: f.verdict,
    seed: r.seed,
    path,
    numShrinks,
  };
}

/**
 * Case evaluation: what the property answers for one observed verdict. A counted case is tallied
 * ({@link countCase}); a new failure asks for its re-checks ({@link triageFailure}); while
 * shrinking, a candidate is accepted by {@link acceptShrinkStep}.
 */
function observe(cell: Cell, r: Round, c: FuzzCase, verdict: Verdict): Step {
  const j = judge(c.truth, verdict);
  const at = r.runIndex;
  if (!r.shrinking) {
    r.runIndex += 1;
    countCase(cell, c, verdict, j);
  }
  if (j === 'holds' || !r.hunting) return true;
  if (!r.shrinking && findingOverBudget(cell, c)) return true;
  const signature = failureSignature(c, verdict, j);
  const cls = failureClass(c, verdict);
  if (r.shrinking) return !acceptShrinkStep(cell, r, { c, verdict, judgement: j }, signature, cls);
  if (cell.seen.has(signature)) return true;
  return { recheck: cell.rechecks, then: (vs) => triageFailure(cell, r, { c, verdict, judgement: j }, signature, cls, at, vs) };
}

/**
 * Re-check of a new failure, with the verdicts of its re-checks: a flaky failure (not every
 * re-check reproduced it) or one of an unavailable guard is recorded as it is and never shrunk
 * (shrinking would walk on noise; a guard that is down says nothing about this input); any
 * other becomes the round's trigger and shrinking begins.
 * @returns the property's answer: true (passes, the round goes on) or false (shrink it).
 */
function triageFailure(cell: Cell, r: Round, f: Failing, signature: string, cls: string, at: number, vs: Verdict[]): boolean {
  const reproduced = vs.filter((v) => failureClass(f.c, v) === cls).length;
  const unshrinkable = reproduced < cell.rechecks || UNSHRINKABLE_ERROR_KINDS.includes(f.verdict.error?.kind ?? '');
  if (unshrinkable) {
    cell.seen.add(signature);
    cell.found.push(counterexampleOf(cell, r, f, signature, reproduced, String(at), 0));
    return true;
  }
  r.shrinking = true;
  r.triggerCost = costOf(f.c);
  r.shrinkStart = performance.now();
  r.shrinkBase = cell.queries.shrink.queries;
  r.trigger = { signature, template: f.c.truth.template, cls, reproduced, at };
  r.last = f;
  return false;
}

/**
 * Shrinking: whether a failing candidate replaces the current minimal case. Only the trigger's
 * failure class counts (a bypass never shrinks onto a crash); a smaller case of the same
 * template still counts (fewer operators, shorter chains) even on a known signature, another
 * template does not. One check per shrink step: the minimal case is re-checked once shrinking ends.
 */
function acceptShrinkStep(cell: Cell, r: Round, f: Failing, signature: string, cls: string): boolean {
  if (cls !== r.trigger?.cls) return false;
  if (cell.seen.has(signature) && f.c.truth.template !== r.trigger.template) return false;
  r.last = f;
  return true;
}

/** The `fc.check` parameters of a round: its seed and run count, the examples (first round), the time left and the replayed path. */
function roundParams(cell: Cell, r: Pick<Round, 'seed'>, index: number, remaining: number, timeLeft: number): fc.Parameters<[FuzzCase]> {
  const o = cell.o;
  return {
    seed: r.seed,
    numRuns: Math.min(remaining, BATCH_RUNS),
    // A halted cell skips its next value (fc.pre) and fast-check ends the round there.
    maxSkipsPerRun: 0,
    ...(index === 0 && o.examples && o.examples.length > 0 ? { examples: o.examples.map((e) => [e] as [FuzzCase]) } : {}),
    ...(Number.isFinite(timeLeft) ? { interruptAfterTimeLimit: Math.max(1, Math.floor(timeLeft)) } : {}),
    ...(o.path !== undefined ? { path: o.path } : {}),
  };
}

/** Case generation and evaluation against a sync guard: one `fc.check` call, which shrinks with fast-check's own loop. */
function checkRoundSync(cell: Cell, r: Round, params: fc.Parameters<[FuzzCase]>): fc.RunDetails<[FuzzCase]> {
  return fc.check(
    fc.property(cell.o.arbitrary, (c) => {
      if (r.shrinking) {
        if (!shrinkMayAsk(cell, r) || costOf(c) > shrinkRoom(cell, r)) return true;
      } else if (cell.halted === undefined && !caseFits(cell, c)) cell.halted = 'budget';
      if (!r.shrinking && cell.halted !== undefined) fc.pre(false);
      const step = observe(cell, r, c, evalSync(cell, c, r.shrinking ? cell.forShrink : cell.forCases));
      return typeof step === 'boolean' ? step : step.then(againSync(cell, c, step.recheck));
    }),
    params,
  );
}

/** Draws the round's cases ahead and evaluates them with calls in flight (async guards at concurrency > 1); cases past the budget are declined. */
function startPrefetch(cell: Cell, drawn: fc.Value<FuzzCase>[], params: fc.Parameters<[FuzzCase]>, remaining: number, hunting: boolean): Prefetcher {
  return new Prefetcher(
    (n) => drawCases(cell.o.arbitrary, { ...params, numRuns: n }, drawn),
    params.numRuns ?? remaining,
    (c) => (caseFits(cell, c) ? reserve(cell, c, evalAsync(cell, c, cell.forCases)) : undefined),
    cell.concurrency,
    hunting,
  );
}

/**
 * Case generation and evaluation against an async guard: one `fc.check` call, reading verdicts
 * drawn ahead by `pf` when there is one. The first failure that re-checks as shrinkable ends the
 * round with its value left in `r.pending` for {@link shrinkInFlight} (when the round records
 * values); without a recorder fast-check shrinks it itself.
 */
function checkRoundAsync(cell: Cell, r: Round, params: fc.Parameters<[FuzzCase]>, pf: Prefetcher | undefined): Promise<fc.RunDetails<[FuzzCase]>> {
  const o = cell.o;
  return fc.check(
    fc.asyncProperty(r.recorder ?? o.arbitrary, async (c) => {
      if (aborted(cell)) return true;
      // A failure is waiting for shrinkInFlight: end the round here (maxSkipsPerRun 0).
      if (r.pending !== undefined) fc.pre(false);
      if (r.shrinking) {
        if (!shrinkMayAsk(cell, r)) return true;
      } else if (cell.halted !== undefined) {
        pf?.stop();
        fc.pre(false);
      } else if (cell.leading && cell.deadline !== Infinity && performance.now() >= cell.deadline) {
        // Past the time bound (one that started after the round did, as `leads` gives): end the round here.
        cell.interrupted = true;
        pf?.stop();
        fc.pre(false);
      }
      const ahead = !r.shrinking && pf ? pf.take(r.runIndex, c) : undefined;
      if (!r.shrinking && ahead === undefined && !caseFits(cell, c)) {
        cell.halted = 'budget';
        pf?.stop();
        fc.pre(false);
      }
      const v = await abortable(ahead ?? evalAsync(cell, c, r.shrinking ? cell.forShrink : cell.forCases), o.signal);
      if (v === ABORTED) return true;
      const step = observe(cell, r, c, v);
      if (typeof step === 'boolean') return step;
      const rechecked = againAsync(cell, c, step.recheck);
      // While the new failure is re-checked, its shrink starts: the first candidates below it are asked.
      const value = r.recorder?.last;
      r.shrinkAhead = undefined;
      if (value !== undefined && value.value_ === c && v.decision !== 'error' && asksAheadOfShrink(cell)) {
        r.shrinkAhead = new Map();
        askAhead(o.arbitrary, r.shrinkAhead, (x) => evalAsync(cell, x, cell.forShrink), value, cell.concurrency - 1);
      }
      const again = await abortable(rechecked, o.signal);
      if (again === ABORTED) return true;
      const ok = step.then(again);
      if (!ok) {
        pf?.stop();
        const value = r.recorder?.last;
        if (value !== undefined && value.value_ === c) {
          r.pending = value;
          return true;
        }
      }
      return ok;
    }),
    params,
  );
}

/** The error of a generator (or drawn-ahead case) that threw during a round, naming the cell. */
function generatorFailed(cell: Cell, cause: unknown): EngineError {
  return new EngineError(`generator failed in cell ${cell.o.domain}/${cell.o.family}: ${errorMessage(cause)}`, { cause });
}

/**
 * Shrinking against an async guard: walks the shrink streams from the round's pending value
 * with calls in flight ({@link shrinkInFlight}), within the shrink's room.
 * @returns the minimal case with its path (the trigger's run index, then each step) and shrink count.
 */
async function shrinkPending(cell: Cell, r: Round, pending: fc.Value<FuzzCase>, t: Trigger): Promise<Shrunk> {
  const fails = (c: FuzzCase, v: Verdict): boolean => {
    const j = judge(c.truth, v);
    if (j === 'holds' || failureClass(c, v) !== t.cls) return false;
    return !(cell.seen.has(failureSignature(c, v, j)) && c.truth.template !== t.template);
  };
  const res = await shrinkInFlight(
    cell.o.arbitrary,
    pending,
    (c) => evalAsync(cell, c, cell.forShrink),
    fails,
    cell.concurrency,
    () => shrinkRoom(cell, r),
    () => aborted(cell),
    r.shrinkAhead,
  );
  const c = res.value.value_;
  if (res.verdict) {
    const j = judge(c.truth, res.verdict);
    if (j !== 'holds') r.last = { c, verdict: res.verdict, judgement: j };
  }
  return { c, path: [t.at, ...res.steps].join(':'), numShrinks: res.steps.length };
}

/**
 * Result assembly of a shrunk finding, with the verdicts of the minimal case's own re-checks
 * (`vs`, empty when the cell was stopped): its verdict is the first re-check that reproduces the
 * trigger's failure class (the last observed one may be a rejected shrink attempt). A case that
 * shrinks onto a known signature (e.g. its operators were not needed) is not a new finding; the
 * trigger's signature is covered when it shrank within its own template.
 */
function recordShrunk(cell: Cell, r: Round, t: Trigger, last: Failing, shrunk: Shrunk, vs: Verdict[]): void {
  const c = shrunk.c;
  const matching = vs.filter((v) => failureClass(c, v) === t.cls);
  const verdict = matching[0] ?? vs[0] ?? last.verdict;
  const reproduced = vs.length > 0 ? matching.length : t.reproduced;
  const j = judge(c.truth, verdict);
  const judgement: Exclude<Judgement, 'holds'> = j === 'holds' ? last.judgement : j;
  const signature = failureSignature(c, verdict, judgement);
  const duplicate = cell.seen.has(signature);
  cell.seen.add(signature);
  if (t.template === c.truth.template) cell.seen.add(t.signature);
  if (!duplicate) cell.found.push(counterexampleOf(cell, r, { c, verdict, judgement }, signature, reproduced, shrunk.path, shrunk.numShrinks));
}

/**
 * A round that failed with no shrink to record is an engine error: the predicate threw (not the
 * guard: guard throws are error verdicts), a generator or store bug; or fast-check gave up
 * (too many skipped values) though nothing halted or interrupted the round.
 * @throws EngineError naming the cell.
 */
function assertRoundSound(cell: Cell, r: Round, details: fc.RunDetails<[FuzzCase]>): void {
  const { domain, family } = cell.o;
  if (details.failed && details.counterexample !== null) {
    const err = details.errorInstance;
    throw new EngineError(`cell ${domain}/${family}: evaluating a case threw: ${errorMessage(err)}`, { cause: err });
  }
  if (details.failed && details.counterexample === null && !details.interrupted && !cell.interrupted && cell.halted === undefined && r.pending === undefined) {
    throw new EngineError(`cell ${domain}/${family}: fast-check gave up (too many skipped values)`);
  }
}

/** The cell's outcome once its rounds end; the cases' time is the wall time less shrinking and re-checks. */
function cellOutcome(cell: Cell): CellOutcome {
  const { o, queries } = cell;
  const elapsedMs = performance.now() - cell.started;
  queries.ms.cases = Math.max(0, elapsedMs - queries.ms.shrink - queries.ms.recheck);
  return {
    domain: o.domain,
    family: o.family,
    property: cell.property ?? 'forgery-rejected',
    seed: o.seed,
    runsRequested: o.runs,
    stats: cell.stats,
    counterexamples: cell.found,
    interrupted: cell.interrupted,
    elapsedMs,
    queries,
    stopped: cell.interrupted ? 'time' : (cell.halted ?? 'runs'),
  };
}

/**
 * Runs one cell: rounds of {@link checkRoundSync} / {@link checkRoundAsync} (case generation and
 * evaluation, with {@link countCase} as the stop rule), each failure re-checked
 * ({@link triageFailure}), shrunk (fast-check's loop, or {@link shrinkPending} in flight), its
 * minimal case re-checked and recorded ({@link recordShrunk}); then {@link cellOutcome}. A round
 * hunts new findings until `maxFailures` are found or `4 × maxFailures` rounds failed.
 * Never throws for guard failures (they are `error` verdicts); rejects only when the arbitrary
 * itself throws (e.g. a broken template), naming the cell.
 */
export async function runCell(o: CellOptions): Promise<CellOutcome> {
  const cell = startCell(o);
  awaitLead(cell);
  const maxRounds = cell.maxFailures * 4;
  let failRounds = 0;
  let index = 0;
  /** The next round's cases, drawn and asked while the last minimal case is re-checked (see {@link overlapsRechecks}). */
  let early: { drawn: fc.Value<FuzzCase>[]; prefetch: Prefetcher } | undefined;
  try {
    while (cell.stats.runs < o.runs && !cell.interrupted && cell.halted === undefined) {
      const r = startRound(cell, index, cell.found.length < cell.maxFailures && failRounds < maxRounds, early?.drawn);
      const remaining = o.runs - cell.stats.runs;
      if (index > 0) await yieldToEventLoop();
      // A cell that waits to lead has no bound yet: its round is stopped by the per-case check in checkRoundAsync once it has one.
      const timeLeft = cell.leading ? cell.deadline - performance.now() : Infinity;
      if (timeLeft <= 0 || aborted(cell)) {
        cell.interrupted = true;
        break;
      }
      const params = roundParams(cell, r, index, remaining, timeLeft);
      let details: fc.RunDetails<[FuzzCase]>;
      let prefetch: Prefetcher | undefined;
      try {
        if (o.guard.mode === 'sync') details = checkRoundSync(cell, r, params);
        else {
          if (cell.concurrency > 1 && o.path === undefined) prefetch = early?.prefetch ?? startPrefetch(cell, r.drawn, params, remaining, r.hunting);
          early = undefined;
          details = await checkRoundAsync(cell, r, params, prefetch);
        }
      } catch (cause) {
        prefetch?.stop();
        throw generatorFailed(cell, cause);
      }
      if (prefetch) {
        if (aborted(cell)) prefetch.stop();
        else await prefetch.drain();
      }
      const inFlight = r.pending !== undefined && r.trigger !== undefined && !aborted(cell) ? await shrinkPending(cell, r, r.pending, r.trigger) : undefined;
      if (r.shrinking) cell.queries.ms.shrink += performance.now() - r.shrinkStart;
      const shrunk = inFlight ?? (details.failed && details.counterexample !== null ? { c: details.counterexample[0], path: details.counterexamplePath, numShrinks: details.numShrinks } : undefined);
      const { trigger, last } = r;
      const interrupted = (details.interrupted || aborted(cell)) && cell.stats.runs < o.runs;
      if (shrunk !== undefined && last !== undefined && trigger !== undefined) {
        // Re-check the shrunk case for its own verdicts (never from the cache).
        if (aborted(cell) || o.guard.mode === 'sync') recordShrunk(cell, r, trigger, last, shrunk, aborted(cell) ? [] : againSync(cell, shrunk.c, cell.rechecks));
        else {
          const rechecked = againAsync(cell, shrunk.c, cell.rechecks);
          if (!interrupted && overlapsRechecks(cell)) {
            const drawn: fc.Value<FuzzCase>[] = [];
            const left = o.runs - cell.stats.runs;
            early = { drawn, prefetch: startPrefetch(cell, drawn, roundParams(cell, { seed: roundSeed(o.seed, index + 1) }, index + 1, left, Infinity), left, true) };
          }
          recordShrunk(cell, r, trigger, last, shrunk, await rechecked);
        }
      } else assertRoundSound(cell, r, details);
      if (interrupted) cell.interrupted = true;
      if (o.path !== undefined) break;
      if (details.failed || inFlight !== undefined) failRounds += 1;
      index += 1;
    }
  } finally {
    early?.prefetch.stop();
  }
  return cellOutcome(cell);
}

/**
 * Whether a new failure's shrink may start while it is re-checked (calls in flight, no query or
 * shrink budget: the asks below it then spend nothing a budget would count against another
 * query). If the re-checks do not reproduce it (flaky), those asks were for nothing.
 */
function asksAheadOfShrink(cell: Cell): boolean {
  return cell.concurrency > 1 && cell.o.maxQueries === undefined && cell.o.shrinkBudget === undefined;
}

/**
 * Whether the next round's cases may be drawn and asked while the last minimal case is
 * re-checked (calls in flight, async guard): only when nothing those re-checks change can change
 * what the next round asks or counts, that is without a query budget (the re-checks' queries
 * would move what fits) and without a time bound (which ends a round by the clock), and when
 * the stop rule cannot end the cell before the next round (it reads only counts, which re-checks
 * do not change). The next round's seed, run count and cases are known before the re-checks
 * end; what they decide (the signature seen, whether the next round still hunts) is read only
 * when the next round observes its first verdict.
 */
function overlapsRechecks(cell: Cell): boolean {
  const o = cell.o;
  return cell.concurrency > 1 && o.path === undefined && o.maxQueries === undefined && o.timeLimitMs === undefined && o.leads === undefined && cell.halted === undefined && cell.stats.runs < o.runs && !cell.interrupted;
}
