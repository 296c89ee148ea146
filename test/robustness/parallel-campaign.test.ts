/**
 * Parallel campaigns: failures inside a worker reject with the cell's name
 * and never leave the pool hanging; more workers than cells is fine.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { runCampaignParallel, WORKER_PAYBACK_MS, type WorkerDecision, type WorkerStartPolicy } from '../../src/fuzz/parallel.js';
import { fuzzWorkerPool, localCellRunner } from '../../src/cli/fuzz-worker.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';

const base = { ...fuzzWorkerPool(), guardId: 'none', phase: 'write' as const, runsPerCell: 5, seed: 1 };

describe('runCampaignParallel', () => {
  it('rejects naming the cell when a worker cannot build it', async () => {
    await expect(runCampaignParallel({ ...base, workers: 2, guard: { spec: 'none' }, cells: [{ domain: 'ehr', family: 'naive' }, { domain: 'ehr', family: 'no-such-family' }] })).rejects.toThrow(
      /ehr\/no-such-family.*unknown family/,
    );
  }, 30_000);

  it('rejects naming the cell for an unknown guard', async () => {
    await expect(runCampaignParallel({ ...base, workers: 1, guard: { spec: 'no-such-guard' }, cells: [{ domain: 'rap', family: 'naive' }] })).rejects.toThrow(/rap\/naive.*unknown guard/);
  }, 30_000);

  it('runs with more workers than cells, merging in cell order', async () => {
    const cells = [{ domain: 'rap', family: 'benign' }, { domain: 'ehr', family: 'naive' }];
    const o = await runCampaignParallel({ ...base, workers: 4, guard: { spec: 'none' }, cells });
    expect(o.cells.map((c) => `${c.domain}/${c.family}`)).toEqual(['rap/benign', 'ehr/naive']);
    expect(o.totalRuns).toBe(10);
    expect(o.failed).toBe(true); // `none` admits the naive attacks
  }, 30_000);
});

/**
 * The start policy of `fuzz --workers N`: worker threads start only when
 * they pay; otherwise the run stays on the calling thread and says why. Decisions are driven
 * here by the injected CPU count, load average and work threshold, never by a measured time.
 */
describe('runCampaignParallel start policy', () => {
  const cells = [{ domain: 'ehr', family: 'naive' }, { domain: 'rap', family: 'benign' }, { domain: 'ehr', family: 'seed' }];
  async function decide(policy: WorkerStartPolicy, workers = 2): Promise<{ decision: WorkerDecision | undefined; totalRuns: number; digest: string[] }> {
    const store = new MemoryStore(':memory:');
    let decision: WorkerDecision | undefined;
    try {
      const o = await runCampaignParallel({
        ...base,
        runsPerCell: 300,
        workers,
        guard: { spec: 'none' },
        cells,
        local: localCellRunner(createGuard('none'), store),
        startPolicy: policy,
        onWorkers: (d) => (decision = d),
      });
      return { decision, totalRuns: o.totalRuns, digest: o.cells.map((c) => `${c.domain}/${c.family} ${c.stats.violations}/${c.stats.runs} ${c.counterexamples.map((x) => x.signature).join(',')}`) };
    } finally {
      store.close();
    }
  }

  it('stays on one thread when the work left is less than a worker pays back, and says so', async () => {
    const { decision, totalRuns } = await decide({ minRemainingMs: Number.MAX_SAFE_INTEGER, cpus: 2, loadAverage: () => 0 });
    expect(totalRuns).toBe(900);
    expect(decision).toMatchObject({ asked: 2, threads: 0 });
    expect(decision?.reason).toMatch(/of work on one thread, less than a worker thread needs to pay back its start-up/);
  }, 30_000);

  it('stays on one thread when no CPU is idle, naming the load', async () => {
    const { decision } = await decide({ minRemainingMs: 0, cpus: 2, loadAverage: () => 7.5 });
    expect(decision).toMatchObject({ threads: 0 });
    expect(decision?.reason).toMatch(/no CPU is idle \(load average 7\.50 on 2 CPUs\)/);
  }, 30_000);

  it('never runs more lanes than CPUs: one CPU means one thread', async () => {
    const { decision } = await decide({ minRemainingMs: 0, cpus: 1, loadAverage: () => 0 }, 4);
    expect(decision).toMatchObject({ asked: 4, threads: 0 });
    expect(decision?.reason).toMatch(/this machine has 1 CPU, so at most 1 lane runs/);
  }, 30_000);

  it('starts the worker threads when they pay, capped by the CPUs', async () => {
    const { decision, totalRuns } = await decide({ minRemainingMs: 0, cpus: 2, loadAverage: () => 0.2 }, 4);
    expect(totalRuns).toBe(900);
    expect(decision).toMatchObject({ asked: 4, threads: 1 });
    expect(decision?.reason).toMatch(/at most 2 lanes run; started 1 worker thread: about .* s of work left, load average 0\.20 on 2 CPUs/);
  }, 60_000);
});

