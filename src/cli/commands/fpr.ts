/**
 * `farma-fuzz fpr`: the FPR of a guard on benign traces (`src/campaign/fpr.ts` measures, `src/report/fpr.ts`
 * renders): writes fpr.md and fpr.json, prints the summary without the list of rejected entries (with
 * `--json`, fpr.json on stdout and nothing else). Exit 0; with `--max-fpr`, 1 when the gate fails (the
 * Wilson upper bound of the estimate or of a real set above the limit); 4 when every guard call
 * answered error (nothing was judged).
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { DomainId } from '../../domain/fuzz-case.js';
import { DOMAINS } from '../../domain/fuzz-case.js';
import { redactDeep, redactSecrets } from '../../domain/secrets.js';
import type { Guard } from '../../domain/guard.js';
import { guardSpecKind } from '../../guards/resolve.js';
import { checkBenignFile, checkBenignUsable, defaultRunId, parseList, parsePhase, parseSeed, positiveInt, reportsDir, writableDir } from '../context.js';
import { withGuardIn } from '../guard-session.js';
import { benignOption, concurrencyOption, domainOption, guardOption, parseConcurrency, parseTimeout, phaseOption, quietOption, seedOption, timeoutOption } from '../options.js';
import { createProgress } from '../progress.js';
import { plural } from '../../domain/plural.js';
import { unreadLinesHead } from '../../report/percent.js';
import { UsageError } from '../../domain/errors.js';
import os from 'node:os';
import { oneCallAtATime, type Phase } from '../../domain/guard.js';
import type { MatchedTally, RemoteLeftOut, RemoteMatched } from '../../campaign/fpr.js';
import type { LosoTask, LosoTaskResult, MatchedTask } from '../../fuzz/parallel.js';
import type { MemoryEntry } from '../../domain/entry.js';
import type { FuzzWorkerGuard } from '../fuzz-worker.js';

/** Warnings about the inputs printed one by one before the rest are counted (as `fuzz` does for a --benign export). */
const WARNINGS_SHOWN = 5;

/** Generated benign traces per domain and per estimate by default: 38,000 cases with the 14 bundled sets on 3 domains (a few minutes), Wilson upper bound 0.25% at 0 of 1,500 for the natural estimate. */
const DEFAULT_FPR_RUNS = 500;


/**
 * Worker lanes for the matched estimates and the leave-one-source-out check of `fpr`, by the rule
 * `fuzz` uses for its check (`losoLanes` in src/campaign/fuzz.ts, decided before the matched
 * estimates, at the natural estimate's measured time per case): for a guard a worker thread can rebuild from its spec and that answers one call at a
 * time (built-in, or a sync module). `close` ends the threads.
 */
async function losoLanesFor(spec: string, guard: Guard, timeoutMs: number | undefined, concurrency: number, say: boolean, est: { domains: DomainId[]; runs: number; seed: number; phase: Phase }): Promise<{ lanes: (work: { sources: number; cases: number; msPerCase: number }) => { loso: RemoteLeftOut[]; matched: RemoteMatched[] }; close: () => Promise<void> }> {
  // Loaded here, not at the CLI's start: only `fpr` runs need them.
  const [{ losoLanes }, { loadRealBenignSets }, { taskPool, cpuSnapshot, cpusBusySince }, { fuzzWorkerPool }] = await Promise.all([import('../../campaign/fuzz.js'), import('../../corpus/benign-sets.js'), import('../../fuzz/parallel.js'), import('../fuzz-worker.js')]);
  // How busy the machine is while the natural estimate runs here: read when the lanes are asked for.
  const atStart = cpuSnapshot();
  let pool: { run: <T, R>(task: T) => Promise<R>; close: () => Promise<void> } | undefined;
  const lanes = (work: { sources: number; cases: number; msPerCase: number }): { loso: RemoteLeftOut[]; matched: RemoteMatched[] } => {
    const d = losoLanes({ workers: 'auto', pool: oneCallAtATime(guard), stateless: guard.cacheVerdicts !== false, cpus: os.availableParallelism(), load: cpusBusySince(atStart), ...work });
    if (d.lanes <= 1) return { loso: [], matched: [] };
    if (say) process.stderr.write(`workers: matched estimates and leave-one-source-out on ${d.lanes} lanes: ${d.reason}\n`);
    const threads = (pool = taskPool({ ...fuzzWorkerPool(), threads: d.lanes - 1 }));
    const g: FuzzWorkerGuard = { spec, ...(timeoutMs !== undefined ? { timeoutMs } : {}), concurrency };
    const sets = loadRealBenignSets().sets.filter((x) => x.entries.length > 0).map((x) => x.name);
    const n = d.lanes - 1;
    return {
      loso: Array.from({ length: n }, () => async (leftOut: string) => {
        const r = await threads.run<LosoTask<FuzzWorkerGuard>, LosoTaskResult>({ kind: 'loso', guard: g, sets, leftOut, ...est });
        return { k: r.k, n: r.n, errors: r.errors };
      }),
      matched: Array.from({ length: n }, () => async (job: { set: { name: string; domain: string; entries: readonly MemoryEntry[] }; domains: DomainId[] }) => {
        const r = await threads.run<MatchedTask<FuzzWorkerGuard>, MatchedTally>({ kind: 'matched', guard: g, set: { ...job.set, entries: [...job.set.entries] }, domains: job.domains, runs: est.runs, seed: est.seed, phase: est.phase });
        return { k: r.k, n: r.n, errors: r.errors, structure: r.structure };
      }),
    };
  };
  return { lanes, close: async () => pool?.close() };
}

