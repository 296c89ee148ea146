/**
 * `farma-fuzz fuzz`: flags (and the config file) into a fuzz campaign (`src/campaign/fuzz.ts`), then the
 * report outputs and the exit code (`../run-outputs.ts`, `../exit-verdict.ts`).
 */
import type { OperatorId } from '../../../generators/paraphrase/index.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { didYouMean } from '../../domain/suggest.js';
import { UsageError } from '../../domain/errors.js';
import { RUN_DEFAULTS } from '../../domain/defaults.js';
import { DOMAINS, type DomainId } from '../../domain/fuzz-case.js';
import { DEFAULT_CONFIG } from '../../config/define-config.js';
import { mergeConfig, type ConfigFlags } from '../../config/merge-config.js';
import type { GateThresholds } from '../../report/gate.js';
import { parseShard, shardBlobName, type ShardSpec } from '../../report/merge.js';
import { cliCommand } from '../../campaign/cli-command.js';
import type { FuzzOptions, FuzzResult, FuzzWorkerPool } from '../../campaign/fuzz.js';
import { oneCallAtATime, type Guard } from '../../domain/guard.js';
import type { MemoryStore } from '../../memory/index.js';
import { FAMILY_IDS } from '../../../generators/family-ids.js';
import { checkBenignFile, checkBenignUsable, defaultRunId, foreignCode, MAX_TIMEOUT_MS, parseList, parsePhase, parseSeed, positiveInt, reportsDir, writableDir, writableFile } from '../context.js';
import { FUZZ_EXIT_HELP } from '../exit-verdict.js';
import { exitCodeOfSignal } from '../exit-codes.js';
import type { FuzzWorkerGuard } from '../fuzz-worker.js';
import type { CellStopRule } from '../../fuzz/property.js';
import { session, withGuard } from '../guard-session.js';
import { benignOption, corpusOption, domainOption, guardOption, guardOptionFlag, parseConcurrency, parseRecheck, parseTimeout, phaseOption, quietOption, recheckOption, concurrencyOption, seedOption, timeoutOption } from '../options.js';
import { createProgress } from '../progress.js';
import { writeRunOutputs } from '../run-outputs.js';
import { readReport } from '../report-input.js';
import { plural } from '../../domain/plural.js';