/**
 * `--workers auto`: the same policy read at the guard's own time per case (injected here as a
 * meter value), not the thread's wall time; the cells and findings do not depend on it.
 */
describe('runCampaignParallel start policy at the guard basis (--workers auto)', () => {
  const cells = [{ domain: 'ehr', family: 'naive' }, { domain: 'rap', family: 'benign' }, { domain: 'ehr', family: 'seed' }];
  async function run(guardMs: () => number): Promise<{ decision: WorkerDecision | undefined; digest: string[] }> {
    const store = new MemoryStore(':memory:');
    let decision: WorkerDecision | undefined;
    try {
      const o = await runCampaignParallel({ ...base, runsPerCell: 300, workers: 2, guard: { spec: 'none' }, cells, local: localCellRunner(createGuard('none'), store), startPolicy: { minRemainingMs: WORKER_PAYBACK_MS, cpus: 2, loadAverage: () => 0, guardMs }, onWorkers: (d) => (decision = d) });
      return { decision, digest: o.cells.map((c) => `${c.domain}/${c.family} ${c.stats.violations}/${c.stats.runs} ${c.counterexamples.map((x) => x.signature).join(',')}`) };
    } finally {
      store.close();
    }
  }

  it('a guard that spends (as metered) an hour stays busy enough to start a worker thread; one that spends nothing does not; same cells either way', async () => {
    const slow = await run(() => 3_600_000);
    const fast = await run(() => 0);
    expect(slow.decision).toMatchObject({ asked: 2, threads: 1 });
    expect(slow.decision?.reason).toMatch(/^started 1 worker thread: the guard's own time is .* ms per case, about .* s of guard work left/);
    expect(fast.decision).toMatchObject({ asked: 2, threads: 0 });
    expect(fast.decision?.reason).toMatch(/the guard's own time is 0\.00 ms per case, .* less than a worker thread needs to pay back its start-up/);
    expect(slow.digest).toEqual(fast.digest);
  }, 60_000);
});

describe('fuzz --workers 2 on a small campaign', () => {
  it('runs on one thread and prints why (a few cases never pay for a worker thread)', async () => {
    let stderr = '';
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const report = join(mkdtempSync(join(tmpdir(), 'farma-workers-')), 'report');
      await main(['fuzz', '--guard', 'none', '--workers', '2', '--runs', '20', '--family', 'naive,benign', '--no-corpus', '--no-real', '--out', report]);
    } finally {
      e.mockRestore();
      out.mockRestore();
    }
    expect(stderr).toMatch(/workers: --workers 2 ran on one thread: \S.+/);
  }, 60_000);

  it('by default (--workers auto) decides from the guard time, says so, and --workers 1 says nothing', async () => {
    const run = async (...extra: string[]): Promise<string> => {
      let stderr = '';
      const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
      const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      try {
        const report = join(mkdtempSync(join(tmpdir(), 'farma-workers-')), 'report');
        await main(['fuzz', '--guard', 'none', ...extra, '--runs', '20', '--family', 'naive,benign', '--no-corpus', '--no-real', '--out', report]);
      } finally {
        e.mockRestore();
        out.mockRestore();
      }
      return stderr;
    };
    expect(await run()).toMatch(/workers: auto: one thread: \S.+/);
    expect(await run('--workers', '1')).not.toMatch(/workers:/);
  }, 60_000);
});
