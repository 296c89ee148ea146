/**
 * A corpus replay, as `farma-fuzz replay` runs it: re-evaluates the regression corpus of one
 * guard (every record, or one `id`), and with `markFixed` records now-passing entries as fixed
 * (a `flaky` result, whose checks disagree, is never marked). Returns the printable lines; the
 * CLI prints them and sets the exit code (1 when a `fixed` record regressed).
 */
import type { Guard, Phase } from '../domain/guard.js';
import { corpusFileGuard, loadRegressions, regressionFile, updateStatus, type RegressionRecord } from '../corpus/regressions.js';
import { canonicalGuardOptions, guardOptionFlags } from '../guards/guard-options.js';
import { replayRecords, type ReplaySummary } from '../fuzz/replay.js';
import type { ScratchStore } from '../fuzz/evaluate.js';
import { formatCounterexample, printableLine } from '../report/format-verdict.js';
import { formatFlip } from '../report/flip.js';
import { UsageError } from '../domain/errors.js';
import { replayCommand } from './replay-command.js';
import { redactWith, secretValues } from '../domain/secrets.js';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface ReplayOptions {
  guard: Guard;
  guardSpec: string;
  store: ScratchStore;
  corpusDir: string;
  id?: string;
  phase: Phase;
  markFixed: boolean;
  /** Guard calls in flight for an async guard (default 1). */
  concurrency?: number;
  /** Checks before a record is called now-passing or flaky (default 3). */
  recheck?: number;
  /** Time bound per async guard call, ms. */
  timeoutMs?: number;
  /** `--guard-option` values: the records of that configuration (`<guard>.opts-<hash>.jsonl`) are replayed, with them. */
  guardOptions?: Record<string, unknown>;
}

export interface ReplayOutcome {
  file: string;
  records: RegressionRecord[];
  summary: ReplaySummary;
  issues: string[];
  lines: string[];
  /** Records marked fixed by `--mark-fixed`. */
  marked: number;
  /** Lines whose id repeats an earlier line: skipped (each record is replayed once), one warning each. */
  duplicates: string[];
  /** The other configurations of this guard with a corpus file (`<guard>.opts-<hash>.jsonl`), each with its replay command. */
  otherConfigs: string[];
}

/**
 * @throws UsageError when the corpus directory is missing or not a directory, when `--id`
 *   is empty, matches nothing, or is a prefix of several ids (they are listed).
 */
