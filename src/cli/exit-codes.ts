/**
 * Exit codes of the command line, one per kind of outcome. Only `src/cli` sets them; library
 * code throws errors whose `code` (see `src/domain/errors.ts`) picks the exit code here.
 *
 * | code | meaning |
 * | ---: | --- |
 * | 0 | every invariant held (or the command did what it was asked) |
 * | 1 | a property failed, the CI gate failed, a `fixed` regression came back, or (`compare`) report B is significantly worse than A |
 * | 2 | usage or configuration: a bad flag, option or config value, or an LLM endpoint that refuses the key, does not exist or cannot be reached |
 * | 3 | input: a file, record, corpus or memory store is malformed, unreadable or not writable |
 * | 4 | guard: the guard cannot be loaded or started, or it answered `error` where a verdict was needed (`check`, `import`, any record of a `replay`; every call of a `fuzz` run), or guard or config code ended the process early |
 * | 5 | internal error of farma-fuzz (please report it) |
 * | 130 | interrupted (Ctrl-C); what ran so far is kept (143 for SIGTERM, 129 for SIGHUP: 128 + the signal's number) |
 */
import { errorCode, type ErrorCode } from '../domain/errors.js';

export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  input: 3,
  guard: 4,
  internal: 5,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The signals that stop a run as Ctrl-C does: SIGINT, SIGTERM (`timeout`, `docker stop`, CI cancellation), SIGHUP (a closed terminal). */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The exit code of a run stopped by `signal`: the shell's 128 + the signal's number (130, 143, 129). */
export function exitCodeOfSignal(signal: StopSignal): 129 | 130 | 143 {
  return signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 129;
}

/** How the closing lines name a stop: `Ctrl-C` for SIGINT, else the signal's name. */
export function stopName(signal: StopSignal): string {
  return signal === 'SIGINT' ? 'Ctrl-C' : signal;
}

const BY_ERROR_CODE: Record<ErrorCode, ExitCode> = {
  usage: EXIT.usage,
  llm: EXIT.usage,
  input: EXIT.input,
  guard: EXIT.guard,
  internal: EXIT.internal,
};

/** The exit code for a thrown value (anything outside the error tree is `internal`). */
export function exitCodeOfError(e: unknown): ExitCode {
  return BY_ERROR_CODE[errorCode(e)];
}

/** The table above as plain lines, for `--help`. */
export const EXIT_CODES_HELP = `Exit codes:
  0    every invariant held (the command did what it was asked)
  1    a property failed, the CI gate failed, a fixed regression came back, or (compare) B is significantly worse than A
  2    usage or configuration: bad flag, option or config value; LLM endpoint refusing the key, missing or unreachable
  3    input: a file, record, corpus or memory store is malformed, unreadable or not writable
  4    guard: the guard cannot be loaded or started, or answered error where a verdict was needed (check, import,
       any record of a replay, every call of a fuzz or fpr run, every start case of a search), or guard or config code ended the
       process before the command finished (process.exit(0) included)
  5    internal error of farma-fuzz
  130  interrupted (Ctrl-C); 143 for SIGTERM, 129 for SIGHUP (the partial report and corpus are written)`;
