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

/** Attack mode of the `adaptive` family (`--attack-*`). */
export interface AttackConfig {
  /** Forged bases drawn per domain, a positive integer (`--attack-bases`); default `min(runs, 200)`, a cap under sequential stopping. */
  bases?: number;
  /** Guard queries per rejected base, the original included, a positive integer (`--attack-budget`); default 30. */
  budget?: number;
  /** What the attacker sees (`--attack-feedback`): `'auto'` (the forgery score F when the guard gives one), `'score'` or `'decision'`. */
  feedback?: 'auto' | 'score' | 'decision';
  /** Operator ids used as arms (`--attack-operators`): a comma-separated list or an array; default all (`farma-fuzz list operators`). */
  operators?: string | readonly string[];
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
   * Results are identical for every value with the same seed, without `maxQueries`.
   */
  concurrency?: number;
  /**
   * Re-checks of each finding, positive integer (`--recheck`), default 3. A finding that does
   * not reproduce on every re-check is labelled flaky, never a clean bypass or false positive.
   */
  recheck?: number;
  /** Wall-clock bound per cell in seconds, positive integer (`--cell-time`), default 600; the cell then reports interrupted. */
  cellTime?: number;
  /** Sequential stopping: a failing cell stops once the Wilson 95% half-width of its rate is at most this, in (0, 0.5] (`--precision`), default 0.05. */
  precision?: number;
  /** Sequential stopping: a holding cell stops once the Wilson 95% upper bound of its rate is below this rate in (0,1] (`--target`), default 0.005; a gate's limit replaces it for its cells. */
  target?: number;
  /** `true`: no sequential stopping, every cell runs `runs` cases and attack mode every base (`--exhaustive`); default false. */
  exhaustive?: boolean;
  /** Guard queries for the whole campaign, a positive integer (`--max-queries`); default none. */
  maxQueries?: number;
  /** Guard queries one shrink may spend, a positive integer (`--shrink-budget`); default none. */
  shrinkBudget?: number;
  /** Price of one guard query in any unit, a number >= 0 (`--cost-per-query`): the report adds a cost line. */
  costPerQuery?: number;
  /** The verdict cache of the run (`--no-cache` sets false); default true. Turn it off for a stateful guard. */
  cache?: boolean;
  /** Lanes of the campaign (`--workers`): `'auto'` (default: one per CPU once the guard's measured time says sharing pays) or a count in [1, 64]; `1` keeps one thread. */
  workers?: 'auto' | number;
  /** Attack mode of the `adaptive` family (`--attack-bases`, `--attack-budget`, `--attack-feedback`, `--attack-operators`). */
  attack?: AttackConfig;
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
  precision: RUN_DEFAULTS.precision,
  target: RUN_DEFAULTS.target,
  exhaustive: false,
  cache: true,
  workers: 'auto',
  attack: { budget: RUN_DEFAULTS.attackBudget, feedback: 'auto' },
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
