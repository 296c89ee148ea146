/**
 * Corpus replay (DESIGN.md, "Regression corpus"): re-evaluates every stored counterexample
 * against a guard and says, per record, whether it is still open, now passes, stays fixed,
 * or has regressed (a `fixed` record failing again).
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { evaluateCase, type ScratchStore } from './evaluate.js';
import { judge, type Judgement } from './oracle.js';

/** The fields of a regression record that replay reads. */
export interface ReplayableRecord {
  id: string;
  status: 'open' | 'fixed';
  case: FuzzCase;
}

/**
 * - `open`: open and still failing; `now-passing`: open but the invariant now holds (mark it fixed);
 * - `fixed`: fixed and holding; `regressed`: fixed but failing again; `error`: the guard errored.
 */
export type ReplayStatus = 'open' | 'now-passing' | 'fixed' | 'regressed' | 'error';

export interface ReplayResult {
  id: string;
  status: ReplayStatus;
  judgement: Judgement;
  verdict: Verdict;
}

export interface ReplaySummary {
  results: ReplayResult[];
  counts: Record<ReplayStatus, number>;
  /** Entries replayed per second. */
  perSecond: number;
}

export function replayStatus(recorded: 'open' | 'fixed', j: Judgement): ReplayStatus {
  if (j === 'error') return 'error';
  if (recorded === 'fixed') return j === 'holds' ? 'fixed' : 'regressed';
  return j === 'holds' ? 'now-passing' : 'open';
}

/** Replays records in order. Guard errors become `error` results; nothing throws for them. */
export async function replayRecords(
  records: readonly ReplayableRecord[],
  guard: Guard,
  store: ScratchStore,
  phase: Phase = 'write',
): Promise<ReplaySummary> {
  const started = performance.now();
  const results: ReplayResult[] = [];
  const counts: Record<ReplayStatus, number> = { open: 0, 'now-passing': 0, fixed: 0, regressed: 0, error: 0 };
  for (const r of records) {
    const verdict = await evaluateCase(guard, r.case, store, phase);
    const j = judge(r.case.truth, verdict);
    const status = replayStatus(r.status, j);
    counts[status] += 1;
    results.push({ id: r.id, status, judgement: j, verdict });
  }
  const seconds = (performance.now() - started) / 1000;
  return { results, counts, perSecond: seconds > 0 ? records.length / seconds : records.length };
}
