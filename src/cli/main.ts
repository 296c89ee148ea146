#!/usr/bin/env node
/**
 * farma-fuzz command line: the composition root. It alone reads argv, writes stdout and
 * sets exit codes (table in `./exit-codes.ts`): 0 every invariant held, 1 a property failed
 * (or a fixed regression came back), 2 usage or configuration, 3 input, 4 guard, 5 internal,
 * 130 interrupted.
 * With a CI gate (`--max-fpr`, `--max-bypass`) the gate alone decides 0 or 1 for `fuzz`,
 * plus the invariants with `--require-invariants` (see `exit-verdict.ts`).
 */
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { FarmaError, InputError, UsageError, errorMessage } from '../domain/errors.js';
import type { MemoryEntry } from '../domain/entry.js';
import { EXIT, EXIT_CODES_HELP, exitCodeOfError } from './exit-codes.js';
import type { Guard } from '../domain/guard.js';
import { DOMAINS, type DomainId } from '../domain/fuzz-case.js';
import { FAMILY_IDS } from '../../generators/family-ids.js';
import { GUARD_SPEC_FORMS } from '../guards/resolve.js';
import { loadGuard, MAX_TIMEOUT_MS, parseList, parsePhase, parseSeed, positiveInt, reportsDir, writableDir, writableFile } from './context.js';
import { createProgress } from './progress.js';
import { listText, LISTABLE } from './list.js';
import { redactDeep, redactSecrets } from '../domain/secrets.js';
import { DEFAULT_CONFIG } from '../config/define-config.js';
import { mergeConfig, type ConfigFlags } from '../config/merge-config.js';
import type { GateThresholds } from '../report/gate.js';
import { FUZZ_EXIT_HELP } from './exit-verdict.js';
import { cliCommand } from '../campaign/cli-command.js';
import type { FuzzWorkerPool } from '../campaign/fuzz.js';
import type { FuzzWorkerGuard } from './fuzz-worker.js';
import { writeRunOutputs } from './run-outputs.js';
import { registerMergeReportsCommand } from './commands/merge-reports.js';
import { parseShard, shardBlobName, type ShardSpec } from '../report/merge.js';
import { printable, printableLine } from '../report/format-verdict.js';
import { readJsonlFile, validateMemoryEntry } from '../corpus/jsonl.js';
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';

import { CONCURRENCY_HELP, parseConcurrency, parseRecheck, parseTimeout, RECHECK_HELP, timeoutOption } from './options.js';
import { RUN_DEFAULTS } from '../domain/defaults.js';

const GUARD_HELP = `guard to test: ${GUARD_SPEC_FORMS.map((f) => f.trim().replace(/\s{2,}/g, ' = ')).join('; ')}`;

/**
 * `--benign FILE` must name a file with at least one non-blank line: an empty export would
 * otherwise give a real-set row with no entries, easy to miss.
 * @throws UsageError when the file is missing; InputError when it holds nothing.
 */
function checkBenignFile(file: string): void {
  if (!(existsSync(file) && statSync(file).isFile())) throw new UsageError(`--benign ${file}: no such file`);
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    for (let pos = 0; ; ) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      if (/[^\s\uFEFF]/.test(buf.subarray(0, n).toString('utf8'))) return;
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  throw new InputError('--benign: the file holds no entries (it is empty or blank); give a JSONL export with one memory entry per line', { file });
}

/** Entries `import` commits per write transaction (without a guard). */
const IMPORT_BATCH = 500;

/** Guards open right now, closed on Ctrl-C so no subprocess outlives the CLI. */
const openGuards = new Set<Guard>();
/** The fuzz campaign in progress: the first Ctrl-C stops it between batches. */
let activeRun: AbortController | undefined;

async function closeGuard(guard: Guard): Promise<void> {
  openGuards.delete(guard);
  try {
    await guard.close?.();
  } catch (e) {
    process.stderr.write(`warning: guard ${guard.id} failed to close: ${redactSecrets(errorMessage(e))}\n`);
  }
}

async function withGuard<T>(spec: string, timeoutMs: number | undefined, fn: (g: Guard) => Promise<T>, guardOptions?: Record<string, unknown>, concurrency?: number): Promise<T> {
  const guard = await loadGuard(spec, timeoutMs, guardOptions, concurrency);
  openGuards.add(guard);
  try {
    return await fn(guard);
  } finally {
    await closeGuard(guard);
  }
}

