/**
 * `farma-fuzz eval`: the paper's evaluation (§V) in one command. Wires the FARMA generators,
 * the benign generators and corpora, the guards (none, KeywordFilter, A-MemGuard, SENTINEL and
 * its layer ablation) and a planner (the surrogate for an LLM planner by default, or an LLM)
 * into `src/eval`, then writes `reports/eval-<date>-<time>-<seed>/eval.md` and `eval.json` and prints
 * the three tables. Progress goes to stderr.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { Option, type Command } from 'commander';
import { DOMAINS, FarmaError, UsageError, type DomainId, type MemoryEntry, type StoreName } from '../../domain/index.js';
import { createGuard } from '../../guards/registry.js';
import { LAYER_IDS, createSentinel, type LayerId } from '../../guards/sentinel/index.js';
import { consensusFilter, consensusFilterAsync, createAMemGuard } from '../../guards/amemguard/index.js';
import { createLlmClient, llmConfigFromEnv, type LlmClient } from '../../llm/index.js';
import { llmPlanner, plainRetrieve, surrogatePlanner, type Planner } from '../../agents/index.js';
import {
  guardRetrieve,
  renderAblationTable,
  renderDefenseTable,
  renderEvalMarkdown,
  renderSweepTable,
  ablationFindings,
  ablationBaseline,
  plannerLabel,
  runEvaluation,
  setFilterRetrieve,
  sweepFinding,
  type AblationVariant,
  type AttackSource,
  type BenignSource,
  type Defense,
  type EvalResult,
  type EvalSettings,
  type FprSet,
} from '../../eval/index.js';
import { loadReactThoughts } from '../../corpus/benign-sets.js';
import { attackChoice, attackTemplates, DEFAULT_GENERAL_TRACE_TYPE, fillSlots, forgedEntry, renderAmplification, renderSeed } from '../../../generators/farma.js';
import { subjectSlots } from '../../../generators/slots.js';
import { benignHistory, benignTrace } from '../../../generators/benign.js';
import { defaultTemplates, type CompiledTemplate } from '../../../generators/templates.js';
import { parseList, parseSeed, positiveInt, reportsDir, writableDir } from '../context.js';
import { domainOption, quietOption } from '../options.js';
import { versions } from '../../campaign/versions.js';
import { createProgress } from '../progress.js';
import { exitCodeOfError } from '../exit-codes.js';
import { redactSecrets } from '../../llm/config.js';

/** Largest cycle count of the amplification sweep (0..this). */
export const DEFAULT_SWEEP_MAX = 20;
/** Generated benign traces per domain for the FPR column. */
export const DEFAULT_FPR_PER_DOMAIN = 100;
/** Benign history per trial: between these many entries (the clean memory). */
export const BENIGN_HISTORY = { minLength: 100, maxLength: 200 } as const;

const SALT_BENIGN = 0x9e3779b9;
const SALT_FPR = 0x85ebca6b;