export async function runReplay(o: ReplayOptions): Promise<ReplayOutcome> {
  if (!existsSync(o.corpusDir) || !statSync(o.corpusDir).isDirectory()) {
    throw new UsageError(`--corpus ${o.corpusDir}: no such corpus directory`);
  }
  const options = o.guardOptions && Object.keys(o.guardOptions).length > 0 ? canonicalGuardOptions(o.guard.id, o.guardOptions) : undefined;
  const file = regressionFile(o.corpusDir, o.guard.id, options);
  const loaded = loadRegressions(file);
  // A line repeated (same id, e.g. after a bad merge) is replayed once; the repeats are named.
  const firstLine = new Map<string, number>();
  const duplicates: string[] = [];
  let records: RegressionRecord[] = [];
  for (const r of loaded.records) {
    const seen = firstLine.get(r.value.id);
    if (seen !== undefined) {
      duplicates.push(`${file}:${r.line}: record ${r.value.id} repeats line ${seen}; replayed once`);
      continue;
    }
    firstLine.set(r.value.id, r.line);
    records.push(r.value);
  }
  if (o.id !== undefined) {
    const want = o.id.trim();
    if (want === '') throw new UsageError('--id needs an id or a unique prefix');
    const exact = records.filter((r) => r.id === want);
    records = exact.length > 0 ? exact : records.filter((r) => r.id.startsWith(want));
    if (records.length === 0) throw new UsageError(`no record with id "${want}" in ${file}`);
    const ids = [...new Set(records.map((r) => r.id))];
    if (ids.length > 1) throw new UsageError(`--id ${want} is a prefix of ${ids.length} ids in ${file}: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''}`);
  }
  const summary = await replayRecords(records, o.guard, o.store, {
    phase: o.phase,
    ...(o.concurrency !== undefined ? { concurrency: o.concurrency } : {}),
    ...(o.recheck !== undefined ? { recheck: o.recheck } : {}),
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
  });
  const lines: string[] = [];
  for (const [i, res] of summary.results.entries()) {
    const r = records[i];
    if (!r) continue;
    const flip = res.flip ? `  · flip ${res.flip.status} (original → ${res.flip.original.decision}${res.flip.original.layer ? ` at ${res.flip.original.layer}` : ''})` : '';
    const checks = res.recheck ? `  (failed ${res.recheck.failed}/${res.recheck.of} checks)` : '';
    const was = r.finding === 'flaky' ? '  [recorded flaky]' : '';
    // An error names its kind and message on the line itself (a dead guard is read from the list, not only with --id).
    const why = res.verdict.error ? ` (${res.verdict.error.kind}: ${printableLine(res.verdict.error.message.length > 160 ? `${res.verdict.error.message.slice(0, 160)}…` : res.verdict.error.message)})` : '';
    lines.push(`${res.status.padEnd(12)} ${r.id}  ${r.domain}/${r.family}  ${r.property}  → ${res.verdict.decision}${why}${res.verdict.layer ? ` at ${res.verdict.layer}` : ''}${checks}${was}${flip}`);
    if (o.id !== undefined) {
      const replay = replayCommand(o.guardSpec, r.id, o.corpusDir, o.phase, o.guardOptions);
      lines.push(
        r.original && res.flip
          ? formatFlip({ id: r.id, original: { case: r.original.case, verdict: res.flip.original }, rewrite: { case: r.case, verdict: res.verdict }, operators: r.original.operators, replay })
          : formatCounterexample({ id: r.id, property: r.property, judgement: res.judgement, ...(r.finding !== undefined ? { kind: r.finding } : {}), ...(r.recheck ? { recheck: r.recheck } : {}), signature: '-', case: r.case, verdict: res.verdict, replay }),
      );
    }
  }
  let marked = 0;
  if (o.markFixed) {
    for (const [i, res] of summary.results.entries()) {
      const r = records[i];
      if (r && res.status === 'now-passing') marked += (await updateStatus(file, r.id, 'fixed')).updated;
    }
  }
  // Replay lines quote the guard's answers: no secret from the environment may reach the console.
  const secrets = secretValues();
  return { file, otherConfigs: otherConfigs(o, file), records, summary, duplicates: redactWith(duplicates, secrets), issues: redactWith(loaded.issues.map((x) => `${x.file}:${x.line}: ${x.message}`), secrets), lines: redactWith(lines, secrets), marked };
}

/**
 * The corpus files of this guard's other configurations (made with guard options), each with
 * the command that replays it: their options are in their records.
 */
function otherConfigs(o: ReplayOptions, file: string): string[] {
  const own = corpusFileGuard(regressionFile(o.corpusDir, o.guard.id)).guard;
  const out: string[] = [];
  for (const name of readdirSync(o.corpusDir).sort()) {
    const g = corpusFileGuard(name);
    const path = join(o.corpusDir, name);
    if (g.guard !== own || g.optionsHash === undefined || path === file) continue;
    const first = loadRegressions(path).records.find((r) => r.value.guardOptions !== undefined)?.value;
    const flags = first?.guardOptions ? guardOptionFlags(first.guardOptions).map((f) => ` --guard-option ${JSON.stringify(f)}`).join('') : '';
    out.push(`${path}: records of guard ${o.guard.id} made with guard options, not replayed here; replay them with: replay --guard ${o.guardSpec}${flags} --corpus ${o.corpusDir}`);
  }
  return out;
}
