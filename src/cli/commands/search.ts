/**
 * `farma-fuzz search`: the adaptive attacker as a black-box search (`src/campaign/search.ts`).
 * For every template of the chosen start families in each domain (one start case per template,
 * fixed seed), search for an operator sequence the guard admits; report per template bypassed
 * or resists and the queries it took, the distribution of queries-to-bypass, the bypass rate as
 * a function of the budget (Wilson 95%), the minimal operator sets, and the templates that
 * resist. Writes `reports/search-<date>-<time>-<guard>-<mode>-<strategy>-<budget>-<seed>/search.md|json`.
 * With `--llm` it also runs the LLM paraphrase family, or says why that family is off.
 * Exit code 0 (a search finding is a measurement, not a failed invariant); 2 on usage errors and
 * when every LLM call of `--llm` failed;
 * 4 when every start case got a guard error unmutated (nothing could be searched).
 */
import { UsageError } from '../../domain/errors.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { domainOption, guardOption, guardOptionFlag, parseTimeout, phaseOption, quietOption, timeoutOption } from '../options.js';
import type { DomainId } from '../../domain/fuzz-case.js';
import { DOMAINS } from '../../domain/fuzz-case.js';
import type { Phase } from '../../domain/guard.js';
import type { SearchMode, SearchStrategy } from '../../campaign/search.js';
import { MemoryStore } from '../../memory/index.js';
import { pct } from '../../report/markdown.js';
import type { LlmFamilyRow } from '../../report/search.js';
import { START_FAMILIES, type StartFamily } from '../../../generators/adaptive.js';
import { parseGuardOptionFlags } from '../../guards/guard-options.js';
import { llmFamilyAvailability } from '../../../generators/llm-paraphrase.js';
import { assertSomeLlmCallSucceeded } from '../../llm/index.js';
import { runLlmFamily, runSearch, writeSearchReport } from '../../campaign/search.js';
import { loadGuard, parseList, parseSeed, positiveInt, reportsDir, writableDir } from '../context.js';
import { versions } from '../../campaign/versions.js';

function defaultOutDir(s: { guard: string; mode: string; strategy: string; budget: number; seed: number }): string {
  const guard = s.guard.replace(/[^\w.-]+/g, '_').slice(0, 40);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return path.join(reportsDir(), `search-${stamp}-${guard}-${s.mode}-${s.strategy}-${s.budget}-${s.seed}`);
}

/**
 * Registers `search` on the program. `exit` receives the exit code (0 after a completed run).
 * @example registerSearchCommand(program, exit) // in buildProgram, next to the other commands
 */
