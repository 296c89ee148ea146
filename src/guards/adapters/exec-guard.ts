/**
 * Exec adapter: a long-lived subprocess guard that speaks JSON lines on stdin/stdout.
 * Protocol: `docs/guard-protocol.md`, "Exec guards".
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import pLimit from 'p-limit';
import { GuardLoadError, errorVerdict, parseVerdict } from '../../domain/index.js';
import type { Guard, GuardContext, GuardErrorKind, MemoryEntry, Verdict } from '../../domain/index.js';
import { DEFAULT_GUARD_TIMEOUT_MS } from './module-guard.js';
import { excerpt, startStopwatch, toWireRequest } from './wire-request.js';

export interface ExecGuardOptions {
  /** Per-entry time bound in ms (default 5000). On timeout the process is killed and restarted for the next entry. */
  timeoutMs?: number;
  /**
   * Restarts allowed in a row without a good answer in between (default 3). Once a process
   * has crashed or timed out `maxRestarts + 1` times in a row, every later entry gets an
   * `error` verdict of kind `unavailable`.
   */
  maxRestarts?: number;
  /** Working directory of the command (default `process.cwd()`). */
  cwd?: string;
  /** Number of stderr lines kept and quoted in crash messages (default 5). */
  stderrLines?: number;
}

/** The exec guard's configuration, as it appears in reports. */
export interface ExecGuardConfig {
  adapter: 'exec';
  command: string;
  timeoutMs: number;
  maxRestarts: number;
}

interface Pending {
  id: number;
  settle: (v: Verdict) => void;
  elapsed: () => number;
}

/**
 * Creates a guard backed by one long-lived shell command.
 *
 * The command is started through the shell on the first `check` and kept alive. For every
 * entry the adapter writes one line `{"id":N,"entry":{...},"phase":"write","store":{"size":{...}}}`
 * to its stdin and waits for one line `{"id":N,"verdict":{...}}` on its stdout. Requests
 * are serialised: one is in flight at a time. `check` never rejects:
 * - the process exits or crashes while an entry is pending → `error` (kind `crashed`, the
 *   last stderr lines quoted); the next entry restarts it;
 * - no answer within `timeoutMs` → `error` (kind `timeout`); the process is killed and restarted;
 * - a line that is not JSON, or whose `verdict` is not a Verdict → `error` (kind `malformed`);
 * - too many failures in a row (see `maxRestarts`) or after `close()` → `error` (kind `unavailable`).
 * Lines with an id lower than the pending one are late answers and are ignored.
 * `elapsedUs` is the round trip the adapter measured, including the pipe.
 *
 * @throws GuardLoadError when `command` is empty or an option is out of range.
 * @example
 * const guard = createExecGuard('python3 examples/exec-guard.py', { timeoutMs: 2000 });
 * try { await guard.check(entry, ctx); } finally { await guard.close?.(); }
 */
