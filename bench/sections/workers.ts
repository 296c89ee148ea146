/**
 * `--workers 1` vs `--workers 2` on the default campaign (two workers must
 * beat one on a 2-core machine, or refuse with a message saying why). Three modes alternate and
 * the best wall time of each is kept, as the machine may be shared:
 * - `in-process`: `runCampaign`, what `fuzz --workers 1` runs;
 * - `cli-2`: what `fuzz --workers 2` runs: the calling thread plus, if the start policy finds
 *   that it pays, one worker thread (`startPolicy` with this machine's CPUs and load);
 * - `forced-2`: the calling thread plus one worker thread started at once (no policy), to show
 *   what a second lane gives on this machine right now.
 * Also the start-up of one worker thread (pool start + one case), which the policy's payback
 * threshold (`WORKER_PAYBACK_MS`) must cover. Outcomes are compared (timings left out).
 * Flag: `--workers-runs N` (runs per cell; default 1000, the default campaign).
 */
import os from 'node:os';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { runCampaign, type CampaignOutcome } from '../../src/fuzz/campaign.js';
import { WORKER_PAYBACK_MS, runCampaignParallel, type WorkerDecision } from '../../src/fuzz/parallel.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_IDS, FAMILY_REGISTRY } from '../../generators/families.js';
import { fuzzWorkerPool, localCellRunner } from '../../src/cli/fuzz-worker.js';
import { single, status, type BenchContext, type BenchSection } from '../lib.js';

type Cell = { domain: (typeof DOMAINS)[number]; family: (typeof FAMILY_IDS)[number] };
const SEED = 5;

// `queries` is timing: phase times vary, and each worker thread keeps its own verdict cache.
const timeless = (o: CampaignOutcome): string => JSON.stringify(o.cells, (k, v: unknown) => (k === 'queries' ? undefined : k === 'elapsedMs' || k === 'elapsedUs' || k === 'guardUs' ? 0 : v));

async function inProcess(cells: Cell[], runsPerCell: number): Promise<CampaignOutcome> {
  const store = new MemoryStore(':memory:');
  try {
    return await runCampaign({ guard: createGuard('sentinel'), cells: cells.map((c) => ({ ...c, arbitrary: FAMILY_REGISTRY[c.family].arbitrary(c.domain) })), store, phase: 'write', runsPerCell, seed: SEED });
  } finally {
    store.close();
  }
}

async function twoLanes(cells: Cell[], runsPerCell: number, policy: boolean, onWorkers: (d: WorkerDecision) => void): Promise<CampaignOutcome> {
  const store = new MemoryStore(':memory:');
  try {
    return await runCampaignParallel({
      ...fuzzWorkerPool(),
      workers: 2,
      local: localCellRunner(createGuard('sentinel'), store),
      ...(policy ? { startPolicy: { minRemainingMs: WORKER_PAYBACK_MS, cpus: os.availableParallelism(), loadAverage: () => os.loadavg()[0] ?? 0 }, onWorkers } : {}),
      guardId: 'sentinel',
      guard: { spec: 'sentinel' },
      cells,
      phase: 'write',
      runsPerCell,
      seed: SEED,
    });
  } finally {
    store.close();
  }
}

async function workerStartMs(): Promise<number> {
  const t = performance.now();
  await runCampaignParallel({ ...fuzzWorkerPool(), workers: 1, guardId: 'sentinel', guard: { spec: 'sentinel' }, cells: [{ domain: 'ehr', family: 'naive' }], phase: 'write', runsPerCell: 1, seed: 1 });
  return performance.now() - t;
}

function flagNumber(ctx: BenchContext, name: string, fallback: number): number {
  const argv = [...ctx.args];
  const i = argv.indexOf(name);
  const n = i >= 0 ? Number(argv[i + 1]) : fallback;
  if (!(Number.isInteger(n) && n > 0)) throw new Error(`${name} must be a positive integer, got ${argv[i + 1]}`);
  return n;
}