/**
 * Why each failed real-set check failed, as advice that fits it: the guard's errors (counted
 * against it), the export's unread lines, or a set too small for the limit even with no
 * rejection (then --no-real, for a bundled set, or a larger export). A set whose measured
 * FPR is above the limit needs no advice. `; `-prefixed, or empty.
 */
function realGateHints(sets: ReadonlyArray<{ set: string; source: string; real: { k: number; n: number }; errors: number; unreadLines?: number }>, above: ReadonlyArray<{ name: string }>, limit: number): string {
  const hints: string[] = [];
  for (const c of above) {
    const s = sets.find((x) => `maxFpr real ${x.set}` === c.name);
    if (!s) continue;
    const user = s.source === 'user export';
    if (s.errors > 0) hints.push(`${s.set}: the guard answered error on ${s.errors} of ${s.real.n} entries, and an error counts against it (fpr.md names each)`);
    if ((s.unreadLines ?? 0) > 0) hints.push(`${unreadLinesHead(s.set, s.unreadLines ?? 0)}, and they count against the guard (the warnings name each)`);
    if (s.errors === 0 && (s.unreadLines ?? 0) === 0 && s.real.k / Math.max(1, s.real.n) <= limit) hints.push(`${s.set}: ${s.real.n} entries are too few to show an FPR under ${limit} at 95%: ${user ? 'give a larger --benign export' : 'add --no-real to gate the estimate alone, or give a larger --benign export'}`);
  }
  return hints.length > 0 ? `; ${hints.join('; ')}` : '';
}

