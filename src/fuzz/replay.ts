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
import { mapInOrder } from './in-flight.js';

/** The fields of a regression record that replay reads. */
export interface ReplayableRecord {
  id: string;
  status: 'open' | 'fixed';
  case: FuzzCase;
  /** Attack-mode flips: the rejected original of `case`; replay checks both halves. */
  original?: { case: FuzzCase };
  /** `flaky` when the record was a flaky finding (see `FindingKind`). */
  finding?: string;
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
 * - `open`: open and still failing; `now-passing`: open but the invariant now holds on every
 *   re-check (mark it fixed);
 * - `fixed`: fixed and holding; `regressed`: fixed but failing again; `error`: the guard errored;
 * - `flaky`: an open record whose checks disagree (it failed on some and held on others), or
 *   a record found flaky that does not now fail on every check: never offered for `--mark-fixed`.
 */
export type ReplayStatus = 'open' | 'now-passing' | 'fixed' | 'regressed' | 'flaky' | 'error';

interface ReplayResult {
  id: string;
  status: ReplayStatus;
  judgement: Judgement;
  verdict: Verdict;
  /** For flip records: the original's verdict and the status of both halves. */
  flip?: { status: FlipReplayStatus; original: Verdict };
  /** For re-checked records: how many checks failed, of how many. */
  recheck?: { failed: number; of: number };
}

export interface ReplayOptions {
  /** Guard path (default `write`). */
  phase?: Phase;
  /** Guard calls in flight for an async guard (default 1); results are identical for any value. */
  concurrency?: number;
  /**
   * Checks of a record before it is called `now-passing`, and of a record found flaky
   * (default 3). A record that fails on some and holds on others is `flaky`.
   */
  recheck?: number;
  /** Time bound per async guard call, ms. */
  timeoutMs?: number;
}

/** Result of `replayRecords`: one result per record and the count per status. */
export interface ReplaySummary {
  results: ReplayResult[];
  counts: Record<ReplayStatus, number>;
  /** Entries replayed per second. */
  perSecond: number;
}

function replayStatus(recorded: 'open' | 'fixed', j: Judgement): ReplayStatus {
  if (j === 'error') return 'error';
  if (recorded === 'fixed') return j === 'holds' ? 'fixed' : 'regressed';
  return j === 'holds' ? 'now-passing' : 'open';
}

/**
 * Replays records in input order (up to `concurrency` at once for an async guard). Guard
 * errors become `error` results; nothing throws for them. An open record that now holds, or
 * one recorded as flaky, is checked `recheck` times in all: a mix of failing and holding
 * checks makes it `flaky`, and so does a flaky record that does not fail on every check.
 */
export async function replayRecords(
  records: readonly ReplayableRecord[],
  guard: Guard,
  store: ScratchStore,
  options: Phase | ReplayOptions = 'write',
): Promise<ReplaySummary> {
  const o: ReplayOptions = typeof options === 'string' ? { phase: options } : options;
  const phase = o.phase ?? 'write';
  const rechecks = Math.max(1, Math.floor(o.recheck ?? 3));
  const started = performance.now();
  const counts: Record<ReplayStatus, number> = { open: 0, 'now-passing': 0, fixed: 0, regressed: 0, flaky: 0, error: 0 };
  const once = (r: ReplayableRecord): Verdict | Promise<Verdict> => evaluateCase(guard, r.case, store, phase, o.timeoutMs);
  const one = async (r: ReplayableRecord): Promise<ReplayResult> => {
    const verdict = await once(r);
    const j = judge(r.case.truth, verdict);
    const status = replayStatus(r.status, j);
    const recheckable = r.status === 'open' && j !== 'error' && (status === 'now-passing' || r.finding === 'flaky');
    let result: ReplayResult = { id: r.id, status, judgement: j, verdict };
    if (recheckable && rechecks > 1) {
      let failed = j === 'violated' ? 1 : 0;
      let firstFailing = j === 'violated' ? verdict : undefined;
      for (let i = 1; i < rechecks; i++) {
        const v = await once(r);
        if (judge(r.case.truth, v) === 'violated') {
          failed += 1;
          firstFailing ??= v;
        }
      }
      // A record found flaky stays flaky until it fails on every check: holding a few times proves nothing.
      const s: ReplayStatus = failed === rechecks ? 'open' : failed === 0 && r.finding !== 'flaky' ? 'now-passing' : 'flaky';
      result = { id: r.id, status: s, judgement: failed > 0 ? 'violated' : 'holds', verdict: firstFailing ?? verdict, recheck: { failed, of: rechecks } };
    }
    if (r.original) {
      const original = await evaluateCase(guard, r.original.case, store, phase, o.timeoutMs);
      result.flip = { status: flipStatus(original, result.verdict), original };
    }
    return result;
  };
  const results = await mapInOrder(records, one, guard.mode === 'sync' ? 1 : (o.concurrency ?? 1));
  for (const r of results) counts[r.status] += 1;
  const seconds = (performance.now() - started) / 1000;
  return { results, counts, perSecond: seconds > 0 ? records.length / seconds : records.length };
}
