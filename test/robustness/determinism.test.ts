/**
 * Robustness: determinism. The same seed gives the same cases and the same
 * verdicts: across two runs in one process, and across worker counts (in-process
 * `runCampaign` vs `runCampaignParallel` with 1 and 2 worker threads, and with the calling
 * thread as one lane plus one worker thread). Only timings differ.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import type { Guard } from '../../src/domain/guard.js';
import type { MemoryEntry } from '../../src/domain/entry.js';
import type { CampaignOutcome } from '../../src/fuzz/campaign.js';
import { inProcessCampaign, timeless } from '../helpers/campaign.js';
import { cellTasks, runCampaignParallel, type WorkerDecision, type WorkerStartPolicy } from '../../src/fuzz/parallel.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_IDS, FAMILY_REGISTRY } from '../../generators/families.js';
import { fuzzWorkerPool, localCellRunner } from '../../src/cli/fuzz-worker.js';

const SEED = 20261129;
// Small on purpose: four campaigns of 18 cells each (two on worker threads) stay 4× under their limits on a loaded machine.
const RUNS = 16;
const CELLS = DOMAINS.flatMap((domain) => FAMILY_IDS.map((family) => ({ domain, family })));

const inProcess = (guard: Guard, seen?: MemoryEntry[]): Promise<CampaignOutcome> => inProcessCampaign(guard, { cells: CELLS, runs: RUNS, seed: SEED, maxFailures: 2, ...(seen ? { seen } : {}) });

describe('same seed, same cases and verdicts', () => {
  it('every family generates the same cases for the same seed', () => {
    for (const family of FAMILY_IDS) {
      for (const domain of DOMAINS) {
        const a = fc.sample(FAMILY_REGISTRY[family].arbitrary(domain), { seed: SEED, numRuns: 20 });
        const b = fc.sample(FAMILY_REGISTRY[family].arbitrary(domain), { seed: SEED, numRuns: 20 });
        expect(b, `${domain}/${family}`).toEqual(a);
      }
    }
  });

  it('two in-process campaigns check the same entries and reach the same outcome', async () => {
    const seenA: MemoryEntry[] = [];
    const seenB: MemoryEntry[] = [];
    const a = await inProcess(createGuard('sentinel'), seenA);
    const b = await inProcess(createGuard('sentinel'), seenB);
    expect(seenA.length).toBeGreaterThan(CELLS.length * RUNS - 1);
    expect(seenB).toEqual(seenA);
    expect(timeless(b)).toEqual(timeless(a));
  }, 30_000);

  it('cell tasks carry the per-cell seeds of the sequential campaign', () => {
    const tasks = cellTasks({ cells: CELLS, guard: { spec: 'sentinel' }, phase: 'write', runsPerCell: RUNS, seed: SEED, workers: 2 });
    expect(tasks.map((t) => `${t.domain}/${t.family}`)).toEqual(CELLS.map((c) => `${c.domain}/${c.family}`));
    expect(new Set(tasks.map((t) => t.seed)).size).toBe(CELLS.length);
  });

  // The in-process outcome is computed once and shared by the four pool tests below, so each
  // test runs one pool (worker threads start slowly on a loaded machine).
  let sequentialKeyword: Promise<CampaignOutcome> | undefined;
  const sequentialOnce = (): Promise<CampaignOutcome> => (sequentialKeyword ??= inProcess(createGuard('keyword')));
  const pool = { ...fuzzWorkerPool(), guardId: 'keyword', guard: { spec: 'keyword' }, cells: CELLS, phase: 'write' as const, runsPerCell: RUNS, seed: SEED, maxFailures: 2 };

  it('1 worker thread gives the in-process outcome, cell for cell', async () => {
    const sequential = await sequentialOnce();
    const one = await runCampaignParallel({ ...pool, workers: 1 });
    expect(timeless(one)).toEqual(timeless(sequential));
    // The keyword baseline misses FARMA seeds: there is something to agree on.
    expect(sequential.cells.some((c) => c.counterexamples.length > 0)).toBe(true);
  }, 60_000);

  it('2 worker threads give the in-process outcome, cell for cell, and report every run as progress', async () => {
    const sequential = await sequentialOnce();
    let last = 0;
    const two = await runCampaignParallel({ ...pool, workers: 2, onTotalProgress: (n) => (last = n) });
    expect(timeless(two)).toEqual(timeless(sequential));
    expect(two.totalRuns).toBe(sequential.totalRuns);
    expect(two.failed).toBe(sequential.failed);
    expect(last).toBe(sequential.totalRuns);
  }, 60_000);

  it('the calling thread plus a worker (`fuzz --workers 2`) gives the in-process outcome, cell for cell', async () => {
    const sequential = await sequentialOnce();
    const store = new MemoryStore(':memory:');
    try {
      const local = await runCampaignParallel({ ...pool, workers: 2, local: localCellRunner(createGuard('keyword'), store) });
      expect(timeless(local)).toEqual(timeless(sequential));
    } finally {
      store.close();
    }
  }, 60_000);

  it('`fuzz --workers 2` with its start policy gives the same outcome whether the worker starts mid-run or never', async () => {
    const sequential = await sequentialOnce();
    const common = { ...fuzzWorkerPool(), guardId: 'keyword', guard: { spec: 'keyword' }, cells: CELLS, phase: 'write' as const, runsPerCell: RUNS, seed: SEED, maxFailures: 2, workers: 2 };
    const decisions: WorkerDecision[] = [];
    const run = async (policy: WorkerStartPolicy): Promise<CampaignOutcome> => {
      const store = new MemoryStore(':memory:');
      try {
        return await runCampaignParallel({ ...common, local: localCellRunner(createGuard('keyword'), store), startPolicy: policy, onWorkers: (d) => decisions.push(d) });
      } finally {
        store.close();
      }
    };
    // Pays at once (no work threshold, idle machine): the worker starts after the first measured cases.
    const started = await run({ minRemainingMs: 0, cpus: 2, loadAverage: () => 0 });
    // Never pays: the calling thread runs every cell.
    const alone = await run({ minRemainingMs: Number.MAX_SAFE_INTEGER, cpus: 2, loadAverage: () => 0 });
    expect(decisions.map((d) => d.threads)).toEqual([1, 0]);
    expect(timeless(started)).toEqual(timeless(sequential));
    expect(timeless(alone)).toEqual(timeless(sequential));
  }, 60_000);
});
