/**
 * The LLM paraphrase family (DESIGN.md "Claim preservation"): forged seed traces
 * rewritten by a language model (`llmParaphrase`), kept only when the rewrite still makes
 * the forged claim, then run against a guard. This is an async pipeline, not an fc
 * arbitrary: fast-check draws the base cases (fixed seed), the rewrite is an awaited call.
 *
 * Claim check, in order: `claimPreserved` (lexicon and subject rule, no model), then
 * optionally the `claimStillMade` LLM judge. A rewrite that fails either is discarded and
 * counted, never reported as a bypass. Every model output goes through the client, which in
 * `record` mode stores it in a `FixtureStore` (default `corpora/llm-fixtures/`) and in
 * `replay` mode answers from it without a network.
 */
import fc from 'fast-check';
import type { DomainId, FuzzCase } from '../src/domain/fuzz-case.js';
import type { Verdict } from '../src/domain/verdict.js';
import { UsageError } from '../src/domain/errors.js';
import { claimStillMade, DEFAULT_FIXTURE_DIR, FixtureStore, llmConfigFromEnv, llmParaphrase, replayOnlyConfig, createLlmClient } from '../src/llm/index.js';
import type { LlmClient, LlmMode } from '../src/llm/index.js';
import { fnv1a, seedTrace } from './farma.js';
import { ADAPTIVE_FAMILY } from './adaptive.js';
import { claimPreserved } from './paraphrase/index.js';
import { errorMessage, isFatalLlmError } from '../src/domain/errors.js';

/** Operator id written into `truth.operators` for an LLM rewrite. */
const LLM_PARAPHRASE_OPERATOR = 'llm-paraphrase';

/** What happened to one base case. */
type LlmCaseStatus = 'bypassed' | 'rejected' | 'error' | 'discarded-claim' | 'discarded-judge';

export interface LlmCaseResult {
  /** The base case's template id. */
  template: string;
  status: LlmCaseStatus;
  /** The rewritten case (family `adaptive`, operators `['llm-paraphrase']`); absent when the model call failed. */
  case?: FuzzCase;
  /** Guard verdict, for kept rewrites only. */
  verdict?: Verdict;
  /** Why a call failed (LlmError message), for `error` rows only. */
  message?: string;
}

export interface LlmFamilyCounts {
  /** Base cases drawn. */
  total: number;
  /** Rewrites that still made the claim and were sent to the guard. */
  kept: number;
  /** Rewrites discarded for a lost claim (rule check plus judge). */
  discarded: number;
  discardedByRule: number;
  discardedByJudge: number;
  /** Kept rewrites the guard admitted. */
  bypassed: number;
  /** Model calls that failed (replay miss, server error): neither kept nor discarded. */
  llmErrors: number;
}

export interface LlmFamilyOptions {
  /** Evaluates one kept rewrite (e.g. `(c) => evaluateCase(guard, c, store, 'write')` in src/fuzz). */
  evaluate: (c: FuzzCase) => Promise<Verdict>;
  domain: DomainId;
  /** Base cases to draw, >= 1. */
  n: number;
  client: LlmClient;
  /** fast-check seed of the base cases (default 1). */
  seed?: number;
  /** Also ask the LLM judge (`claimStillMade`) after the rule check (default false). */
  judge?: boolean;
}

/**
 * Runs the LLM paraphrase family for one domain: draws `n` seed traces (fixed seed), asks the
 * model to reword each, checks claim preservation, evaluates the kept rewrites, and counts.
 * Results are in base-case order; deterministic given the seed and the model's (or fixtures')
 * outputs. Never throws for a failed model call (the row is `error`).
 * @throws UsageError for n < 1.
 * @example
 * const r = await runLlmParaphraseFamily({ evaluate, domain: 'ehr', n: 10, client });
 * r.counts // { total: 10, kept: 7, discarded: 3, bypassed: 2, ... }
 */