/** Registers `fpr` on the program; `exit` receives the exit code. */
export function registerFprCommand(program: Command, exit: (code: number) => void): Command {
  return program
    .command('fpr')
    .description('false-positive rate: the natural benign estimate beside the real sets, with the realism gap, per-profile and matched estimates, a leave-one-source-out check, the hard negatives apart, Wilson 95% intervals and every rejected entry')
    .addOption(guardOption())
    .addOption(domainOption())
    .option('-n, --runs <n>', `generated benign traces per domain and per estimate (the natural mix, the hard negatives, each matched and each leave-one-source-out estimate run it again; the progress line says how many cases in all)`, String(DEFAULT_FPR_RUNS))
    .option('--max-fpr <rate>', 'gate: exit 1 when the Wilson 95% upper bound of the natural estimate or of any real set (bundled, or --benign) is above this rate in [0,1]; guard errors count against it')
    .option('--json', 'print fpr.json on stdout instead of the summary (progress and warnings stay on stderr)')
    .addOption(seedOption())
    .addOption(benignOption('also measure on this JSONL export of benign memory entries, beside a matched estimate calibrated on its text alone (how well the tool predicts on your memory; episodes from metadata.episode, else one trajectory in file order)'))
    .option('--no-real', 'skip the bundled real traces (ReAct and ExpeL prompts; Reflexion, Voyager, SWE-agent, FireAct and Generative Agents run logs; tau-bench retail replies; a CAMEL role-playing chat), the hand-written set and the leave-one-source-out check')
    .option('--no-loso', 'skip the leave-one-source-out check (it re-runs the estimate once per bundled real source)')
    .option('--no-matched', "skip the matched estimate of each real set (the natural mix calibrated on that set's text alone; it re-runs the estimate once per real set)")
    .addOption(phaseOption())
    .option('-o, --out <dir>', 'report directory (default: reports/fpr-<date>-<time>-<guard>-<seed>)')
    .addOption(timeoutOption())
    .addOption(concurrencyOption())
    .addOption(quietOption())
    .action(async (opts: Record<string, string | boolean | undefined>) => {
      const [{ MemoryStore }, { measureGuardFpr, writeFprReport }, { renderFprMarkdown }] = await Promise.all([import('../../memory/index.js'), import('../../campaign/fpr.js'), import('../../report/fpr.js')]);
      const seed = parseSeed(opts.seed as string | undefined);
      const runs = positiveInt('--runs', opts.runs as string, DEFAULT_FPR_RUNS, 10_000_000);
      const maxFpr = typeof opts.maxFpr === 'string' ? rateOf('--max-fpr', opts.maxFpr) : undefined;
      if (typeof opts.out === 'string') writableDir('--out', opts.out);
      if (typeof opts.benign === 'string') checkBenignFile(opts.benign);
      if (typeof opts.benign === 'string') await checkBenignUsable(opts.benign);
      const domains = parseList<DomainId>('--domain', String(opts.domain), DOMAINS);
      const store = new MemoryStore(':memory:');
      try {
        const concurrency = parseConcurrency(opts.concurrency as string | undefined);
        await withGuardIn(String(opts.guard), parseTimeout(opts.timeout as string), concurrency, async (loaded) => {
          // An outside guard's first error message is kept, to say why when every call failed.
          let firstError: string | undefined;
          const guard: Guard =
            guardSpecKind(String(opts.guard)) === 'builtin'
              ? loaded
              : {
                  id: loaded.id,
                  mode: 'async',
                  config: loaded.config,
                  check: async (entry, ctx) => {
                    const v = await loaded.check(entry, ctx);
                    if (v.decision === 'error') firstError ??= v.error?.message;
                    return v;
                  },
                };
          const phase = parsePhase(String(opts.phase));
          const lanes = await losoLanesFor(String(opts.guard), loaded, parseTimeout(opts.timeout as string), concurrency, opts.quiet !== true, { domains, runs, seed, phase });
          // Rejected entries quote the guard's reasons and signal names: redacted before any output.
          const report = redactDeep(await measureGuardFpr(
            {
              concurrency,
              guard,
              store,
              domains,
              runs,
              seed,
              phase,
              ...(typeof opts.benign === 'string' ? { benignFile: opts.benign } : {}),
              realData: opts.real !== false,
              loso: opts.loso !== false,
              matched: opts.matched !== false,
              lanes: lanes.lanes,
              onRemoteError: (job, e) => process.stderr.write(`warning: a worker thread failed on ${job} (${e instanceof Error ? e.message : String(e)}); it was computed on the calling thread\n`),
            },
            createProgress(!opts.quiet),
          ).finally(lanes.close));
          const dir = writableDir('--out', typeof opts.out === 'string' ? opts.out : path.join(reportsDir(), `fpr-${defaultRunId(guard.id, seed, new Date())}`));
          await writeFprReport(report, dir);
          // The first few one by one, the rest counted: fpr.json keeps every one (`issues`).
          for (const issue of report.issues.slice(0, WARNINGS_SHOWN)) process.stderr.write(`warning: ${issue}\n`);
          if (report.issues.length > WARNINGS_SHOWN) process.stderr.write(`warning: ${report.issues.length - WARNINGS_SHOWN} more, not shown one by one: every one is in ${path.join(dir, 'fpr.json')} ("issues")\n`);
          const { fprGate, formatGateCheck } = await import('../../report/gate.js');
          const gated = maxFpr !== undefined ? fprGate(report, maxFpr) : undefined;
          if (opts.json === true) process.stdout.write(`${JSON.stringify(gated ? { ...report, gate: { maxFpr, pass: gated.pass, checks: gated.checks } } : report, null, 2)}\n`);
          else process.stdout.write(`${renderFprMarkdown(report, { maxRejections: 0 })}\n\nreport: ${path.join(dir, 'fpr.md')} (every rejected entry) and fpr.json\n`);
          // With --json the closing lines go to stderr, so stdout holds the JSON alone.
          const say = (line: string): boolean => (opts.json === true ? process.stderr : process.stdout).write(`${line}\n`);
          // Every check answered error: no FPR was measured (a 0/n row would read as a pass), as in fuzz.
          const allErrors = report.estimate.n > 0 && report.estimateErrors === report.estimate.n && report.rows.every((r) => r.errors === r.fpr.n);
          if (allErrors) {
            process.stderr.write(`exit 4: every guard call of ${guard.id} answered error, no entry was judged and no FPR was measured${firstError !== undefined ? ` (first: ${redactSecrets(firstError)})` : ''}\n`);
            exit(4);
            return;
          }
          if (!gated) {
            say('no gate set (--max-fpr): exit 0 whatever the FPR.');
            exit(0);
            return;
          }
          const above = gated.checks.filter((c) => !c.pass);
          say('');
          for (const c of gated.checks) say(`  ${formatGateCheck(c)}`);
          say(gated.pass ? `gate (--max-fpr ${maxFpr}) passed: ${plural(gated.checks.length, 'check')}, every Wilson 95% upper bound within the limit.` : `gate (--max-fpr ${maxFpr}) failed: ${above.length} of ${plural(gated.checks.length, 'check')} above the limit (${above.map((c) => c.name.replace(/^maxFpr /, '')).join(', ')})${realGateHints(report.realGaps, above, maxFpr ?? 0)}.`);
          say(`exit ${gated.pass ? 0 : 1}: decided by gate ${gated.pass ? 'pass' : 'FAIL'}.`);
          exit(gated.pass ? 0 : 1);
        });
      } finally {
        store.close();
      }
    });
}

/** A rate flag in [0,1], or a usage error naming it. */
function rateOf(flag: string, value: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`${flag} must be a rate in [0,1], got "${value}"`);
  return n;
}
