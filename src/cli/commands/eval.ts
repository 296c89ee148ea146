/**
 * `farma-fuzz eval`: the paper's evaluation (§V) in one command. Parses the flags, builds the
 * parts only the CLI knows (the guards: none, KeywordFilter, A-MemGuard, SENTINEL and its layer
 * ablation; the planner: the surrogate for an LLM planner by default, or an LLM) and hands them to
 * `runEvalCampaign` (src/campaign/eval.ts), which writes `reports/eval-<date>-<time>-<seed>/eval.md`
 * and `eval.json`; then prints the three tables. Progress goes to stderr.
 */
import path from 'node:path';
import { Option, type Command } from 'commander';
import { DOMAINS, FarmaError, UsageError, type DomainId } from '../../domain/index.js';
import { createGuard } from '../../guards/registry.js';
import { LAYER_IDS, createSentinel, type LayerId } from '../../guards/sentinel/index.js';
import { consensusFilter, consensusFilterAsync, createAMemGuard } from '../../guards/amemguard/index.js';
import { assertSomeLlmCallSucceeded, createLlmClient, llmConfigFromEnv, type LlmClient } from '../../llm/index.js';
import { llmPlanner, plainRetrieve, surrogatePlanner, type Planner } from '../../agents/index.js';
import {
  guardRetrieve,
  plannerLabel,
  setFilterRetrieve,
  type AblationVariant,
  type Defense,
  type EvalSettings,
} from '../../eval/index.js';
import { parseList, parseSeed, positiveInt, reportsDir, writableDir } from '../context.js';
import { domainOption, quietOption } from '../options.js';
import { createProgress } from '../progress.js';
import { runEvalCampaign, type EvalCampaignResult } from '../../campaign/eval.js';
import { exitCodeOfError } from '../exit-codes.js';
import { redactSecrets } from '../../llm/config.js';

/** Largest cycle count of the amplification sweep (0..this). */
export const DEFAULT_SWEEP_MAX = 20;
/** Generated benign traces per domain for the FPR column. */
export const DEFAULT_FPR_PER_DOMAIN = 100;

