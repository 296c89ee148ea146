/**
 * `farma-fuzz fuzz`: property mode over domains × families against one guard; writes
 * `report.md` and `report.json`, grows the regression corpus, and prints a summary.
 * The exit code is decided in `src/cli/exit-verdict.ts` (invariants, or the CI gate).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DomainId, FuzzCase } from '../../domain/fuzz-case.js';
import type { Guard, Phase } from '../../domain/guard.js';
import { caseId } from '../../corpus/case-id.js';
import { appendRegressions, loadRegressions, newRegressionRecord, regressionFile } from '../../corpus/regressions.js';
import { loadRealBenignSets, loadBenignJsonl } from '../../corpus/benign-sets.js';
import { HISTORY_ENTRIES } from '../../../generators/benign.js';
import { leaveOneSourceOut } from '../../campaign/fpr.js';
import type { LosoCheckRow } from '../../report/model.js';
import { DEFAULT_CELL_TIME_MS, runCampaign, type CampaignOutcome, type CellSpec } from '../../fuzz/campaign.js';
import type { CellOutcome } from '../../fuzz/property.js';
import os from 'node:os';
import { WORKER_PAYBACK_MS, runCampaignParallel } from '../../fuzz/parallel.js';
import { fuzzWorkerPool, localCellRunner } from '../fuzz-worker.js';
import { redactDeep as redactDeepIn, redactSecrets } from '../../domain/secrets.js';
import { formatGateCheck, gate, type GateThresholds } from '../../report/gate.js';
import { measureBenignEntries } from '../../fuzz/measure.js';
import type { ScratchStore } from '../../fuzz/evaluate.js';
import { buildReport, interval, type RealSetFpr, type ReportData } from '../../report/model.js';
import { renderMarkdown, pct, realismGapLine } from '../../report/markdown.js';
import { formatCounterexample } from '../../report/format-verdict.js';
import { writeFileAtomic } from '../../corpus/atomic.js';
import { formatSignals } from '../../report/format-verdict.js';
import { FAMILY_REGISTRY, type FamilyId } from '../../../generators/families.js';
import { operatorGroupMap } from '../../../generators/adaptive.js';
import { versions } from '../context.js';
import type { Progress } from '../../campaign/progress.js';
import { replayCommand } from '../replay-command.js';
import type { Verdict } from '../../domain/verdict.js';
import type { ObservedVerdict } from '../../corpus/regressions.js';
import type { AttackFeedback } from '../../fuzz/attack.js';
import { ATTACK_DEFAULTS, mergeAttackCells, runAttackMode } from '../attack-mode.js';
import { coverageTable, coverageLines, type CoverageTable } from '../../report/coverage.js';
import { attackSummaryLines } from '../../report/adaptive.js';
import { flipText } from '../../report/attack-html.js';
import type { AttackModeResult } from '../attack-mode.js';
import { inShard, shardBlob, shardBlobName, type FinishSettings, type ShardParts, type ShardSpec } from '../../report/merge.js';

export interface FuzzOptions {
  guardSpec: string;
  guard: Guard;
  store: ScratchStore;
  domains: DomainId[];
  families: FamilyId[];
  runs: number;
  timeLimitMs?: number;
  seed: number;
  phase: Phase;
  maxFailures: number;
  /** Report directory for this run. */
  outDir: string;
  /** Regression corpus directory, or undefined to leave the corpus alone. */
  corpusDir?: string;
  /** Extra benign JSONL export to measure FPR on, besides the bundled real traces. */
  benignFile?: string;
  /** Measure FPR on the bundled real traces: ReAct thoughts and ExpeL WebShop (default true). */
  realData: boolean;
  generatedAt: string;
  /** Worker threads (default 1); results are identical for any count. */
  workers?: number;
  /** Time bound per async guard call, ms. */
  timeoutMs?: number;
  /** Guard calls in flight for async guards (default 8; sync guards use 1); results are identical for any value. */
  concurrency?: number;
  /** Re-checks of each finding (default 3): one that does not reproduce every time is labelled flaky. */
  recheck?: number;
  /** Wall-clock bound per cell, ms (default 10 min); the cell then reports interrupted. */
  cellTimeLimitMs?: number;
  /** CI gate limits; when any is set, the gate's result is part of the report. */
  thresholds?: GateThresholds;
  /** Stops the campaign between batches (Ctrl-C); what ran so far is still reported and kept. */
  signal?: AbortSignal;
  /** Attack mode of the `adaptive` family (issue 10; default `ATTACK_DEFAULTS`, bases capped at `runs`); `false` runs it in property mode. */
  attack?: { bases?: number; budget?: number; feedback?: AttackFeedback } | false;
  /** `--guard-option` values the guard was built with (hashed into the report). */
  guardOptions?: Record<string, unknown>;
  /**
   * `--shard i/n`: run only this shard's part of the campaign (see `src/report/merge.ts`) and
   * write its blob beside the report; the corpus is then grown by `merge-reports`.
   */
  shard?: ShardSpec;
}

