/**
 * Parallel scaling of the default campaign, `--workers 1` → `--workers 2` (issue 12 point 4:
 * two workers must beat one on a 2-core machine). Modes alternate and the best wall time of
 * each is kept, as the machine may be shared.
 */
import os from 'node:os';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { runCampaign } from '../../src/fuzz/campaign.js';
import { runCampaignParallel } from '../../src/fuzz/parallel.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_IDS, FAMILY_REGISTRY } from '../../generators/families.js';
import { fuzzWorkerPool, localCellRunner } from '../../src/cli/fuzz-worker.js';
import { single, status, type BenchContext, type BenchSection } from '../lib.js';

async function inProcess(cells: Array<{ domain: (typeof DOMAINS)[number]; family: (typeof FAMILY_IDS)[number] }>, runsPerCell: number): Promise<number> {
  const store = new MemoryStore(':memory:');
  const t = performance.now();
  try {
    await runCampaign({
      guard: createGuard('sentinel'),
      cells: cells.map((c) => ({ ...c, arbitrary: FAMILY_REGISTRY[c.family].arbitrary(c.domain) })),
      store,
      phase: 'write',
      runsPerCell,
      seed: 5,
    });
    return performance.now() - t;
  } finally {
    store.close();
  }
}

async function run(ctx: BenchContext): Promise<void> {
  const runsPerCell = ctx.quick ? 100 : 1000; // 1000 = the default `fuzz` campaign
  ctx.log(`parallel scaling: ${DOMAINS.length * FAMILY_IDS.length} cells × ${runsPerCell} runs, SENTINEL`);
  const cells = DOMAINS.flatMap((domain) => FAMILY_IDS.map((family) => ({ domain, family })));
  // 'in-process' is what `fuzz --workers 1` runs; '2-local' (the calling thread plus one worker
  // thread) is what `--workers 2` runs; 'pool-1' and 'pool-2' are pools of worker threads only.
  const wall: Record<string, number[]> = { 'in-process': [], 'pool-1': [], 'pool-2': [], '2-local': [] };
  const localStore = new MemoryStore(':memory:');
  const localGuard = createGuard('sentinel');
  try {
    for (let round = 0; round < (ctx.quick ? 1 : 2); round++) {
      wall['in-process']?.push(await inProcess(cells, runsPerCell));
      for (const mode of ['pool-1', 'pool-2', '2-local']) {
        const t = performance.now();
        await runCampaignParallel({
          ...fuzzWorkerPool(),
          workers: mode === 'pool-1' ? 1 : 2,
          ...(mode === '2-local' ? { local: localCellRunner(localGuard, localStore) } : {}),
          guardId: 'sentinel',
          guard: { spec: 'sentinel' },
          cells,
          phase: 'write',
          runsPerCell,
          seed: 5,
        });
        wall[mode]?.push(performance.now() - t);
      }
    }
  } finally {
    localStore.close();
  }
  const best = (k: string): number => Math.min(...(wall[k] ?? [Number.NaN]));
  const tries = (k: string): string => (wall[k] ?? []).map((x) => (x / 1000).toFixed(1)).join(', ');
  const labels: Record<string, string> = {
    'in-process': 'in-process, no pool (`--workers 1`)',
    'pool-1': 'pool of 1 worker thread',
    'pool-2': 'pool of 2 worker threads',
    '2-local': 'calling thread + 1 worker thread (`--workers 2`)',
  };
  for (const k of Object.keys(labels)) {
    ctx.row({ id: `parallel.${k}`, figure: `default campaign wall time, ${labels[k]}`, value: single(best(k) / 1000, 's'), status: 'reported', note: `best of ${tries(k)} s` });
  }
  const speedup = best('in-process') / best('2-local');
  ctx.row({
    id: 'parallel.speedup',
    figure: 'speed-up 1 → 2 workers (`--workers 1` in-process → `--workers 2` calling thread + 1 worker)',
    value: single(speedup, '×'),
    budget: '> 1×',
    status: status(speedup > 1),
    note: `pool-only 1 → 2 threads: ${(best('pool-1') / best('pool-2')).toFixed(2)}×; ${os.cpus().length} logical CPUs, load average ${os.loadavg()[0]?.toFixed(2)} at the end`,
  });
}

export const workers: BenchSection = { id: 'workers', title: 'default campaign, --workers 1 vs --workers 2', run };