/** {@link withGuard} with `concurrency` calls in flight (the HTTP/exec adapters size their pools to it). */
function withGuardIn<T>(spec: string, timeoutMs: number | undefined, concurrency: number, fn: (g: Guard) => Promise<T>, guardOptions?: Record<string, unknown>): Promise<T> {
  return withGuard(spec, timeoutMs, fn, guardOptions, concurrency);
}


/** Commander collector of a repeatable flag. */
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
const GUARD_OPTION_HELP = 'option of a built-in guard, repeatable: key=value, the value read as JSON when it parses, else as text; dotted keys reach into nested fields (e.g. tauGuard=0.25, layers=\'["L1-keyword","L5-reasoning-guard"]\', weights.s1=0.2); findings of such a run live in corpora/regressions/<guard>.opts-<hash>.jsonl';

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
  const t: GateThresholds = {};
  if (given('maxFpr')) t.maxFpr = rate('--max-fpr', str('maxFpr'));
  if (given('maxBypass')) t.maxBypass = rate('--max-bypass', str('maxBypass'));
  if (t.maxFpr !== undefined || t.maxBypass !== undefined) f.thresholds = t;
  return f;
}

function rate(flag: string, value: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${flag} must be a rate in [0,1], got "${value}"`);
  return n;
}

function listOf<T extends string>(flag: string, value: string[] | 'all' | undefined, allowed: readonly T[]): T[] {
  if (value === undefined || value === 'all') return [...allowed];
  return parseList(flag, value.join(','), allowed);
}

function defaultRunId(guardId: string, seed: number, date: Date): string {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return `${stamp}-${guardId.replace(/[^\w.-]+/g, '_').slice(0, 40)}-${seed}`;
}

/**
 * Commands whose modules are heavy (vega, the LLM client, every generator): `main` loads
 * them only when the command line may name them, so `list`, `check` and the rest start fast.
 */
const LAZY_COMMANDS: Record<string, (program: Command, exit: (code: number) => void) => Promise<unknown>> = {
  eval: async (program, exit) => (await import('./commands/eval.js')).registerEvalCommand(program, exit),
  search: async (program, exit) => (await import('./commands/search.js')).registerSearchCommand(program, exit),
};

/** The command named on the command line (the first word that is not an option), if any. */
function commandWord(argv: readonly string[]): string | undefined {
  return argv.find((a) => !a.startsWith('-'));
}

/**
 * Builds the full program: every command, including the lazily loaded ones (for tests and
 * for help). `main` builds a smaller one when the command line names a light command.
 */
export async function buildFullProgram(exit: (code: number) => void): Promise<Command> {
  const program = buildProgram(exit);
  for (const register of Object.values(LAZY_COMMANDS)) await register(program, exit);
  return program;
}

export function buildProgram(exit: (code: number) => void): Command {
  const program = new Command();
  program
    .name('farma-fuzz')
    .description('Property-based adversarial fuzzer for LLM-agent memory guards (FARMA attacks vs SENTINEL and baselines).')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', `\n${EXIT_CODES_HELP}`)
    .exitOverride();

  program
    .command('fuzz')
    .description('fuzz a guard: benign-admitted and forgery-rejected properties per domain × family; writes report.md/json/html, grows the regression corpus')
    .addHelpText('after', FUZZ_EXIT_HELP)
    .option('-g, --guard <spec>', GUARD_HELP, 'sentinel')
    .option('-d, --domain <list>', `domains, comma-separated or "all" (${DOMAINS.join(', ')})`, 'all')
    .option('-f, --family <list>', `families, comma-separated or "all" (${FAMILY_IDS.join(', ')})`, 'all')
    .option('-n, --runs <n>', 'cases per domain × family (not counting shrinks)', String(RUN_DEFAULTS.runs))
    .option('-t, --time <seconds>', 'wall-clock budget for the whole campaign; cells share it evenly (--runs then acts as a ceiling, default 10^9)')
    .option('-s, --seed <n>', 'fast-check seed (default: derived from the clock, and printed)')
    .option('-o, --out <dir>', 'report directory (default: reports/<date>-<time>-<guard>-<seed>)')
    .option('-c, --corpus <dir>', 'regression corpus directory', 'corpora/regressions')
    .option('--no-corpus', 'do not read or grow the regression corpus')
    .option('--benign <file>', 'also measure FPR on this JSONL export of benign memory entries')
    .option('--no-real', 'skip the FPR measurement on the bundled real traces (ReAct thoughts, ExpeL WebShop)')
    .addOption(new Option('--phase <phase>', 'guard path to test').choices(['write', 'retrieve']).default('write'))
    .option('--max-failures <k>', 'distinct failure signatures to shrink per cell', String(RUN_DEFAULTS.maxFailures))
    .option('--max-fpr <rate>', 'CI gate: fail when the Wilson 95% upper bound of any FPR exceeds this rate in [0,1]')
    .option('--max-bypass <rate>', 'CI gate: fail when the Wilson 95% upper bound of any bypass rate exceeds this rate in [0,1]')
    .option('--shard <i/n>', 'run shard i of n of the campaign (cells round robin) and write its blob beside the report; merge the shards with merge-reports')
    .option('--require-invariants', 'with a gate, also fail (exit 1) when any invariant fails; without a gate the invariants decide anyway')
    .option('--junit <file>', 'write JUnit XML (one testcase per property × family × domain)')
    .option('--html [file]', 'write the HTML report (default: report.html in the report directory)')
    .option('--no-html', 'do not write the HTML report')
    .option('--config <file>', 'config file (default: farma-fuzz.config.ts|mjs|js in the current folder, when present); flags override it')
    .addOption(timeoutOption())
    .option('-w, --workers <n>', 'lanes for the campaign (the calling thread + worker threads, never more than CPUs); workers start only when they pay, else one thread runs and says why; findings are identical for any count', '1')
    .option('--guard-option <key=value>', GUARD_OPTION_HELP, collect)
    .option('--attack-bases <n>', 'adaptive attack mode: forged bases drawn per domain (default min(runs, 200))')
    .option('--attack-budget <n>', 'adaptive attack mode: guard queries per rejected base, the original included', '30')
    .addOption(new Option('--attack-feedback <f>', 'what the attacker sees: auto (F when the guard gives one), score, or decision').choices(['auto', 'score', 'decision']).default('auto'))
    .option('--concurrency <n>', CONCURRENCY_HELP)
    .option('--recheck <k>', RECHECK_HELP)
    .option('--cell-time <seconds>', `wall-clock bound per cell (domain × family); a cell that reaches it stops and reports "interrupted" with what ran (default ${RUN_DEFAULTS.cellTimeS})`)
    .option('-q, --quiet', 'no progress output')
    .action(async (opts: Record<string, string | boolean | undefined>, cmd: Command) => {
      const [{ MemoryStore }, { runFuzz }] = await Promise.all([import('../memory/index.js'), import('../campaign/fuzz.js')]);
      const flags = configFlags(opts, (k) => cmd.getOptionValueSource(k));
      // The config loader validates with zod: loaded only by the commands that read a config file.
      const { loadConfigFile } = await import('../config/load-config-file.js');
      const { config: fileConfig, file: configFile } = await loadConfigFile(typeof opts.config === 'string' ? opts.config : undefined, process.cwd(), { families: FAMILY_IDS });
      const cfg = mergeConfig(fileConfig, flags, DEFAULT_CONFIG);
      const guardSpec = cfg.guard ?? 'sentinel';
      const seed = cfg.seed ?? parseSeed(undefined);
      const timeS = cfg.time;
      const runs = cfg.runs ?? 1000;
      // With --time on the command line, only a --runs typed there caps the run count.
      const runsGiven = flags.runs !== undefined || (fileConfig.runs !== undefined && flags.time === undefined);
      const domains = listOf<DomainId>('--domain', cfg.domains, DOMAINS);
      const families = listOf('--family', cfg.families, FAMILY_IDS);
      const maxFailures = cfg.maxFailures ?? 5;
      const timeoutMs = parseTimeout(opts.timeout as string);
      const workers = positiveInt('--workers', opts.workers as string, 1, 64);
      const concurrency = cfg.concurrency ?? RUN_DEFAULTS.asyncConcurrency;
      const recheck = cfg.recheck ?? RUN_DEFAULTS.recheck;
      const cellTimeLimitMs = (cfg.cellTime ?? RUN_DEFAULTS.cellTimeS) * 1000;
      const thresholds = cfg.thresholds ?? {};
      const shard = typeof opts.shard === 'string' ? shardOf(opts.shard) : undefined;
      if (shard && timeS !== undefined) throw new UsageError('--shard needs --runs, not --time: a wall-clock budget gives each machine different cases, and the shards could not be merged exactly');
      const { parseGuardOptionFlags } = await import('../guards/guard-options.js');
      const guardOptions = parseGuardOptionFlags((opts.guardOption as unknown as string[] | undefined) ?? [], fileConfig.guardOptions ?? {}, configFile ? path.relative(process.cwd(), configFile) || configFile : undefined);
      const attack = {
        ...(opts.attackBases !== undefined ? { bases: positiveInt('--attack-bases', opts.attackBases as string, 200, 100_000) } : {}),
        budget: positiveInt('--attack-budget', opts.attackBudget as string, 30, 100_000),
        feedback: opts.attackFeedback as 'auto' | 'score' | 'decision',
      };
      if (cfg.out !== undefined && cfg.out.trim() === '') throw new UsageError('--out needs a directory name');
      if (typeof opts.benign === 'string') checkBenignFile(opts.benign);
      if (cfg.corpus !== undefined && cfg.corpus !== false) writableDir('--corpus', cfg.corpus);
      if (cfg.junit !== undefined) writableFile('--junit', cfg.junit);
      if (typeof cfg.html === 'string') writableFile('--html', cfg.html);
      const now = new Date();
      const store = new MemoryStore(':memory:');
      try {
        await withGuard(guardSpec, timeoutMs, async (guard) => {
          const outDir = writableDir('--out', cfg.out ?? path.join(reportsDir(), defaultRunId(guard.id, seed, now)));
          const progress = createProgress(!opts.quiet);
          activeRun = new AbortController();
          process.stderr.write(
            `farma-fuzz: guard ${guard.id}, seed ${seed}, ${domains.length} domain(s) × ${families.length} famil${families.length === 1 ? 'y' : 'ies'}, ${timeS !== undefined ? `within ${timeS} s` : `${runs} runs per cell`}${configFile ? ` (config ${path.relative(process.cwd(), configFile) || configFile})` : ''}\n`,
          );
          // Worker threads rebuild the guard from its spec (src/cli/fuzz-worker.ts); the calling thread is one lane.
          const { fuzzWorkerPool, localCellRunner } = workers > 1 ? await import('./fuzz-worker.js') : { fuzzWorkerPool: undefined, localCellRunner: undefined };
          const workerPool: FuzzWorkerPool<FuzzWorkerGuard> | undefined = fuzzWorkerPool && localCellRunner ? { ...fuzzWorkerPool(), guard: { spec: guardSpec, ...(Object.keys(guardOptions).length > 0 ? { guardOptions } : {}), timeoutMs, concurrency, recheck, cellTimeLimitMs }, local: localCellRunner(guard, store) } : undefined;
          const result = await runFuzz(
            {
              guardSpec,
              guard,
              store,
              domains,
              families,
              runs: timeS !== undefined && !runsGiven ? 1_000_000_000 : runs,
              ...(timeS !== undefined ? { timeLimitMs: timeS * 1000 } : {}),
              seed,
              phase: cfg.phase ?? 'write',
              maxFailures,
              outDir,
              ...(cfg.corpus !== false && cfg.corpus !== undefined ? { corpusDir: cfg.corpus } : {}),
              ...(typeof opts.benign === 'string' ? { benignFile: opts.benign } : {}),
              realData: opts.real !== false,
              generatedAt: now.toISOString(),
              workers,
              ...(workerPool ? { workerPool } : {}),
              timeoutMs,
              concurrency,
              recheck,
              cellTimeLimitMs,
              thresholds,
              signal: activeRun.signal,
              attack,
              guardOptions,
              ...(shard ? { shard } : {}),
            },
            progress,
          );
          const interrupted = activeRun.signal.aborted;
          activeRun = undefined;
          const verdict = await writeRunOutputs(result, {
            ...(cfg.html !== undefined ? { html: cfg.html } : {}),
            ...(cfg.junit !== undefined ? { junit: cfg.junit } : {}),
            thresholds,
            requireInvariants: opts.requireInvariants === true,
            interrupted,
            ...(shard ? { notes: [`shard ${shard.index}/${shard.total}: ${path.join(outDir, shardBlobName(shard))} (merge all shards with: ${cliCommand()} merge-reports DIR…; the corpus grows there)`] } : {}),
          });
          exit(verdict.code);
        }, guardOptions, concurrency);
      } finally {
        store.close();
      }
    });

  program
    .command('replay')
    .description('re-evaluate the regression corpus of a guard: open, now-passing, fixed, regressed')
    .option('-g, --guard <spec>', GUARD_HELP, 'sentinel')
    .option('-c, --corpus <dir>', 'regression corpus directory', 'corpora/regressions')
    .option('--id <id>', 'replay one record (an id or a unique prefix), printed in full')
    .addOption(new Option('--phase <phase>', 'guard path').choices(['write', 'retrieve']).default('write'))
    .option('--mark-fixed', 'mark open records that now pass (on every re-check) as fixed')
    .addOption(timeoutOption())
    .option('--guard-option <key=value>', GUARD_OPTION_HELP, collect)
    .option('--concurrency <n>', CONCURRENCY_HELP)
    .option('--recheck <k>', RECHECK_HELP)
    .action(async (opts: Record<string, string | boolean | undefined>) => {
      const [{ MemoryStore }, { runReplay }] = await Promise.all([import('../memory/index.js'), import('./commands/replay.js')]);
      const guardSpec = String(opts.guard);
      const store = new MemoryStore(':memory:');
      try {
        const timeoutMs = parseTimeout(opts.timeout as string);
        const concurrency = parseConcurrency(opts.concurrency as string | undefined);
        const recheck = parseRecheck(opts.recheck as string | undefined);
        const guardOptions = (await import('../guards/guard-options.js')).parseGuardOptionFlags((opts.guardOption as unknown as string[] | undefined) ?? []);
        await withGuardIn(guardSpec, timeoutMs, concurrency, async (guard) => {
          const r = await runReplay({
            guardOptions,
            timeoutMs,
            concurrency,
            recheck,
            guard,
            guardSpec,
            store,
            corpusDir: String(opts.corpus),
            ...(typeof opts.id === 'string' ? { id: opts.id } : {}),
            phase: parsePhase(String(opts.phase)),
            markFixed: opts.markFixed === true,
          });
          const flips = r.summary.results.filter((x) => x.flip);
          for (const issue of r.issues) process.stderr.write(`warning: ${printable(issue)}\n`);
          for (const d of r.duplicates) process.stderr.write(`warning: ${printable(d)}\n`);
          process.stdout.write(`${r.lines.join('\n')}\n`);
          const c = r.summary.counts;
          if (!existsSync(r.file)) process.stdout.write(`no corpus file yet for guard ${guard.id}: ${r.file} (fuzz writes it when it finds a counterexample)\n`);
          if (r.marked > 0) process.stdout.write(`marked ${r.marked} record(s) as fixed in ${r.file}\n`);
          process.stdout.write(
            `\n${r.records.length} records from ${r.file}: ${c.open} open, ${c['now-passing']} now passing, ${c.fixed} fixed, ${c.regressed} regressed, ${c.flaky} flaky, ${c.error} errors (${r.summary.perSecond.toFixed(0)} entries/s)\n` +
              (flips.length > 0
                ? `${flips.length} flip records (original + rewrite): ${['reproduced', 'original-admitted', 'rewrite-rejected', 'both-changed', 'error'].map((k) => `${flips.filter((x) => x.flip?.status === k).length} ${k}`).join(', ')}\n`
                : ''),
          );
          if (r.issues.length > 0) process.stderr.write(`error: ${r.issues.length} corpus line(s) could not be read and were not replayed (named above); fix or remove them\n`);
          for (const other of r.otherConfigs) process.stdout.write(`note: ${printable(other)}\n`);
          exit(c.regressed > 0 ? EXIT.failed : r.issues.length > 0 ? EXIT.input : EXIT.ok);
        }, guardOptions);
      } finally {
        store.close();
      }
    });

  program
    .command('check')
    .description('print one verdict JSON per line of a JSONL file of memory entries, in order')
    .option('-g, --guard <spec>', GUARD_HELP, 'sentinel')
    .requiredOption('-i, --input <file>', 'JSONL file of MemoryEntry-shaped objects: id and content required; source, trust, traceType, store, timestamp optional (defaults in the README)')
    .option('--store <path>', 'SQLite memory store to check against (default: an empty store)')
    .addOption(new Option('--phase <phase>', 'guard path').choices(['write', 'retrieve']).default('write'))
    .addOption(timeoutOption())
    .option('--concurrency <n>', CONCURRENCY_HELP)
    .action(async (opts: Record<string, string | undefined>) => {
      const [{ MemoryStore, probeStoreFile }, { checkFile }] = await Promise.all([import('../memory/index.js'), import('./commands/check.js')]);
      if (opts.store !== undefined) {
        const kind = existsSync(opts.store) ? probeStoreFile(opts.store) : 'missing';
        if (kind === 'missing') throw new UsageError(`--store ${opts.store}: no such memory store`);
        if (kind === 'foreign') throw new InputError(`not a farma-fuzz memory store (check only reads stores that import wrote)`, { file: opts.store });
      }
      // check only reads: the store is opened read-only (nothing written, no -wal/-shm left behind).
      const store = opts.store !== undefined ? new MemoryStore(opts.store, { readonly: true }) : new MemoryStore(':memory:');
      try {
        const concurrency = parseConcurrency(opts.concurrency);
        await withGuardIn(String(opts.guard), parseTimeout(opts.timeout), concurrency, async (guard) => {
          const lines = await checkFile(String(opts.input), guard, store, parsePhase(String(opts.phase)), concurrency);
          let bad = 0;
          for (const l of lines) {
            process.stdout.write(`${JSON.stringify(l.output)}\n`);
            if (l.warning) process.stderr.write(`warning: ${printable(l.warning)}\n`);
            if (l.error) {
              bad += 1;
              process.stderr.write(`error: ${printable(l.error)}\n`);
            }
          }
          const errors = lines.filter((l) => l.output.decision === 'error').length;
          if (lines.length === 0) process.stderr.write(`warning: ${String(opts.input)} holds no entries\n`);
          if (errors > 0) process.stderr.write(`${errors} of ${lines.length} verdicts are guard errors (never counted as rejections)\n`);
          exit(bad > 0 ? EXIT.input : errors > 0 ? EXIT.guard : EXIT.ok);
        });
      } finally {
        store.close();
      }
    });

  program
    .command('fpr')
    .description('false-positive rate: the natural benign estimate beside the real sets, with the realism gap, a leave-one-source-out check, the hard negatives apart, Wilson 95% intervals and every rejected entry')
    .option('-g, --guard <spec>', GUARD_HELP, 'sentinel')
    .option('-d, --domain <list>', `domains, comma-separated or "all" (${DOMAINS.join(', ')})`, 'all')
    .option('-n, --runs <n>', 'generated benign traces per domain', '2000')
    .option('-s, --seed <n>', 'fast-check seed (default: derived from the clock, and printed)')
    .option('--benign <file>', 'also measure on this JSONL export of benign memory entries')
    .option('--no-real', 'skip the bundled real traces (ReAct, ExpeL WebShop), the hand-written set and the leave-one-source-out check')
    .option('--no-loso', 'skip the leave-one-source-out check (it re-runs the estimate once per bundled real source)')
    .addOption(new Option('--phase <phase>', 'guard path').choices(['write', 'retrieve']).default('write'))
    .option('-o, --out <dir>', 'report directory (default: reports/fpr-<date>-<time>-<guard>-<seed>)')
    .addOption(timeoutOption())
    .option('--concurrency <n>', CONCURRENCY_HELP)
    .option('-q, --quiet', 'no progress output')
    .action(async (opts: Record<string, string | boolean | undefined>) => {
      const [{ MemoryStore }, { measureGuardFpr, writeFprReport }, { renderFprMarkdown }] = await Promise.all([import('../memory/index.js'), import('../campaign/fpr.js'), import('../report/fpr.js')]);
      const seed = parseSeed(opts.seed as string | undefined);
      const runs = positiveInt('--runs', opts.runs as string, 2000, 10_000_000);
      if (typeof opts.out === 'string') writableDir('--out', opts.out);
      if (typeof opts.benign === 'string') checkBenignFile(opts.benign);
      const domains = parseList<DomainId>('--domain', String(opts.domain), DOMAINS);
      const store = new MemoryStore(':memory:');
      try {
        const concurrency = parseConcurrency(opts.concurrency as string | undefined);
        await withGuardIn(String(opts.guard), parseTimeout(opts.timeout as string), concurrency, async (guard) => {
          // Rejected entries quote the guard's reasons and signal names: redacted before any output.
          const report = redactDeep(await measureGuardFpr(
            {
              concurrency,
              guard,
              store,
              domains,
              runs,
              seed,
              phase: parsePhase(String(opts.phase)),
              ...(typeof opts.benign === 'string' ? { benignFile: opts.benign } : {}),
              realData: opts.real !== false,
              loso: opts.loso !== false,
            },
            createProgress(!opts.quiet),
          ));
          const dir = writableDir('--out', typeof opts.out === 'string' ? opts.out : path.join(reportsDir(), `fpr-${defaultRunId(guard.id, seed, new Date())}`));
          await writeFprReport(report, dir);
          for (const issue of report.issues) process.stderr.write(`warning: ${issue}\n`);
          process.stdout.write(`${renderFprMarkdown(report, { maxRejections: 0 })}\n\nreport: ${path.join(dir, 'fpr.md')} (every rejected entry) and fpr.json\n`);
          exit(0);
        });
      } finally {
        store.close();
      }
    });

  program
    .command('import')
    .description('write memory entries from a JSONL file into a SQLite memory store (created when missing), directly or through a guard\'s write path')
    .requiredOption('--store <path>', 'SQLite memory store file (created when missing; a non-farma SQLite file is refused)')
    .requiredOption('-i, --input <file>', 'JSONL file of MemoryEntry-shaped objects')
    .option('-g, --guard <spec>', 'write through this guard: only admitted entries are committed (default: commit every entry)')
    .addOption(timeoutOption())
    .action(async (opts: Record<string, string | undefined>) => {
      const { MemoryStore, probeStoreFile } = await import('../memory/index.js');
      const storePath = String(opts.store);
      const kind = existsSync(storePath) ? probeStoreFile(storePath) : 'missing';
      if (kind === 'foreign') throw new InputError('not a farma-fuzz memory store (refusing to add tables to it)', { file: storePath });
      if (kind === 'unreadable') throw new InputError('cannot open this memory store (check its permissions, and that its folder is writable)', { file: storePath });
      const timeoutMs = parseTimeout(opts.timeout);
      // Streamed: an export of any size, also larger than V8's longest string.
      const { records, issues, warnings = [] } = await readJsonlFile(String(opts.input), validateMemoryEntry);
      for (const i of issues) process.stderr.write(`error: ${printable(`${i.file}:${i.line}: ${i.message}`)}\n`);
      for (const w of warnings) process.stderr.write(`warning: ${printable(`${w.file}:${w.line}: ${w.message}`)}\n`);
      // Load the guard before creating the store, so a usage error leaves no empty store behind.
      const guard = opts.guard ? await loadGuard(opts.guard, timeoutMs) : undefined;
      if (guard) openGuards.add(guard);
      const store = new MemoryStore(storePath);
      try {
        const counts = { committed: 0, rejected: 0, errors: 0, duplicates: 0 };
        const duplicate = (entry: MemoryEntry, line: number): void => {
          counts.duplicates += 1;
          process.stderr.write(`warning: ${String(opts.input)}:${line}: id "${printableLine(entry.id)}" is already in the ${entry.store} store; skipped\n`);
        };
        // Other processes may import into the same store at once: every commit skips a taken id
        // (with a warning) instead of failing, and waits for their write lock (busy timeout).
        if (!guard) {
          for (let i = 0; i < records.length; i += IMPORT_BATCH) {
            const batch = records.slice(i, i + IMPORT_BATCH);
            const lineOf = new Map(batch.map((r) => [r.value, r.line]));
            const r = store.insertNew(batch.map((x) => x.value));
            counts.committed += r.inserted.length;
            for (const e of r.duplicates) duplicate(e, lineOf.get(e) ?? 0);
          }
        } else {
          for (const { value: entry, line } of records) {
            if (store.get(entry.store, entry.id) !== undefined) {
              duplicate(entry, line);
              continue;
            }
            const r = await store.writeAsync(entry, guard, 'write', { skipDuplicate: true });
            if (r.committed) counts.committed += 1;
            else if (r.duplicate) duplicate(entry, line);
            else if (r.verdict.decision === 'error') counts.errors += 1;
            else counts.rejected += 1;
          }
        }
        process.stdout.write(
          `${storePath}: ${counts.committed} committed${guard ? `, ${counts.rejected} rejected, ${counts.errors} guard errors` : ''}, ${counts.duplicates} duplicates skipped, ${issues.length} bad lines; the store now holds ${store.view.size('reasoning')} reasoning and ${store.view.size('general')} general entries\n`,
        );
        exit(issues.length > 0 ? EXIT.input : counts.errors > 0 ? EXIT.guard : EXIT.ok);
      } finally {
        store.close();
        if (guard) await closeGuard(guard);
      }
    });


  registerMergeReportsCommand(program, exit);

  program
    .command('list')
    .description(`list what can be named: ${LISTABLE.join(' | ')}`)
    .argument('<what>', LISTABLE.join(' | '))
    .action(async (what: string) => {
      process.stdout.write(`${await listText(what)}\n`);
      exit(0);
    });

  return program;
}

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const setCode = (c: number): void => {
    code = c;
  };
  const program = buildProgram(setCode);
  try {
    // Heavy commands are registered only when named, or when the word is not a light
    // command (help, a typo: then commander lists and suggests every command).
    const word = commandWord(argv);
    const light = word !== undefined && word !== 'help' && program.commands.some((c) => c.name() === word || c.aliases().includes(word));
    for (const [name, register] of Object.entries(LAZY_COMMANDS)) if (!light || word === name) await register(program, setCode);
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version exit 0; commander already printed its message.
      return e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? EXIT.ok : EXIT.usage;
    }
    if (e instanceof FarmaError && e.code !== 'internal') {
      process.stderr.write(`farma-fuzz: ${e.name}: ${redactSecrets(e.message)}\n`);
      return exitCodeOfError(e);
    }
    process.stderr.write(`farma-fuzz: internal error: ${redactSecrets(e instanceof Error ? (e.stack ?? e.message) : errorMessage(e))}\n`);
    return EXIT.internal;
  }
}

/**
 * Process-level safety nets for the real CLI: an exit code that is never a silent 0, guard
 * promise rejections that nobody awaited, and Ctrl-C closing guard subprocesses.
 */
export function installProcessHandlers(): void {
  // Until main() settles the code is 4 (guard): if the event loop drains first (a guard module,
  // a guard call or a config file whose loading never finishes), the run must not look like a pass.
  process.exitCode = EXIT.guard;
  let settled = false;
  process.on('beforeExit', () => {
    if (!settled) {
      settled = true;
      process.stderr.write('farma-fuzz: stopped before finishing: something it waited on (a guard module, a config file or a guard call) never completed\n');
    }
  });
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(`warning: a promise was rejected and nobody handled it (often a guard): ${redactSecrets(errorMessage(reason))}\n`);
  });
  let quitting = false;
  process.on('SIGINT', () => {
    if (activeRun && !activeRun.signal.aborted) {
      activeRun.abort();
      process.stderr.write('\nfarma-fuzz: stopping after the current batch; the partial report and corpus will be written (Ctrl-C again to quit now)\n');
      return;
    }
    if (quitting) process.exit(130);
    quitting = true;
    process.stderr.write('\nfarma-fuzz: interrupted; closing guards (Ctrl-C again to force). Corpus appends already written are kept.\n');
    void Promise.all([...openGuards].map((g) => closeGuard(g))).finally(() => process.exit(130));
  });
  mainSettled = () => {
    settled = true;
  };
}

let mainSettled: () => void = () => undefined;

/**
 * `npm run cli` and `npm run fuzz` start in the package folder whatever folder the user
 * typed them in; npm keeps that folder in INIT_CWD. Going back there makes `--input`,
 * `--out`, `--corpus` and the other relative paths mean what the user meant, as they do
 * under `npx farma-fuzz`.
 */
function useCallersFolder(env: NodeJS.ProcessEnv): void {
  const init = env.INIT_CWD;
  if (init === undefined || env.npm_package_name !== 'farma-fuzz' || (env.npm_lifecycle_event !== 'cli' && env.npm_lifecycle_event !== 'fuzz')) return;
  if (path.resolve(init) === process.cwd() || !existsSync(init)) return;
  process.chdir(init);
}

/** Runs the CLI as a program: sets the process exit code from `main`. */
export async function runAsProgram(argv: string[]): Promise<void> {
  installProcessHandlers();
  useCallersFolder(process.env);
  try {
    process.exitCode = await main(argv);
  } catch (e) {
    process.stderr.write(`farma-fuzz: ${redactSecrets(errorMessage(e))}\n`);
    process.exitCode = EXIT.internal;
  } finally {
    mainSettled();
  }
}

const isEntry = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isEntry) void runAsProgram(process.argv.slice(2));
