/**
 * Shared wiring for CLI commands: guard resolution, versions, option parsing helpers.
 * The composition root: only `src/cli` touches argv, stdout and exit codes.
 */
import { accessSync, closeSync, constants, existsSync, lstatSync, openSync, readlinkSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { InputError, UsageError, errorMessage } from '../domain/errors.js';
import { outputTarget } from '../corpus/atomic.js';
import { guardSpecSecrets, redactSecrets, registerSecret } from '../domain/secrets.js';
import { didYouMean } from '../domain/suggest.js';
import type { Guard } from '../domain/guard.js';
import { createGuard, GUARDS, isBuiltinGuardId } from '../guards/registry.js';
import { guardSpecKind, resolveGuard } from '../guards/resolve.js';

/** Default folder of run reports: `reports/` in the current working folder. */
export function reportsDir(): string {
  return path.resolve(process.cwd(), 'reports');
}

const BUILTIN_GUARD_IDS = Object.keys(GUARDS);

/**
 * Set once code farma-fuzz does not own may run (a module, HTTP or exec guard, a config file):
 * an uncaught exception is then counted as a guard error (exit 4), not an internal one (main.ts).
 */
export const foreignCode = { loaded: false };

/**
 * Resolves `--guard` (built-in id, module path, http(s) URL or exec:CMD).
 * @throws GuardLoadError as resolveGuard; UsageError when a module, HTTP or exec guard
 *   claims the id of a built-in guard (it would write into that guard's corpus).
 */
export async function loadGuard(spec: string, timeoutMs?: number, guardOptions?: Record<string, unknown>, concurrency?: number): Promise<Guard> {
  // Also here, for the fuzz workers and callers other than main: the spec's password is a secret.
  for (const s of guardSpecSecrets(spec)) registerSecret(s);
  // --guard-option / guardOptions: checked against the guard's schema before anything loads.
  const given = guardOptions !== undefined && Object.keys(guardOptions).length > 0;
  if (given && guardSpecKind(spec) !== 'builtin') {
    throw new UsageError(`--guard-option applies to the built-in guards (${BUILTIN_GUARD_IDS.join(', ')}); ${spec} takes its settings from its own module, server or command`);
  }
  // guard-options.ts holds zod schemas: loaded only when options were given.
  const options = given && isBuiltinGuardId(spec) ? (await import('../guards/guard-options.js')).validateGuardOptions(spec, guardOptions) : undefined;
  if (guardSpecKind(spec) !== 'builtin') foreignCode.loaded = true;
  if (guardSpecKind(spec) === 'module') routeConsoleToStderr();
  const headers = guardSpecKind(spec) === 'http' ? guardHeadersFromEnv(process.env) : undefined;
  const guard = await resolveGuard(
    spec,
    { createBuiltin: (id) => createGuard(id, options), knownIds: BUILTIN_GUARD_IDS },
    { ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(concurrency !== undefined ? { concurrency } : {}), ...(headers ? { http: { headers } } : {}) },
  );
  // The id names the corpus file and appears in every report: it must not carry a secret.
  if (redactSecrets(guard.id) !== guard.id) {
    await Promise.resolve(guard.close?.()).catch(() => undefined);
    const hint = guardSpecKind(spec) === 'exec' ? '; an exec guard inherits the environment, so set the variable before farma-fuzz instead (MY_TOKEN=… farma-fuzz fuzz --guard "exec:node guard.mjs")' : '';
    throw new UsageError(`guard ${redactSecrets(spec)} has an id that contains a secret value from the environment or the command line (${redactSecrets(guard.id)}); give it an id without it (the id names its corpus file)${hint}`);
  }
  if (guardSpecKind(spec) !== 'builtin' && BUILTIN_GUARD_IDS.includes(guard.id)) {
    await Promise.resolve(guard.close?.()).catch(() => undefined);
    throw new UsageError(`guard ${spec} claims the id "${guard.id}" of a built-in guard; give it its own id (its findings would go into corpora/regressions/${guard.id}.jsonl)`);
  }
  return guard;
}

/**
 * Extra request headers for an HTTP guard, from the environment (kept out of argv and shell
 * history): `FARMA_GUARD_AUTHORIZATION` is the `authorization` header's value (a name with
 * AUTH in it, so its value is redacted from every output), `FARMA_GUARD_HEADERS` a JSON object
 * of header names to string values. Only header names reach the report.
 * @throws UsageError naming the variable when `FARMA_GUARD_HEADERS` is not such an object.
 */
export function guardHeadersFromEnv(env: NodeJS.ProcessEnv): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  const raw = env.FARMA_GUARD_HEADERS;
  if (raw !== undefined && raw.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.values(parsed).every((v) => typeof v === 'string')) {
      throw new UsageError('FARMA_GUARD_HEADERS must be a JSON object of header names to string values, e.g. {"x-api-key": "…"}');
    }
    Object.assign(headers, parsed);
  }
  if (env.FARMA_GUARD_AUTHORIZATION !== undefined && env.FARMA_GUARD_AUTHORIZATION !== '') headers.authorization = env.FARMA_GUARD_AUTHORIZATION;
  return Object.keys(headers).length > 0 ? headers : undefined;
}

