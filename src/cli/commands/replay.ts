/**
 * `farma-fuzz replay`: re-evaluates the regression corpus of one guard. Exit code 1 when
 * a `fixed` record regressed, else 0. `--mark-fixed` records now-passing entries as fixed.
 */
import type { Guard, Phase } from '../../domain/guard.js';
import { loadRegressions, regressionFile, updateStatus, type RegressionRecord } from '../../corpus/regressions.js';
import { replayRecords, type ReplaySummary } from '../../fuzz/replay.js';
import type { ScratchStore } from '../../fuzz/evaluate.js';
import { formatCounterexample } from '../../report/format-verdict.js';
import { UsageError } from '../../domain/errors.js';

export interface ReplayOptions {
  guard: Guard;
  guardSpec: string;
  store: ScratchStore;
  corpusDir: string;
  id?: string;
  phase: Phase;
  markFixed: boolean;
}

export interface ReplayOutcome {
  file: string;
  records: RegressionRecord[];
  summary: ReplaySummary;
  issues: string[];
  lines: string[];
}

export async function runReplay(o: ReplayOptions): Promise<ReplayOutcome> {
  const file = regressionFile(o.corpusDir, o.guard.id);
  const loaded = loadRegressions(file);
  let records = loaded.records.map((r) => r.value);
  if (o.id !== undefined) {
    records = records.filter((r) => r.id === o.id || r.id.startsWith(o.id ?? ''));
    if (records.length === 0) throw new UsageError(`no record with id "${o.id}" in ${file}`);
  }
  const summary = await replayRecords(records, o.guard, o.store, o.phase);
  const lines: string[] = [];
  for (const [i, res] of summary.results.entries()) {
    const r = records[i];
    if (!r) continue;
    lines.push(`${res.status.padEnd(12)} ${r.id}  ${r.domain}/${r.family}  ${r.property}  → ${res.verdict.decision}${res.verdict.layer ? ` at ${res.verdict.layer}` : ''}`);
    if (o.id !== undefined) {
      lines.push(
        formatCounterexample({ id: r.id, property: r.property, judgement: res.judgement, signature: '-', case: r.case, verdict: res.verdict, replay: `npm run cli -- replay --guard ${o.guardSpec} --id ${r.id}` }),
      );
    }
  }
  if (o.markFixed) {
    for (const [i, res] of summary.results.entries()) {
      const r = records[i];
      if (r && res.status === 'now-passing') await updateStatus(file, r.id, 'fixed');
    }
  }
  return { file, records, summary, issues: loaded.issues.map((x) => `${x.file}:${x.line}: ${x.message}`), lines };
}
