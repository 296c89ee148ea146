/**
 * Finds, loads and checks a `farma-fuzz.config.{ts,mjs,js}` file. The file is an ES module
 * whose default export is the config; it is loaded with dynamic `import()`, so `.ts` files
 * need a TypeScript-aware loader (the CLI runs under tsx).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DOMAINS } from '../domain/fuzz-case.js';
import { UsageError, errorMessage } from '../domain/errors.js';
import type { FarmaFuzzConfig } from './define-config.js';
import { importModule } from '../guards/adapters/import-module.js';

/** File names looked for in the working folder, first found wins. */
export const CONFIG_FILE_NAMES = ['farma-fuzz.config.ts', 'farma-fuzz.config.mjs', 'farma-fuzz.config.js'] as const;

const FIELDS = ['guard', 'families', 'domains', 'runs', 'seed', 'time', 'phase', 'maxFailures', 'thresholds', 'junit', 'html', 'corpus', 'out', 'guardOptions', 'concurrency', 'recheck', 'cellTime'] as const;
type Field = (typeof FIELDS)[number];

/** Names known to the checker; each list is optional (without it any non-empty string passes). */
export interface KnownIds {
  families?: readonly string[];
  domains?: readonly string[];
}

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'function') return 'a function';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/**
 * Checks a config value field by field.
 * @param where the file name, used in error messages.
 * @returns the same value, typed.
 * @throws UsageError naming the file and the field, e.g.
 *   `farma-fuzz.config.ts: "runs" must be a positive integer, got "many"`.
 */
export function validateConfig(value: unknown, where: string, known: KnownIds = {}): FarmaFuzzConfig {
  const fail = (field: string, want: string, got: unknown): never => {
    throw new UsageError(`${where}: "${field}" must be ${want}, got ${show(got)}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`${where}: the default export must be a config object (use defineConfig({...})), got ${show(value)}`);
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (!(FIELDS as readonly string[]).includes(key)) throw new UsageError(`${where}: unknown field "${key}" (known: ${FIELDS.join(', ')})`);
  }
  const has = (f: Field): boolean => v[f] !== undefined;
  const posInt = (f: Field): void => {
    if (has(f) && !(Number.isInteger(v[f]) && (v[f] as number) > 0)) fail(f, 'a positive integer', v[f]);
  };
  const str = (f: Field): void => {
    if (has(f) && !(typeof v[f] === 'string' && (v[f] as string).trim() !== '')) fail(f, 'a non-empty string', v[f]);
  };
  const list = (f: 'families' | 'domains', allowed: readonly string[] | undefined): void => {
    if (!has(f) || v[f] === 'all') return;
    const x = v[f];
    const want = `"all" or a non-empty array of ${allowed ? `ids (${allowed.join(', ')})` : 'strings'}`;
    if (!Array.isArray(x) || x.length === 0 || !x.every((s) => typeof s === 'string' && s !== '')) fail(f, want, x);
    for (const s of x as string[]) if (allowed && !allowed.includes(s)) fail(f, want, s);
  };
  str('guard');
  list('families', known.families);
  list('domains', known.domains ?? DOMAINS);
  posInt('runs');
  if (has('seed') && !(Number.isInteger(v.seed) && (v.seed as number) >= 0 && (v.seed as number) <= 0xffffffff)) fail('seed', 'an integer in [0, 4294967295]', v.seed);
  posInt('time');
  if (has('phase') && v.phase !== 'write' && v.phase !== 'retrieve') fail('phase', '"write" or "retrieve"', v.phase);
  posInt('maxFailures');
  posInt('concurrency');
  posInt('recheck');
  posInt('cellTime');
  if (has('thresholds')) {
    const t = v.thresholds;
    if (typeof t !== 'object' || t === null || Array.isArray(t)) fail('thresholds', 'an object { maxFpr?, maxBypass? }', t);
    const tr = t as Record<string, unknown>;
    for (const key of Object.keys(tr)) {
      if (key !== 'maxFpr' && key !== 'maxBypass') throw new UsageError(`${where}: unknown field "thresholds.${key}" (known: maxFpr, maxBypass)`);
      const x = tr[key];
      if (x !== undefined && !(typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1)) fail(`thresholds.${key}`, 'a rate in [0,1]', x);
    }
  }
  str('junit');
  if (has('html') && typeof v.html !== 'boolean') str('html');
  if (has('corpus') && v.corpus !== false) str('corpus');
  str('out');
  // The keys and values are checked against the guard's schema when the guard is built.
  if (has('guardOptions') && (typeof v.guardOptions !== 'object' || v.guardOptions === null || Array.isArray(v.guardOptions))) fail('guardOptions', 'an object of guard options', v.guardOptions);
  return v as FarmaFuzzConfig;
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
 *   as `cause`), has no default export, or has a bad field; the message names the file
 *   and the field.
 * @example
 * const { config, file } = await loadConfigFile(opts.config);
 */
export async function loadConfigFile(file?: string, cwd: string = process.cwd(), known: KnownIds = {}): Promise<{ config: FarmaFuzzConfig; file?: string }> {
  let found: string | undefined;
  if (file !== undefined) {
    found = path.resolve(cwd, file);
    if (!existsSync(found)) throw new UsageError(`config file not found: ${found}`);
  } else {
    found = CONFIG_FILE_NAMES.map((n) => path.join(cwd, n)).find((p) => existsSync(p));
    if (found === undefined) return { config: {} };
  }
  let mod: { default?: unknown };
  try {
    mod = (await importModule(found)) as { default?: unknown };
  } catch (cause) {
    throw new UsageError(`${found}: cannot load the config file: ${errorMessage(cause)}`, { cause });
  }
  if (mod.default === undefined) throw new UsageError(`${found}: no default export (write \`export default defineConfig({...})\`)`);
  const config = validateConfig(mod.default, found, known);
  return { config: resolvePaths(config, path.dirname(found)), file: found };
}