/** `--workers auto` or a lane count in [1, 64], or a UsageError naming the flag. */
function workersOf(text: string): number | 'auto' {
  if (text.trim() === 'auto') return 'auto';
  const n = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--workers must be "auto" or a positive integer, got "${text}"`);
  return positiveInt('--workers', text, 1, 64);
}

/** Parses `--shard i/n`, or throws UsageError naming the flag. */
function shardOf(text: string): ShardSpec {
  const r = parseShard(text);
  if (!r.ok) throw new UsageError(r.message);
  return r.shard;
}

/** Turns the flags the user typed (not commander's defaults) into config fields. */
function configFlags(opts: Record<string, string | boolean | undefined>, sourceOf: (key: string) => string | undefined): ConfigFlags {
  const given = (k: string): boolean => sourceOf(k) === 'cli' || sourceOf(k) === 'env';
  const str = (k: string): string => String(opts[k]);
  const split = (v: string): string[] | 'all' => (v === 'all' ? 'all' : v.split(',').map((x) => x.trim()).filter(Boolean));
  const f: ConfigFlags = {};
  if (given('guard')) f.guard = str('guard');
  if (given('domain')) f.domains = split(str('domain'));
  if (given('family')) f.families = split(str('family'));
  if (given('runs')) f.runs = positiveInt('--runs', str('runs'), RUN_DEFAULTS.runs);
  if (given('time')) f.time = positiveInt('--time', str('time'), 1);
  if (given('seed')) f.seed = parseSeed(str('seed'));
  if (given('out')) f.out = str('out');
  if (given('corpus')) f.corpus = opts.corpus === false ? false : str('corpus');
  if (given('phase')) f.phase = parsePhase(str('phase'));
  if (given('maxFailures')) f.maxFailures = positiveInt('--max-failures', str('maxFailures'), RUN_DEFAULTS.maxFailures);
  if (given('junit')) f.junit = str('junit');
  if (given('concurrency')) f.concurrency = parseConcurrency(str('concurrency'));
  if (given('recheck')) f.recheck = parseRecheck(str('recheck'));
  if (given('cellTime')) f.cellTime = positiveInt('--cell-time', str('cellTime'), RUN_DEFAULTS.cellTimeS, MAX_TIMEOUT_MS / 1000);
  if (given('html')) f.html = opts.html === false ? false : opts.html === true ? true : str('html');
  if (given('precision')) f.precision = precisionOf(str('precision'));
  if (given('target')) f.target = targetOf(str('target'));
  if (given('exhaustive')) f.exhaustive = opts.exhaustive === true;
  if (given('maxQueries')) f.maxQueries = positiveInt('--max-queries', str('maxQueries'), 1, Number.MAX_SAFE_INTEGER);
  if (given('shrinkBudget')) f.shrinkBudget = positiveInt('--shrink-budget', str('shrinkBudget'), 1, Number.MAX_SAFE_INTEGER);
  if (given('costPerQuery')) f.costPerQuery = nonNegative('--cost-per-query', str('costPerQuery'));
  if (given('cache')) f.cache = opts.cache !== false;
  if (given('workers')) f.workers = workersOf(str('workers'));
  const a: NonNullable<ConfigFlags['attack']> = {};
  if (given('attackBases')) a.bases = positiveInt('--attack-bases', str('attackBases'), RUN_DEFAULTS.attackBases, 100_000);
  if (given('attackBudget')) a.budget = positiveInt('--attack-budget', str('attackBudget'), RUN_DEFAULTS.attackBudget, 100_000);
  if (given('attackFeedback')) a.feedback = str('attackFeedback') as 'auto' | 'score' | 'decision';
  if (given('attackOperators')) a.operators = str('attackOperators');
  if (Object.keys(a).length > 0) f.attack = a;
  const t: GateThresholds = {};
  if (given('maxFpr')) t.maxFpr = rate('--max-fpr', str('maxFpr'));
  if (given('maxBypass')) t.maxBypass = rate('--max-bypass', str('maxBypass'));
  if (t.maxFpr !== undefined || t.maxBypass !== undefined) f.thresholds = t;
  return f;
}

/** `--precision <w>`: a half-width in (0, 0.5], or a UsageError naming the flag. */
function precisionOf(text: string): number {
  const precision = rate('--precision', text);
  if (!(precision > 0 && precision <= 0.5)) throw new UsageError(`--precision must be a half-width in (0, 0.5], got "${text}"`);
  return precision;
}

/** `--target <rate>`: a rate in (0,1], or a UsageError naming the flag. */
function targetOf(text: string): number {
  const target = rate('--target', text);
  if (!(target > 0)) throw new UsageError(`--target must be a rate in (0,1], got "${text}"`);
  return target;
}

/** The precision and target (flag, config file or default; the gate's limits as per-property targets) into the stop rule. */
function stopRule(precision: number, target: number, thresholds: GateThresholds): CellStopRule {
  return {
    precision,
    target: {
      'benign-admitted': thresholds.maxFpr !== undefined && thresholds.maxFpr > 0 ? thresholds.maxFpr : target,
      'forgery-rejected': thresholds.maxBypass !== undefined && thresholds.maxBypass > 0 ? thresholds.maxBypass : target,
    },
  };
}

function nonNegative(flag: string, value: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a number >= 0, got "${value}"`);
  return n;
}

