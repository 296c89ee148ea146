/**
 * Shared wiring for CLI commands: guard resolution, versions, option parsing helpers.
 * The composition root: only `src/cli` touches argv, stdout and exit codes.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError, errorMessage } from '../domain/errors.js';
import { redactSecrets } from '../domain/secrets.js';
import { PACKAGE_ROOT } from '../domain/package-root.js';
import type { Guard } from '../domain/guard.js';
import { createGuard, GUARDS, isBuiltinGuardId } from '../guards/registry.js';
import { guardSpecKind, resolveGuard } from '../guards/resolve.js';

/**
 * How the user runs the CLI, for the commands it prints: `npm run cli --` inside the
 * farma-fuzz checkout, `npx farma-fuzz` in any other project. (Reports, corpora and every
 * relative path on the command line are relative to `process.cwd()`; the package folder
 * only supplies bundled data and is never written to.)
 */
export function cliCommand(): string {
  return path.resolve(process.cwd()) === PACKAGE_ROOT ? 'npm run cli --' : 'npx farma-fuzz';
}

/** Default folder of run reports: `reports/` in the current working folder. */
export function reportsDir(): string {
  return path.resolve(process.cwd(), 'reports');
}

/**
 * The version of a package as this install resolves it: farma-fuzz itself, or a dependency
 * found the way Node finds it (`node_modules` of the package, then of every folder above,
 * which is where npm hoists dependencies in a consumer's project).
 */
function readVersion(pkg: string): string {
  const read = (file: string): string | undefined => {
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
    } catch {
      return undefined;
    }
  };
  if (pkg === 'farma-fuzz') return read(path.join(PACKAGE_ROOT, 'package.json')) ?? 'unknown';
  for (let dir = PACKAGE_ROOT; ; dir = path.dirname(dir)) {
    const v = read(path.join(dir, 'node_modules', pkg, 'package.json'));
    if (v !== undefined) return v;
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

/** Versions recorded in every report and corpus record. */
export function versions(): Record<string, string> {
  return {
    'farma-fuzz': readVersion('farma-fuzz'),
    'fast-check': readVersion('fast-check'),
    handlebars: readVersion('handlebars'),
    '@faker-js/faker': readVersion('@faker-js/faker'),
    'better-sqlite3': readVersion('better-sqlite3'),
    node: process.version,
  };
}

const BUILTIN_GUARD_IDS = Object.keys(GUARDS);

/**
 * Resolves `--guard` (built-in id, module path, http(s) URL or exec:CMD).
 * @throws GuardLoadError as resolveGuard; UsageError when a module, HTTP or exec guard
 *   claims the id of a built-in guard (it would write into that guard's corpus).
 */
export async function loadGuard(spec: string, timeoutMs?: number, guardOptions?: Record<string, unknown>, concurrency?: number): Promise<Guard> {
  // --guard-option / guardOptions (issue 10.6): checked against the guard's schema before anything loads.
  const given = guardOptions !== undefined && Object.keys(guardOptions).length > 0;
  if (given && guardSpecKind(spec) !== 'builtin') {
    throw new UsageError(`--guard-option applies to the built-in guards (${BUILTIN_GUARD_IDS.join(', ')}); ${spec} takes its settings from its own module, server or command`);
  }
  // guard-options.ts holds zod schemas: loaded only when options were given.
  const options = given && isBuiltinGuardId(spec) ? (await import('../guards/guard-options.js')).validateGuardOptions(spec, guardOptions) : undefined;
  const guard = await resolveGuard(
    spec,
    { createBuiltin: (id) => createGuard(id, options), knownIds: BUILTIN_GUARD_IDS },
    { ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(concurrency !== undefined ? { concurrency } : {}) },
  );
  // The id names the corpus file and appears in every report: it must not carry a secret.
  if (redactSecrets(guard.id) !== guard.id) {
    await Promise.resolve(guard.close?.()).catch(() => undefined);
    throw new UsageError(`guard ${redactSecrets(spec)} has an id that contains a secret value from the environment (${redactSecrets(guard.id)}); give it an id without it (the id names its corpus file)`);
  }
  if (guardSpecKind(spec) !== 'builtin' && BUILTIN_GUARD_IDS.includes(guard.id)) {
    await Promise.resolve(guard.close?.()).catch(() => undefined);
    throw new UsageError(`guard ${spec} claims the id "${guard.id}" of a built-in guard; give it its own id (its findings would go into corpora/regressions/${guard.id}.jsonl)`);
  }
  return guard;
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
    if (!(allowed as readonly string[]).includes(item)) throw new UsageError(`${flag}: unknown value "${item}" (known: ${allowed.join(', ')}, all)`);
  }
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value (known: ${allowed.join(', ')}, all)`);
  return items as T[];
}

export function parsePhase(value: string): 'write' | 'retrieve' {
  if (value !== 'write' && value !== 'retrieve') throw new UsageError(`--phase must be write or retrieve, got "${value}"`);
  return value;
}

/** Checks before a long run that an output path can be written, so a typo never throws results away. */
export function writableDir(flag: string, dir: string): string {
  const abs = path.resolve(dir);
  if (existsSync(abs) && !statSync(abs).isDirectory()) throw new UsageError(`${flag} ${dir}: exists and is not a directory`);
  try {
    mkdirSync(abs, { recursive: true });
    accessSync(abs, constants.W_OK);
  } catch (e) {
    throw new UsageError(`${flag} ${dir}: cannot create or write this directory (${errorMessage(e)})`);
  }
  return abs;
}

export function writableFile(flag: string, file: string): string {
  const abs = path.resolve(file);
  if (existsSync(abs) && statSync(abs).isDirectory()) throw new UsageError(`${flag} ${file}: is a directory, give a file name`);
  writableDir(flag, path.dirname(abs));
  return abs;
}
