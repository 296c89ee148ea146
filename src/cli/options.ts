/**
 * Option builders and parsers shared by the commands, so each flag has one help text, one
 * default (from `RUN_DEFAULTS`, `src/domain/defaults.ts`) and one set of bounds.
 */
import { InvalidArgumentError, Option } from 'commander';
import { RUN_DEFAULTS } from '../domain/defaults.js';
import { DOMAINS } from '../domain/fuzz-case.js';
import { GUARD_SPEC_FORMS } from '../guards/resolve.js';
import { MAX_TIMEOUT_MS, positiveInt } from './context.js';

/** Upper bounds of --concurrency and --recheck (beyond these a typo is likelier than intent). */
const MAX_CONCURRENCY = 256;
const MAX_RECHECK = 100;

const CONCURRENCY_HELP = `guard calls in flight for async guards (module async, http, exec, LLM judge); sync guards always use 1 (a module guard without mode: 'sync' counts as async); results are identical for any value without --max-queries (default ${RUN_DEFAULTS.asyncConcurrency})`;
const RECHECK_HELP = `checks of each finding (fuzz) or of a passing/flaky record (replay); one that does not reproduce every time is labelled flaky (default ${RUN_DEFAULTS.recheck})`;

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

/** The help of `--guard`: every form a guard spec can take. */
const GUARD_HELP = `guard to test: ${GUARD_SPEC_FORMS.map((f) => f.trim().replace(/\s{2,}/g, ' = ')).join('; ')}`;
const GUARD_OPTION_HELP = 'option of a built-in guard, repeatable: key=value, the value read as JSON when it parses, else as text; dotted keys reach into nested fields (e.g. tauGuard=0.25, layers=\'["L1-keyword","L5-reasoning-guard"]\', weights.s1=0.2); findings of such a run live in corpora/regressions/<guard>.opts-<hash>.jsonl';

/** Commander collector of a repeatable flag. */
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * `--benign <file>`: one JSONL export. Given twice, it is an error naming both files (it used
 * to keep the last one silently, so the first file's false positives went unmeasured).
 */
export function benignOption(help: string): Option {
  return new Option('--benign <file>', `${help}; one JSON object per line with "id" and "content" (and "source": AGENT for the agent's own reasoning, else TOOL, EXTERNAL, SYSTEM; missing reads as UNKNOWN, which provenance layers distrust); one file per run`).argParser((value: string, previous: string | undefined) => {
    if (previous !== undefined) throw new InvalidArgumentError(`--benign takes one file, and it was given twice (${previous}, then ${value}): join the exports into one (cat a.jsonl b.jsonl > both.jsonl; ids must stay distinct) or run once per file`);
    return value;
  });
}

/** `-g, --guard <spec>`, default `sentinel`. */
export function guardOption(help: string = GUARD_HELP): Option {
  return new Option('-g, --guard <spec>', help).default('sentinel');
}

/** `--guard-option <key=value>`, repeatable (a list of the raw `key=value` texts). */
export function guardOptionFlag(help: string = GUARD_OPTION_HELP): Option {
  return new Option('--guard-option <key=value>', help).argParser(collect);
}

/** `-d, --domain <list>`, default `all`. */
export function domainOption(): Option {
  return new Option('-d, --domain <list>', `domains, comma-separated or "all" (${DOMAINS.join(', ')})`).default('all');
}

/** `--phase write|retrieve`, default `write`. */
export function phaseOption(help = 'guard path'): Option {
  return new Option('--phase <phase>', help).choices(['write', 'retrieve']).default('write');
}

/** `-s, --seed <n>`, no default: the clock gives one, and it is printed. */
export function seedOption(): Option {
  return new Option('-s, --seed <n>', 'fast-check seed (default: derived from the clock, and printed)');
}

/** `-c, --corpus <dir>`, default `corpora/regressions`. */
export function corpusOption(help = 'regression corpus directory'): Option {
  return new Option('-c, --corpus <dir>', help).default('corpora/regressions');
}

/** `--concurrency <n>` (parse with {@link parseConcurrency}). */
export function concurrencyOption(): Option {
  return new Option('--concurrency <n>', CONCURRENCY_HELP);
}

/** `--recheck <k>` (parse with {@link parseRecheck}). */
export function recheckOption(): Option {
  return new Option('--recheck <k>', RECHECK_HELP);
}

/** `-q, --quiet`. */
export function quietOption(help = 'no progress output'): Option {
  return new Option('-q, --quiet', help);
}

