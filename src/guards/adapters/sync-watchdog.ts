/**
 * A watchdog for the synchronous part of a module guard's `check` (docs/guard-protocol.md,
 * "Crashes, timeouts and the circuit"). A check that blocks the JavaScript thread (an endless
 * loop, a regular expression that backtracks without end) cannot be cut off inside the
 * process, so before this a run simply hung, with no word of which guard or which entry. As
 * pytest-timeout's `thread` method does, a watchdog thread notices a call that has run past
 * its hang limit, writes to stderr which guard it was and the entry it was checking (the whole
 * entry to a JSON file in the OS temp folder), and ends the process with SIGKILL (exit 137 in a
 * shell): the only signal a blocked thread cannot defer. Records written before (corpus lines,
 * earlier reports) stay as they are; the report of this run is not written.
 *
 * Cost on the calling thread per call: the entry's JSON (content cut at 64 KiB) copied into a
 * shared buffer, and two atomic stores. The watchdog thread starts with the first call and never
 * keeps the process alive.
 */
import { Worker } from 'node:worker_threads';

/** Environment variable that sets the hang limit in ms (a positive integer). */
const HANG_ENV = 'FARMA_FUZZ_HANG_MS';
/** Smallest default hang limit, ms: a sync call over its timeout is already reported; this is for calls that never return. */
const MIN_HANG_MS = 30_000;
/** Bytes of the entry description kept for the watchdog. */
const NOTE_BYTES = 96 * 1024;
/** Characters of the entry's content put in the description. */
const CONTENT_CHARS = 64 * 1024;

/**
 * The hang limit for a guard with per-call bound `timeoutMs`: `FARMA_FUZZ_HANG_MS` when set,
 * else 4 × `timeoutMs`, at least 30 s.
 * @throws RangeError naming FARMA_FUZZ_HANG_MS when it is set but not a positive integer.
 */
export function hangLimitMs(timeoutMs: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[HANG_ENV];
  if (raw !== undefined && raw.trim() !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0) throw new RangeError(`${HANG_ENV}=${raw}: expected a positive integer number of milliseconds`);
    return n;
  }
  return Math.max(MIN_HANG_MS, 4 * timeoutMs);
}

// Shared layout: [0] call counter (odd while a call runs), [1] hang limit ms, [2] note length in bytes.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const state = new Int32Array(workerData.state);
const note = new Uint8Array(workerData.note);
for (;;) {
  const seq = Atomics.load(state, 0);
  if ((seq & 1) === 0) { Atomics.wait(state, 0, seq); continue; }
  const limit = Atomics.load(state, 1);
  if (Atomics.wait(state, 0, seq, limit) !== 'timed-out' || Atomics.load(state, 0) !== seq) continue;
  let text = Buffer.from(note.subarray(0, Atomics.load(state, 2))).toString('utf8');
  let d = {};
  try { d = JSON.parse(text); } catch {}
  const file = path.join(os.tmpdir(), 'farma-fuzz-hung-entry-' + process.pid + '.json');
  let saved = '';
  try { fs.writeFileSync(file, JSON.stringify(d.entry ?? null, null, 2) + '\\n'); saved = ' The entry is saved in ' + file + '.'; } catch {}
  const e = d.entry ?? {};
  const content = typeof e.content === 'string' ? e.content : '';
  const shown = JSON.stringify(content.length > 300 ? content.slice(0, 300) + '…' : content);
  fs.writeSync(2, '\\nfarma-fuzz: guard ' + d.guard + ' (module ' + d.file + ') has been inside one synchronous check() call for ' + (limit / 1000).toFixed(1) + ' s (its --timeout is ' + d.timeoutMs + ' ms; the hang limit is ' + limit + ' ms, ' + ${JSON.stringify(HANG_ENV)} + '). '
    + 'A call that blocks the JavaScript thread cannot be cut off inside the process, so farma-fuzz stops now (SIGKILL, exit 137); the report of this run is not written, and what was written before stays.\\n'
    + '  entry: id ' + e.id + ', ' + d.phase + ' path, ' + (d.length ?? content.length) + ' characters: ' + shown + '\\n'
    + '  ' + saved.trim() + '\\n'
    + '  Fix the loop, or run the guard as an exec: guard, whose calls are cut off at --timeout and reported as timeouts.\\n');
  process.kill(process.pid, 'SIGKILL');
}
`;

let shared: { state: Int32Array; note: Uint8Array } | undefined;
const encoder = new TextEncoder();

function watchdog(): { state: Int32Array; note: Uint8Array } {
  if (shared) return shared;
  const stateBuf = new SharedArrayBuffer(3 * 4);
  const noteBuf = new SharedArrayBuffer(NOTE_BYTES);
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { state: stateBuf, note: noteBuf }, stdout: false, stderr: false });
  worker.unref();
  shared = { state: new Int32Array(stateBuf), note: new Uint8Array(noteBuf) };
  return shared;
}

/** What the watchdog reports about a call: the guard and the entry it is given. */
export interface WatchedCall {
  guard: string;
  file: string;
  timeoutMs: number;
  hangMs: number;
  phase: string;
  entry: { id: string; content: string } & Record<string, unknown>;
}

/**
 * Runs `fn` (a guard's synchronous `check` call) under the watchdog: past `call.hangMs` the
 * process is ended as described above. Nested calls are not expected (a guard is called one at
 * a time per thread); the result and any throw of `fn` pass through unchanged.
 */
export function watchSync<T>(call: WatchedCall, fn: () => T): T {
  const w = watchdog();
  const content = call.entry.content;
  const head = { guard: call.guard, file: call.file, timeoutMs: call.timeoutMs, phase: call.phase, length: content.length };
  let note: string;
  try {
    note = JSON.stringify({ ...head, entry: content.length > CONTENT_CHARS ? { ...call.entry, content: content.slice(0, CONTENT_CHARS) } : call.entry });
  } catch {
    // Metadata JSON cannot hold (a BigInt, a cycle): the id and the content still find the entry.
    note = JSON.stringify({ ...head, entry: { id: call.entry.id, content: content.slice(0, CONTENT_CHARS) } });
  }
  let { read, written } = encoder.encodeInto(note, w.note);
  if (read < note.length) {
    // Metadata too large for the buffer: the id and the start of the content are enough to find the entry.
    ({ written } = encoder.encodeInto(JSON.stringify({ ...head, entry: { id: call.entry.id, content: content.slice(0, 4096) } }), w.note));
  }
  Atomics.store(w.state, 2, written);
  Atomics.store(w.state, 1, call.hangMs);
  Atomics.add(w.state, 0, 1);
  Atomics.notify(w.state, 0);
  try {
    return fn();
  } finally {
    Atomics.add(w.state, 0, 1);
    Atomics.notify(w.state, 0);
  }
}