export interface FuzzResult {
  report: ReportData;
  reportDir: string;
  outcome: CampaignOutcome;
  warnings: string[];
}

/** Hash of the guard's config, with the `--guard-option` values when any were given. */
function guardConfigHash(guard: Guard, options?: Record<string, unknown>): string {
  if (options && Object.keys(options).length > 0) return caseId({ config: guard.config ?? null, guardOptions: options });
  return guard.config !== undefined ? caseId(guard.config) : 'none';
}

/** The coverage table of forged cells and attack bases and flips, when the guard exposes signals or layers. */
function coverageOf(outcome: CampaignOutcome, attack?: Omit<AttackModeResult, 'cells'>): { coverage: CoverageTable } | undefined {
  const forged = outcome.cells.filter((c) => c.property === 'forgery-rejected' && !(attack && c.family === 'adaptive')).map((c) => c.stats);
  const table = coverageTable({ forged, extra: attack?.originals ?? [], flips: attack?.flipVerdicts ?? [] });
  return table ? { coverage: table } : undefined;
}

function observedOf(v: Omit<Verdict, 'elapsedUs'>): ObservedVerdict {
  return {
    decision: v.decision,
    ...(v.layer !== undefined ? { layer: v.layer } : {}),
    ...(v.score !== undefined ? { score: v.score } : {}),
    ...(v.signals !== undefined ? { signals: v.signals } : {}),
    reasons: v.reasons,
  };
}

/** Returns a copy of `value` with every secret from the environment replaced in every string and object key. */
function redactDeep<T>(value: T): T {
  return redactDeepIn(value);
}

;

/** Loads the open/fixed records of this guard for a cell, to try first as examples. */
function examplesFor(corpusDir: string | undefined, guardId: string, warnings: string[]): Map<string, FuzzCase[]> {
  const map = new Map<string, FuzzCase[]>();
  if (!corpusDir) return map;
  const { records, issues } = loadRegressions(regressionFile(corpusDir, guardId));
  for (const i of issues) warnings.push(`${i.file}:${i.line}: ${i.message} (line kept as is, not used)`);
  for (const { value } of records) {
    const key = `${value.domain}/${value.family}`;
    const list = map.get(key) ?? [];
    list.push(value.case);
    map.set(key, list);
  }
  return map;
}

