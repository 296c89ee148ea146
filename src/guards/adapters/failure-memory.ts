/**
 * Bounds on the work an out-of-process guard can cost when it fails: a memory
 * of which inputs crashed or timed out the guard, and a circuit that stops sending while the
 * guard is down and probes it again later. Used by the exec and HTTP adapters.
 * Protocol: `docs/guard-protocol.md`, "Crashes, timeouts and the circuit".
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { MemoryEntry, Phase } from '../../domain/index.js';

/**
 * The identity of one input, as a 16-hex-digit prefix of a sha256 over the canonical JSON of
 * the phase and the entry less its `id`, `timestamp` and `store`. The request id, the entry's
 * id, time and store and the store sizes are left out: the same text written again by a later
 * case, by an amplification chain (which writes it to both stores) or by shrinking is the same
 * input, so a text that crashes the guard is counted as one input however often it comes
 * back. Its content, source, trust, trace type and metadata stay in.
 * @throws TypeError when the entry cannot be serialised (a BigInt, a cycle).
 */
export function inputKey(entry: MemoryEntry, phase: Phase): string {
  const { id: _id, timestamp: _timestamp, store: _store, ...rest } = entry;
  let text: string | undefined;
  try {
    text = canonicalize({ entry: rest, phase });
  } catch (e) {
    // canonicalize (RFC 8785) refuses a lone surrogate, which JSON carries as an escape: so does the key.
    if (!HAS_LONE_SURROGATE.test(JSON.stringify(rest))) throw e;
    text = canonicalize(wellFormed({ entry: rest, phase }));
  }
  if (text === undefined) throw new TypeError('entry cannot be serialised');
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

const LONE_SURROGATE = /\p{Cs}/gu;
/** A lone surrogate as `JSON.stringify` writes it (an escape; paired ones stay characters). */
const HAS_LONE_SURROGATE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/** The value with every lone surrogate in its strings and keys written as the text `\uXXXX`. */
function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  if (Array.isArray(value)) return value.map(wellFormed);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[wellFormed(k) as string] = wellFormed(v);
    return out;
  }
  return value;
}

/**
 * Start of the message of an `error` verdict (kind `crashed`) given to an input without
 * sending it again, because it crashed the guard `inputFailureLimit` times.
 */
export const INPUT_CRASHES_GUARD = 'input crashes the guard';
/** Same, kind `timeout`, for an input the guard did not answer `inputFailureLimit` times. */
export const INPUT_TIMES_OUT_GUARD = 'input times out the guard';

/** The failures an input is remembered for. */
export type InputFailureKind = 'crashed' | 'timeout';

/** What is known about one input that failed. */
export interface InputFailureRecord {
  key: string;
  crashed: number;
  timeout: number;
  /** Message of the last failure (exit code, stderr quote or time bound). */
  last: string;
  /** A short quote of the entry's content, for reports. */
  excerpt: string;
}

/** Per-input failure counts, bounded in size (the oldest records go first past `maxKeys`). */
export class InputFailureMemory {
  readonly #records = new Map<string, InputFailureRecord>();

  /**
   * @param limit failures of one kind after which an input is not sent again (>= 1).
   * @param maxKeys most inputs remembered (default 100,000).
   */
  constructor(
    readonly limit: number,
    readonly maxKeys = 100_000,
  ) {}

  /** Records one failure of `key`; returns that input's count of this kind, this one included. */
  record(key: string, kind: InputFailureKind, message: string, excerptText: string): number {
    let r = this.#records.get(key);
    if (!r) {
      r = { key, crashed: 0, timeout: 0, last: message, excerpt: excerptText };
      this.#records.set(key, r);
      if (this.#records.size > this.maxKeys) {
        const oldest = this.#records.keys().next().value;
        if (oldest !== undefined) this.#records.delete(oldest);
      }
    }
    r[kind]++;
    r.last = message;
    return r[kind];
  }

  /** The kind that has reached the limit for `key` (crashes first), or `undefined` when it may be sent. */
  blocked(key: string): { kind: InputFailureKind; record: InputFailureRecord } | undefined {
    const r = this.#records.get(key);
    if (!r) return undefined;
    if (r.crashed >= this.limit) return { kind: 'crashed', record: r };
    if (r.timeout >= this.limit) return { kind: 'timeout', record: r };
    return undefined;
  }

