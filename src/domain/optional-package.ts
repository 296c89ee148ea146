/**
 * Optional peer dependencies, loaded on first use. `openai` (the LLM features)
 * and `vega` + `vega-lite` (the HTML report's charts) are `peerDependencies` marked optional
 * in package.json: a project that installs farma-fuzz gets neither unless it asks, and the
 * checkout has them as devDependencies. Each caller passes its own dynamic import of the package, so types
 * still come from the package.
 */

/** Install spec of each optional package (the range in package.json's `peerDependencies`; a test checks they agree). */
export const OPTIONAL_PACKAGES = {
  openai: 'openai@^6.49.0',
  vega: 'vega@^6.4.0',
  'vega-lite': 'vega-lite@6.4.0',
} as const;
export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/** Outcome of {@link importOptional}: the module, or why it is missing and the command that installs it. */
export type OptionalImport<T> = { ok: true; module: T } | { ok: false; missing: OptionalPackage; hint: string };

/** True when `err` is Node's "cannot find package `pkg`" (ESM or CommonJS resolution), not an error inside the package. */
function isMissing(err: unknown, pkg: string): boolean {
  const e = err as { code?: unknown; message?: unknown };
  if (e.code !== 'ERR_MODULE_NOT_FOUND' && e.code !== 'MODULE_NOT_FOUND') return false;
  const msg = String(e.message ?? '');
  return msg.includes(`'${pkg}'`) || msg.includes(`"${pkg}"`) || msg.includes(`/node_modules/${pkg}/`);
}

/**
 * The text that says what is missing, for what, and how to get it, e.g.
 * `the HTML report's charts need the optional packages "vega" and "vega-lite", which are not installed (npm install -D vega@^6.4.0 vega-lite@6.4.0)`.
 */
export function missingPackageHint(purpose: string, pkgs: readonly OptionalPackage[]): string {
  const names = pkgs.map((p) => `"${p}"`).join(' and ');
  return `${purpose} need the optional package${pkgs.length > 1 ? 's' : ''} ${names}, which ${pkgs.length > 1 ? 'are' : 'is'} not installed (npm install -D ${pkgs.map((p) => OPTIONAL_PACKAGES[p]).join(' ')})`;
}

/**
 * Runs `load` (the caller's dynamic import of `pkg`) and tells a missing package apart from any
 * other failure.
 * @param purpose what needs it, a plural noun phrase for the hint (`'LLM features'`: "LLM features need …").
 * @param group every package the purpose needs, named together in the hint (default `[pkg]`).
 * @returns `{ ok: true, module }`, or `{ ok: false, missing, hint }` when `pkg` cannot be found.
 * @throws whatever `load` throws for any other reason (a broken install, a syntax error).
 * @example
 * // loadOpenai: the caller's own dynamic import of 'openai' (only src/llm may write it)
 * const r = await importOptional('openai', loadOpenai, 'LLM features');
 * if (!r.ok) throw new LlmError(r.hint, { failure: 'config' });
 */
export async function importOptional<T>(pkg: OptionalPackage, load: () => Promise<T>, purpose: string, group: readonly OptionalPackage[] = [pkg]): Promise<OptionalImport<T>> {
  try {
    return { ok: true, module: await load() };
  } catch (err) {
    if (isMissing(err, pkg)) return { ok: false, missing: pkg, hint: missingPackageHint(purpose, group) };
    throw err;
  }
}
