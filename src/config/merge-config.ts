/**
 * Layering of settings: defaults, then the config file, then the flags the user typed.
 */
import type { FarmaFuzzConfig } from './define-config.js';

/** Config fields as flags give them: each may also be explicitly `undefined` (not given). */
export type ConfigFlags = { [K in keyof FarmaFuzzConfig]?: FarmaFuzzConfig[K] | undefined };

/**
 * Merges the config file under the command-line flags: a field set in `cliFlags` wins,
 * otherwise the file's value is kept. Give `cliFlags` only the flags the user actually
 * typed (see {@link givenFlags}), never commander's defaults, or they would hide the file.
 * `thresholds` and `attack` merge per key. Fields set to `undefined` count as not given.
 *
 * @param defaults optional lowest layer (e.g. `DEFAULT_CONFIG`).
 * @returns a new object; the inputs are not changed.
 * @example
 * mergeConfig({ runs: 500, seed: 7 }, { runs: 50 }); // { runs: 50, seed: 7 }
 */
export function mergeConfig(fileConfig: FarmaFuzzConfig, cliFlags: ConfigFlags, defaults: FarmaFuzzConfig = {}): FarmaFuzzConfig {
  const out: Record<string, unknown> = {};
  for (const layer of [defaults, fileConfig, cliFlags]) {
    for (const [k, v] of Object.entries(layer)) {
      if (v === undefined) continue;
      if (k === 'thresholds' || k === 'attack') out[k] = { ...(out[k] as object | undefined), ...Object.fromEntries(Object.entries(v as object).filter(([, x]) => x !== undefined)) };
      else out[k] = Array.isArray(v) ? [...v] : v;
    }
  }
  return out as FarmaFuzzConfig;
}

/**
 * Keeps the options whose value came from the command line, dropping defaults.
 * @param sourceOf tells where an option's value came from; with commander pass
 *   `(key) => cmd.getOptionValueSource(key)` (`'cli'` for typed flags, `'default'` otherwise).
 * @example
 * givenFlags(cmd.opts(), (k) => cmd.getOptionValueSource(k)); // { runs: '50' } when only --runs 50 was typed
 */
export function givenFlags<T extends Record<string, unknown>>(opts: T, sourceOf: (key: string) => string | undefined): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(opts) as Array<keyof T & string>) {
    const src = sourceOf(key);
    if (src === 'cli' || src === 'env') out[key] = opts[key];
  }
  return out;
}
