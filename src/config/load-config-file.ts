/**
 * Finds, loads and checks a `farma-fuzz.config.{ts,mjs,js}` file. The file is an ES module
 * whose default export is the config; it is loaded with dynamic `import()`, so `.ts` files
 * need a TypeScript-aware loader (the CLI runs under tsx).
 */
import { existsSync, readFileSync } from 'node:fs';
import { types } from 'node:util';
import { zod } from '../domain/zod-lazy.js';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { DOMAINS } from '../domain/fuzz-case.js';
import { UsageError, errorMessage } from '../domain/errors.js';
import { didYouMean } from '../domain/suggest.js';
import { reservedOptionPath } from '../domain/reserved-names.js';

const isProxy = (v: unknown): boolean => types.isProxy(v);
import type { FarmaFuzzConfig } from './define-config.js';
import { importModule } from '../guards/adapters/import-module.js';

/** File names looked for in the working folder, first found wins. */
const CONFIG_FILE_NAMES = ['farma-fuzz.config.ts', 'farma-fuzz.config.mjs', 'farma-fuzz.config.js'] as const;

/** The config file `fuzz` would read in `cwd` ({@link CONFIG_FILE_NAMES}, in that order), or undefined. Reads nothing. */
export function configFileIn(cwd: string = process.cwd()): string | undefined {
  return CONFIG_FILE_NAMES.map((n) => path.join(cwd, n)).find((p) => existsSync(p));
}


/** Names known to the checker; each list is optional (without it any non-empty string passes). */
export interface KnownIds {
  families?: readonly string[];
  domains?: readonly string[];
}

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'function') return 'a function';
  // JSON writes Infinity and NaN as null, which is not what the file says.
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** Problem text of a config field: what it must be, and optionally the offending value. */
interface Want {
  want: string;
  got?: unknown;
}

/**
 * The zod schema of a config file's default export. Strict: an unknown key is an
 * error naming it. `guardOptions` is an object whose keys and values the guard's own schema
 * checks when the guard is built; `concurrency`, `recheck`, `cellTime`, `maxQueries` and
 * `shrinkBudget` are positive integers; `attack` is an object of its own (`AttackConfig`).
 * @param known the family and domain ids accepted in `families` and `domains`.
 */
export function configSchema(known: KnownIds = {}) {
  const z = zod();
  const want = (w: string) => ({ error: w });
  const posInt = z.number(want('a positive integer')).int(want('a positive integer')).positive(want('a positive integer'));
  const nonEmpty = z.string(want('a non-empty string')).refine((x) => x.trim() !== '', want('a non-empty string'));
  // The CLI's forms: "all", one id, a comma-separated list ("seed,naive"), or an array of ids.
  const list = (allowed: readonly string[] | undefined) => {
    const w = `"all", an id, a comma-separated list or an array of ${allowed ? `ids (${allowed.join(', ')})` : 'strings'}`;
    return z.unknown().superRefine((x, ctx) => {
      if (x === 'all') return;
      const items = typeof x === 'string' ? x.split(',').map((i) => i.trim()) : x;
      if (!Array.isArray(items) || items.length === 0 || !items.every((i) => typeof i === 'string' && i.trim() !== '')) {
        ctx.addIssue({ code: 'custom', message: w });
        return;
      }
      for (const item of items as string[]) {
        if (allowed && item !== 'all' && !allowed.includes(item)) ctx.addIssue({ code: 'custom', message: w, params: { got: item, hint: didYouMean(item, allowed) } });
      }
    }) as unknown as ReturnType<typeof z.custom<string | readonly string[]>>;
  };
  const rate = z.number(want('a rate in [0,1]')).min(0, want('a rate in [0,1]')).max(1, want('a rate in [0,1]'));
  return z.strictObject(
    {
      guard: nonEmpty.optional(),
      families: list(known.families).optional(),
      domains: list(known.domains ?? DOMAINS).optional(),
      runs: posInt.optional(),
      seed: z.number(want('an integer in [0, 4294967295]')).int(want('an integer in [0, 4294967295]')).min(0, want('an integer in [0, 4294967295]')).max(0xffffffff, want('an integer in [0, 4294967295]')).optional(),
      time: posInt.optional(),
      phase: z.enum(['write', 'retrieve'], want('"write" or "retrieve"')).optional(),
      maxFailures: posInt.optional(),
      concurrency: posInt.optional(),
      recheck: posInt.optional(),
      cellTime: posInt.optional(),
      thresholds: z.strictObject({ maxFpr: rate.optional(), maxBypass: rate.optional() }, want('an object { maxFpr?, maxBypass? }')).optional(),
      junit: nonEmpty.optional(),
      html: z.union([z.boolean(), nonEmpty], want('true, false or a path (a non-empty string)')).optional(),
      corpus: z.union([z.literal(false), nonEmpty], want('false or a folder path (a non-empty string)')).optional(),
      out: nonEmpty.optional(),
      guardOptions: z.record(z.string(), z.unknown(), want('an object of guard options')).optional(),
      precision: z.number(want('a half-width in (0, 0.5]')).gt(0, want('a half-width in (0, 0.5]')).max(0.5, want('a half-width in (0, 0.5]')).optional(),
      target: z.number(want('a rate in (0,1]')).gt(0, want('a rate in (0,1]')).max(1, want('a rate in (0,1]')).optional(),
      exhaustive: z.boolean(want('true or false')).optional(),
      maxQueries: posInt.optional(),
      shrinkBudget: posInt.optional(),
      costPerQuery: z.number(want('a number >= 0')).min(0, want('a number >= 0')).refine((x) => Number.isFinite(x), want('a number >= 0')).optional(),
      cache: z.boolean(want('true or false')).optional(),
      workers: z
        .union([z.literal('auto', want('"auto" or a positive integer up to 64')), z.number(want('"auto" or a positive integer up to 64')).int(want('"auto" or a positive integer up to 64')).positive(want('"auto" or a positive integer up to 64')).max(64, want('"auto" or a positive integer up to 64'))], want('"auto" or a positive integer up to 64'))
        .optional(),
      attack: z
        .strictObject(
          {
            bases: posInt.optional(),
            budget: posInt.optional(),
            feedback: z.enum(['auto', 'score', 'decision'], want('"auto", "score" or "decision"')).optional(),
            operators: list(undefined).optional(),
          },
          want('an object { bases?, budget?, feedback?, operators? }'),
        )
        .optional(),
    },
    want('a config object'),
  );
}