export function registerSearchCommand(program: Command, exit: (code: number) => void): void {
  program
    .command('search')
    .description('adaptive attacker as a black-box search: per start template, queries until the guard admits a claim-keeping rewrite; writes search.md/json')
    .addOption(guardOption('guard to attack (built-in id, module path, http(s) URL or exec:CMD)'))
    .addOption(new Option('--strategy <s>', 'search strategy: mcts (MCTS-Explore over the start cases, UCB1 over operators), greedy or beam').choices(['mcts', 'greedy', 'beam']).default('mcts'))
    .addOption(new Option('--mode <m>', 'what the attacker sees: decision (admit/reject) or score (also F)').choices(['decision', 'score']).default('decision'))
    .option('-b, --budget <n>', 'queries per start case', '200')
    .option('--beam-width <n>', 'cases kept per generation by beam', '3')
    .addOption(domainOption())
    .option('--start <list>', `start families, comma-separated or "all" (${START_FAMILIES.join(', ')})`, 'all')
    .addOption(new Option('--from <which>', 'rejected: skip start cases the guard admits unmutated (listed apart); all: search every start case').choices(['rejected', 'all']).default('rejected'))
    .addOption(guardOptionFlag('option of a built-in guard, repeatable (as for fuzz)'))
    .option('-s, --seed <n>', 'seed of the start cases and of the search', '1')
    .addOption(phaseOption())
    .option('--no-minimise', 'do not test bypasses for a minimal operator set')
    .option('--llm', 'also run the LLM paraphrase family (needs OPENAI_API_KEY and OPENAI_BASE_URL, or --llm-replay)')
    .option('--llm-replay', 'run the LLM family offline from recorded fixtures')
    .option('--llm-n <n>', 'base cases per domain for the LLM family', '10')
    .option('--llm-judge', 'also confirm claim preservation with the LLM judge')
    .option('--fixtures <dir>', 'LLM fixture directory', 'corpora/llm-fixtures')
    .option('-o, --out <dir>', 'report directory (default reports/search-<date>-<time>-<guard>-<mode>-<strategy>-<budget>-<seed>)')
    .addOption(timeoutOption())
    .addOption(quietOption('no per-template lines on stderr'))
    .action(async (opts: Record<string, string | boolean | undefined>) => {
      const budget = positiveInt('--budget', opts.budget as string, 200, 1_000_000);
      const beamWidth = positiveInt('--beam-width', opts.beamWidth as string, 3, 1000);
      if (typeof opts.out === 'string') writableDir('--out', opts.out);
      const seed = parseSeed(String(opts.seed));
      const domains = parseList<DomainId>('--domain', String(opts.domain), DOMAINS);
      const families = parseList<StartFamily>('--start', String(opts.start), START_FAMILIES);
      const mode = opts.mode as SearchMode;
      const strategy = opts.strategy as SearchStrategy;
      const phase = opts.phase as Phase;
      const timeoutMs = parseTimeout(opts.timeout as string);
      // Checked with the other flags, so a bad --llm-n is refused before any search work (and without --llm too).
      const llmN = positiveInt('--llm-n', opts.llmN as string, 10);
      // A requested LLM family that cannot run is a usage error, found before any search work.
      const avail = opts.llm || opts.llmReplay ? await llmFamilyAvailability({ replay: Boolean(opts.llmReplay), fixtureDir: path.resolve(String(opts.fixtures)) }) : undefined;
      if (avail && !avail.on) throw new UsageError(avail.reason);
      // A dead endpoint (401/403/404, no connection) stops here with exit 2, before any search work.
      if (avail?.on) await avail.client.preflight?.();
      const store = new MemoryStore(':memory:');
      const guard = await loadGuard(String(opts.guard), timeoutMs, parseGuardOptionFlags((opts.guardOption as unknown as string[] | undefined) ?? []));
      try {
        const summary = await runSearch({
          guard,
          store,
          domains,
          families,
          mode,
          strategy,
          budget,
          beamWidth,
          seed,
          phase,
          from: opts.from as 'rejected' | 'all',
          minimise: opts.minimise !== false,
          onRow: (r) => {
            if (!opts.quiet) process.stderr.write(`${r.template}: ${r.bypassed ? `bypassed after ${r.queries} queries [${r.minimal.join(' + ') || 'unmutated'}]` : `resists ${r.queries} queries${r.errors > 0 ? ` (${r.errors} of them answered error)` : ''}`}\n`);
          },
        });
        let llm: { mode: string; rows: LlmFamilyRow[] } | undefined;
        if (avail) {
          llm = { mode: avail.mode, rows: await runLlmFamily({ guard, store, phase, domains, n: llmN, client: avail.client, seed, judge: Boolean(opts.llmJudge) }) };
        }
        const outDir = path.resolve(typeof opts.out === 'string' ? opts.out : defaultOutDir(summary));
        mkdirSync(outDir, { recursive: true });
        await writeSearchReport(outDir, { summary, phase, families, domains, versions: versions(), ...(llm ? { llm } : {}) });
        const q = summary.queries;
        const errored = summary.errored ?? [];
        process.stdout.write(
          `search ${summary.guard} (${mode}, ${strategy}, budget ${budget}): bypassed ${summary.bypass.k}/${summary.bypass.n} start cases (${pct(summary.bypass)})` +
            (q ? `, median ${q.median} queries (quartiles ${q.q1}–${q.q3})` : '') +
            `; ${summary.resisting.length} resist` +
            (summary.bypassByReading && summary.bypass.n > 0 ? `; natural ${pct(summary.bypassByReading.natural)}, encoded ${pct(summary.bypassByReading.encoded)}` : '') +
            (errored.length > 0 ? `; ${errored.length} answered error unmutated, not searched (first: ${errored[0]?.template}: ${errored[0]?.message})` : '') +
            (summary.transfer
              ? `\ntransfer: ${summary.rows.filter((r) => r.bypassed && r.flipSource === 'pool').length} bypasses from the pool, ${summary.rows.filter((r) => r.bypassed && r.flipSource === 'search').length} from fresh search; queries to the first bypass ${summary.transfer.firstFlip ? summary.transfer.firstFlip.queries : '-'}; pool ${summary.transfer.poolSize} compositions${summary.transfer.pool[0] ? ` (top: ${summary.transfer.pool[0].composition}, ${summary.transfer.pool[0].successes}/${summary.transfer.pool[0].tries})` : ''}`
              : '') +
            `\nreport: ${path.join(outDir, 'search.md')}\n`,
        );
        // Nothing searched because every start case was a guard error: a guard failure, as in fuzz.
        if (summary.rows.length === 0 && errored.length > 0) {
          process.stderr.write(`exit 4: guard ${summary.guard} answered error on every one of the ${errored.length} start cases, nothing was searched\n`);
          exit(4);
          return;
        }
        // Each failed paraphrase is counted as a model error; when every call failed, the LLM family measured nothing.
        if (avail) assertSomeLlmCallSucceeded(avail.client, `the report ${path.join(outDir, 'search.md')} counts each failure as a model error`);
        exit(0);
      } finally {
        await guard.close?.();
        store.close();
      }
    });
}