  /** Copies of every record, most failures first. */
  records(): InputFailureRecord[] {
    return [...this.#records.values()].map((r) => ({ ...r })).sort((a, b) => b.crashed + b.timeout - (a.crashed + a.timeout));
  }
}

export interface CircuitOptions {
  /** Distinct inputs failing in a row (no good answer in between) that open the circuit (>= 1). */
  threshold: number;
  /** First open period in ms; doubled after each failed probe up to `maxCooldownMs`. */
  cooldownMs: number;
  maxCooldownMs: number;
  /** Clock in ms (default `performance.now`); injectable for tests. */
  now?: () => number;
}

/** What the circuit says about one request. */
export type CircuitAdmission = { pass: true; probe: boolean } | { pass: false; reason: string };

/**
 * A circuit breaker over a guard's availability. Closed, it passes every request. After
 * `threshold` distinct inputs fail in a row it opens: requests are refused for the cool-down,
 * then it half-opens and lets one probe through. A probe that gets an answer closes it; a
 * probe that fails opens it again for twice as long (up to `maxCooldownMs`). It never stays
 * open for good.
 *
 * "In a row" means with no answer after the failing request was sent: a request that fails
 * while others sent with it get answers failed on its own input (the guard was up), and is
 * left to the per-input memory. Otherwise a guard that hangs on some inputs only would open
 * the circuit as soon as `concurrency` of them filled every slot at once.
 */
export class Circuit {
  #state: 'closed' | 'open' | 'half-open' = 'closed';
  readonly #streak = new Set<string>();
  #answers = 0;
  #cooldown: number;
  #openUntil = 0;
  #probing = false;
  #opened = 0;
  readonly #now: () => number;

  constructor(readonly options: CircuitOptions) {
    this.#cooldown = options.cooldownMs;
    this.#now = options.now ?? (() => performance.now());
  }

  /** `closed`, `open` or `half-open` (the cool-down has passed; a probe may go or is in flight). */
  get state(): 'closed' | 'open' | 'half-open' {
    if (this.#state === 'open' && this.#now() >= this.#openUntil) return 'half-open';
    return this.#state;
  }

  /** Answers seen so far: read it when a request is sent, and pass it to {@link failure}. */
  get answers(): number {
    return this.#answers;
  }

  /** How many times the circuit has opened. */
  get timesOpened(): number {
    return this.#opened;
  }

  /** Asks to send one request; a passed probe must be followed by `success` or `failure`. */
  admit(): CircuitAdmission {
    if (this.#state === 'closed') return { pass: true, probe: false };
    const left = this.#openUntil - this.#now();
    if (this.#state === 'open' && left > 0) {
      return { pass: false, reason: `${this.#streak.size} distinct inputs failed in a row; not sending for another ${Math.ceil(left)} ms, then one probe` };
    }
    if (this.#probing) return { pass: false, reason: `${this.#streak.size} distinct inputs failed in a row; a probe request is in flight` };
    this.#state = 'half-open';
    this.#probing = true;
    return { pass: true, probe: true };
  }

  /** The guard answered (any answer, even a malformed one, shows it is up). */
  success(probe: boolean): void {
    this.#answers++;
    if (probe) this.#probing = false;
    this.#streak.clear();
    this.#state = 'closed';
    this.#cooldown = this.options.cooldownMs;
  }

  /**
   * The request for input `key` crashed, timed out or found the guard unreachable.
   * @param answersAtSend {@link answers} when the request was sent: when the guard answered
   *   another request since, this failure is the input's alone and does not count towards
   *   opening (a probe always counts). Without it, every failure counts.
   */
  failure(key: string, probe: boolean, answersAtSend?: number): void {
    if (!probe && answersAtSend !== undefined && this.#answers > answersAtSend) return;
    this.#streak.add(key);
    if (probe) {
      this.#probing = false;
      this.#cooldown = Math.min(this.#cooldown * 2, this.options.maxCooldownMs);
      this.#open();
    } else if (this.#state === 'closed' && this.#streak.size >= this.options.threshold) {
      this.#open();
    }
  }

  #open(): void {
    this.#state = 'open';
    this.#openUntil = this.#now() + this.#cooldown;
    this.#opened++;
  }
}

/**
 * Runs the checks of one input one after the other (checks of different inputs still run
 * side by side), so a second check of an input decides on the outcome of the first: two copies
 * of a crashing input in flight at once cannot both be sent past `inputFailureLimit`.
 */
export class PerInputQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return run;
  }
}

/** Resolves after `ms` milliseconds (immediately for 0). */
export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((res) => setTimeout(res, ms));
}