function nonNegativeInt(flag: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a non-negative integer, got "${value}"`);
  if (n > max) throw new UsageError(`${flag} must be at most ${max}, got "${value}"`);
  return n;
}

const LAYER_LABEL: Record<LayerId, string> = {
  'L1-keyword': 'L1 keyword',
  'L2-provenance': 'L2 provenance',
  'L3-taint': 'L3 taint',
  'L4-pattern-risk': 'L4 pattern/risk',
  'L5-reasoning-guard': 'L5 Reasoning Guard',
};

function sentinelDefense(id: string, label: string, layers?: readonly LayerId[]): Defense {
  const guard = createSentinel(layers === undefined ? {} : { layers });
  return {
    id,
    label,
    write: guard,
    retrieve: guardRetrieve(guard),
    note: 'writes: keyword layer + Reasoning Guard; retrieval: all five layers (paper §IV)',
  };
}

/** The SENTINEL ablation of paper Table II: all layers, each layer alone, all but one. */
export function sentinelAblation(): AblationVariant[] {
  const out: AblationVariant[] = [{ id: 'sentinel', label: 'all five layers', kind: 'all', layers: [...LAYER_IDS], defense: sentinelDefense('sentinel', 'SENTINEL') }];
  for (const l of LAYER_IDS) out.push({ id: `only-${l}`, label: `${LAYER_LABEL[l]} alone`, kind: 'alone', layers: [l], defense: sentinelDefense(`sentinel[${l}]`, LAYER_LABEL[l], [l]) });
  for (const l of LAYER_IDS) {
    const rest = LAYER_IDS.filter((x) => x !== l);
    out.push({ id: `without-${l}`, label: `without ${LAYER_LABEL[l]}`, kind: 'all-but-one', layers: rest, defense: sentinelDefense(`sentinel[-${l}]`, `without ${LAYER_LABEL[l]}`, rest) });
  }
  return out;
}

/** A-MemGuard heuristic mode as upstream deploys it: consensus over the retrieved memories. */
export function amemguardHeuristicDefense(): Defense {
  return {
    id: 'amemguard',
    label: 'A-MemGuard (heuristic)',
    retrieve: setFilterRetrieve((entries, query) => consensusFilter(entries, { query }).kept),
    fprGuard: createAMemGuard(),
    note: 'retrieval: DBSCAN consensus over the retrieved top-k (upstream ConsistencyChecker); writes unchecked; FPR from the per-entry A-MemGuard check against a benign history',
  };
}

/** A-MemGuard LLM-judge mode (needs an LLM): the judge decides over the retrieved top-k; fails closed. */
export function amemguardJudgeDefense(client: LlmClient): Defense {
  const judge = (prompt: string) => client.complete([{ role: 'user', content: prompt }], { role: 'amemguard-judge' });
  return {
    id: 'amemguard-judge',
    label: 'A-MemGuard (LLM judge)',
    retrieve: setFilterRetrieve(async (entries, query) => (await consensusFilterAsync(entries, { query, judge })).kept),
    fprGuard: createAMemGuard({ judge }),
    note: 'retrieval: LLM judge over the retrieved top-k, fail closed; writes unchecked',
  };
}

/** The defenses of Table 1. */
export function tableDefenses(client: LlmClient | undefined): Defense[] {
  const keyword = createGuard('keyword');
  const defenses: Defense[] = [
    { id: 'none', label: 'No defense', retrieve: plainRetrieve },
    { id: 'keyword', label: 'KeywordFilter', write: keyword, retrieve: guardRetrieve(keyword), note: 'blocklist on writes and on retrieval' },
    amemguardHeuristicDefense(),
  ];
  if (client) defenses.push(amemguardJudgeDefense(client));
  defenses.push(sentinelDefense('sentinel', 'SENTINEL'));
  return defenses;
}

export interface EvalCommandOptions {
  planner: 'surrogate' | 'llm';
  trials: number;
  seeds: number;
  cycles: number;
  k: number;
  seed: number;
  domains: DomainId[];
  sweepMax: number;
  fprPerDomain: number;
  outDir?: string;
  quiet: boolean;
  /** For tests: an LLM client to use instead of one built from the environment. */
  client?: LlmClient;
}

/** What `runEvalCommand` returns: the result, the report folder, `eval.md` and the printed tables. */
export type EvalCommandResult = EvalCampaignResult;

/**
 * Runs the evaluation and writes `eval.md` and `eval.json` into the report directory.
 * @throws UsageError when `--planner llm` is asked for with no LLM configuration (the reason
 *   names the missing variables); LlmError when the configured endpoint refuses the key, has no
 *   such model or URL, cannot be reached or does not answer chat completions (checked before
 *   anything runs, and on any later call), and after the run when every LLM call failed;
 *   StoreError/TemplateError from the parts.
 */
export async function runEvalCommand(o: EvalCommandOptions): Promise<EvalCommandResult> {
  let client = o.client;
  if (client === undefined) {
    const cfg = llmConfigFromEnv();
    if (cfg.ok) client = createLlmClient(cfg.config);
    else if (o.planner === 'llm') throw new UsageError(`--planner llm needs an LLM: ${cfg.reason}`);
    // A configured endpoint that refuses the key, has no such model or URL, or cannot be reached
    // stops the run here (LlmError, exit 2), before any table: the planner and the A-MemGuard judge use it.
    await client?.preflight?.();
  }
  const planner: Planner = o.planner === 'llm' && client ? llmPlanner(client) : surrogatePlanner();
  const now = new Date();
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  const outDir = path.resolve(o.outDir ?? path.join(reportsDir(), `eval-${stamp}-${o.seed}`));
  const settings: EvalSettings = {
    domains: o.domains,
    trials: o.trials,
    seeds: o.seeds,
    cycles: o.cycles,
    k: o.k,
    seed: o.seed,
    ablationDomain: 'ehr',
    sweep: { domain: 'ehr', cycles: Array.from({ length: o.sweepMax + 1 }, (_, i) => i) },
  };
  const command = `farma-fuzz eval --planner ${o.planner} --trials ${o.trials} --seeds ${o.seeds} --cycles ${o.cycles} --k ${o.k} --seed ${o.seed}`;
  const result = await runEvalCampaign({
    settings,
    planner,
    defenses: tableDefenses(client),
    ablation: sentinelAblation(),
    sweepDefenses: [amemguardHeuristicDefense(), { id: 'none', label: 'No defense', retrieve: plainRetrieve }],
    fprPerDomain: o.fprPerDomain,
    outDir,
    command,
    progress: createProgress(!o.quiet),
    logCells: !o.quiet && !process.stderr.isTTY,
  });
  // The planner and the judge count a failed call as an unparseable answer or a fail-closed
  // verdict; when every call failed, the tables measured the endpoint's failure, not the model.
  assertSomeLlmCallSucceeded(client, `the tables in ${path.join(outDir, 'eval.md')} count each failure as unparseable or fail-closed and measure nothing`);
  return result;
}

/**
 * Adds the `eval` command to the program. `exit(0)` after a run; with the reason on stderr,
 * `exit(2)` for usage errors and for LLM failures (`--planner llm` with no LLM configured, or an
 * endpoint answering 401/403/404 or unreachable), other codes as `src/cli/exit-codes.ts`.
 * @example registerEvalCommand(program, (code) => { exitCode = code; })
 */
export function registerEvalCommand(program: Command, exit: (code: number) => void): Command {
  return program
    .command('eval')
    .description('reproduce the shape of the paper\'s §V tables: differential ASR by defense × domain with FPR, SENTINEL layer ablation, ASR vs amplification cycles against A-MemGuard; default planner is a surrogate for an LLM planner (no model)')
    .addOption(new Option('--planner <planner>', 'surrogate = a deterministic rule standing in for an LLM planner (no model); llm = OPENAI_BASE_URL/OPENAI_API_KEY').choices(['surrogate', 'llm']).default('surrogate'))
    .option('--trials <n>', 'trials per cell (paper: 50)', '50')
    .option('--seeds <n>', 'n_s, FARMA seed traces (paper: 3)', '3')
    .option('--cycles <n>', 'n_a, amplification cycles (paper: 10)', '10')
    .option('--k <n>', 'retrieval depth top-k', '5')
    .option('-s, --seed <n>', 'run seed (default: derived from the clock, and printed)')
    .addOption(domainOption())
    .option('--sweep-max <n>', 'amplification sweep runs 0..n cycles', String(DEFAULT_SWEEP_MAX))
    .option('--fpr-per-domain <n>', 'generated benign traces per domain for the FPR column', String(DEFAULT_FPR_PER_DOMAIN))
    .option('-o, --out <dir>', 'report directory (default: reports/eval-<date>-<time>-<seed>)')
    .addOption(quietOption())
    .action(async (opts: Record<string, string | boolean | undefined>) => {
      try {
        const seed = parseSeed(opts.seed as string | undefined);
        const options: EvalCommandOptions = {
          planner: opts.planner === 'llm' ? 'llm' : 'surrogate',
          trials: positiveInt('--trials', opts.trials as string, 50, 100_000),
          seeds: positiveInt('--seeds', opts.seeds as string, 3, 1000),
          cycles: nonNegativeInt('--cycles', opts.cycles as string, 10, 1000),
          k: positiveInt('--k', opts.k as string, 5, 1000),
          seed,
          domains: parseList<DomainId>('--domain', String(opts.domain), DOMAINS),
          sweepMax: nonNegativeInt('--sweep-max', opts.sweepMax as string, DEFAULT_SWEEP_MAX, 1000),
          fprPerDomain: nonNegativeInt('--fpr-per-domain', opts.fprPerDomain as string, DEFAULT_FPR_PER_DOMAIN, 1_000_000),
          quiet: opts.quiet === true,
          ...(typeof opts.out === 'string' ? { outDir: writableDir('--out', opts.out) } : {}),
        };
        if (!options.quiet) process.stderr.write(`farma-fuzz eval: planner ${plannerLabel(options.planner)}, seed ${seed}, ${options.trials} trials per cell\n`);
        const r = await runEvalCommand(options);
        process.stdout.write(`${r.summary}\n`);
        exit(0);
      } catch (e) {
        // Usage errors and LLM endpoint failures (bad key, no such model or URL) stop here, before any table.
        if (e instanceof FarmaError && e.code !== 'internal') {
          process.stderr.write(`farma-fuzz eval: ${e.name}: ${redactSecrets(e.message)}\n`);
          exit(exitCodeOfError(e));
          return;
        }
        throw e;
      }
    });
}
