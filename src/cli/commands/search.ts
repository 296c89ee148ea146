/**
 * `farma-fuzz search`: the adaptive attacker as a black-box search. For every template of the
 * chosen start families in each domain (one start case per template, fixed seed), search for an
 * operator sequence the guard admits; report per template bypassed or resists and the queries
 * it took, the distribution of queries-to-bypass, the bypass rate as a function of the budget
 * (Wilson 95%), the minimal operator sets, and the templates that resist. Writes
 * `reports/search-<guard>-<mode>-<strategy>-<budget>-<seed>/search.md|json`.
 * With `--llm` it also runs the LLM paraphrase family, or says why that family is off.
 * Exit code 0 (a search finding is a measurement, not a failed invariant); 2 on usage errors.
 */
import { redactDeep, redactSecrets } from '../../domain/secrets.js';
import { UsageError } from '../../domain/errors.js';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { parseTimeout, timeoutOption } from '../options.js';
import type { DomainId, FuzzCase } from '../../domain/fuzz-case.js';
import { DOMAINS } from '../../domain/fuzz-case.js';
import type { Guard, Phase } from '../../domain/guard.js';
import type { ScratchStore } from '../../fuzz/evaluate.js';
import { cellSeed } from '../../fuzz/campaign.js';
import { evaluateCase, searchBypass, type SearchMode, type SearchStrategy } from '../../fuzz/search.js';
import { MemoryStore } from '../../memory/index.js';
import { writeFileAtomic } from '../../corpus/atomic.js';
import { renderSearchSummary, summariseSearch, type SearchRow, type SearchSummary } from '../../report/adaptive.js';
import { pct } from '../../report/markdown.js';
import { interval } from '../../report/model.js';
import { adaptiveMoves, adaptiveNeighbours, minimalOperatorSet, START_FAMILIES, startCases, type StartFamily } from '../../../generators/adaptive.js';
import { runAttack } from '../../fuzz/attack.js';
import { parseGuardOptionFlags } from '../../guards/guard-options.js';
import { llmFamilyAvailability, runLlmParaphraseFamily, type LlmFamilyCounts } from '../../../generators/llm-paraphrase.js';
import { loadGuard, parseList, parseSeed, positiveInt, reportsDir, writableDir } from '../context.js';
import { versions } from '../../campaign/versions.js';

export interface SearchRunOptions {
  guard: Guard;
  store: ScratchStore;
  domains: DomainId[];
  families: StartFamily[];
  mode: SearchMode;
  /** `mcts` (default on the command line): MCTS-Explore + UCB1 arms over the domain's start cases (`src/fuzz/attack.ts`). */
  strategy: SearchStrategy | 'mcts';
  budget: number;
  beamWidth: number;
  seed: number;
  phase: Phase;
  /** `rejected` (default): start cases the guard admits unmutated are skipped and listed apart; `all`: every start case is searched. */
  from?: 'rejected' | 'all';
  /** Test each bypass for a 1-minimal operator set (extra queries, reported apart). Default true. */
  minimise?: boolean;
  onRow?: (row: SearchRow) => void;
}