let consoleRouted = false;

/**
 * stdout carries farma-fuzz's own output only (the JSON lines of `check`, the summaries, which
 * it writes with `process.stdout.write`): what a module guard prints with `console.log`,
 * `console.info` or `console.debug` goes to stderr, so `check > verdicts.jsonl` stays JSONL.
 */
function routeConsoleToStderr(): void {
  if (consoleRouted) return;
  consoleRouted = true;
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
}

/** Largest timer Node accepts, ms (2^31 − 1); longer ones silently become 1 ms. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** Parses a positive integer option (at most `max`), or throws UsageError naming the flag. */
export function positiveInt(flag: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  if (n > max) throw new UsageError(`${flag} must be at most ${max}, got "${value}"`);
  return n;
}

/** Parses a seed (any 32-bit unsigned integer). */
export function parseSeed(value: string | undefined): number {
  if (value === undefined) return (Date.now() ^ (process.pid << 16)) >>> 0;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new UsageError(`--seed must be an integer in [0, 4294967295], got "${value}"`);
  return n;
}

/** Splits a comma list, checking each item against the allowed ids; `all` means every id. */
export function parseList<T extends string>(flag: string, value: string, allowed: readonly T[]): T[] {
  if (value === 'all') return [...allowed];
  const items = [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item)) throw new UsageError(`${flag}: unknown value "${item}"${didYouMean(item, [...allowed, 'all'])} (known: ${allowed.join(', ')}, all)`);
  }
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value (known: ${allowed.join(', ')}, all)`);
  return items as T[];
}

export function parsePhase(value: string): 'write' | 'retrieve' {
  if (value !== 'write' && value !== 'retrieve') throw new UsageError(`--phase must be write or retrieve, got "${value}"`);
  return value;
}

/**
 * Checks before a long run that an output path can be written, so a typo never throws results
 * away. A missing directory is not created here (the writer creates it when it writes), so a
 * run refused later (an unknown guard, a bad option) leaves no empty folder behind: the nearest
 * existing ancestor must be a writable directory.
 * @throws UsageError naming the flag when the path or an ancestor is a file, is not writable, or
 *   is a symbolic link to nothing (or a loop of links).
 */
export function writableDir(flag: string, dir: string): string {
  const abs = path.resolve(dir);
  // The nearest ancestor that is there at all (lstat: a dangling link is there, existsSync says it is not).
  let probe = abs;
  while (!lexists(probe) && path.dirname(probe) !== probe) probe = path.dirname(probe);
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(probe);
  } catch (e) {
    // A symbolic link to nothing, or a loop of links: mkdir would fail after the run.
    const code = (e as { code?: unknown }).code;
    let to = '';
    try {
      to = ` to ${readlinkSync(probe)}`;
    } catch {
      // not a link itself: an ancestor of it is
    }
    const what = code === 'ELOOP' ? 'a loop of symbolic links' : `a dangling symbolic link${to}, which does not exist`;
    throw new UsageError(`${flag} ${dir}: ${probe === abs ? '' : `${probe} is `}${what}; create the target directory or give another path`);
  }
  if (probe === abs && !info.isDirectory()) throw new UsageError(`${flag} ${dir}: exists and is not a directory`);
  if (!info.isDirectory()) throw new UsageError(`${flag} ${dir}: cannot create this directory (${probe} is not a directory)`);
  try {
    accessSync(probe, constants.W_OK);
  } catch (e) {
    throw new UsageError(`${flag} ${dir}: cannot create or write this directory (${errorMessage(e)})`);
  }
  return abs;
}

/** Whether `p` is there, a dangling symbolic link included (`existsSync` follows links). */
function lexists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks before a long run that an output file (`--junit`, `--html`) can be written, so the
 * run never fails at its end. A FIFO or a device (`/dev/null`, `>(cmd)`) is
 * accepted and later written in place, a symlink's target must exist, a regular file must be
 * writable (never replaced when read-only), a missing file needs a writable folder.
 * @throws UsageError naming the flag when the path is a directory, a socket, a dangling
 *   symlink, a read-only file, or cannot be created.
 */
export function writableFile(flag: string, file: string): string {
  const abs = path.resolve(file);
  const target = outputTarget(abs);
  if (target.kind === 'refused') throw new UsageError(`${flag} ${file}: ${target.reason}`);
  if (target.kind === 'special') {
    try {
      accessSync(abs, constants.W_OK);
    } catch (e) {
      throw new UsageError(`${flag} ${file}: cannot be written (${errorMessage(e)})`);
    }
    return abs;
  }
  writableDir(flag, path.dirname(target.path));
  return abs;
}

/**
 * `--benign FILE` must name a file with at least one non-blank line: an empty export would
 * otherwise give a real-set row with no entries, easy to miss.
 * @throws UsageError when the file is missing; InputError when it holds nothing.
 */
export function checkBenignFile(file: string): void {
  if (!existsSync(file)) throw new UsageError(`--benign ${file}: no such file`);
  if (!statSync(file).isFile()) throw new UsageError(`--benign ${file}: not a file (a JSONL file of memory entries is expected)`);
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    for (let pos = 0; ; ) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      if (/[^\s\uFEFF]/.test(buf.subarray(0, n).toString('utf8'))) return;
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  throw new InputError('--benign: the file holds no entries (it is empty or blank); give a JSONL export with one memory entry per line', { file });
}

/**
 * Checks, before a run, that a `--benign` export has at least one usable entry: a file whose
 * every line is malformed (CSV, a JSON array, wrong fields) would otherwise run to the end and
 * print an empty row.
 * @throws InputError naming the file, with the first three bad lines (file:line: message).
 */
export async function checkBenignUsable(file: string): Promise<void> {
  const { loadBenignJsonl } = await import('../corpus/benign-sets.js');
  const { entries, issues } = loadBenignJsonl(file);
  if (entries.length > 0) return;
  const first = issues.slice(0, 3).map((i) => `  ${i.file}:${i.line}: ${i.message}`);
  throw new InputError(`--benign: no line of the file is a usable memory entry (${issues.length} bad ${issues.length === 1 ? 'line' : 'lines'}${issues.length > 3 ? ', the first three' : ''}):\n${first.join('\n')}\ngive a JSONL export with one memory entry per line, each an object with at least "id" and "content" (the README says which other fields are read)`, { file });
}

/** Folder name of a run: `<date>-<time>-<guard>-<seed>` (UTC), the guard id made file-safe. */
export function defaultRunId(guardId: string, seed: number, date: Date): string {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return `${stamp}-${guardId.replace(/[^\w.-]+/g, '_').slice(0, 40)}-${seed}`;
}