export function createExecGuard(command: string, options: ExecGuardOptions = {}): Guard {
  if (command.trim().length === 0) throw new GuardLoadError('exec guard: the command is empty');
  const timeoutMs = options.timeoutMs ?? DEFAULT_GUARD_TIMEOUT_MS;
  const maxRestarts = options.maxRestarts ?? 3;
  const keepLines = options.stderrLines ?? 5;
  if (!(timeoutMs > 0)) throw new GuardLoadError(`exec guard ${JSON.stringify(command)}: timeoutMs must be > 0, got ${timeoutMs}`);
  if (!Number.isInteger(maxRestarts) || maxRestarts < 0) {
    throw new GuardLoadError(`exec guard ${JSON.stringify(command)}: maxRestarts must be an integer >= 0, got ${maxRestarts}`);
  }

  const serial = pLimit(1);
  let proc: ChildProcessWithoutNullStreams | null = null;
  let pending: Pending | null = null;
  let seq = 0;
  let failuresInARow = 0;
  let closed = false;
  let stderrTail: string[] = [];

  const stderrNote = (): string => (stderrTail.length ? `; stderr: ${stderrTail.join(' | ')}` : '');

  function finish(kind: GuardErrorKind | null, verdict: Verdict): void {
    const p = pending;
    if (!p) return;
    pending = null;
    if (kind === null) failuresInARow = 0;
    p.settle(verdict);
  }

  function kill(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
    try {
      // The child leads its own process group, so this reaches the shell and what it started.
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      child.kill(signal);
    }
  }

  function start(): ChildProcessWithoutNullStreams {
    const child = spawn(command, {
      shell: true,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      cwd: options.cwd ?? process.cwd(),
    });
    stderrTail = [];
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (out.length > MAX_LINE_CHARS && out.indexOf('\n') < 0) {
        // A reply line this long is not a verdict: stop reading and restart the process.
        stderrTail = [...stderrTail, `stdout line longer than ${MAX_LINE_CHARS} characters`].slice(-keepLines);
        out = '';
        kill(child, 'SIGKILL');
        return;
      }
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl).trim();
        out = out.slice(nl + 1);
        if (line.length > 0 && child === proc) onLine(line);
      }
    });
    child.stderr.on('data', (chunk: string) => {
      err += chunk;
      if (err.length > MAX_LINE_CHARS) err = err.slice(-4096);
      const lines = err.split('\n');
      err = lines.pop() ?? '';
      for (const l of lines) if (l.trim()) stderrTail.push(excerpt(l, 300));
      if (stderrTail.length > keepLines) stderrTail = stderrTail.slice(-keepLines);
    });
    child.stdin.on('error', () => {
      // EPIPE after the process died; the 'close' handler reports it.
    });
    const onGone = (why: string): void => {
      if (child !== proc) return;
      if (err.trim()) stderrTail = [...stderrTail, excerpt(err, 300)].slice(-keepLines);
      proc = null;
      if (pending) {
        failuresInARow++;
        finish('crashed', errorVerdict('crashed', `exec guard ${why} while checking an entry${stderrNote()}`, pending.elapsed()));
      }
    };
    child.on('error', (e) => onGone(`could not run (${e.message})`));
    child.on('close', (code, signal) => onGone(signal ? `was killed by ${signal}` : `exited with code ${code}`));
    // A forgotten close() must not keep the fuzzer alive; the guard sees EOF when we exit.
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr]) (s as unknown as { unref?: () => void }).unref?.();
    return child;
  }

  function onLine(line: string): void {
    const p = pending;
    if (!p) return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      finish('malformed', errorVerdict('malformed', `exec guard wrote a stdout line that is not JSON: ${excerpt(line)}`, p.elapsed()));
      return;
    }
    const m = (typeof msg === 'object' && msg !== null ? msg : {}) as { id?: unknown; verdict?: unknown };
    if (typeof m.id === 'number' && m.id < p.id) return; // a late answer to a request that already timed out
    if (m.id !== p.id) {
      finish('malformed', errorVerdict('malformed', `exec guard answered id ${JSON.stringify(m.id)}, expected ${p.id}`, p.elapsed()));
      return;
    }
    const parsed = parseVerdict(m.verdict);
    if (!parsed.ok) {
      finish('malformed', errorVerdict('malformed', `exec guard answered a malformed verdict: ${parsed.message}`, p.elapsed()));
      return;
    }
    finish(null, { ...parsed.verdict, elapsedUs: p.elapsed() });
  }

  function checkOne(entry: MemoryEntry, ctx: GuardContext): Promise<Verdict> {
    const elapsed = startStopwatch();
    if (closed) return Promise.resolve(errorVerdict('unavailable', 'exec guard was closed', 0));
    let line: string;
    const id = ++seq;
    try {
      line = `${JSON.stringify({ id, ...toWireRequest(entry, ctx) })}\n`;
    } catch (cause) {
      return Promise.resolve(errorVerdict('threw', `could not encode the request: ${cause instanceof Error ? cause.message : String(cause)}`, 0));
    }
    if (!proc) {
      if (failuresInARow > maxRestarts) {
        return Promise.resolve(
          errorVerdict('unavailable', `exec guard gave up after ${failuresInARow} failures in a row${stderrNote()}`, 0),
        );
      }
      proc = start();
    }
    const child = proc;
    return new Promise<Verdict>((settle) => {
      const timer = setTimeout(() => {
        if (pending?.id !== id) return;
        failuresInARow++;
        finish('timeout', errorVerdict('timeout', `exec guard did not answer within ${timeoutMs} ms`, elapsed()));
        proc = null;
        kill(child, 'SIGKILL');
      }, timeoutMs);
      pending = {
        id,
        elapsed,
        settle: (v) => {
          clearTimeout(timer);
          settle(v);
        },
      };
      child.stdin.write(line);
    });
  }

  return {
    id: `exec:${command}`,
    mode: 'async',
    config: { adapter: 'exec', command, timeoutMs, maxRestarts } satisfies ExecGuardConfig,
    check: (entry, ctx) => serial(() => checkOne(entry, ctx)),
    close: async () => {
      closed = true;
      const child = proc;
      proc = null;
      finish('unavailable', errorVerdict('unavailable', 'exec guard was closed', pending?.elapsed() ?? 0));
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((res) => {
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
    },
  };
}

/** Longest reply line read from an exec guard, in characters (a verdict is far smaller). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;
