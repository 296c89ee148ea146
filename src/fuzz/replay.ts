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
  /** Attack-mode flips: the rejected original of `case` (issue 10.2); replay checks both halves. */
  original?: { case: FuzzCase };
}

/**
 * Both halves of a flip record: `reproduced` (original still rejected, rewrite still admitted);
 * `original-admitted` (the unmutated base now gets through: the operators no longer do the
 * work); `rewrite-rejected` (the guard now stops the rewrite); `both-changed`; `error` (either
 * half got an error verdict).
 */
export type FlipReplayStatus = 'reproduced' | 'original-admitted' | 'rewrite-rejected' | 'both-changed' | 'error';

/** Status of a flip from the verdicts of its two halves. */
export function flipStatus(original: Pick<Verdict, 'decision'>, rewrite: Pick<Verdict, 'decision'>): FlipReplayStatus {
  if (original.decision === 'error' || rewrite.decision === 'error') return 'error';
  const o = original.decision === 'reject';
  const r = rewrite.decision === 'admit';
  return o && r ? 'reproduced' : !o && r ? 'original-admitted' : o ? 'rewrite-rejected' : 'both-changed';
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
  /** For flip records: the original's verdict and the status of both halves. */
  flip?: { status: FlipReplayStatus; original: Verdict };
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
    const result: ReplayResult = { id: r.id, status, judgement: j, verdict };
    if (r.original) {
      const original = await evaluateCase(guard, r.original.case, store, phase);
      result.flip = { status: flipStatus(original, verdict), original };
    }
    results.push(result);
  }
  const seconds = (performance.now() - started) / 1000;
  return { results, counts, perSecond: seconds > 0 ? records.length / seconds : records.length };
}
