/**
 * The 1 → 2 worker scaling of the default campaign (SENTINEL, every domain × family, 1000
 * runs per cell, write path): in-process, then `--workers 1` and `--workers 2` pools,
 * alternated `rounds` times. Prints one JSON line with the wall times (s) and checks that all
 * outcomes agree. Usage: tsx bench/scaling.ts [runsPerCell=1000] [rounds=2] [seed=42]
 */
import { DOMAINS } from '../src/domain/fuzz-case.js';
import { runCampaign, type CampaignOutcome } from '../src/fuzz/campaign.js';
import { runCampaignParallel } from '../src/fuzz/parallel.js';
import { createGuard } from '../src/guards/registry.js';
import { MemoryStore } from '../src/memory/index.js';
import { FAMILY_IDS, FAMILY_REGISTRY } from '../generators/families.js';
import { fuzzWorkerPool } from '../src/cli/fuzz-worker.js';

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
const wall: Record<string, number[]> = { '1': [], '2': [] };
let identical = true;
for (let r = 0; r < rounds; r++) {
  for (const workers of [1, 2]) {
    t = performance.now();
    const o = await runCampaignParallel({ ...fuzzWorkerPool(), workers, guardId: 'sentinel', guard: { spec: 'sentinel' }, cells, phase: 'write', runsPerCell, seed });
    wall[String(workers)]?.push((performance.now() - t) / 1000);
    identical &&= timeless(o) === timeless(seq);
  }
}
const best = (k: string): number => Math.min(...(wall[k] ?? []));
process.stdout.write(
  `${JSON.stringify({ runsPerCell, cells: cells.length, cases: seq.totalRuns, inProcessS, workers1S: wall['1'], workers2S: wall['2'], speedup: best('1') / best('2'), identical })}\n`,
);
