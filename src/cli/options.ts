/**
 * Option builders and parsers shared by the commands, so each flag has one help text, one
 * default (from `RUN_DEFAULTS`, `src/domain/defaults.ts`) and one set of bounds.
 */
import { Option } from 'commander';
import { RUN_DEFAULTS } from '../domain/defaults.js';
import { MAX_TIMEOUT_MS, positiveInt } from './context.js';

/** Upper bounds of --concurrency and --recheck (beyond these a typo is likelier than intent). */
const MAX_CONCURRENCY = 256;
const MAX_RECHECK = 100;

export const CONCURRENCY_HELP = `guard calls in flight for async guards (module async, http, exec, LLM judge); sync guards always use 1; results are identical for any value (default ${RUN_DEFAULTS.asyncConcurrency})`;
export const RECHECK_HELP = `checks of each finding (fuzz) or of a passing/flaky record (replay); one that does not reproduce every time is labelled flaky (default ${RUN_DEFAULTS.recheck})`;

/** `--timeout <ms>`, default `RUN_DEFAULTS.guardTimeoutMs`. */
export function timeoutOption(): Option {
  return new Option('--timeout <ms>', 'per-entry time bound for module, http and exec guards').default(String(RUN_DEFAULTS.guardTimeoutMs));
}

/** Parses `--timeout` (ms, 1 .. 2^31 − 1). @throws UsageError naming the flag. */
export function parseTimeout(value: string | undefined): number {
  return positiveInt('--timeout', value, RUN_DEFAULTS.guardTimeoutMs, MAX_TIMEOUT_MS);
}

/** Parses `--concurrency` (1 .. 256; default `RUN_DEFAULTS.asyncConcurrency`). @throws UsageError naming the flag. */
export function parseConcurrency(value: string | undefined): number {
  return positiveInt('--concurrency', value, RUN_DEFAULTS.asyncConcurrency, MAX_CONCURRENCY);
}

/** Parses `--recheck` (1 .. 100; default `RUN_DEFAULTS.recheck`). @throws UsageError naming the flag. */
export function parseRecheck(value: string | undefined): number {
  return positiveInt('--recheck', value, RUN_DEFAULTS.recheck, MAX_RECHECK);
}
