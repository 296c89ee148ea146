/**
 * Imports a user's guard (or config) module in whatever kind of project it lives in, from
 * the compiled CLI as well as from source:
 * - `.ts`, `.mts`, `.cts` go through tsx's `tsImport` (tsx is a dependency), scoped to this
 *   one import, so nothing is registered for the rest of the process. tsx follows the
 *   nearest `package.json` "type", as Node does for `.js`.
 * - `.js`, `.mjs`, `.cjs` are imported by Node itself. A `.js` file written with `export`
 *   inside a CommonJS project (no "type": "module") is then retried through tsx, which
 *   compiles it; a `.js` file written with `module.exports` inside an ES-module project
 *   fails with a message that says what to rename.
 * - A `.ts` file of a CommonJS project is compiled to CommonJS by tsx, so its `import … from
 *   'farma-fuzz'` becomes a `require()` that tsx serves by compiling farma-fuzz's ES modules
 *   to CommonJS too, and that fails on a dependency published with an "import" condition only.
 *   Such a file is loaded again as an ES module, from a copy beside it with the `.mts`
 *   extension that is removed at once (as vite loads its config).
 * CommonJS modules arrive as ES namespaces with `module.exports` as `default`; with
 * `liftDefault` (guard modules) the keys of a default object are also lifted to the top, as
 * Node does only for the keys it can detect statically.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const TS_EXT = /\.(?:ts|mts|cts)$/i;

/** The nearest `package.json` above `file` and its "type" ("commonjs" when unset). */
function nearestPackageType(file: string): { packageJson?: string; type: 'module' | 'commonjs' } {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const pj = path.join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        const type = (JSON.parse(readFileSync(pj, 'utf8')) as { type?: unknown }).type;
        return { packageJson: pj, type: type === 'module' ? 'module' : 'commonjs' };
      } catch {
        return { packageJson: pj, type: 'commonjs' };
      }
    }
    if (path.dirname(dir) === dir) return { type: 'commonjs' };
  }
}

async function viaTsx(file: string): Promise<Record<string, unknown>> {
  const { tsImport } = (await import('tsx/esm/api')) as { tsImport: (specifier: string, parent: string) => Promise<unknown> };
  return (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
}

/** Node's and tsx's messages when CommonJS code `require()`s a package that has only ES-module entry points. */
const REQUIRE_OF_ESM = /No "exports" main defined|ERR_PACKAGE_PATH_NOT_EXPORTED|ERR_REQUIRE_ESM|require\(\) of ES Module|ERR_REQUIRE_ASYNC_MODULE/;

/** A `.ts` file loaded through tsx; in a CommonJS project, retried as an ES module when its imports cannot be required (see the file comment). */
async function viaTsxAnyProject(file: string): Promise<Record<string, unknown>> {
  try {
    return await viaTsx(file);
  } catch (cause) {
    const message = cause instanceof Error ? `${cause.message} ${String((cause as { code?: unknown }).code ?? '')}` : String(cause);
    if (!/\.ts$/i.test(file) || nearestPackageType(file).type !== 'commonjs' || !REQUIRE_OF_ESM.test(message)) throw cause;
    const copy = path.join(path.dirname(file), `.${path.basename(file, '.ts')}.${process.pid}-${Date.now()}.mts`);
    try {
      writeFileSync(copy, readFileSync(file));
    } catch {
      throw new Error(`${message.split('\n')[0]}. ${path.basename(file)} is compiled to CommonJS (its package.json has no "type": "module") and one of its imports is an ES module only: rename it to ${path.basename(file, '.ts')}.mts`, { cause });
    }
    try {
      return await viaTsx(copy);
    } finally {
      rmSync(copy, { force: true });
    }
  }
}

/** `module.exports` keys lifted next to `default`, so `module.exports = { guard }` exposes `guard`. */
function lift(mod: Record<string, unknown>): Record<string, unknown> {
  const d = mod.default;
  if (d === null || typeof d !== 'object' || Array.isArray(d)) return mod;
  // A CommonJS namespace has `module.exports` as default: lift its own keys that are missing.
  const lifted: Record<string, unknown> = { ...mod };
  const inner = d as Record<string, unknown>;
  for (const [k, v] of Object.entries(inner)) if (!(k in lifted)) lifted[k] = v;
  if (typeof inner.check !== 'function' && Object.prototype.hasOwnProperty.call(inner, 'default')) {
    // An ES module compiled to CommonJS (tsx or tsc in a CommonJS project, Babel): `exports.default`
    // is its default export, and the bag around it is not.
    lifted.default = inner.default;
  } else if (typeof inner.check !== 'function' && ('guard' in inner || 'createGuard' in inner)) {
    // `module.exports = { guard }` or `{ createGuard }`: the object is a bag of exports, not a
    // guard, so it must not be taken as the `default` guard.
    delete lifted.default;
  }
  return lifted;
}

/** What to tell the user when Node's error says the file is in the wrong module system. */
function moduleSystemHint(file: string, message: string): string | undefined {
  const { packageJson, type } = nearestPackageType(file);
  const where = packageJson ?? 'no package.json (CommonJS by default)';
  if (/module is not defined in ES module scope|require is not defined in ES module scope|exports is not defined in ES module scope/.test(message)) {
    return `${path.basename(file)} is CommonJS (module.exports / require) but ${where} makes .js files ES modules ("type": "module"): rename it to ${path.basename(file).replace(/\.js$/i, '.cjs')}, or write it with \`export const guard = …\``;
  }
  if (type === 'commonjs' && /Cannot use import statement outside a module|Unexpected token 'export'/.test(message)) {
    return `${path.basename(file)} uses import/export but ${where} makes .js files CommonJS: rename it to ${path.basename(file).replace(/\.js$/i, '.mjs')}, or set "type": "module" in that package.json`;
  }
  return undefined;
}

/**
 * Imports `file` (absolute) and returns its namespace (with `liftDefault`, the keys of a
 * default export object are lifted next to it).
 * @throws Error with a `hint` in the message when the module system of the file and its
 *   project disagree; the original error is kept as `cause`.
 */
export async function importModule(file: string, options: { liftDefault?: boolean } = {}): Promise<Record<string, unknown>> {
  const liftCommonJs = options.liftDefault === true ? lift : (m: Record<string, unknown>): Record<string, unknown> => m;
  if (TS_EXT.test(file)) return liftCommonJs(await viaTsxAnyProject(file));
  try {
    return liftCommonJs((await import(pathToFileURL(file).href)) as Record<string, unknown>);
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const hint = moduleSystemHint(file, message);
    if (hint === undefined) throw cause;
    // ES syntax in a CommonJS project: tsx compiles it, so the guard still loads.
    if (/\.js$/i.test(file) && nearestPackageType(file).type === 'commonjs') {
      try {
        return liftCommonJs(await viaTsx(file));
      } catch {
        // fall through to the hint
      }
    }
    throw new Error(`${message.split('\n')[0]}. ${hint}`, { cause });
  }
}