function nonNegativeInt(flag: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a non-negative integer, got "${value}"`);
  if (n > max) throw new UsageError(`${flag} must be at most ${max}, got "${value}"`);
  return n;
}

/**
 * FARMA injections from the repository's templates (paper Algorithm 1): exactly n_s seed
 * traces (reasoning store) then n_a cycles, cycle c citing n_prior = n_s + c - 1, each written
 * as a reasoning-store entry and a general-store copy. One `fc.sample` per trial, at its seed.
 */
export function farmaAttackSource(): AttackSource {
  const templates = defaultTemplates();
  const byId = (id: string): CompiledTemplate => {
    const t = templates.byId.get(id);
    if (!t) throw new UsageError(`unknown template ${id}`);
    return t;
  };
  const cache = new Map<string, ReturnType<typeof build>>();
  function build(domain: DomainId, nS: number, nA: number) {
    return fc.record({
      subject: subjectSlots(domain),
      seeds: fc.array(attackChoice(domain, attackTemplates(domain, 'seed', templates)), { minLength: nS, maxLength: nS }),
      cycles: fc.array(attackChoice(domain, attackTemplates(domain, 'amplification', templates)), { minLength: nA, maxLength: nA }),
      startMinute: fc.integer({ min: 0, max: 366 * 24 * 60 }),
    });
  }
  return (draw) => {
    const key = `${draw.domain}:${draw.seeds}:${draw.cycles}`;
    let arb = cache.get(key);
    if (!arb) cache.set(key, (arb = build(draw.domain, draw.seeds, draw.cycles)));
    const [v] = fc.sample(arb, { seed: draw.seed, numRuns: 1 });
    if (!v) throw new UsageError('attack sample failed');
    let minute = v.startMinute;
    const seeds = v.seeds.map((choice, i) => {
      const t = byId(choice.template);
      minute += choice.gapMinutes;
      const content = renderSeed(t, fillSlots(v.subject, choice.slots, minute));
      return forgedEntry(draw.domain, `s${i + 1}`, 'reasoning', content, typeof t.meta.traceType === 'string' ? t.meta.traceType : 'decision_log', minute);
    });
    const cycles = v.cycles.map((choice, i) => {
      const c = i + 1;
      const t = byId(choice.template);
      minute += choice.gapMinutes;
      const content = renderAmplification(t, fillSlots(v.subject, choice.slots, minute), draw.seeds + c - 1);
      const tt = typeof t.meta.traceType === 'string' ? t.meta.traceType : 'decision_log';
      const gt = typeof t.meta.generalTraceType === 'string' ? t.meta.generalTraceType : DEFAULT_GENERAL_TRACE_TYPE;
      const both: Array<[StoreName, string]> = [['reasoning', tt], ['general', gt]];
      return both.map(([store, type]) => forgedEntry(draw.domain, `a${c}${store[0]}`, store, content, type, minute));
    });
    return { subject: String(v.subject.subject), seeds, cycles };
  };
}

/** Benign histories (the clean memory) from the benign generators, one sample per trial. */
export function benignHistorySource(): BenignSource {
  const arbs = new Map<DomainId, fc.Arbitrary<MemoryEntry[]>>();
  return (draw) => {
    let arb = arbs.get(draw.domain);
    if (!arb) arbs.set(draw.domain, (arb = benignHistory(draw.domain, BENIGN_HISTORY)));
    return fc.sample(arb, { seed: (draw.seed ^ SALT_BENIGN) >>> 0, numRuns: 1 })[0] ?? [];
  };
}

/** Generated benign traces per domain plus the real ReAct thoughts, each with a benign history to be checked against. */
export function fprSets(seed: number, perDomain: number): FprSet[] {
  const sets: FprSet[] = [];
  const historyOf = (domain: DomainId) => fc.sample(benignHistory(domain, BENIGN_HISTORY), { seed: (seed ^ SALT_FPR) >>> 0, numRuns: 1 })[0] ?? [];
  for (const domain of DOMAINS) {
    if (perDomain === 0) break;
    const entries = fc.sample(benignTrace(domain), { seed: (seed + SALT_FPR) >>> 0, numRuns: perDomain }).map((c) => c.entry);
    sets.push({ name: 'generated', domain, history: historyOf(domain), entries });
  }
  const real = loadReactThoughts().sets.flatMap((s) => s.entries);
  sets.push({ name: 'real', domain: 'react-qa', history: historyOf('react-qa'), entries: real });
  return sets;
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

export interface EvalCommandResult {
  result: EvalResult;
  outDir: string;
  markdown: string;
  /** The three tables as printed. */
  summary: string;
}

/**
 * Runs the evaluation and writes `eval.md` and `eval.json` into the report directory.
 * @throws UsageError when `--planner llm` is asked for with no LLM configuration (the reason
 *   names the missing variables); LlmError when the configured endpoint refuses the key, has no
 *   such model or URL, or cannot be reached (checked before anything runs, and on any later call);
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
  const progress = createProgress(!o.quiet);
  let lastLabel = '';
  const result = await runEvaluation(settings, {
    attack: farmaAttackSource(),
    benign: benignHistorySource(),
    planner,
    defenses: tableDefenses(client),
    ablation: sentinelAblation(),
    sweepDefenses: [amemguardHeuristicDefense(), { id: 'none', label: 'No defense', retrieve: plainRetrieve }],
    fprSets: fprSets(o.seed, o.fprPerDomain),
    onProgress: (done, total, label) => {
      if (done === 1) progress.start(total, 'eval trials');
      if (label !== lastLabel) {
        if (!o.quiet && !process.stderr.isTTY) progress.log(`  [${done}/${total}] ${label}`);
        lastLabel = label;
      }
      progress.update(done, label);
      if (done === total) progress.stop();
    },
  });
  const command = `farma-fuzz eval --planner ${o.planner} --trials ${o.trials} --seeds ${o.seeds} --cycles ${o.cycles} --k ${o.k} --seed ${o.seed}`;
  const markdown = renderEvalMarkdown(result, { generatedAt: now.toISOString(), command, versions: versions() });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'eval.md'), markdown);
  writeFileSync(path.join(outDir, 'eval.json'), `${JSON.stringify({ generatedAt: now.toISOString(), command, versions: versions(), ...result }, null, 2)}\n`);
  const label = plannerLabel(result.planner);
  const summary = [
    `Table 1: ASR by defense × domain (Wilson 95%), FPR on benign traces — planner: ${label}`,
    ...renderDefenseTable(result),
    '',
    `Table 2: SENTINEL layer ablation on ${settings.ablationDomain} — planner: ${label}`,
    ...renderAblationTable(result),
    ...ablationFindings(result.ablation, ablationBaseline(result)).map((l) => `- ${l}`),
    '',
    `Table 3: ASR vs amplification cycles (${settings.sweep.domain}) — planner: ${label}`,
    ...renderSweepTable(result),
    `- ${sweepFinding(result)}`,
    '',
    `Wrote ${path.join(outDir, 'eval.md')} and eval.json (${(result.elapsedMs / 1000).toFixed(1)} s).`,
  ].join('\n');
  return { result, outDir, markdown, summary };
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
