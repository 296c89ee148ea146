/**
 * Worker threads run a cell exactly as the calling thread would: they
 * build the guard with the same `--guard-option` values, and they stop when the campaign's
 * signal aborts (Ctrl-C). No assertion here reads a clock: cells stop on the signal, and
 * outcomes are compared less their timings.
 */
import { describe, expect, it } from 'vitest';
import type { Guard } from '../../src/domain/guard.js';
import type { CampaignOutcome } from '../../src/fuzz/campaign.js';
import { inProcessCampaign, timeless } from '../helpers/campaign.js';
import { runCampaignParallel, type ParallelCampaignOptions } from '../../src/fuzz/parallel.js';
import { validateGuardOptions } from '../../src/guards/guard-options.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import type { FamilyId } from '../../generators/families.js';
import { fuzzWorkerPool, localCellRunner, type FuzzWorkerGuard } from '../../src/cli/fuzz-worker.js';

const SEED = 4242;
const RUNS = 60;
/** As `--guard-option tauGuard=0.25` gives them; the calling thread builds its guard from their checked form. */
const OPTIONS = { tauGuard: 0.25 };
const sentinelWithOptions = (): Guard => createGuard('sentinel', validateGuardOptions('sentinel', OPTIONS));
const CELLS: Array<{ domain: 'ehr' | 'rap'; family: FamilyId }> = [
  { domain: 'ehr', family: 'amplification' },
  { domain: 'rap', family: 'seed' },
  { domain: 'ehr', family: 'benign' },
];

const inProcess = (guard: Guard): Promise<CampaignOutcome> => inProcessCampaign(guard, { cells: CELLS, runs: RUNS, seed: SEED, maxFailures: 2 });

const common = { ...fuzzWorkerPool(), guardId: 'sentinel', cells: CELLS, phase: 'write' as const, runsPerCell: RUNS, seed: SEED, maxFailures: 2 };

describe('worker threads get the run options of the calling thread', () => {
  it('--guard-option tauGuard=0.25: a worker thread, and the calling thread plus a worker, give the in-process outcome with the option', async () => {
    const withOption = await inProcess(sentinelWithOptions());
    const plain = await inProcess(createGuard('sentinel'));
    // The option changes verdicts on these cells, so a worker that dropped it would be seen.
    expect(timeless(plain)).not.toEqual(timeless(withOption));
    // A lower tau_guard rejects more: fewer bypasses of the forged cells.
    const bypasses = (o: CampaignOutcome): number => o.cells.filter((c) => c.family !== 'benign').reduce((a, c) => a + c.stats.violations, 0);
    expect(bypasses(withOption)).toBeLessThan(bypasses(plain));

    const guard = { spec: 'sentinel', guardOptions: OPTIONS };
    const worker = await runCampaignParallel({ ...common, guard, workers: 1 });
    expect(timeless(worker)).toEqual(timeless(withOption));

    // `fuzz --workers 2` when the worker pays at once: some cells on the calling thread, some in the worker.
    const store = new MemoryStore(':memory:');
    const threads: number[] = [];
    try {
      const mixed = await runCampaignParallel({
        ...common,
        guard,
        workers: 2,
        local: localCellRunner(sentinelWithOptions(), store),
        startPolicy: { minRemainingMs: 0, cpus: 2, loadAverage: () => 0 },
        onWorkers: (d) => threads.push(d.threads),
      });
      expect(threads).toEqual([1]);
      expect(timeless(mixed)).toEqual(timeless(withOption));
    } finally {
      store.close();
    }
  }, 120_000);

  it('a worker built without options is the plain guard (the cache of built guards keys on the options)', async () => {
    const plain = await inProcess(createGuard('sentinel'));
    const worker = await runCampaignParallel({ ...common, guard: { spec: 'sentinel' }, workers: 1 });
    expect(timeless(worker)).toEqual(timeless(plain));
  }, 120_000);

  it('a bad option fails in the worker naming the key, as on the calling thread', async () => {
    await expect(runCampaignParallel({ ...common, cells: [CELLS[1]!], guard: { spec: 'sentinel', guardOptions: { noSuchKey: 1 } }, workers: 1 })).rejects.toThrow(/rap\/seed.*noSuchKey/);
  }, 60_000);
});

describe('the campaign signal reaches every lane', () => {
  const RUNS_TO_STOP = 5_000_000;
  /** Two long `none` cells, aborted once `doneAt` cases are done; the rest of the options are the lane's. */
  function abortedRun(doneAt: number, lane: Partial<ParallelCampaignOptions<FuzzWorkerGuard>>) {
    const controller = new AbortController();
    return runCampaignParallel<FuzzWorkerGuard>({
      ...fuzzWorkerPool(),
      guardId: 'none',
      guard: { spec: 'none' },
      cells: [{ domain: 'ehr', family: 'naive' }, { domain: 'rap', family: 'naive' }],
      phase: 'write',
      runsPerCell: RUNS_TO_STOP,
      seed: 1,
      maxFailures: 0,
      workers: 1,
      ...lane,
      signal: controller.signal,
      onTotalProgress: (done) => {
        if (done >= doneAt) controller.abort();
      },
    });
  }
  function expectStoppedInFirstCell(o: Awaited<ReturnType<typeof runCampaignParallel>>): void {
    expect(o.cells.map((c) => `${c.domain}/${c.family}`)).toEqual(['ehr/naive']);
    expect(o.cells[0]?.interrupted).toBe(true);
    expect(o.cells[0]?.stats.runs).toBeLessThan(RUNS_TO_STOP);
  }

  it('a cell running in a worker thread stops and reports interrupted; no further cell starts', async () => {
    expectStoppedInFirstCell(await abortedRun(1, { workers: 1 }));
  }, 60_000);

  it('on the calling thread too (the runner of `fuzz --workers 2` when workers do not pay)', async () => {
    const store = new MemoryStore(':memory:');
    try {
      expectStoppedInFirstCell(
        await abortedRun(100, {
          workers: 2,
          local: localCellRunner(createGuard('none'), store),
          startPolicy: { minRemainingMs: Number.MAX_SAFE_INTEGER, cpus: 2, loadAverage: () => 0 },
        }),
      );
    } finally {
      store.close();
    }
  }, 60_000);
});
