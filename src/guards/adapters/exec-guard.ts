/**
 * Exec adapter: a pool of long-lived subprocess guards that speak JSON lines on stdin/stdout.
 * Protocol: `docs/guard-protocol.md`, "Exec guards".
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import pLimit from 'p-limit';
import { GuardLoadError, errorVerdict } from '../../domain/index.js';
import { parseVerdict } from '../../domain/verdict-schema.js';
import type { Guard, GuardContext, MemoryEntry, Verdict } from '../../domain/index.js';
import { Circuit, PerInputQueue, INPUT_CRASHES_GUARD, INPUT_TIMES_OUT_GUARD, InputFailureMemory, inputKey, sleep } from './failure-memory.js';
import type { InputFailureRecord } from './failure-memory.js';
import { DEFAULT_GUARD_TIMEOUT_MS } from './module-guard.js';
import { DEFAULT_ADAPTER_CONCURRENCY, excerpt, startStopwatch, toWireRequest } from './wire-request.js';

/**
 * Process groups of exec guard processes whose members may still run: each process leads its
 * own group (`detached`), and what it starts (a shell's command, a helper, a worker pool) is in
 * that group unless it moves itself out. A group is ended with SIGKILL as soon as its leader
 * exits (so a guard's helpers never outlive it, also across restarts), and every group still
 * listed is ended when farma-fuzz exits, however it exits.
 */
const liveGroups = new Set<number>();
let exitSweepInstalled = false;

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // ESRCH: every member has already gone.
  }
}

function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (exitSweepInstalled) return;
  exitSweepInstalled = true;
  process.on('exit', () => {
    for (const g of liveGroups) killGroup(g);
    liveGroups.clear();
  });
}

function sweepGroup(pgid: number): void {
  if (!liveGroups.delete(pgid)) return;
  killGroup(pgid);
}

export interface ExecGuardOptions {
  /** Per-entry time bound in ms (default 5000). On timeout that one process is killed and restarted for its next entry. */
  timeoutMs?: number;
  /**
   * Most processes, so most requests in flight (default 8). Processes are started only when
   * every running one is busy, so a caller that sends one entry at a time uses one process.
   */
  concurrency?: number;
  /**
   * Crashes (or timeouts) of one input after which it is not sent again: later checks of
   * that input get an `error` verdict at once (default 2).
   */
  inputFailureLimit?: number;
  /** Distinct inputs failing in a row that open the circuit (default 10). */
  circuitThreshold?: number;
  /** First open period of the circuit in ms, doubled per failed probe up to 30 s (default 1000). */
  circuitCooldownMs?: number;
  /**
   * Back-off before restarting a process that failed `c` times in a row: none for c = 1, then
   * `restartDelayMs * 2^(c-2)` ms, at most 2 s (default 50).
   */
  restartDelayMs?: number;
  /** Working directory of the command (default `process.cwd()`). */
  cwd?: string;
  /** Number of stderr lines kept and quoted in crash messages (default 5). */
  stderrLines?: number;
  /**
   * Called once, the first time a process writes a stdout line that is not an answer (a log
   * line, a banner), which is skipped (default: one `warning: …` line on stderr).
   */
  onWarning?: (message: string) => void;
}

/** The exec guard's configuration, as it appears in reports (the pool size is a run setting, not part of it). */
export interface ExecGuardConfig {
  adapter: 'exec';
  command: string;
  timeoutMs: number;
  inputFailureLimit: number;
  circuitThreshold: number;
}

/** Counters of an exec guard, for progress lines and tests. */
export interface ExecGuardStats {
  /** Requests written to a process. */
  sent: number;
  /** Checks answered at once, without sending, because the input had failed `inputFailureLimit` times. */
  notResent: number;
  /** Checks refused while the circuit was open. */
  refused: number;
  crashes: number;
  timeouts: number;
  /** Most requests in flight at once. */
  maxInFlight: number;
  /** Requests sent again to a fresh process because theirs ended cleanly (exit 0) after answering earlier ones. */
  resent: number;
  /** stdout lines that were not answers (logs, banners, JSON without `id`, `verdict` or `decision`), skipped. */
  skippedLines: number;
  /** One item per process slot: how often it was started and restarted. */
  processes: { starts: number; restarts: number }[];
  circuit: 'closed' | 'open' | 'half-open';
  timesOpened: number;
  /** Inputs that crashed or timed out the guard, most failures first. */
  failingInputs: InputFailureRecord[];
}