/** Runs the search for every start case; rows in domain, family, template order. */
export async function runSearch(o: SearchRunOptions): Promise<SearchSummary> {
  const rows: SearchRow[] = [];
  const skipped: Array<{ domain: string; family: string; template: string }> = [];
  const from = o.from ?? 'rejected';
  const meta = { guard: o.guard.id, mode: o.mode, strategy: o.strategy, budget: o.budget, seed: o.seed };
  if (o.strategy === 'mcts') {
    for (const domain of o.domains) {
      const starts = o.families.flatMap((family) => startCases(domain, family, o.seed).map((s) => ({ family, ...s })));
      const out = await runAttack({
        guard: o.guard,
        store: o.store,
        phase: o.phase,
        bases: starts.map((s) => s.case),
        moves: adaptiveMoves(domain),
        budget: o.budget,
        seed: cellSeed(o.seed, domain, 'search'),
        feedback: o.mode === 'score' ? 'auto' : 'decision',
        minimise: o.minimise ?? true,
      });
      for (const r of out.results) {
        const start = starts[r.index];
        if (!start) continue;
        if (r.status === 'skipped' && from === 'rejected') {
          skipped.push({ domain, family: start.family, template: start.template });
          continue;
        }
        const row: SearchRow = {
          domain,
          family: start.family,
          template: start.template,
          bypassed: r.status === 'flipped' || r.status === 'skipped',
          queries: r.flip?.queriesToFlip ?? r.queries,
          path: r.flip?.found.map((x) => x.op) ?? [],
          minimal: r.flip?.minimal.map((x) => x.op) ?? [],
          minimiseQueries: r.flip?.minimiseQueries ?? 0,
          bestScore: r.bestScore,
          proposed: r.proposed,
          discarded: r.discarded,
          restarts: 0,
          errors: r.queryErrors,
          partialAdmits: 0,
        };
        rows.push(row);
        o.onRow?.(row);
      }
    }
    return { ...summariseSearch(meta, rows), skipped };
  }
  for (const domain of o.domains) {
    for (const family of o.families) {
      for (const start of startCases(domain, family, o.seed)) {
        if (from === 'rejected' && (await evaluateCase(o.guard, start.case, o.store, o.phase)).verdict.decision === 'admit') {
          skipped.push({ domain, family, template: start.template });
          continue;
        }
        const mutate = adaptiveNeighbours(domain);
        const r = await searchBypass({
          guard: o.guard,
          start: start.case,
          mutate,
          budget: o.budget,
          mode: o.mode,
          strategy: o.strategy,
          beamWidth: o.beamWidth,
          // Each template gets its own search seed (derived), so the runs are independent draws.
          seed: cellSeed(o.seed, domain, start.template),
          store: o.store,
          phase: o.phase,
        });
        let minimal = r.path;
        let minimiseQueries = 0;
        const origin = r.final ? mutate.originOf(r.final) : undefined;
        if (r.bypassed && origin && (o.minimise ?? true)) {
          const isBypass = async (c: FuzzCase): Promise<boolean> => {
            const e = await evaluateCase(o.guard, c, o.store, o.phase);
            return e.verdict.decision === 'admit' && e.attackerRejected === 0;
          };
          const m = await minimalOperatorSet(domain, origin.base, origin.ops, isBypass);
          minimal = m.ops.map((x) => x.op);
          minimiseQueries = m.queries;
        }
        const row: SearchRow = {
          domain,
          family,
          template: start.template,
          bypassed: r.bypassed,
          queries: r.queries,
          path: r.path,
          minimal,
          minimiseQueries,
          bestScore: r.bestScore,
          proposed: mutate.stats.proposed,
          discarded: mutate.stats.discarded,
          restarts: r.restarts,
          errors: r.errors,
          partialAdmits: r.partialAdmits,
        };
        rows.push(row);
        o.onRow?.(row);
      }
    }
  }
  return { ...summariseSearch(meta, rows), skipped };
}

/** One domain's LLM family result, for the report. */
export interface LlmFamilyRow {
  domain: string;
  counts: LlmFamilyCounts;
}