export async function runFuzz(o: FuzzOptions, progress: Progress): Promise<FuzzResult> {
  const warnings: string[] = [];
  const examples = examplesFor(o.corpusDir, o.guard.id, warnings);
  const cells: CellSpec[] = [];
  const attackMode = o.families.includes('adaptive') && o.attack !== false;
  for (const domain of o.domains) {
    for (const family of o.families) {
      if (attackMode && family === 'adaptive') continue;
      const ex = examples.get(`${domain}/${family}`);
      cells.push({ domain, family, arbitrary: FAMILY_REGISTRY[family].arbitrary(domain), ...(ex ? { examples: ex } : {}) });
    }
  }
  // A shard runs every n-th unit: the campaign cells in order, then attack mode as one unit.
  const mine = (unit: number): boolean => inShard(unit, o.shard);
  const attackUnit = cells.length;
  for (let k = cells.length - 1; k >= 0; k--) if (!mine(k)) cells.splice(k, 1);
  const runAttack = attackMode && mine(attackUnit);
  const total = cells.length * o.runs;
  let doneBefore = 0;
  progress.start(total, `${o.guard.id}: ${cells.length} cells`);
  const onCellEnd = (c: CellOutcome): void => {
    doneBefore += o.runs;
    const rate = interval(c.stats.violations, c.stats.runs);
    progress.log(
      `${c.stats.violations === 0 && c.stats.errors === 0 ? '✓' : '✗'} ${c.domain}/${c.family} ${c.property}: ${c.stats.violations}/${c.stats.runs} violations ${pct(rate)}, ${c.stats.errors} errors, ${c.counterexamples.length} minimal counterexample(s)${findingNote(c.counterexamples)}${c.interrupted ? ' (interrupted)' : ''}`,
    );
  };
  const workers = o.workers ?? 1;
  let outcome =
    workers > 1
      ? await runCampaignParallel({
          ...fuzzWorkerPool(),
          workers,
          local: localCellRunner(o.guard, o.store),
          // Worker threads start only when they pay (issue 12.4); the line says what ran and why.
          startPolicy: { minRemainingMs: WORKER_PAYBACK_MS, cpus: os.availableParallelism(), loadAverage: () => os.loadavg()[0] ?? 0 },
          onWorkers: (d) =>
            progress.log(d.threads === 0 ? `workers: --workers ${d.asked} ran on one thread: ${d.reason}` : `workers: ${d.reason}`),
          guardId: o.guard.id,
          guard: {
            spec: o.guardSpec,
            ...(o.guardOptions && Object.keys(o.guardOptions).length > 0 ? { guardOptions: o.guardOptions } : {}),
            ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
            ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
            ...(o.recheck !== undefined ? { recheck: o.recheck } : {}),
            cellTimeLimitMs: o.cellTimeLimitMs ?? DEFAULT_CELL_TIME_MS,
          },
          cells: cells.map(({ domain, family, examples }) => ({ domain, family, ...(examples ? { examples } : {}) })),
          phase: o.phase,
          runsPerCell: o.runs,
          seed: o.seed,
          maxFailures: o.maxFailures,
          ...(o.timeLimitMs !== undefined ? { timeLimitMs: o.timeLimitMs } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
          onTotalProgress: (done) => progress.update(done),
          onCellEnd,
        })
      : await runCampaign({
          guard: o.guard,
          cells,
          store: o.store,
          phase: o.phase,
          runsPerCell: o.runs,
          seed: o.seed,
          maxFailures: o.maxFailures,
          ...(o.timeLimitMs !== undefined ? { timeLimitMs: o.timeLimitMs } : {}),
          ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
          ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
          ...(o.recheck !== undefined ? { recheck: o.recheck } : {}),
          ...(o.cellTimeLimitMs !== undefined ? { cellTimeLimitMs: o.cellTimeLimitMs } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
          onProgress: (cell, done) => progress.update(doneBefore + done, `${cell.domain}/${cell.family}`),
          onCellEnd,
        });
  progress.stop();

  // Attack mode: the adaptive family attacks the forged bases the guard rejects (issue 10).
  let attack: Awaited<ReturnType<typeof runAttackMode>> | undefined;
  if (runAttack && !o.signal?.aborted) {
    const a = o.attack === false ? {} : (o.attack ?? {});
    const t0 = performance.now();
    attack = await runAttackMode({
      guard: o.guard,
      store: o.store,
      phase: o.phase,
      domains: o.domains,
      seed: o.seed,
      bases: a.bases ?? Math.min(o.runs, ATTACK_DEFAULTS.bases),
      budget: a.budget ?? ATTACK_DEFAULTS.budget,
      ...(a.feedback ? { feedback: a.feedback } : {}),
      maxFailures: o.maxFailures,
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    });
    for (const c of attack.cells) onCellEnd(c);
    outcome = mergeAttackCells(outcome, attack.cells, o.domains, o.families, performance.now() - t0);
  }

  // Real benign traces, measured apart and reported beside the generated FPR.
  const realSets: RealSetFpr[] = [];
  let loso: LosoCheckRow[] | undefined;
  const toReal = async (name: string, source: string, entries: Parameters<typeof measureBenignEntries>[0]): Promise<void> => {
    // Each real entry is checked after the entries before it in its set, as the benign family is.
    const m = await measureBenignEntries(entries, o.guard, o.store, o.phase, o.concurrency ?? 1, { history: HISTORY_ENTRIES });
    realSets.push({
      name,
      source,
      fpr: interval(m.rejected.length, m.n),
      errors: m.errors,
      rejected: m.rejected.map(({ entry, verdict }) => ({
        id: entry.id,
        content: entry.content,
        ...(verdict.layer !== undefined ? { layer: verdict.layer } : {}),
        signals: formatSignals(verdict.signals),
        reasons: verdict.reasons,
      })),
    });
  };
  // The real benign sets are measured once, by shard 1.
  const measureReal = o.shard === undefined || o.shard.index === 1;
  if (o.realData && measureReal) {
    const real = loadRealBenignSets();
    for (const issue of real.issues) warnings.push(`${issue.file}:${issue.line}: ${issue.message}`);
    for (const set of real.sets) await toReal(set.name, set.source, set.entries);
    // Calibration check: leave one real source out, recalibrate, re-estimate (same seed and runs).
    if (o.families.includes('benign') && !o.signal?.aborted) {
      const measured = new Map(realSets.map((r) => [r.name, { k: r.fpr.k, n: r.fpr.n, errors: r.errors }]));
      loso = await leaveOneSourceOut(
        { guard: o.guard, store: o.store, domains: o.domains, runs: o.runs, seed: o.seed, phase: o.phase, ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}) },
        real.sets.filter((x) => x.entries.length > 0),
        (name) => measured.get(name),
      );
    }
  }
  if (o.benignFile && measureReal) {
    const user = loadBenignJsonl(o.benignFile);
    for (const issue of user.issues) warnings.push(`${issue.file}:${issue.line}: ${issue.message}`);
    if (user.entries.length === 0) warnings.push(`${o.benignFile}: no usable benign entry (every line was bad, see above); its FPR row has no runs`);
    await toReal(path.basename(o.benignFile), 'user export', user.entries);
  }

  const settings: FinishSettings = {
    guardSpec: o.guardSpec,
    guardId: o.guard.id,
    guardConfigHash: guardConfigHash(o.guard, o.guardOptions),
    ...(o.guardOptions ? { guardOptions: o.guardOptions } : {}),
    ...(o.corpusDir !== undefined ? { corpusDir: o.corpusDir } : {}),
    phase: o.phase,
    generatedAt: o.generatedAt,
    domains: o.domains,
    families: o.families,
    maxFailures: o.maxFailures,
    ...(o.thresholds ? { thresholds: o.thresholds } : {}),
    outDir: o.outDir,
  };
  const parts: FuzzParts = { outcome, realSets, ...(loso ? { loso } : {}), warnings, ...(attack ? { attack: { report: attack.report, flips: attack.flips, originals: attack.originals, flipVerdicts: attack.flipVerdicts } } : {}) };
  if (!o.shard) return finishFuzz(settings, parts);
  // A shard writes its blob (the merge input) and a partial report; merge-reports grows the corpus.
  mkdirSync(o.outDir, { recursive: true });
  const blob = redactDeep(shardBlob(o.shard, { ...settings, runsPerCell: o.runs, seed: o.seed }, parts));
  await writeFileAtomic(path.join(o.outDir, shardBlobName(o.shard)), `${JSON.stringify(blob)}\n`);
  const { corpusDir: _c, ...partial } = settings;
  return finishFuzz(partial, parts);
}