/** A Guard backed by a process pool, with its counters. */
export interface ExecGuard extends Guard {
  stats(): ExecGuardStats;
}

const MAX_RESTART_DELAY_MS = 2000;
const MAX_COOLDOWN_MS = 30_000;

interface Pending {
  id: number;
  settle: (outcome: Outcome) => void;
  elapsed: () => number;
}

/** What became of one request sent to a process. */
type Outcome = { ok: Verdict } | { malformed: string } | { crashed: string; recycled?: boolean } | { timeout: string };

/** One process of the pool. */
interface Slot {
  proc: ChildProcessWithoutNullStreams | null;
  busy: boolean;
  pending: Pending | null;
  /** Crashes or timeouts in a row of this process, for the restart back-off. */
  failuresInARow: number;
  starts: number;
  stderrTail: string[];
  /** Lines this process wrote to stdout that were not answers (logs, a banner), skipped. */
  noise: { count: number; first: string };
  /** Whether this process has written anything to stdout since it started. */
  wroteStdout: boolean;
  /** Answers this process gave since it started. */
  answered: number;
}

function validInt(name: string, value: number, min: number, command: string): number {
  if (!Number.isInteger(value) || value < min) {
    throw new GuardLoadError(`exec guard ${JSON.stringify(command)}: ${name} must be an integer >= ${min}, got ${value}`);
  }
  return value;
}

/**
 * Creates a guard backed by a pool of long-lived shell commands.
 *
 * Each process is started through the shell when it is first needed and kept alive. For
 * every entry the adapter writes one line `{"id":N,"entry":{...},"phase":"write","store":{"size":{...}}}`
 * to the stdin of a free process and waits for one line `{"id":N,"verdict":{...}}` on its
 * stdout. Each process has at most one request in flight; up to `concurrency` processes run
 * at once. `check` never rejects:
 * - the process exits or crashes while an entry is pending → `error` (kind `crashed`, the
 *   last stderr lines quoted); that process is restarted for its next entry, after a back-off
 *   when it keeps failing;
 * - no answer within `timeoutMs` → `error` (kind `timeout`); that process is killed and restarted;
 * - an input that crashed (timed out) the guard `inputFailureLimit` times → `error` of kind
 *   `crashed` (`timeout`) at once, message starting with {@link INPUT_CRASHES_GUARD}
 *   ({@link INPUT_TIMES_OUT_GUARD}); it is not sent again;
 * - `circuitThreshold` distinct inputs failing in a row → the circuit opens, checks get
 *   `unavailable` at once for the cool-down, then one probe is sent; an answer closes it;
 * - a line that is not JSON, or whose `verdict` is not a Verdict → `error` (kind `malformed`);
 * - after `close()` → `error` (kind `unavailable`).
 * Lines with an id other than the pending one are ignored when lower (late answers) and are
 * `malformed` otherwise. `elapsedUs` is the round trip the adapter measured, including the pipe.
 *
 * @throws GuardLoadError when `command` is empty or an option is out of range.
 * @example
 * const guard = createExecGuard('python3 examples/exec-guard.py', { timeoutMs: 2000, concurrency: 8 });
 * try { await Promise.all(entries.map((e) => guard.check(e, ctx))); } finally { await guard.close?.(); }
 */
