/**
 * The shape of `farma-fuzz.config.ts` and its typed identity helper. At run time it imports
 * only the defaults table (`src/domain/defaults.ts`), so a config file that imports it loads fast.
 */
import { RUN_DEFAULTS } from '../domain/defaults.js';

/** Rate limits for CI gating, in [0,1], judged on Wilson 95% upper bounds (see `src/report/gate.ts`). */
export interface ThresholdsConfig {
  /** Highest allowed false-positive rate per benign cell and per real benign set. */
  maxFpr?: number;
  /** Highest allowed bypass rate per forged cell. */
  maxBypass?: number;
}

/**
 * Settings of a `farma-fuzz fuzz` run. Every field is optional; a command-line flag the
 * user gives overrides the same field. Relative paths are resolved against the config
 * file's folder by `loadConfigFile`.
 */
export interface FarmaFuzzConfig {
  /** Guard spec: built-in id (`sentinel`, `none`, `keyword`, `amemguard`), module path, http(s) URL or `exec:CMD` (`--guard`). */
  guard?: string;
  /**
   * Families to fuzz (`--family`): `'all'`, one id (`'benign'`), a comma-separated list
   * (`'seed,naive'`) or an array (`['seed', 'naive']`); ids: `seed`, `amplification`, `naive`,
   * `adaptive`, `benign`, `benign-stress` (`farma-fuzz list families`). Default `'all'`.
   */
  families?: string | readonly string[];
  /** Domains to fuzz (`--domain`), in the same forms as `families`; ids `ehr`, `react-qa`, `rap`. Default `'all'`. */
  domains?: string | readonly string[];
  /** Cases per domain × family, not counting shrinks; positive integer (`--runs`). */
  runs?: number;
  /** fast-check seed, integer in [0, 2^32 − 1] (`--seed`); left out, the clock picks one. */
  seed?: number;
  /** Wall-clock budget for the whole campaign, in seconds; positive integer (`--time`). */
  time?: number;
  /** Guard path to test (`--phase`). */
  phase?: 'write' | 'retrieve';
  /** Distinct failure signatures to shrink per cell; positive integer (`--max-failures`). */
  maxFailures?: number;
  /** CI gate limits; the run fails when a Wilson 95% upper bound is above its limit. */
  thresholds?: ThresholdsConfig;
  /** Write JUnit XML to this file (`--junit`). */
  junit?: string;
  /** Write `report.html` beside `report.md` (`true`), to this file (a path), or not at all (`false`) (`--html`). */
  html?: boolean | string;
  /** Regression corpus directory, or `false` to leave the corpus alone (`--corpus`, `--no-corpus`). */
  corpus?: string | false;
  /** Report directory (`--out`); default `reports/<date>-<time>-<guard>-<seed>`. */
  out?: string;
  /**
   * Options of a built-in guard (`--guard-option key=value`, which overrides the same key here),
   * e.g. `{ tauGuard: 0.25, layers: ['L1-keyword', 'L5-reasoning-guard'] }` for SENTINEL.
   * Checked against the guard's schema (`src/guards/guard-options.ts`); hashed into the report.
   */
  guardOptions?: Record<string, unknown>;
  /**
   * Guard calls in flight at once for an async guard (module async, HTTP, exec, LLM judge);
   * positive integer (`--concurrency`), default 8. Sync guards always run one call at a time.
   * Results are identical for every value with the same seed.
   */
  concurrency?: number;
  /**
   * Re-checks of each finding, positive integer (`--recheck`), default 3. A finding that does
   * not reproduce on every re-check is labelled flaky, never a clean bypass or false positive.
   */
  recheck?: number;
  /** Wall-clock bound per cell in seconds, positive integer (`--cell-time`), default 600; the cell then reports interrupted. */
  cellTime?: number;
}

/**
 * The defaults the CLI applies when neither the config file nor a flag sets a field
 * (`seed`, `time`, `junit` and `out` have none). The example `farma-fuzz.config.ts` at the
 * repository root spells these out.
 */
export const DEFAULT_CONFIG = {
  guard: RUN_DEFAULTS.guard,
  families: 'all',
  domains: 'all',
  runs: RUN_DEFAULTS.runs,
  phase: RUN_DEFAULTS.phase,
  maxFailures: RUN_DEFAULTS.maxFailures,
  thresholds: {},
  html: true,
  corpus: RUN_DEFAULTS.corpus,
  concurrency: RUN_DEFAULTS.asyncConcurrency,
  recheck: RUN_DEFAULTS.recheck,
  cellTime: RUN_DEFAULTS.cellTimeS,
} as const satisfies FarmaFuzzConfig;

/**
 * Returns its argument unchanged: it exists so a config file gets type checking and
 * editor completion.
 * @example
 * // farma-fuzz.config.ts
 * import { defineConfig } from './src/config/define-config.js';
 * export default defineConfig({ guard: 'sentinel', runs: 500, thresholds: { maxFpr: 0.05 } });
 */
export function defineConfig(config: FarmaFuzzConfig): FarmaFuzzConfig {
  return config;
}
