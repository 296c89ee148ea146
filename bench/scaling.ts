/**
 * The 1 → 2 worker scaling of the default campaign (SENTINEL, every domain × family, 1000
 * runs per cell, write path): in-process, pools of 1 and 2 worker threads, and the calling
 * thread plus one worker thread (`local`), alternated `rounds` times. Prints one JSON line with the wall times (s) and checks that all
 * outcomes agree. Usage: tsx bench/scaling.ts [runsPerCell=1000] [rounds=2] [seed=42]
 */
import { DOMAINS } from '../src/domain/fuzz-case.js';
import { runCampaign, type CampaignOutcome } from '../src/fuzz/campaign.js';
import { runCampaignParallel } from '../src/fuzz/parallel.js';
import { createGuard } from '../src/guards/registry.js';
import { MemoryStore } from '../src/memory/index.js';
import { FAMILY_IDS, FAMILY_REGISTRY } from '../generators/families.js';
import { fuzzWorkerPool, localCellRunner } from '../src/cli/fuzz-worker.js';

const runsPerCell = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 2);
const seed = Number(process.argv[4] ?? 42);
const cells = DOMAINS.flatMap((domain) => FAMILY_IDS.map((family) => ({ domain, family })));
const timeless = (o: CampaignOutcome): string => JSON.stringify(o.cells, (k, v: unknown) => (k === 'elapsedMs' || k === 'elapsedUs' || k === 'guardUs' ? 0 : v));

const store = new MemoryStore(':memory:');
let t = performance.now();
const seq = await runCampaign({ guard: createGuard('sentinel'), cells: cells.map((c) => ({ ...c, arbitrary: FAMILY_REGISTRY[c.family].arbitrary(c.domain) })), store, phase: 'write', runsPerCell, seed });
const inProcessS = (performance.now() - t) / 1000;
store.close();
// '1' and '2': pools of 1 and 2 worker threads; '2-local': the calling thread plus 1 worker thread
// (what `fuzz --workers 2` uses); 'in-process': runCampaign, no pool (what `--workers 1` uses).
const wall: Record<string, number[]> = { 'in-process': [], '1': [], '2': [], '2-local': [] };
let identical = true;
const localStore = new MemoryStore(':memory:');
const localGuard = createGuard('sentinel');
for (let r = 0; r < rounds; r++) {
  t = performance.now();
  const s2 = new MemoryStore(':memory:');
  await runCampaign({ guard: createGuard('sentinel'), cells: cells.map((c) => ({ ...c, arbitrary: FAMILY_REGISTRY[c.family].arbitrary(c.domain) })), store: s2, phase: 'write', runsPerCell, seed });
  s2.close();
  wall['in-process']?.push((performance.now() - t) / 1000);
  for (const mode of ['1', '2', '2-local']) {
    t = performance.now();
    const o = await runCampaignParallel({
      ...fuzzWorkerPool(),
      workers: mode === '1' ? 1 : 2,
      ...(mode === '2-local' ? { local: localCellRunner(localGuard, localStore) } : {}),
      guardId: 'sentinel',
      guard: { spec: 'sentinel' },
      cells,
      phase: 'write',
      runsPerCell,
      seed,
    });
    wall[mode]?.push((performance.now() - t) / 1000);
    identical &&= timeless(o) === timeless(seq);
  }
}
localStore.close();
const best = (k: string): number => Math.min(...(wall[k] ?? []));
process.stdout.write(
  `${JSON.stringify({
    runsPerCell,
    cells: cells.length,
    cases: seq.totalRuns,
    firstInProcessS: inProcessS,
    wallS: wall,
    speedupInProcessTo2Local: best('in-process') / best('2-local'),
    speedupPool1ToPool2: best('1') / best('2'),
    identical,
  })}\n`,
);