export function createExecGuard(command: string, options: ExecGuardOptions = {}): ExecGuard {
  const settings = execGuardSettings(command, options);
  const { timeoutMs, concurrency, inputFailureLimit, circuitThreshold } = settings;
  const pool = new ExecPool(settings);
  // p-limit lets at most `concurrency` checks in, and each holds one slot.
  const limit = pLimit(concurrency);
  return {
    id: `exec:${command}`,
    mode: 'async',
    config: { adapter: 'exec', command, timeoutMs, inputFailureLimit, circuitThreshold } satisfies ExecGuardConfig,
    // A process that does not answer within timeoutMs is killed: the engine adds no clock of its own.
    boundsOwnCalls: true,
    check: (entry, ctx) => limit(() => pool.checkOne(entry, ctx)),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}

/**
 * The pool behind an exec guard: `concurrency` process slots, one request each, one at a time
 * per input (transport in {@link spawnGuardProcess}, protocol in `readAnswerLine`); failure
 * memory: inputs that crash or time out are not sent again, and the circuit stops calls to a
 * dead guard.
 */
class ExecPool {
  readonly #s: ExecSettings;
  readonly #slots: Slot[];
  readonly #memory: InputFailureMemory;
  readonly #perInput = new PerInputQueue();
  readonly #circuit: Circuit;
  readonly #counts = { sent: 0, notResent: 0, refused: 0, crashes: 0, timeouts: 0, maxInFlight: 0, skippedLines: 0, resent: 0 };
  #inFlight = 0;
  #seq = 0;
  #closed = false;

  constructor(settings: ExecSettings) {
    this.#s = settings;
    this.#slots = Array.from({ length: settings.concurrency }, () => ({ proc: null, busy: false, pending: null, failuresInARow: 0, starts: 0, stderrTail: [], noise: { count: 0, first: '' }, wroteStdout: false, answered: 0 }));
    this.#memory = new InputFailureMemory(settings.inputFailureLimit);
    this.#circuit = new Circuit({ threshold: settings.circuitThreshold, cooldownMs: settings.cooldownMs, maxCooldownMs: Math.max(settings.cooldownMs, MAX_COOLDOWN_MS) });
  }

  /** Protocol: one stdout line of a slot's process, read against its pending request (an answer settles it; other lines are noise). */
  #onLine(slot: Slot, line: string): void {
    const p = slot.pending;
    if (!p) return;
    const r = readAnswerLine(line, p.id, p.elapsed()); // the guard's time ends with its line; reading it is ours
    if ('noise' in r) this.#noteNoise(slot, r.noise);
    else if ('outcome' in r) {
      if ('ok' in r.outcome) slot.answered++;
      settle(slot, r.outcome);
    }
  }

  /** Counts a stdout line that is not an answer; the first of the guard's is warned about once. */
  #noteNoise(slot: Slot, text: string): void {
    if (slot.noise.count === 0) slot.noise.first = excerpt(text, 120);
    slot.noise.count++;
    if (this.#counts.skippedLines++ === 0) {
      this.#s.warn(`exec guard ${JSON.stringify(this.#s.command)} wrote a stdout line that is not an answer; it is skipped, and so is every later one (stdout is for answer lines, logs go to stderr): ${JSON.stringify(excerpt(text, 120))}`);
    }
  }

  /** A free slot: a running idle process first, else the idle slot whose process is down. */
  #takeSlot(): Slot {
    const slot = this.#slots.find((s) => !s.busy && s.proc !== null) ?? this.#slots.find((s) => !s.busy);
    // p-limit lets at most `concurrency` checks in, and each holds one slot.
    if (!slot) throw new Error('exec guard: no free process slot (internal error)');
    slot.busy = true;
    return slot;
  }

  /** Sends one line to a process of the pool and waits for what becomes of it. */
  async #send(slot: Slot, id: number, line: string): Promise<{ outcome: Outcome; elapsedUs: number }> {
    if (!slot.proc) {
      const c = slot.failuresInARow;
      await sleep(c <= 1 ? 0 : Math.min(this.#s.restartDelayMs * 2 ** (c - 2), MAX_RESTART_DELAY_MS));
      if (this.#closed) return { outcome: { crashed: 'exec guard was closed' }, elapsedUs: 0 };
      slot.proc = spawnGuardProcess(slot, this.#s, (sl, line) => this.#onLine(sl, line));
    }
    const child = slot.proc;
    slot.noise = { count: 0, first: '' };
    const elapsed = startStopwatch();
    this.#counts.sent++;
    this.#inFlight++;
    this.#counts.maxInFlight = Math.max(this.#counts.maxInFlight, this.#inFlight);
    try {
      const outcome = await new Promise<Outcome>((resolve) => {
        const timer = setTimeout(() => {
          if (slot.pending?.id !== id) return;
          settle(slot, { timeout: `exec guard did not answer within ${this.#s.timeoutMs} ms${stdoutNote(slot)}` });
          slot.proc = null;
          kill(child, 'SIGKILL');
        }, this.#s.timeoutMs);
        slot.pending = {
          id,
          elapsed,
          settle: (o) => {
            clearTimeout(timer);
            resolve(o);
          },
        };
        child.stdin.write(line);
      });
      return { outcome, elapsedUs: elapsed() };
    } finally {
      this.#inFlight--;
    }
  }

  /** One check: the request encoded at the call (the caller's store view), then queued behind any check of the same input. Never rejects. */
  async checkOne(entry: MemoryEntry, ctx: GuardContext): Promise<Verdict> {
    if (this.#closed) return errorVerdict('unavailable', 'exec guard was closed', 0);
    let body: string;
    let key: string;
    try {
      // The request is encoded now: the store sizes are those of the caller's view at the call.
      body = JSON.stringify(toWireRequest(entry, ctx)).slice(1);
      key = inputKey(entry, ctx.phase);
    } catch (cause) {
      return errorVerdict('threw', `could not encode the request: ${cause instanceof Error ? cause.message : String(cause)}`, 0);
    }
    return this.#perInput.run(key, () => this.#decide(entry, key, body));
  }

  /** Answers from the per-input memory or the circuit, or sends the request to a free process. */
  async #decide(entry: MemoryEntry, key: string, body: string): Promise<Verdict> {
    if (this.#closed) return errorVerdict('unavailable', 'exec guard was closed', 0);
    const known = this.#memory.blocked(key);
    if (known) {
      this.#counts.notResent++;
      const what = known.kind === 'crashed' ? `${INPUT_CRASHES_GUARD}: it crashed the exec guard` : `${INPUT_TIMES_OUT_GUARD}: the exec guard did not answer it within ${this.#s.timeoutMs} ms`;
      return errorVerdict(known.kind, `${what} ${known.record[known.kind]} times, so it is not sent again (last: ${known.record.last})`, 0);
    }
    const gate = this.#circuit.admit();
    if (!gate.pass) {
      this.#counts.refused++;
      return errorVerdict('unavailable', `exec guard is down: ${gate.reason}`, 0);
    }
    const slot = this.#takeSlot();
    const answersAtSend = this.#circuit.answers;
    try {
      let id = ++this.#seq;
      let { outcome, elapsedUs } = await this.#send(slot, id, `{"id":${id},${body}\n`);
      if ('crashed' in outcome && outcome.recycled === true && !this.#closed) {
        // Once, to a fresh process: a guard that ends itself after N requests blames no input.
        this.#counts.resent++;
        id = ++this.#seq;
        ({ outcome, elapsedUs } = await this.#send(slot, id, `{"id":${id},${body}\n`));
      }
      if ('ok' in outcome || 'malformed' in outcome) {
        slot.failuresInARow = 0;
        this.#circuit.success(gate.probe);
        return 'ok' in outcome ? outcome.ok : errorVerdict('malformed', outcome.malformed, elapsedUs);
      }
      if (this.#closed) return errorVerdict('unavailable', 'exec guard was closed', elapsedUs);
      slot.failuresInARow++;
      this.#circuit.failure(key, gate.probe, answersAtSend);
      const kind = 'crashed' in outcome ? 'crashed' : 'timeout';
      const message = 'crashed' in outcome ? outcome.crashed : outcome.timeout;
      if (kind === 'crashed') this.#counts.crashes++;
      else this.#counts.timeouts++;
      const n = this.#memory.record(key, kind, message, excerpt(entry.content, 120));
      const left = this.#s.inputFailureLimit - n;
      const note = left > 0 ? `failure ${n} of this input; after ${this.#s.inputFailureLimit} it is not sent again` : `failure ${n} of this input; it is not sent again`;
      return errorVerdict(kind, `${message} (${note})`, elapsedUs);
    } finally {
      slot.busy = false;
    }
  }

  /** What the pool did so far (see {@link ExecGuardStats}). */
  stats(): ExecGuardStats {
    const circuit = this.#circuit;
    return {
      ...this.#counts,
      processes: this.#slots.filter((s) => s.starts > 0).map((s) => ({ starts: s.starts, restarts: s.starts - 1 })),
      circuit: circuit.state,
      timesOpened: circuit.timesOpened,
      failingInputs: this.#memory.records(),
    };
  }

  /** Settles every pending request as closed and stops the running processes. */
  async close(): Promise<void> {
    this.#closed = true;
    const children: ChildProcessWithoutNullStreams[] = [];
    for (const slot of this.#slots) {
      const child = slot.proc;
      slot.proc = null;
      settle(slot, { crashed: 'exec guard was closed' });
      if (child && child.exitCode === null && child.signalCode === null) children.push(child);
    }
    await Promise.all(children.map((child) => stopProcess(child)));
  }
}

/** Ends a guard process: SIGTERM, then SIGKILL after 1 s, then stops waiting after 1 s more. */
function stopProcess(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise<void>((res) => {
    // SIGTERM, then SIGKILL after 1 s, then stop waiting after 1 s more.
    const force = setTimeout(() => {
      kill(child, 'SIGKILL');
      setTimeout(res, 1000).unref();
    }, 1000);
    child.once('close', () => {
      clearTimeout(force);
      res();
    });
    child.stdin.end();
    kill(child, 'SIGTERM');
  });
}


/** The options of one exec guard, validated, with their defaults. */
interface ExecSettings {
  command: string;
  timeoutMs: number;
  concurrency: number;
  inputFailureLimit: number;
  circuitThreshold: number;
  cooldownMs: number;
  restartDelayMs: number;
  keepLines: number;
  cwd: string | undefined;
  warn: (message: string) => void;
}

/** Options: the command and every bound checked, defaults filled in. @throws GuardLoadError naming the command and the option. */
function execGuardSettings(command: string, options: ExecGuardOptions): ExecSettings {
  if (command.trim().length === 0) throw new GuardLoadError('exec guard: the command is empty');
  const timeoutMs = options.timeoutMs ?? DEFAULT_GUARD_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new GuardLoadError(`exec guard ${JSON.stringify(command)}: timeoutMs must be > 0, got ${timeoutMs}`);
  const concurrency = validInt('concurrency', options.concurrency ?? DEFAULT_ADAPTER_CONCURRENCY, 1, command);
  const inputFailureLimit = validInt('inputFailureLimit', options.inputFailureLimit ?? 2, 1, command);
  const circuitThreshold = validInt('circuitThreshold', options.circuitThreshold ?? 10, 1, command);
  const cooldownMs = options.circuitCooldownMs ?? 1000;
  const restartDelayMs = options.restartDelayMs ?? 50;
  if (!(cooldownMs >= 0)) throw new GuardLoadError(`exec guard ${JSON.stringify(command)}: circuitCooldownMs must be >= 0, got ${cooldownMs}`);
  if (!(restartDelayMs >= 0)) throw new GuardLoadError(`exec guard ${JSON.stringify(command)}: restartDelayMs must be >= 0, got ${restartDelayMs}`);
  const keepLines = options.stderrLines ?? 5;
  const warn = options.onWarning ?? ((message: string) => void process.stderr.write(`warning: ${message}\n`));

  return { command, timeoutMs, concurrency, inputFailureLimit, circuitThreshold, cooldownMs, restartDelayMs, keepLines, cwd: options.cwd, warn };
}

/** The last stderr lines of a process, for a crash message. */
const stderrNote = (slot: Slot): string => (slot.stderrTail.length ? `; stderr: ${slot.stderrTail.join(' | ')}` : '');
/** What the process wrote on stdout besides answers, or that it wrote nothing: the likely cause of a missing answer. */
const stdoutNote = (slot: Slot): string => {
  if (slot.noise.count > 0) {
    return `; it wrote ${slot.noise.count} stdout line(s) that are not answers, which were skipped (first: ${JSON.stringify(slot.noise.first)}): stdout is for answer lines {"id": N, "verdict": {...}}, logs go to stderr`;
  }
  if (!slot.wroteStdout) return '; it wrote nothing on stdout: does it answer each line before reading the next one, and flush stdout after each answer (Python: print(..., flush=True) or python3 -u)?';
  return '';
};


function kill(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
  try {
    // The child leads its own process group, so this reaches the shell and what it started.
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}


/** Ends the pending request of a slot with `outcome` (nothing when none is pending). */
function settle(slot: Slot, outcome: Outcome): void {
  const p = slot.pending;
  if (!p) return;
  slot.pending = null;
  p.settle(outcome);
}


/**
 * Transport: starts the command of a slot through the shell, in its own process group; splits
 * stdout into lines for `onLine`, keeps the last stderr lines, and settles the pending request
 * as `crashed` when the process ends (a clean exit after answers is a recycle: the request is
 * sent again) or as `malformed` when a stdout line grows past {@link MAX_LINE_CHARS}.
 */
function spawnGuardProcess(slot: Slot, s: Pick<ExecSettings, 'command' | 'cwd' | 'keepLines'>, onLine: (slot: Slot, line: string) => void): ChildProcessWithoutNullStreams {
  const { command, keepLines } = s;
  const child = spawn(command, {
    shell: true,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    cwd: s.cwd ?? process.cwd(),
  });
  slot.starts++;
  slot.stderrTail = [];
  slot.noise = { count: 0, first: '' };
  slot.wroteStdout = false;
  slot.answered = 0;
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    if (child !== slot.proc) return;
    slot.wroteStdout = true;
    out += chunk;
    if (out.length > MAX_LINE_CHARS && out.indexOf('\n') < 0) {
      // A reply line this long is not a verdict: stop reading and restart the process.
      out = '';
      settle(slot, { malformed: `exec guard wrote a stdout line longer than ${MAX_LINE_CHARS} characters without a newline (an answer is one short JSON line); the process is restarted` });
      slot.proc = null;
      kill(child, 'SIGKILL');
      return;
    }
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, nl).trim();
      out = out.slice(nl + 1);
      if (line.length > 0 && child === slot.proc) onLine(slot, line);
    }
  });
  child.stderr.on('data', (chunk: string) => {
    err += chunk;
    if (err.length > MAX_LINE_CHARS) err = err.slice(-4096);
    const lines = err.split('\n');
    err = lines.pop() ?? '';
    for (const l of lines) if (l.trim()) slot.stderrTail.push(excerpt(l, 300));
    if (slot.stderrTail.length > keepLines) slot.stderrTail = slot.stderrTail.slice(-keepLines);
  });
  child.stdin.on('error', () => {
    // EPIPE after the process died; the 'close' handler reports it.
  });
  const onGone = (why: string, clean: boolean): void => {
    if (child !== slot.proc) return;
    if (err.trim()) slot.stderrTail = [...slot.stderrTail, excerpt(err, 300)].slice(-keepLines);
    slot.proc = null;
    // A process that answered before and now ends cleanly (exit 0) is recycling itself (a
    // request limit): the pending request may never have been read, so it is sent again.
    const recycled = clean && slot.answered > 0;
    settle(slot, { crashed: `exec guard ${why} while checking this input${stderrNote(slot)}${slot.noise.count > 0 ? stdoutNote(slot) : ''}`, recycled });
  };
  const pgid = child.pid;
  if (pgid !== undefined) {
    trackGroup(pgid);
    child.once('exit', () => sweepGroup(pgid));
  }
  child.on('error', (e) => onGone(`could not run (${e.message})`, false));
  child.on('close', (code, signal) =>
    onGone(signal ? `was killed by ${signal}` : code === 127 ? 'exited with code 127 (the shell did not find the command: give its full path, or check PATH)' : `exited with code ${code}`, !signal && code === 0),
  );
  // A forgotten close() must not keep the fuzzer alive; the guard sees EOF when we exit.
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void }).unref?.();
  return child;
}


/** What one stdout line of a process means for its pending request `pendingId`. */
type LineReading = { noise: string } | { late: true } | { outcome: Outcome };

/**
 * Protocol: reads one stdout line. A JSON object with `id` and `verdict` (or a bare Verdict) is
 * the answer; an id lower than the pending one is a late answer, ignored; another id, a line
 * that starts like JSON but is not, or a verdict that is not a Verdict is `malformed`; any
 * other line (a log line, a banner, a structured log record) is noise, skipped. `tookUs` is
 * the round trip measured up to this line.
 */
function readAnswerLine(line: string, pendingId: number, tookUs: number): LineReading {
  const text = line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    if (/^[[{]/.test(text)) {
      return { outcome: { malformed: `exec guard wrote a stdout line that starts like JSON but is not JSON: ${excerpt(text)} (an answer is one JSON object on one line: not pretty-printed, no newline inside)` } };
    }
    return { noise: text }; // a log line or a banner: skipped, the answer may still come
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return { noise: text };
  const m = msg as { id?: unknown; verdict?: unknown; decision?: unknown };
  if (m.id === undefined && m.verdict === undefined && m.decision === undefined && !parseVerdict(msg).ok) {
    return { noise: text }; // a structured log line ({"level": "info", ...})
  }
  // Each process has one request in flight, so an answer without an id can only be for it.
  const id = typeof m.id === 'string' && /^\d+$/.test(m.id.trim()) ? Number(m.id) : m.id;
  if (typeof id === 'number' && id < pendingId) return { late: true }; // a late answer to a request that already timed out
  if (id !== undefined && id !== pendingId) return { outcome: { malformed: `exec guard answered id ${JSON.stringify(m.id)}, expected ${pendingId}` } };
  const parsed = parseVerdict(m.verdict !== undefined ? m.verdict : msg);
  if (!parsed.ok) return { outcome: { malformed: `exec guard answered a malformed verdict: ${parsed.message}` } };
  return { outcome: { ok: { ...parsed.verdict, elapsedUs: tookUs } } };
}

/** Longest reply line read from an exec guard, in characters (a verdict is far smaller). */
const MAX_LINE_CHARS = 4 * 1024 * 1024;