function rate(flag: string, value: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${flag} must be a rate in [0,1], got "${value}"`);
  return n;
}

/** A list in any of the forms the flag and the config file take: `'all'`, `'a'`, `'a,b'`, `['a', 'b']` (an `'all'` item means all). */
function listOf<T extends string>(flag: string, value: string | readonly string[] | undefined, allowed: readonly T[]): T[] {
  const items = (typeof value === 'string' ? [value] : value)?.flatMap((v) => v.split(',')).map((v) => v.trim());
  if (items === undefined || items.includes('all')) return [...allowed];
  return parseList(flag, items.join(','), allowed);
}

/** Registers `fuzz` on the program; `exit` receives the exit code. */
export function registerFuzzCommand(program: Command, exit: (code: number) => void): Command {
  const command = program
    .command('fuzz')
    .description('fuzz a guard: benign-admitted and forgery-rejected properties per domain × family; writes report.md/json/html, grows the regression corpus')
    .addHelpText('after', FUZZ_EXIT_HELP);
  return addFuzzOptions(command).action((opts: Record<string, string | boolean | undefined>, cmd: Command) => fuzzAction(opts, cmd, exit));
}

/** Declares the flags of `fuzz` (with their help and commander defaults) on `command`. */
function addFuzzOptions(command: Command): Command {
  return command
    .addOption(guardOption())
    .addOption(domainOption())
    .option('-f, --family <list>', `families, comma-separated or "all" (${FAMILY_IDS.join(', ')})`, 'all')
    .option('-n, --runs <n>', 'cases per domain × family (not counting shrinks)', String(RUN_DEFAULTS.runs))
    .option('-t, --time <seconds>', 'wall-clock budget for the whole campaign; cells share it evenly (--runs then acts as a ceiling, default 10^9)')
    .addOption(seedOption())
    .option('-o, --out <dir>', 'report directory (default: reports/<date>-<time>-<guard>-<seed>)')
    .addOption(corpusOption())
    .option('--no-corpus', 'do not read or grow the regression corpus')
    .addOption(benignOption('also measure FPR on this JSONL export of benign memory entries'))
    .option('--no-real', 'skip the FPR measurement on the bundled real traces (ReAct and ExpeL prompts; Reflexion, Voyager, SWE-agent, FireAct and Generative Agents run logs; tau-bench retail replies; a CAMEL role-playing chat)')
    .addOption(phaseOption('guard path to test'))
    .option('--max-failures <k>', 'distinct failure signatures to shrink per cell', String(RUN_DEFAULTS.maxFailures))
    .option('--max-fpr <rate>', 'CI gate: fail when the Wilson 95% upper bound of any FPR exceeds this rate in [0,1]')
    .option('--max-bypass <rate>', 'CI gate: fail when the Wilson 95% upper bound of any bypass rate exceeds this rate in [0,1]')
    .option('--shard <i/n>', 'run shard i of n of the campaign (cells round robin) and write its blob beside the report; a finished shard exits 0 (its lines say what its cells alone give): merge the shards with merge-reports, whose exit code is the verdict')
    .option('--require-invariants', 'with a gate, also fail (exit 1) when any invariant fails; without a gate the invariants decide anyway')
    .option('--junit <file>', 'write JUnit XML (one testcase per property × family × domain)')
    .option('--html [file]', 'write the HTML report (default: report.html in the report directory)')
    .option('--no-html', 'do not write the HTML report')
    .option('--baseline <report>', 'an earlier report.json (or its folder) to compare this run with, as compare does: a section of report.html and a console line (refused, and said so, when the configurations differ, unless --allow-config-diff)')
    .option('--allow-config-diff', 'with --baseline: compare even when the configurations differ (guard options, seed, runs…); the differences are listed')
    .option('--config <file>', 'config file (default: farma-fuzz.config.ts|mjs|js in the current folder, when present); flags override it')
    .option('--no-config', 'read no config file, not even farma-fuzz.config.* in the current folder: the defaults and the flags alone')
    .addOption(timeoutOption())
    .option('-w, --workers <n|auto>', 'lanes for the campaign (the calling thread + worker threads, never more than CPUs); workers start only when they pay, else one thread runs and says why; auto: one lane per CPU once the guard\'s own measured time per case leaves work to share (a sync guard); 1: one thread; findings are identical for any count', 'auto')
    .addOption(guardOptionFlag())
    .option('--attack-bases <n>', 'adaptive attack mode: forged bases drawn per domain (default min(runs, 200))')
    .option('--attack-budget <n>', 'adaptive attack mode: guard queries per rejected base, the original included', '30')
    .option('--attack-operators <list>', 'adaptive attack mode: operator ids used as arms, comma-separated (default: all; `list operators` names them)')
    .addOption(new Option('--attack-feedback <f>', 'what the attacker sees: auto (F when the guard gives one), score, or decision').choices(['auto', 'score', 'decision']).default('auto'))
    .addOption(concurrencyOption())
    .addOption(recheckOption())
    .option('--precision <w>', `sequential stopping: a failing cell stops once the Wilson 95% half-width of its rate is at most w, in (0, 0.5] (default ${RUN_DEFAULTS.precision}); --runs is the cap`)
    .option('--target <rate>', `sequential stopping: a holding cell stops once the Wilson 95% upper bound of its rate is below this rate in (0,1] (default ${RUN_DEFAULTS.target}; --max-fpr / --max-bypass set it for their cells)`)
    .option('--exhaustive', 'no sequential stopping: every cell runs --runs cases')
    .option('--no-exhaustive', 'sequential stopping on, over a config file\'s exhaustive: true')
    .option('--max-queries <n>', 'guard queries for the whole campaign, shared out before it starts so every cell still ends with an interval (real sets measured on a prefix, no leave-one-source-out check)')
    .option('--shrink-budget <n>', 'guard queries one shrink may spend; past it the smallest failing case found so far is reported')
    .option('--cost-per-query <amount>', 'price of one guard query (any unit): the summary and report add a cost line')
    .option('--no-cache', 'ask the guard every time, even for a request already answered in this run (same entry, path and store state); use it for a stateful guard')
    .option('--cache', 'the verdict cache on, over a config file\'s cache: false')
    .option('--cell-time <seconds>', `wall-clock bound per cell (domain × family); a cell that reaches it stops and reports "interrupted" with what ran (default ${RUN_DEFAULTS.cellTimeS})`)
    .addOption(quietOption())
    .option('--json', 'print one JSON document on stdout (report.json plus exit: { code, deciding, lines } and reportDir); the summary and the closing lines go to stderr');
}

/**
 * The settings of one `fuzz` run: the flags the user typed merged over the config file and the
 * defaults, parsed and checked, with the outputs checked writable and `--baseline` read, all
 * before a guard is started.
 * @throws UsageError naming the flag or config key; a missing or malformed baseline (exit 3).
 */
async function fuzzSettings(opts: Record<string, string | boolean | undefined>, cmd: Command) {
  const flags = configFlags(opts, (k) => cmd.getOptionValueSource(k));
  // The config loader validates with zod: loaded only by the commands that read a config file.
  const { loadConfigFile } = await import('../../config/load-config-file.js');
  foreignCode.loaded = true;
  const { config: fileConfig, file: configFile } = opts.config === false ? { config: {}, file: undefined } : await loadConfigFile(typeof opts.config === 'string' ? opts.config : undefined, process.cwd(), { families: FAMILY_IDS });
  const cfg = mergeConfig(fileConfig, flags, DEFAULT_CONFIG);
  const guardSpec = cfg.guard ?? 'sentinel';
  // A module path from the config file was made absolute against the file's folder: name the file when it is not there.
  if (flags.guard === undefined && configFile !== undefined && fileConfig.guard !== undefined && path.isAbsolute(fileConfig.guard) && !existsSync(fileConfig.guard)) {
    throw new UsageError(`${path.relative(process.cwd(), configFile) || configFile}: "guard" names a module that does not exist: ${fileConfig.guard} (a relative path is read from the config file's folder)`);
  }
  const seed = cfg.seed ?? parseSeed(undefined);
  const timeS = cfg.time;
  const runs = cfg.runs ?? 1000;
  // With --time on the command line, only a --runs typed there caps the run count.
  const runsGiven = flags.runs !== undefined || (fileConfig.runs !== undefined && flags.time === undefined);
  const domains = listOf<DomainId>('--domain', cfg.domains, DOMAINS);
  const families = listOf('--family', cfg.families, FAMILY_IDS);
  const maxFailures = cfg.maxFailures ?? 5;
  const timeoutMs = parseTimeout(opts.timeout as string);
  const workers = cfg.workers ?? 'auto';
  const concurrency = cfg.concurrency ?? RUN_DEFAULTS.asyncConcurrency;
  const recheck = cfg.recheck ?? RUN_DEFAULTS.recheck;
  const cellTimeLimitMs = (cfg.cellTime ?? RUN_DEFAULTS.cellTimeS) * 1000;
  const thresholds = cfg.thresholds ?? {};
  // A limit the flags did not set came from the config file: the gate line names the file's key, not a flag never typed.
  const shownConfig = configFile !== undefined ? path.relative(process.cwd(), configFile) || configFile : undefined;
  const gateFrom: Partial<Record<keyof GateThresholds, string>> = {};
  for (const key of ['maxFpr', 'maxBypass'] as const) if (thresholds[key] !== undefined && flags.thresholds?.[key] === undefined && shownConfig !== undefined) gateFrom[key] = shownConfig;
  const stop = cfg.exhaustive === true ? undefined : stopRule(cfg.precision ?? RUN_DEFAULTS.precision, cfg.target ?? RUN_DEFAULTS.target, thresholds);
  const maxQueries = cfg.maxQueries;
  const shrinkBudget = cfg.shrinkBudget;
  const costPerQuery = cfg.costPerQuery;
  const cacheOn = cfg.cache !== false;
  const shard = typeof opts.shard === 'string' ? shardOf(opts.shard) : undefined;
  if (shard && timeS !== undefined) throw new UsageError('--shard needs --runs, not --time: a wall-clock budget gives each machine different cases, and the shards could not be merged exactly');
  const { parseGuardOptionFlags } = await import('../../guards/guard-options.js');
  const guardOptions = parseGuardOptionFlags((opts.guardOption as unknown as string[] | undefined) ?? [], fileConfig.guardOptions ?? {}, configFile ? path.relative(process.cwd(), configFile) || configFile : undefined);
  const a = cfg.attack ?? {};
  const operatorsFrom = flags.attack?.operators !== undefined ? '--attack-operators' : `${configFile ? path.relative(process.cwd(), configFile) || configFile : 'config'}: attack.operators`;
  const attack = {
    ...(a.bases !== undefined ? { bases: a.bases } : {}),
    budget: a.budget ?? RUN_DEFAULTS.attackBudget,
    feedback: a.feedback ?? 'auto',
    ...(a.operators !== undefined && a.operators !== 'all' && !(Array.isArray(a.operators) && a.operators.includes('all')) ? { operators: await attackOperators(typeof a.operators === 'string' ? a.operators : a.operators.join(','), operatorsFrom) } : {}),
  };
  if (cfg.out !== undefined && cfg.out.trim() === '') throw new UsageError('--out needs a directory name');
  if (typeof opts.benign === 'string') checkBenignFile(opts.benign);
  if (typeof opts.benign === 'string') await checkBenignUsable(opts.benign);
  if (cfg.corpus !== undefined && cfg.corpus !== false) writableDir('--corpus', cfg.corpus);
  if (cfg.junit !== undefined) writableFile('--junit', cfg.junit);
  if (typeof cfg.html === 'string') writableFile('--html', cfg.html);
  checkOutputsApart(cfg.out, cfg.junit, typeof cfg.html === 'string' ? cfg.html : undefined);
  // A missing or malformed baseline fails here (exit 3), before the campaign runs.
  const baseline = typeof opts.baseline === 'string' ? { ...(await readReport(opts.baseline, '--baseline')), allowConfigDiff: opts.allowConfigDiff === true } : undefined;
  if (opts.allowConfigDiff === true && !baseline) throw new UsageError('--allow-config-diff needs --baseline <report.json>');
  return { cfg, configFile, guardSpec, seed, timeS, runs, runsGiven, domains, families, maxFailures, timeoutMs, workers, concurrency, recheck, cellTimeLimitMs, thresholds, gateFrom, stop, maxQueries, shrinkBudget, costPerQuery, cacheOn, shard, guardOptions, attack, baseline };
}