function llmMarkdown(rows: LlmFamilyRow[], mode: string, off?: string): string {
  if (off !== undefined) return `### LLM paraphrase family\n\n${off}\n`;
  const out = [`### LLM paraphrase family (${mode})`, '', '| domain | drawn | kept | discarded (rule / judge) | model errors | bypass rate among kept [Wilson 95%] |', '| --- | ---: | ---: | --- | ---: | --- |'];
  for (const r of rows) {
    const c = r.counts;
    out.push(`| ${r.domain} | ${c.total} | ${c.kept} | ${c.discarded} (${c.discardedByRule} / ${c.discardedByJudge}) | ${c.llmErrors} | ${pct(interval(c.bypassed, c.kept))} |`);
  }
  out.push('', 'Rewrites that lost the forged claim are discarded and counted, never reported as bypasses.', '');
  return out.join('\n');
}

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
    .option('-g, --guard <spec>', 'guard to attack (built-in id, module path, http(s) URL or exec:CMD)', 'sentinel')
    .addOption(new Option('--strategy <s>', 'search strategy: mcts (MCTS-Explore over the start cases, UCB1 over operators), greedy or beam').choices(['mcts', 'greedy', 'beam']).default('mcts'))
    .addOption(new Option('--mode <m>', 'what the attacker sees: decision (admit/reject) or score (also F)').choices(['decision', 'score']).default('decision'))
    .option('-b, --budget <n>', 'queries per start case', '200')
    .option('--beam-width <n>', 'cases kept per generation by beam', '3')
    .option('-d, --domain <list>', `domains, comma-separated or "all" (${DOMAINS.join(', ')})`, 'all')
    .option('--start <list>', `start families, comma-separated or "all" (${START_FAMILIES.join(', ')})`, 'all')
    .addOption(new Option('--from <which>', 'rejected: skip start cases the guard admits unmutated (listed apart); all: search every start case').choices(['rejected', 'all']).default('rejected'))
    .option('--guard-option <key=value>', 'option of a built-in guard, repeatable (as for fuzz)', (v: string, p: string[] = []) => [...p, v])
    .option('-s, --seed <n>', 'seed of the start cases and of the search', '1')
    .addOption(new Option('--phase <phase>', 'guard path').choices(['write', 'retrieve']).default('write'))
    .option('--no-minimise', 'do not test bypasses for a minimal operator set')
    .option('--llm', 'also run the LLM paraphrase family (needs OPENAI_API_KEY and OPENAI_BASE_URL, or --llm-replay)')
    .option('--llm-replay', 'run the LLM family offline from recorded fixtures')
    .option('--llm-n <n>', 'base cases per domain for the LLM family', '10')
    .option('--llm-judge', 'also confirm claim preservation with the LLM judge')
    .option('--fixtures <dir>', 'LLM fixture directory', 'corpora/llm-fixtures')
    .option('-o, --out <dir>', 'report directory (default reports/search-<date>-<time>-<guard>-<mode>-<strategy>-<budget>-<seed>)')
    .addOption(timeoutOption())
    .option('-q, --quiet', 'no per-template lines on stderr')
    .action(async (opts: Record<string, string | boolean | undefined>) => {
      const budget = positiveInt('--budget', opts.budget as string, 200, 1_000_000);
      const beamWidth = positiveInt('--beam-width', opts.beamWidth as string, 3, 1000);
      if (typeof opts.out === 'string') writableDir('--out', opts.out);
      const seed = parseSeed(String(opts.seed));
      const domains = parseList<DomainId>('--domain', String(opts.domain), DOMAINS);
      const families = parseList<StartFamily>('--start', String(opts.start), START_FAMILIES);
      const mode = opts.mode as SearchMode;
      const strategy = opts.strategy as SearchStrategy | 'mcts';
      const phase = opts.phase as Phase;
      const timeoutMs = parseTimeout(opts.timeout as string);
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
            if (!opts.quiet) process.stderr.write(`${r.template}: ${r.bypassed ? `bypassed after ${r.queries} queries [${r.minimal.join(' + ') || 'unmutated'}]` : `resists ${r.queries} queries`}\n`);
          },
        });
        const llmRows: LlmFamilyRow[] = [];
        const llmOff: string | undefined = undefined;
        let llmMode = '';
        if (avail) {
          {
            llmMode = avail.mode;
            const n = positiveInt('--llm-n', opts.llmN as string, 10);
            for (const domain of domains) {
              const r = await runLlmParaphraseFamily({
                domain,
                n,
                client: avail.client,
                seed,
                judge: Boolean(opts.llmJudge),
                evaluate: async (c) => (await evaluateCase(guard, c, store, phase)).verdict,
              });
              llmRows.push({ domain, counts: r.counts });
            }
          }
        }
        const outDir = path.resolve(typeof opts.out === 'string' ? opts.out : defaultOutDir(summary));
        mkdirSync(outDir, { recursive: true });
        const md = [
          `# farma-fuzz search: ${summary.guard}`,
          '',
          `Guard \`${summary.guard}\`, phase ${phase}, start families ${families.join(', ')}, domains ${domains.join(', ')}, seed ${seed}.`,
          `Versions: ${Object.entries(versions()).map(([k, v]) => `${k} ${v}`).join(', ')}.`,
          '',
          'A query is one candidate entry evaluated by the guard (its attacker setup writes included). A bypass needs the entry and every attacker write of the candidate admitted.',
          '',
          renderSearchSummary(summary),
          ...(opts.llm || opts.llmReplay ? [llmMarkdown(llmRows, llmMode, llmOff)] : []),
        ].join('\n');
        const json = { phase, families, domains, versions: versions(), search: summary, ...(opts.llm || opts.llmReplay ? { llm: llmOff !== undefined ? { off: llmOff } : { mode: llmMode, rows: llmRows } } : {}) };
        // Counterexamples quote the guard's answers: no secret from the environment reaches a file.
        await writeFileAtomic(path.join(outDir, 'search.md'), redactSecrets(md));
        await writeFileAtomic(path.join(outDir, 'search.json'), `${JSON.stringify(redactDeep(json), null, 2)}\n`);
        const q = summary.queries;
        process.stdout.write(
          `search ${summary.guard} (${mode}, ${strategy}, budget ${budget}): bypassed ${summary.bypass.k}/${summary.bypass.n} start cases (${pct(summary.bypass)})` +
            (q ? `, median ${q.median} queries (quartiles ${q.q1}–${q.q3})` : '') +
            `; ${summary.resisting.length} resist\nreport: ${path.join(outDir, 'search.md')}\n`,
        );
        exit(0);
      } finally {
        await guard.close?.();
        store.close();
      }
    });
}
