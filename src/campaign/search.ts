/**
 * The adaptive attacker as a black-box search, as `farma-fuzz search` runs it (the generators'
 * start cases and operators bound to the engine's `runAttack`, with the MCTS, greedy or beam search method): for every
 * template of the start families in each domain, search for an operator sequence the guard
 * admits, with the queries it took and a 1-minimal operator set. Also the LLM paraphrase
 * family per domain, and the files `search.md` / `search.json` (rendered by `src/report/search.ts`).
 */
import path from 'node:path';
import type { DomainId } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import { redactDeep, redactSecrets } from '../domain/secrets.js';
import type { ScratchStore } from '../fuzz/evaluate.js';
import { cellSeed } from '../fuzz/campaign.js';
import { evaluateCase } from '../fuzz/evaluate.js';
import { beam, greedy } from '../fuzz/search.js';
import { CompositionPool, mcts, runAttack, type SearchMethod } from '../fuzz/attack.js';
import { writeFileAtomic } from '../corpus/atomic.js';
import { summariseSearch, type SearchRow, type SearchSummary } from '../report/adaptive.js';
import { renderSearchMarkdown, type LlmFamilyRow, type SearchReportInput } from '../report/search.js';
import { adaptiveAttackParts, operatorReadingMap, startCases, type StartFamily } from '../../generators/adaptive.js';
import { runLlmParaphraseFamily } from '../../generators/llm-paraphrase.js';
import type { LlmClient } from '../llm/client.js';

/** What the attacker sees: decision (admit/reject) or score (also F). */
export type SearchMode = 'decision' | 'score';
/** The search method of `farma-fuzz search`. */
export type SearchStrategy = 'mcts' | 'greedy' | 'beam';

export interface SearchRunOptions {
  guard: Guard;
  store: ScratchStore;
  domains: DomainId[];
  families: StartFamily[];
  mode: SearchMode;
  /** `mcts` (default on the command line): MCTS-Explore + UCB1 arms over the domain's start cases (`src/fuzz/attack.ts`); `greedy`, `beam`: `src/fuzz/search.ts`. */
  strategy: SearchStrategy;
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

/** The search method of a strategy (`mcts`, `greedy`, `beam`). */
function methodOf(strategy: SearchStrategy, beamWidth: number): SearchMethod {
  if (strategy === 'mcts') return mcts();
  return strategy === 'greedy' ? greedy() : beam({ beamWidth });
}

/** Runs the search for every start case; rows in domain, family, template order. */
export async function runSearch(o: SearchRunOptions): Promise<SearchSummary> {
  const rows: SearchRow[] = [];
  const skipped: Array<{ domain: string; family: string; template: string }> = [];
  const errored: Array<{ domain: string; family: string; template: string; message: string }> = [];
  const errorOf = (v: { error?: { kind: string; message: string } }): string => redactSecrets(`${v.error?.kind ?? 'error'}: ${v.error?.message ?? 'guard error'}`);
  const from = o.from ?? 'rejected';
  const meta = { guard: o.guard.id, mode: o.mode, strategy: o.strategy, budget: o.budget, seed: o.seed };
  const method = methodOf(o.strategy, o.beamWidth);
  // One transfer pool over the domains, as attack mode keeps it (MCTS uses it; greedy and beam do not).
  const pool = new CompositionPool();
  let queriesBefore = 0;
  let firstFlip: { domain: string; queries: number } | undefined;
  for (const domain of o.domains) {
    const starts = o.families.flatMap((family) => startCases(domain, family, o.seed).map((s) => ({ family, ...s })));
    const out = await runAttack({
      guard: o.guard,
      store: o.store,
      phase: o.phase,
      bases: starts.map((s) => s.case),
      ...adaptiveAttackParts(domain),
      method,
      budget: o.budget,
      // MCTS draws from one source per domain; greedy and beam search each template with its own
      // (derived) seed, so their runs are independent draws.
      seed: cellSeed(o.seed, domain, 'search'),
      baseSeeds: starts.map((s) => cellSeed(o.seed, domain, s.template)),
      feedback: o.mode === 'score' ? 'auto' : 'decision',
      minimise: o.minimise ?? true,
      pool,
    });
    if (out.firstFlip && !firstFlip) firstFlip = { domain, queries: queriesBefore + out.firstFlip.runQueries };
    queriesBefore += out.searchQueries;
    for (const r of out.results) {
      const start = starts[r.index];
      if (!start) continue;
      if (r.status === 'skipped' && from === 'rejected') {
        skipped.push({ domain, family: start.family, template: start.template });
        continue;
      }
      // A guard error on the unmutated case is no rejection: there is nothing to search from.
      if (r.original.verdict.decision === 'error') {
        errored.push({ domain, family: start.family, template: start.template, message: errorOf(r.original.verdict) });
        continue;
      }
      const row: SearchRow = {
        domain,
        family: start.family,
        template: start.template,
        bypassed: r.status === 'flipped' || r.status === 'skipped',
        queries: r.flip?.queriesToFlip ?? r.queries,
        path: (r.flip?.found ?? r.bestSteps).map((x) => x.op),
        minimal: r.flip?.minimal.map((x) => x.op) ?? [],
        minimiseQueries: r.flip?.minimiseQueries ?? 0,
        bestScore: r.bestScore,
        proposed: r.proposed,
        discarded: r.discarded,
        restarts: r.restarts,
        errors: r.queryErrors,
        ...(r.flip ? { flipSource: r.flip.source } : {}),
      };
      rows.push(row);
      o.onRow?.(row);
    }
  }
  const transfer = o.strategy === 'mcts' ? { ...(firstFlip ? { firstFlip } : {}), poolSize: pool.size, pool: pool.top(10) } : undefined;
  return { ...summariseSearch(meta, rows, operatorReadingMap()), skipped, errored, ...(transfer ? { transfer } : {}) };
}

/**
 * The LLM paraphrase family in every domain: `n` base cases each, rewritten by `client`, kept
 * only when the claim survives (rule check, and the LLM judge with `judge`), then checked by the guard.
 */
export async function runLlmFamily(o: { guard: Guard; store: ScratchStore; phase: Phase; domains: readonly DomainId[]; n: number; client: LlmClient; seed: number; judge: boolean }): Promise<LlmFamilyRow[]> {
  const rows: LlmFamilyRow[] = [];
  for (const domain of o.domains) {
    const r = await runLlmParaphraseFamily({
      domain,
      n: o.n,
      client: o.client,
      seed: o.seed,
      judge: o.judge,
      evaluate: async (c) => await evaluateCase(o.guard, c, o.store, o.phase),
    });
    rows.push({ domain, counts: r.counts });
  }
  return rows;
}

/**
 * Writes `search.md` and `search.json` into `outDir` (which must exist), each atomically, with
 * every secret from the environment redacted (counterexamples quote the guard's answers).
 * @throws the `fs` error when a file cannot be written.
 */
export async function writeSearchReport(outDir: string, input: SearchReportInput): Promise<void> {
  const { summary, phase, families, domains, versions, llm } = input;
  const json = { phase, families, domains, versions, search: summary, ...(llm ? { llm: llm.off !== undefined ? { off: llm.off } : { mode: llm.mode, rows: llm.rows } } : {}) };
  await writeFileAtomic(path.join(outDir, 'search.md'), redactSecrets(renderSearchMarkdown(input)));
  await writeFileAtomic(path.join(outDir, 'search.json'), `${JSON.stringify(redactDeep(json), null, 2)}\n`);
}
