/**
 * Child process for the peak-memory figure: runs one campaign (in-process, one thread) and
 * prints one JSON line `{ cases, elapsedMs, maxRssBytes, sampledPeakRssBytes }` on stdout.
 * `maxRssBytes` is the kernel's high-water mark (`process.resourceUsage().maxRSS`).
 *
 * Usage: tsx bench/campaign-child.ts <totalCases> <family> <guard> [seed]
 */
import { DOMAINS } from '../src/domain/fuzz-case.js';
import { runCampaign } from '../src/fuzz/campaign.js';
import { createGuard } from '../src/guards/registry.js';
import { MemoryStore } from '../src/memory/index.js';
import { FAMILY_REGISTRY, isFamilyId } from '../generators/families.js';

const total = Number(process.argv[2] ?? 1_000_000);
const family = process.argv[3] ?? 'naive';
const guardId = process.argv[4] ?? 'sentinel';
const seed = Number(process.argv[5] ?? 1);
if (!isFamilyId(family)) throw new Error(`unknown family ${family}`);

const runsPerCell = Math.ceil(total / DOMAINS.length);
const store = new MemoryStore(':memory:');
let sampledPeak = process.memoryUsage.rss();
let since = 0;
const outcome = await runCampaign({
  guard: createGuard(guardId),
  cells: DOMAINS.map((domain) => ({ domain, family, arbitrary: FAMILY_REGISTRY[family].arbitrary(domain) })),
  store,
  phase: 'write',
  runsPerCell,
  seed,
  onProgress: () => {
    if (++since >= 5000) {
      since = 0;
      const rss = process.memoryUsage.rss();
      if (rss > sampledPeak) sampledPeak = rss;
    }
  },
});
store.close();
process.stdout.write(
  `${JSON.stringify({
    cases: outcome.totalRuns,
    elapsedMs: outcome.elapsedMs,
    counterexamples: outcome.cells.reduce((a, c) => a + c.counterexamples.length, 0),
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    sampledPeakRssBytes: sampledPeak,
  })}\n`,
);
