/**
 * The paper's evaluation (§V) as a campaign: the FARMA generators, the benign generators and the
 * bundled real thoughts bound to `src/eval`, then `eval.md` and `eval.json` written and the three
 * tables returned as printable text. The defenses, the SENTINEL ablation and the planner arrive as
 * parameters: only the caller (the CLI, or a library user) knows which guard implementations and
 * which LLM to use. Writes each report file atomically; never touches argv, stdout or the exit code.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { DOMAINS, UsageError, type DomainId, type MemoryEntry, type StoreName } from '../domain/index.js';
import { writeFileAtomic } from '../corpus/atomic.js';
import { loadReactThoughts } from '../corpus/benign-sets.js';
import {
  ablationBaseline,
  ablationFindings,
  plannerLabel,
  renderAblationTable,
  renderDefenseTable,
  renderEvalMarkdown,
  renderSweepTable,
  runEvaluation,
  sweepFinding,
  type AblationVariant,
  type AttackSource,
  type BenignSource,
  type Defense,
  type EvalResult,
  type EvalSettings,
  type FprSet,
} from '../eval/index.js';
import type { Planner } from '../agents/index.js';
import { attackChoice, attackTemplates, DEFAULT_GENERAL_TRACE_TYPE, fillSlots, forgedEntry, renderAmplification, renderSeed } from '../../generators/farma.js';
import { subjectSlots } from '../../generators/slots.js';
import { benignHistory, benignTrace } from '../../generators/benign.js';
import { defaultTemplates, type CompiledTemplate } from '../../generators/templates.js';
import { versions } from './versions.js';
import type { Progress } from './progress.js';

/** Benign history per trial: between these many entries (the clean memory). */
const BENIGN_HISTORY = { minLength: 100, maxLength: 200 } as const;

const SALT_BENIGN = 0x9e3779b9;
const SALT_FPR = 0x85ebca6b;

/**
 * FARMA injections from the repository's templates (paper Algorithm 1): exactly n_s seed
 * traces (reasoning store) then n_a cycles, cycle c citing n_prior = n_s + c - 1, each written
 * as a reasoning-store entry and a general-store copy. One `fc.sample` per trial, at its seed.
 * @throws UsageError when a drawn template id is unknown or the sample is empty (a broken template set).
 */
function farmaAttackSource(): AttackSource {
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

/** Benign histories (the clean memory, {@link BENIGN_HISTORY} entries) from the benign generators, one sample per trial. */
function benignHistorySource(): BenignSource {
  const arbs = new Map<DomainId, fc.Arbitrary<MemoryEntry[]>>();
  return (draw) => {
    let arb = arbs.get(draw.domain);
    if (!arb) arbs.set(draw.domain, (arb = benignHistory(draw.domain, BENIGN_HISTORY)));
    return fc.sample(arb, { seed: (draw.seed ^ SALT_BENIGN) >>> 0, numRuns: 1 })[0] ?? [];
  };
}

/** `perDomain` generated benign traces per domain plus the real ReAct thoughts, each set with a benign history to be checked against. */
function fprSets(seed: number, perDomain: number): FprSet[] {
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

/** What an evaluation campaign runs: the settings of `src/eval` plus the parts only the caller can build. */
export interface EvalCampaignOptions {
  settings: EvalSettings;
  planner: Planner;
  /** Table 1's defenses, in column order. */
  defenses: Defense[];
  /** Table 2's SENTINEL variants. */
  ablation: AblationVariant[];
  /** Table 3's defenses (ASR against the cycle count). */
  sweepDefenses: Defense[];
  /** Generated benign traces per domain for the FPR column (0 = real thoughts only). */
  fprPerDomain: number;
  /** Report folder (created); `eval.md` and `eval.json` are written into it. */
  outDir: string;
  /** The command line recorded in the report. */
  command: string;
  progress: Progress;
  /** Whether to echo each new cell label through `progress.log` (non-TTY runs). */
  logCells?: boolean;
}

/** What an evaluation campaign returns. */
export interface EvalCampaignResult {
  result: EvalResult;
  outDir: string;
  markdown: string;
  /** The three tables as printed. */
  summary: string;
}

/**
 * Runs the evaluation (paper §V: Table 1 ASR by defense × domain with FPR, Table 2 the SENTINEL
 * layer ablation, Table 3 ASR against amplification cycles) and writes `eval.md` and `eval.json`.
 * @throws LlmError from an LLM planner or judge; StoreError/TemplateError from the parts.
 */
export async function runEvalCampaign(o: EvalCampaignOptions): Promise<EvalCampaignResult> {
  const now = new Date();
  let lastLabel = '';
  const result = await runEvaluation(o.settings, {
    attack: farmaAttackSource(),
    benign: benignHistorySource(),
    planner: o.planner,
    defenses: o.defenses,
    ablation: o.ablation,
    sweepDefenses: o.sweepDefenses,
    fprSets: fprSets(o.settings.seed, o.fprPerDomain),
    onProgress: (done, total, label) => {
      if (done === 1) o.progress.start(total, 'eval trials');
      if (label !== lastLabel) {
        if (o.logCells === true) o.progress.log(`  [${done}/${total}] ${label}`);
        lastLabel = label;
      }
      o.progress.update(done, label);
      if (done === total) o.progress.stop();
    },
  });
  const markdown = renderEvalMarkdown(result, { generatedAt: now.toISOString(), command: o.command, versions: versions() });
  mkdirSync(o.outDir, { recursive: true });
  await writeFileAtomic(path.join(o.outDir, 'eval.md'), markdown);
  await writeFileAtomic(path.join(o.outDir, 'eval.json'), `${JSON.stringify({ generatedAt: now.toISOString(), command: o.command, versions: versions(), ...result }, null, 2)}\n`);
  const label = plannerLabel(result.planner);
  const summary = [
    `Table 1: ASR by defense × domain (Wilson 95%), FPR on benign traces — planner: ${label}`,
    ...renderDefenseTable(result),
    '',
    `Table 2: SENTINEL layer ablation on ${o.settings.ablationDomain} — planner: ${label}`,
    ...renderAblationTable(result),
    ...ablationFindings(result.ablation, ablationBaseline(result)).map((l) => `- ${l}`),
    '',
    `Table 3: ASR vs amplification cycles (${o.settings.sweep.domain}) — planner: ${label}`,
    ...renderSweepTable(result),
    `- ${sweepFinding(result)}`,
    '',
    `Wrote ${path.join(o.outDir, 'eval.md')} and eval.json (${(result.elapsedMs / 1000).toFixed(1)} s).`,
  ].join('\n');
  return { result, outDir: o.outDir, markdown, summary };
}