/** The config keys, for messages. */
const fields = (): string[] => Object.keys(configSchema().shape);

function valueAt(root: unknown, at: ReadonlyArray<PropertyKey>): unknown {
  let v = root;
  for (const p of at) v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/**
 * Checks a config value against {@link configSchema}.
 * @param where the file name, used in error messages.
 * @returns the same value, typed.
 * @throws UsageError naming the file and the field, e.g.
 *   `farma-fuzz.config.ts: "runs" must be a positive integer, got "many"`.
 */
export function validateConfig(value: unknown, where: string, known: KnownIds = {}): FarmaFuzzConfig {
  // A Proxy can answer each read differently (and its traps run code): only plain data is a config.
  if (isProxy(value)) throw new UsageError(`${where}: the default export is a Proxy; export a plain config object (defineConfig({...}))`);
  if (isThenable(value)) {
    // Mark it handled: a rejected one would otherwise also be reported as an unhandled rejection.
    Promise.resolve(value).catch(() => undefined);
    throw new UsageError(`${where}: the default export is a Promise; export the config object itself (use top-level await in the file if something must be awaited first)`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${where}: the default export must be a config object (use defineConfig({...})), got ${show(value)}`);
  }
  const guardOptions = (value as { guardOptions?: unknown }).guardOptions;
  if (guardOptions !== undefined) {
    const proxy = proxyPath(guardOptions, 'guardOptions');
    if (proxy !== undefined) throw new UsageError(`${where}: ${proxy} is a Proxy; give plain objects`);
    const reserved = reservedOptionPath(guardOptions, 'guardOptions');
    if (reserved !== undefined) throw new UsageError(`${where}: ${reserved}: "${reserved.split('.').pop() ?? ''}" is not an option name (a reserved JavaScript property name)`);
  }
  const r = configSchema(known).safeParse(value);
  if (r.success) return value as FarmaFuzzConfig;
  const issue = r.error.issues[0]!;
  const at = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const key = [...at, issue.keys[0] ?? '?'].join('.');
    const knownKeys = at.length === 0 ? fields().join(', ') : at[0] === 'attack' ? 'bases, budget, feedback, operators' : 'maxFpr, maxBypass';
    throw new UsageError(`${where}: unknown field "${key}" (known: ${knownKeys})`);
  }
  const w: Want = { want: issue.message };
  const params = (issue as { params?: { got?: unknown; hint?: string } }).params;
  w.got = params && 'got' in params ? params.got : valueAt(value, issue.path);
  throw new UsageError(`${where}: "${at.join('.')}" must be ${w.want}, got ${show(w.got)}${params?.hint ?? ''}`);
}

function isThenable(v: unknown): boolean {
  return (typeof v === 'object' || typeof v === 'function') && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** The dotted path of the first Proxy in `value` (itself, or an object below it), or undefined. */
function proxyPath(value: unknown, at: string, depth = 0): string | undefined {
  if (isProxy(value)) return at;
  if (typeof value !== 'object' || value === null || depth > 32) return undefined;
  for (const [k, v] of Object.entries(value)) {
    const inner = proxyPath(v, `${at}.${k}`, depth + 1);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** A relative path made absolute against `dir`; a guard spec only when it names a file (`./`, `../`). */
function resolvePaths(c: FarmaFuzzConfig, dir: string): FarmaFuzzConfig {
  const abs = (p: string): string => path.resolve(dir, p);
  const out: FarmaFuzzConfig = { ...c };
  if (c.guard !== undefined && /^\.\.?[\\/]/.test(c.guard)) out.guard = abs(c.guard);
  if (c.junit !== undefined) out.junit = abs(c.junit);
  if (typeof c.html === 'string') out.html = abs(c.html);
  if (typeof c.corpus === 'string') out.corpus = abs(c.corpus);
  if (c.out !== undefined) out.out = abs(c.out);
  return out;
}

/**
 * Loads the config file.
 *
 * - With `file`, loads that file (relative to `cwd`); it must exist.
 * - Without, looks in `cwd` for {@link CONFIG_FILE_NAMES}, in that order; when none is
 *   there, returns `{ config: {} }` and no `file`.
 * - Checks every field ({@link validateConfig}); relative `junit`, `html`, `corpus`, `out`
 *   paths and `./`/`../` guard module paths are made absolute against the file's folder.
 *
 * @returns the checked config and the absolute path of the file it came from.
 * @throws UsageError when the file is missing, fails to load (syntax or import error, kept
 *   as `cause`), has no default export, exports a Promise or a Proxy, throws while it is read
 *   (a getter), has a bad field, or a reserved name (`__proto__`, `constructor`, `prototype`)
 *   among its `guardOptions`; the message names the file and the field.
 * @example
 * const { config, file } = await loadConfigFile(opts.config);
 */
export async function loadConfigFile(file?: string, cwd: string = process.cwd(), known: KnownIds = {}): Promise<{ config: FarmaFuzzConfig; file?: string }> {
  let found: string | undefined;
  if (file !== undefined) {
    found = path.resolve(cwd, file);
    if (!existsSync(found)) throw new UsageError(`config file not found: ${found}`);
  } else {
    found = configFileIn(cwd);
    if (found === undefined) return { config: {} };
  }
  let mod: { default?: unknown };
  try {
    mod = (await importModule(found)) as { default?: unknown };
  } catch (cause) {
    // The loader's error may be a SyntaxError or a bundler's parse failure; `node --check` tells whether the file itself does not parse, and where.
    const where = syntaxErrorLine(found);
    throw new UsageError(`${where ?? found}: cannot load the config file: ${errorMessage(cause)}`, { cause });
  }
  let config: FarmaFuzzConfig;
  try {
    const exported = esModuleDefault(mod.default);
    if (exported === undefined) throw new UsageError(`${found}: no default export (write \`export default defineConfig({...})\`)`);
    config = validateConfig(exported, found, known);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    // A getter or a Proxy trap of the config threw while it was read: the file's fault, not farma-fuzz's.
    throw new UsageError(`${found}: reading the config's default export threw: ${errorMessage(e)}; export a plain object (defineConfig({...}))`, { cause: e });
  }
  return { config: resolvePaths(config, path.dirname(found)), file: found };
}

/**
 * The default export of a config file. In a CommonJS project (no `"type": "module"`) a `.ts`
 * file's `export default` is compiled to `exports.default`, and the namespace's `default` is the
 * `{ default: config }` bag around it: the config is inside.
 */
function esModuleDefault(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value).filter((k) => k !== '__esModule');
  return keys.length === 1 && keys[0] === 'default' ? (value as { default: unknown }).default : value;
}

/**
 * `file:line` of a syntax error in a JavaScript config file, found by `node --check` (the
 * error of a dynamic `import()` carries no position); undefined when the file parses. Undefined for other files (tsx already
 * names the line of a `.ts` or `.json` error) or when the check finds nothing.
 */
function syntaxErrorLine(file: string): string | undefined {
  if (!/\.(?:m|c)?js$/.test(file)) return undefined;
  const lineOf = (stderr: string | null, name: string): string | undefined => {
    const m = /^(.*):(\d+)\r?$/m.exec(stderr ?? '');
    return m && m[1] === name ? m[2] : undefined;
  };
  const asFile = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', timeout: 10_000 });
  let line = lineOf(asFile.stderr, file);
  // A `.js` file is checked as CommonJS unless a package.json says otherwise: check it as a module too.
  if (line === undefined && file.endsWith('.js')) {
    const asModule = spawnSync(process.execPath, ['--input-type=module', '--check'], { encoding: 'utf8', timeout: 10_000, input: readFileSync(file, 'utf8') });
    line = lineOf(asModule.stderr, '[stdin]');
  }
  return line === undefined ? undefined : `${file}:${line}`;
}