export async function runLlmParaphraseFamily(o: LlmFamilyOptions): Promise<{ results: LlmCaseResult[]; counts: LlmFamilyCounts }> {
  if (!Number.isInteger(o.n) || o.n < 1) throw new UsageError(`n must be an integer >= 1, got ${o.n}`);
  const bases = fc.sample(seedTrace(o.domain), { numRuns: o.n, seed: o.seed ?? 1 });
  const counts: LlmFamilyCounts = { total: bases.length, kept: 0, discarded: 0, discardedByRule: 0, discardedByJudge: 0, bypassed: 0, llmErrors: 0 };
  const results: LlmCaseResult[] = [];
  for (const base of bases) {
    const claim = base.truth.claim;
    const template = base.truth.template;
    if (claim === undefined) continue;
    let text: string;
    try {
      text = await llmParaphrase(o.client, { text: base.entry.content, claim, domain: o.domain });
    } catch (e) {
      if (isFatalLlmError(e)) throw e; // a dead endpoint stops the family; it is not one failed paraphrase
      counts.llmErrors += 1;
      results.push({ template, status: 'error', message: errorMessage(e) });
      continue;
    }
    const entry = { ...base.entry, id: `${base.entry.id}-llm-${fnv1a(text)}`, content: text };
    const c: FuzzCase = { ...base, entry, truth: { ...base.truth, family: ADAPTIVE_FAMILY, operators: [LLM_PARAPHRASE_OPERATOR] } };
    if (!claimPreserved(o.domain, claim, [entry], 'exact', { original: base.entry.content })) {
      counts.discarded += 1;
      counts.discardedByRule += 1;
      results.push({ template, status: 'discarded-claim', case: c });
      continue;
    }
    if (o.judge) {
      let made: boolean;
      try {
        made = await claimStillMade(o.client, { claim, text });
      } catch (e) {
        if (isFatalLlmError(e)) throw e;
        counts.llmErrors += 1;
        results.push({ template, status: 'error', case: c, message: errorMessage(e) });
        continue;
      }
      if (!made) {
        counts.discarded += 1;
        counts.discardedByJudge += 1;
        results.push({ template, status: 'discarded-judge', case: c });
        continue;
      }
    }
    counts.kept += 1;
    const verdict = await o.evaluate(c);
    const status: LlmCaseStatus = verdict.decision === 'admit' ? 'bypassed' : verdict.decision === 'reject' ? 'rejected' : 'error';
    if (status === 'bypassed') counts.bypassed += 1;
    results.push({ template, status, case: c, verdict });
  }
  return { results, counts };
}

/** Whether the LLM family can run, and with which client. */
export type LlmFamilyAvailability = { on: true; client: LlmClient; mode: LlmMode; fixtureDir: string } | { on: false; reason: string };

/**
 * Decides whether the LLM paraphrase family runs (for the CLI):
 * - with `OPENAI_API_KEY` and `OPENAI_BASE_URL` set: on, `record` mode (outputs saved to `fixtureDir`);
 * - with `replay`: on, `replay` mode with `replayOnlyConfig` (no network), when `fixtureDir`
 *   holds paraphrase fixtures; off otherwise, saying so;
 * - else off, with `llmConfigFromEnv(env).reason`.
 */
export async function llmFamilyAvailability(
  options: { env?: Readonly<Record<string, string | undefined>>; replay?: boolean; fixtureDir?: string; model?: string } = {},
): Promise<LlmFamilyAvailability> {
  const fixtureDir = options.fixtureDir ?? DEFAULT_FIXTURE_DIR;
  const fixtures = new FixtureStore(fixtureDir, options.env ? { env: options.env } : {});
  if (options.replay) {
    const { records } = await fixtures.load('paraphrase');
    if (records.length === 0) return { on: false, reason: `--llm-replay: no recorded paraphrase fixtures in ${fixtures.fileFor('paraphrase')}` };
    const model = options.model ?? records[0]?.model;
    const client = createLlmClient(replayOnlyConfig(model), { fixtures, mode: 'replay', ...(options.env ? { env: options.env } : {}) });
    return { on: true, client, mode: 'replay', fixtureDir };
  }
  const cfg = llmConfigFromEnv(options.env ?? process.env);
  if (!cfg.ok) return { on: false, reason: `LLM paraphrase family is off: ${cfg.reason}` };
  const config = options.model !== undefined ? { ...cfg.config, model: options.model } : cfg.config;
  const client = createLlmClient(config, { fixtures, mode: 'record', ...(options.env ? { env: options.env } : {}) });
  return { on: true, client, mode: 'record', fixtureDir };
}
