/**
 * Parallel campaigns (issue 7, point 2): failures inside a worker reject with the cell's name
 * and never leave the pool hanging; more workers than cells is fine.
 */
import { describe, expect, it } from 'vitest';
import { runCampaignParallel } from '../../src/fuzz/parallel.js';
import { fuzzWorkerPool } from '../../src/cli/fuzz-worker.js';

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
