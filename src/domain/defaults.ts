/**
 * The one home of every run default: the command line, the config file
 * (`DEFAULT_CONFIG`), the engine and the guard adapters all read these values, so a default
 * changes in one place. Deep-frozen.
 */
export const RUN_DEFAULTS = Object.freeze({
  /** Guard spec when none is given. */
  guard: 'sentinel',
  /** Cases per domain × family, not counting shrinks. */
  runs: 1000,
  /** Distinct failure signatures to shrink per cell. */
  maxFailures: 5,
  /** Guard path tested. */
  phase: 'write',
  /** Per-entry time bound of module, HTTP and exec guards, ms. */
  guardTimeoutMs: 5000,
  /** Guard calls in flight for async guards (sync guards always run one at a time). */
  asyncConcurrency: 8,
  /** Re-checks of each finding before it is reported (fewer reproductions: flaky). */
  recheck: 3,
  /** Wall-clock bound per cell, s. */
  cellTimeS: 600,
  /**
   * Sequential stopping: a failing cell stops once the Wilson 95% half-width of its
   * rate is at most this (±5 points: the rate is then known to the resolution reports compare
   * guards at, after at most 385 cases whatever the rate).
   */
  precision: 0.05,
  /**
   * Sequential stopping: a holding cell stops once the Wilson 95% upper bound of its rate is
   * below this, unless a gate (`--max-fpr`, `--max-bypass`) sets the target of its property.
   * 0.5%, reached after 765 clean cases: a memory guard sees thousands of writes a day, so a
   * clean verdict must bound the rate below one percent, and at the default cap of 1,000 runs
   * (upper bound 0.38%) a clean cell saves a quarter of its queries, not more. With a gate the
   * gate's own limit replaces it, so a clean cell stops exactly when the gate would pass it: the
   * gate needs no case more, and none fewer. Kept at 0.5% without a gate: a looser default
   * (1%: 381 cases) would miss an FPR of 0.3% one time in three instead of one in ten, a
   * loss of power no query count buys back.
   */
  target: 0.005,
  /** Attack mode: guard queries per rejected base, the original included. */
  attackBudget: 30,
  /** Attack mode: most forged bases per domain (and never more than `runs`). */
  attackBases: 200,
  /** Regression corpus folder, relative to the working folder. */
  corpus: 'corpora/regressions',
} as const);