/** What a finished campaign gives {@link finishFuzz}: its outcome, the attack, the real sets. */
export type FuzzParts = ShardParts;

/**
 * Turns campaign parts into the report: counterexample ids and replay commands, corpus
 * growth, `report.json` and `report.md`. Shared by `fuzz` and `merge-reports`, so a merged
 * report is built by the same code as an unsharded one.
 */
export async function finishFuzz(o: FinishSettings, parts: FuzzParts): Promise<FuzzResult> {
  const { outcome, realSets, loso } = parts;
  const attack = parts.attack;
  const warnings = [...parts.warnings];
  // Counterexamples: ids, replay commands, corpus growth.
  // Nothing a guard says may carry a secret from the environment into files or the console.
  for (const cell of outcome.cells) for (const cx of cell.counterexamples) cx.verdict = redactDeep(cx.verdict);
  const allCx = outcome.cells.flatMap((c) => c.counterexamples);
  const cxWithIds = allCx.map((cx) => {
    const id = caseId(cx.case);
    const flip = attack?.flips.get(cx);
    return { id, replay: replayCommand(o.guardSpec, id, o.corpusDir, o.phase, o.guardOptions), cx, ...(flip ? { flip } : {}) };
  });
  let corpus: ReportData['corpus'];
  if (o.corpusDir && cxWithIds.length > 0) {
    const file = regressionFile(o.corpusDir, o.guardId);
    const v = versions();
    const records = cxWithIds.map(({ cx, flip }) => {
      const { elapsedUs: _e, ...observed } = cx.verdict;
      return newRegressionRecord({
        ...(flip ? { original: { case: flip.original.case, observed: observedOf(flip.original.verdict), operators: flip.operators } } : {}),
        guard: o.guardId,
        property: cx.property,
        case: cx.case,
        observed: {
          decision: observed.decision,
          ...(observed.layer !== undefined ? { layer: observed.layer } : {}),
          ...(observed.score !== undefined ? { score: observed.score } : {}),
          ...(observed.signals !== undefined ? { signals: observed.signals } : {}),
          reasons: observed.reasons,
        },
        foundAt: o.generatedAt,
        seed: cx.seed,
        path: cx.path,
        versions: v,
        finding: cx.kind,
        recheck: cx.recheck,
      });
    });
    const res = await appendRegressions(file, records.map(redactDeep));
    for (const i of res.issues) warnings.push(`${i.file}:${i.line}: ${i.message} (kept verbatim)`);
    corpus = { file: path.relative(process.cwd(), file) || file, added: res.added, duplicates: res.duplicates };
  }

  const report = buildReport({
    outcome,
    version: versions()['farma-fuzz'] ?? 'unknown',
    guardConfigHash: o.guardConfigHash,
    ...(o.guardOptions && Object.keys(o.guardOptions).length > 0 ? { guardOptions: o.guardOptions } : {}),
    ...(attack ? { attack: attack.report } : {}),
    ...(coverageOf(outcome, attack) ?? {}),
    domains: o.domains,
    families: o.families,
    maxFailures: o.maxFailures,
    versions: versions(),
    counterexamples: cxWithIds,
    realSets,
    ...(loso ? { loso } : {}),
    ...(corpus ? { corpus } : {}),
    ...(o.families.includes('adaptive') ? { operatorGroups: operatorGroupMap() } : {}),
    generatedAt: o.generatedAt,
  });
  const thresholds = o.thresholds ?? {};
  if (thresholds.maxFpr !== undefined || thresholds.maxBypass !== undefined) {
    const g = gate(report, thresholds);
    report.gate = { thresholds: { ...thresholds }, pass: g.pass, checks: g.checks };
  }
  const safe = redactDeep(report);
  mkdirSync(o.outDir, { recursive: true });
  await writeFileAtomic(path.join(o.outDir, 'report.json'), `${JSON.stringify(safe, null, 2)}\n`);
  await writeFileAtomic(path.join(o.outDir, 'report.md'), renderMarkdown(safe));
  return { report: safe, reportDir: o.outDir, outcome, warnings: warnings.map((w) => redactSecrets(w)) };
}