/**
 * Refuses a `--junit` or `--html` file that is one of the run's own outputs (report.json or
 * report.md in `--out`, the other flag's file, or the default report.html for --junit): the
 * last write would silently replace the other.
 * @throws UsageError naming both flags and the file.
 */
function checkOutputsApart(out: string | undefined, junit: string | undefined, html: string | undefined): void {
  const own = new Map<string, string>();
  if (out !== undefined) for (const name of ['report.json', 'report.md', 'report.html']) own.set(path.resolve(out, name), `the report's own ${name} in --out`);
  const taken = (flag: string, file: string, except?: string): void => {
    const abs = path.resolve(file);
    const by = own.get(abs);
    if (by !== undefined && by !== except) throw new UsageError(`${flag} ${file}: this is ${by}, which the run writes too, so one would overwrite the other; give ${flag} another file name`);
  };
  if (junit !== undefined) taken('--junit', junit);
  if (html !== undefined) taken('--html', html, "the report's own report.html in --out");
  if (junit !== undefined && html !== undefined && path.resolve(junit) === path.resolve(html)) throw new UsageError(`--junit and --html name the same file (${junit}); give each its own`);
}

/** What {@link fuzzSettings} gives. */
type FuzzSettings = Awaited<ReturnType<typeof fuzzSettings>>;