async function run(ctx: BenchContext): Promise<void> {
  const runsPerCell = flagNumber(ctx, '--workers-runs', ctx.quick ? 100 : 1000);
  const cells: Cell[] = DOMAINS.flatMap((domain) => FAMILY_IDS.map((family) => ({ domain, family })));
  ctx.log(`workers: ${cells.length} cells × ${runsPerCell} runs, SENTINEL, write path`);
  const wall: Record<'in-process' | 'cli-2' | 'forced-2', number[]> = { 'in-process': [], 'cli-2': [], 'forced-2': [] };
  const decisions: WorkerDecision[] = [];
  let reference: string | undefined;
  let identical = true;
  const starts: number[] = [];
  // Warm-up (JIT, template compilation in this thread), not counted.
  reference = timeless(await inProcess(cells, runsPerCell));
  for (let round = 0; round < (ctx.quick ? 1 : 3); round++) {
    starts.push(await workerStartMs());
    // Alternate the order between rounds, so no mode always runs first.
    const order = ['in-process', 'cli-2', 'forced-2'] as const;
    for (const mode of round % 2 === 0 ? order : [...order].reverse()) {
      const t = performance.now();
      const o = mode === 'in-process' ? await inProcess(cells, runsPerCell) : await twoLanes(cells, runsPerCell, mode === 'cli-2', (d) => decisions.push(d));
      wall[mode].push(performance.now() - t);
      reference ??= timeless(o);
      identical &&= timeless(o) === reference;
    }
  }
  const best = (k: keyof typeof wall): number => Math.min(...wall[k]);
  const tries = (k: keyof typeof wall): string => wall[k].map((x) => (x / 1000).toFixed(2)).join(', ');
  const labels = { 'in-process': '`--workers 1` (in-process)', 'cli-2': '`--workers 2` as the CLI runs it (start policy)', 'forced-2': 'calling thread + 1 worker thread started at once' };
  for (const k of Object.keys(labels) as Array<keyof typeof wall>) {
    ctx.row({ id: `parallel.${k}`, figure: `default campaign wall time, ${labels[k]}`, value: single(best(k) / 1000, 's'), status: 'reported', note: `best of ${tries(k)} s; outcomes identical: ${identical}` });
  }
  const startMs = Math.min(...starts);
  ctx.row({
    id: 'parallel.worker-start',
    figure: 'start-up of one worker thread (pool start + one case)',
    value: single(startMs / 1000, 's'),
    status: 'reported',
    note: `best of ${starts.map((x) => (x / 1000).toFixed(2)).join(', ')} s; the start policy waits for ${WORKER_PAYBACK_MS / 1000} s of work left`,
  });
  const forced = best('in-process') / best('forced-2');
  ctx.row({
    id: 'parallel.speedup.forced',
    figure: 'speed-up 1 → 2 lanes with the worker started at once (no policy)',
    value: single(forced, '×'),
    status: 'reported',
    note: `${os.availableParallelism()} CPUs, load average ${os.loadavg()[0]?.toFixed(2)} at the end`,
  });
  const cli = best('in-process') / best('cli-2');
  const refused = decisions.length > 0 && decisions.every((d) => d.threads === 0);
  const last = decisions.at(-1);
  ctx.row({
    id: 'parallel.speedup',
    figure: 'speed-up `--workers 1` → `--workers 2` (as the CLI runs it)',
    value: single(cli, '×'),
    budget: '> 1×, or refused with a reason',
    // Refusing is the budget's other branch: the run stays on one thread and says why; the
    // ratio then compares two one-thread runs of the same work (machine noise only).
    status: status(cli > 1 || refused),
    note: `${last ? (last.threads === 0 ? `refused (the ratio compares two one-thread runs): ${last.reason}` : last.reason) : 'no decision'}; outcomes identical: ${identical}`,
  });
}

export const workers: BenchSection = { id: 'workers', title: 'default campaign, --workers 1 vs --workers 2 (start policy)', run };