/** ` (2 flaky, 1 crashing the guard)` for a list of findings, or `` when none is flaky or a crash. */
function findingNote(cxs: ReadonlyArray<{ kind?: string }>): string {
  const flaky = cxs.filter((x) => x.kind === 'flaky').length;
  const crashes = cxs.filter((x) => x.kind === 'crash').length;
  const parts = [...(flaky > 0 ? [`${flaky} flaky`] : []), ...(crashes > 0 ? [`${crashes} crashing the guard`] : [])];
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** The console summary printed after a run: counterexamples first, the table last (where the eye lands). */
export function summaryText(r: FuzzResult, options: { maxCounterexamples?: number; extra?: string[] } = {}): string {
  const rep = r.report;
  const lines: string[] = [];
  // One flip per domain first (the adaptive attack's original beside its rewrite), then the rest in report order.
  const firstFlips = rep.config.domains.flatMap((d) => rep.counterexamples.find((cx) => cx.flip && cx.domain === d) ?? []);
  const ordered = [...firstFlips, ...rep.counterexamples.filter((cx) => !firstFlips.includes(cx))];
  const shown = ordered.slice(0, options.maxCounterexamples ?? ordered.length);
  if (shown.length > 0) {
    lines.push(`Minimal counterexamples (${rep.counterexamples.length}${shown.length < rep.counterexamples.length ? `, first ${shown.length} shown; all are in report.md` : ''}):`);
    for (const cx of shown) {
      lines.push('');
      const us = rep.timing.counterexampleUs[cx.id] ?? 0;
      lines.push(flipText(cx, us, () => formatCounterexample({ ...cx, verdict: { ...cx.verdict, elapsedUs: us } })));
    }
    lines.push('');
  }
  lines.push(`farma-fuzz · guard ${rep.config.guard} · seed ${rep.config.seed} · ${rep.summary.totalRuns} cases in ${(rep.timing.elapsedMs / 1000).toFixed(1)} s (${rep.timing.casesPerSecond.toFixed(0)} cases/s)`);
  for (const domain of rep.config.domains) {
    lines.push('');
    lines.push(`  ${domain}`);
    for (const c of rep.cells.filter((x) => x.domain === domain)) {
      const label = c.property === 'benign-admitted' ? 'FPR' : 'bypass';
      const mine = rep.counterexamples.filter((x) => c.counterexamples.includes(x.id));
      const cx = c.counterexamples.length > 0 ? `  (${c.counterexamples.length} minimal counterexample${c.counterexamples.length > 1 ? 's' : ''}${findingNote(mine).replace(/^ \((.*)\)$/, ', $1')})` : '';
      lines.push(
        `    ${c.holds ? '✓' : '✗'} ${c.family.padEnd(14)} ${c.property.padEnd(17)} ${String(c.violations).padStart(5)}/${String(c.runs).padEnd(6)} ${label} ${pct(c.violationRate)}${c.errors > 0 ? `  errors ${pct(c.errorRate)}` : ''}${cx}`,
      );
    }
  }
  if (rep.fpr.real.length > 0) {
    lines.push('');
    lines.push('  real benign traces (FPR)');
    for (const s of rep.fpr.real) {
      const errs = s.errors > 0 ? `  errors ${s.errors}/${s.fpr.n} ${pct(interval(s.errors, s.fpr.n))}` : '';
      lines.push(`    ${s.name.padEnd(20)} ${String(s.fpr.k).padStart(5)}/${String(s.fpr.n).padEnd(6)} FPR ${pct(s.fpr)}${errs}`);
    }
    lines.push(`    ${realismGapLine(rep)}`);
    if (rep.fpr.loso && rep.fpr.loso.length > 0) lines.push(`    leave-one-source-out gaps: ${rep.fpr.loso.map((l) => `${l.leftOut} ${l.gap === undefined ? 'n/a' : `${(l.gap * 100).toFixed(2)} pp`}`).join(', ')}`);
  }
  if (rep.attack) lines.push('', ...attackSummaryLines(rep.attack));
  if (rep.coverage) lines.push('', ...coverageLines(rep.coverage));
  lines.push('');
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  if (rep.corpus) lines.push(`corpus: ${rep.corpus.file} (+${rep.corpus.added} new, ${rep.corpus.duplicates} already known)`);
  lines.push(`report: ${path.join(r.reportDir, 'report.md')} and report.json`);
  lines.push(...(options.extra ?? []));
  if (rep.gate) {
    lines.push(`CI gate (Wilson 95% upper bounds): ${rep.gate.pass ? 'PASS' : 'FAIL'}`);
    for (const c of rep.gate.checks.filter((x) => !x.pass)) lines.push(`  ${formatGateCheck(c)}`);
  }
  const f = rep.summary.findings ?? {};
  if (rep.counterexamples.length > 0) {
    lines.push(`findings: ${['bypass', 'false-positive', 'flaky', 'crash', 'guard-error'].map((k) => `${f[k] ?? 0} ${k}`).join(', ')}${(f.flaky ?? 0) > 0 ? ' (flaky: did not reproduce on every re-check; not clean findings)' : ''}`);
  }
  lines.push(rep.summary.held ? 'RESULT: every invariant held.' : `RESULT: invariants FAILED in ${rep.summary.failingCells.join(', ')}.`);
  return lines.join('\n');
}