/** The action of `fuzz`: settings, then the campaign against the started guard, then its outputs; `exit` receives the exit code. */
async function fuzzAction(opts: Record<string, string | boolean | undefined>, cmd: Command, exit: (code: number) => void): Promise<void> {
  const [{ MemoryStore }, { runFuzz }] = await Promise.all([import('../../memory/index.js'), import('../../campaign/fuzz.js')]);
  const s = await fuzzSettings(opts, cmd);
  const now = new Date();
  const store = new MemoryStore(':memory:');
  try {
    await withGuard(s.guardSpec, s.timeoutMs, async (guard) => {
      const outDir = writableDir('--out', s.cfg.out ?? path.join(reportsDir(), defaultRunId(guard.id, s.seed, now)));
      const progress = createProgress(!opts.quiet);
      const run = new AbortController();
      session.activeRun = run;
      process.stderr.write(startLine(s, guard.id));
      const workerPool = await workerPoolOf(s, guard, store);
      const result = await runFuzz(fuzzRunOptions(s, opts, { guard, store, outDir, now, workerPool, signal: run.signal }), progress);
      exit(await finishRun(result, s, opts, outDir, run));
    }, s.guardOptions, s.concurrency);
  } finally {
    store.close();
  }
}

/** The line that opens a run on stderr: guard, seed, cells, budget and config file. */
function startLine(s: FuzzSettings, guardId: string): string {
  const { domains, families, timeS, runs, configFile } = s;
  return `farma-fuzz: guard ${guardId}, seed ${s.seed}, ${plural(domains.length, 'domain')} × ${plural(families.length, 'family', 'families')}, ${timeS !== undefined ? `within ${timeS} s` : `${plural(runs, 'run')} per cell`}${configFile ? ` (config ${path.relative(process.cwd(), configFile) || configFile})` : ''}\n`;
}

