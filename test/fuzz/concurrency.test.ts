/**
 * `--concurrency N`: an async guard gets up to N calls in flight, and every
 * result (verdict tallies, counterexamples, corpus records, report.json less `timing`) is
 * identical for every N with the same seed, even when calls finish out of order.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { slowSentinel } from '../helpers/slow-sentinel.js';
import { MemoryStore } from '../../src/memory/index.js';
import { runCell } from '../../src/fuzz/property.js';
import { replayRecords } from '../../src/fuzz/replay.js';
import { mapInOrder } from '../../src/fuzz/in-flight.js';
import { loadRegressions } from '../../src/corpus/regressions.js';
import { FAMILY_REGISTRY } from '../../generators/families.js';
import { fuzzIn, reportJson } from '../helpers/fuzz-run.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

async function campaign(concurrency: number, dir: string) {
  const guard = slowSentinel();
  const r = await fuzzIn(dir, { guardSpec: './slow-sentinel.ts', guard, store, domains: ['ehr'], families: ['seed', 'amplification', 'adaptive', 'benign'], runs: 30, seed: 777, concurrency });
  // The run folder is the only thing allowed to differ (it is in replay commands and the corpus path): reportJson writes it <dir>.
  const corpus = loadRegressions(path.join(dir, 'corpus', 'slow-sentinel.jsonl')).records.map((x) => x.value);
  return { json: reportJson(dir), corpus, maxInFlight: guard.maxInFlight, report: r.report };
}

/** The campaign at N = 1, run once and shared by the comparison and the replay test (whichever asks first runs it). */
let atOne: ReturnType<typeof campaign> | undefined;
const campaignAtOne = (): ReturnType<typeof campaign> => (atOne ??= campaign(1, mkdtempSync(path.join(tmpdir(), 'farma-conc-1-'))));

describe('concurrency: identical results for every N', () => {
  it('report.json (less timing), counterexamples and corpus records are identical for N = 1, 3 and 8; N calls are in flight', async () => {
    const one = await campaignAtOne();
    const three = await campaign(3, mkdtempSync(path.join(tmpdir(), 'farma-conc-3-')));
    const eight = await campaign(8, mkdtempSync(path.join(tmpdir(), 'farma-conc-8-')));
    // The campaign found something, so the comparison covers counterexamples and corpus records.
    expect(one.report.counterexamples.length).toBeGreaterThan(0);
    expect(one.corpus.length).toBe(one.report.counterexamples.length);
    expect(three.json).toEqual(one.json);
    expect(eight.json).toEqual(one.json);
    expect(three.corpus).toEqual(one.corpus);
    expect(eight.corpus).toEqual(one.corpus);
    expect(one.maxInFlight).toBe(1);
    expect(three.maxInFlight).toBeGreaterThan(1);
    expect(three.maxInFlight).toBeLessThanOrEqual(3);
    expect(eight.maxInFlight).toBeGreaterThan(3);
    expect(eight.maxInFlight).toBeLessThanOrEqual(8);
  }, 120_000);

  it('a cell with examples (corpus cases tried first) gives the same outcome at N = 1 and N = 8', async () => {
    const arbitrary = FAMILY_REGISTRY.amplification.arbitrary('rap');
    const ex = await runCell({ domain: 'rap', family: 'amplification', arbitrary, guard: slowSentinel(), store, phase: 'write', runs: 10, seed: 5, maxFailures: 1, concurrency: 1 });
    const examples = ex.counterexamples.map((c) => c.case);
    const run = (concurrency: number) =>
      runCell({ domain: 'rap', family: 'amplification', arbitrary, guard: slowSentinel(), store, phase: 'write', runs: 30, seed: 99, maxFailures: 3, examples, concurrency });
    const [a, b] = [await run(1), await run(8)];
    // `queries` counts prefetched cases too (calls in flight past a failure), so it depends on N; the verdicts do not.
    const strip = ({ elapsedMs: _e, queries: _q, ...rest }: Awaited<ReturnType<typeof run>>) => ({ ...rest, stats: { ...rest.stats, guardUs: 0 }, counterexamples: rest.counterexamples.map((c) => ({ ...c, verdict: { ...c.verdict, elapsedUs: 0 } })) });
    expect(strip(b)).toEqual(strip(a));
  }, 60_000);

  it('replay gives the same results in the same order at N = 1 and N = 8', async () => {
    // The corpus of the N = 1 campaign (the same records at any N, as the first test checks).
    const records = (await campaignAtOne()).corpus;
    const a = await replayRecords(records, slowSentinel(), store, { concurrency: 1 });
    const b = await replayRecords(records, slowSentinel(), store, { concurrency: 8 });
    const view = (s: typeof a) => s.results.map((x) => [x.id, x.status, x.verdict.decision]);
    expect(view(b)).toEqual(view(a));
    expect(b.counts).toEqual(a.counts);
  }, 120_000);

  it('mapInOrder keeps input order when later calls finish first, and stops starting calls once aborted', async () => {
    const delays = [30, 1, 20, 2, 10, 0, 5];
    const out = await mapInOrder(delays, (d, i) => new Promise<number>((r) => setTimeout(() => r(i), d)), 4);
    expect(out).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const ctl = new AbortController();
    let started = 0;
    const partial = await mapInOrder(
      Array.from({ length: 100 }, (_, i) => i),
      async (i) => {
        started += 1;
        if (i === 5) ctl.abort();
        await new Promise((r) => setTimeout(r, 1));
        return i;
      },
      2,
      ctl.signal,
    );
    expect(started).toBeLessThan(100);
    expect(partial).toEqual(Array.from({ length: partial.length }, (_, i) => i));
  });
});