/**
 * With `--workers` above 1, or `auto` for a sync guard, the worker pool: worker threads rebuild
 * the guard from its spec (src/cli/fuzz-worker.ts); the calling thread is one lane, and times
 * its guard calls for `auto`.
 */
async function workerPoolOf(s: FuzzSettings, guard: Guard, store: MemoryStore): Promise<FuzzWorkerPool<FuzzWorkerGuard> | undefined> {
  const { guardSpec, guardOptions, timeoutMs, concurrency, recheck, cellTimeLimitMs, stop, shrinkBudget, cacheOn } = s;
  const pooled = s.workers === 'auto' ? oneCallAtATime(guard) : s.workers > 1;
  const { fuzzWorkerPool, localCellRunner } = pooled ? await import('../fuzz-worker.js') : { fuzzWorkerPool: undefined, localCellRunner: undefined };
  const meter = { ms: 0 };
  return fuzzWorkerPool && localCellRunner
    ? { ...fuzzWorkerPool(), guard: { spec: guardSpec, ...(Object.keys(guardOptions).length > 0 ? { guardOptions } : {}), timeoutMs, concurrency, recheck, cellTimeLimitMs, ...(stop ? { stop } : {}), ...(shrinkBudget !== undefined ? { shrinkBudget } : {}), cache: cacheOn }, local: localCellRunner(guard, store, meter), guardMs: () => meter.ms }
    : undefined;
}

/** The options of `runFuzz` for these settings, this guard, store and report directory. */
function fuzzRunOptions(
  s: FuzzSettings,
  opts: Record<string, string | boolean | undefined>,
  run: { guard: Guard; store: MemoryStore; outDir: string; now: Date; workerPool: FuzzWorkerPool<FuzzWorkerGuard> | undefined; signal: AbortSignal },
): FuzzOptions<FuzzWorkerGuard> {
  const { cfg, guardSpec, timeS, runs, runsGiven, maxQueries, shrinkBudget, costPerQuery, stop, shard } = s;
  const workerPool = run.workerPool;
  return {
    guardSpec,
    guard: run.guard,
    store: run.store,
    domains: s.domains,
    families: s.families,
    runs: timeS !== undefined && !runsGiven ? 1_000_000_000 : runs,
    ...(timeS !== undefined ? { timeLimitMs: timeS * 1000 } : {}),
    seed: s.seed,
    phase: cfg.phase ?? 'write',
    maxFailures: s.maxFailures,
    outDir: run.outDir,
    ...(cfg.corpus !== false && cfg.corpus !== undefined ? { corpusDir: cfg.corpus } : {}),
    ...(typeof opts.benign === 'string' ? { benignFile: opts.benign } : {}),
    realData: opts.real !== false,
    generatedAt: run.now.toISOString(),
    // timing.wallMs counts from the start of the process, as the printed total does.
    startedAtMs: 0,
    workers: s.workers,
    ...(workerPool ? { workerPool } : {}),
    timeoutMs: s.timeoutMs,
    concurrency: s.concurrency,
    recheck: s.recheck,
    cellTimeLimitMs: s.cellTimeLimitMs,
    thresholds: s.thresholds,
    cache: s.cacheOn,
    ...(stop ? { stop } : {}),
    ...(maxQueries !== undefined ? { maxQueries } : {}),
    ...(shrinkBudget !== undefined ? { shrinkBudget } : {}),
    ...(costPerQuery !== undefined ? { costPerQuery } : {}),
    signal: run.signal,
    attack: s.attack,
    guardOptions: s.guardOptions,
    ...(shard ? { shard } : {}),
  };
}

/**
 * Writes a finished run's outputs (`writeRunOutputs`: report, HTML, JUnit, closing lines); a
 * signal that arrives meanwhile lets them complete and then decides the exit code (128 + n).
 * @returns the exit code.
 */
async function finishRun(result: FuzzResult, s: FuzzSettings, opts: Record<string, string | boolean | undefined>, outDir: string, run: AbortController): Promise<number> {
  const { cfg, thresholds, baseline, shard } = s;
  const interrupted = run.signal.aborted;
  session.activeRun = undefined;
  // A first signal from here on lets the HTML, JUnit and closing lines be written, then exits 128 + n.
  session.finishing = true;
  const verdict = await writeRunOutputs(result, {
    ...(cfg.html !== undefined ? { html: cfg.html } : {}),
    ...(cfg.junit !== undefined ? { junit: cfg.junit } : {}),
    thresholds,
    gateFrom: s.gateFrom,
    requireInvariants: opts.requireInvariants === true,
    interrupted,
    ...(session.stopSignal ? { signal: session.stopSignal } : {}),
    ...(baseline ? { baseline } : {}),
    ...(shard ? { shard: { index: shard.index, total: shard.total } } : {}),
    ...(opts.json === true ? { json: true } : {}),
    ...(shard ? { notes: [`shard ${shard.index}/${shard.total}: ${path.join(outDir, shardBlobName(shard))} (merge all shards with: ${cliCommand()} merge-reports DIR…; the corpus grows there)`] } : {}),
  });
  // A signal that arrived while a synchronous write blocked is dispatched in the loop's next poll phase: two turns.
  for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
  session.finishing = false;
  const lateStop = !interrupted && session.stopSignal !== undefined ? session.stopSignal : undefined;
  if (lateStop) process.stderr.write(`farma-fuzz: ${lateStop} arrived while the outputs were written: they are complete; exit ${exitCodeOfSignal(lateStop)} (stopped)\n`);
  return lateStop ? exitCodeOfSignal(lateStop) : verdict.code;
}

/** `--attack-operators a,b,c` (or the config's `attack.operators`, named by `where`): registered operator ids, or a usage error naming the unknown ones and the valid ones. */
async function attackOperators(list: string, where = '--attack-operators'): Promise<OperatorId[]> {
  const { OPERATOR_IDS, isOperatorId } = await import('../../../generators/paraphrase/index.js');
  const ids = list.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  const unknown = ids.filter((id) => !isOperatorId(id));
  if (ids.length === 0 || unknown.length > 0) throw new UsageError(`${where}: ${ids.length === 0 ? 'no operator given' : `unknown operator ${unknown.join(', ')}${didYouMean(unknown[0]!, OPERATOR_IDS)}`} (valid: ${OPERATOR_IDS.join(', ')})`);
  return ids as OperatorId[];
}
