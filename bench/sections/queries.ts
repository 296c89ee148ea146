/**
 * Guard queries and the fuzzer's own cost per guard call:
 * - `queries.per-case.<guard>`: guard queries per counted case of a small campaign (attacker
 *   setup writes, shrinking and re-checks included), with the default stop rule;
 * - `queries.cache-hit-rate.<guard>`: share of requests the run's verdict cache answered;
 * - `overhead.<guard>`: the fuzzer's time per guard call (wall time of the campaign less the
 *   time spent inside `check`, per query) as a ratio to the guard's own time per call. The cells'
 *   arbitraries are built before the clock; `overhead.<guard>.setup` reports that build. The
 *   budget: at most 1× for SENTINEL (the fuzzer costs no more than the guard it fuzzes);
 * - `overhead.<guard>.draw` / `.rest`: that time split into drawing cases (generate and shrink
 *   of the cells' arbitraries) and everything else, each over the guard's time per call;
 * - `parallel.atr.speedup`: `--workers 2` over one lane against Agent Threat Rules
 *   (`examples/atr-guard.mjs`), a slow sync guard, with the outcomes compared.
 * Against SENTINEL, keyword and ATR (`agent-threat-rules`, rules as shipped).
 */
import path from 'node:path';
import os from 'node:os';
import fc from 'fast-check';
import type { Guard, MemoryEntry } from '../../src/domain/index.js';
import { isTrustedGuard, markTrustedGuard } from '../../src/domain/trusted-guard.js';
import { runCampaign, type CampaignOutcome } from '../../src/fuzz/campaign.js';
import { runCampaignParallel } from '../../src/fuzz/parallel.js';
import { createGuard } from '../../src/guards/registry.js';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_REGISTRY, type FamilyId } from '../../generators/families.js';
import { fuzzWorkerPool, localCellRunner } from '../../src/cli/fuzz-worker.js';
import { ROOT, single, status, type BenchContext, type BenchSection } from '../lib.js';
import { RUN_DEFAULTS } from '../../src/domain/defaults.js';

const FAMILIES: FamilyId[] = ['seed', 'amplification', 'naive', 'benign', 'benign-stress'];
const STOP = { precision: RUN_DEFAULTS.precision, target: RUN_DEFAULTS.target };
const ATR = path.join(ROOT, 'examples', 'atr-guard.mjs');
/** A generous per-call bound for ATR: on a loaded machine its first calls (rule compilation) can pass the 5 s default, and a timeout in one lane but not the other would make the outcomes differ for a reason that is not the fuzzer's. */
const ATR_TIMEOUT_MS = 120_000;

/** The guard with the time spent inside `check` summed (ms) and its calls counted; a built-in stays trusted. */
function timed(inner: Guard): Guard & { ms: number; calls: number } {
  const g = {
    id: inner.id,
    mode: inner.mode,
    ms: 0,
    calls: 0,
    check(entry: MemoryEntry, ctx: Parameters<Guard['check']>[1]) {
      const t0 = performance.now();
      const out = inner.check(entry, ctx);
      if (out instanceof Promise) {
        return out.finally(() => {
          g.ms += performance.now() - t0;
          g.calls += 1;
        });
      }
      g.ms += performance.now() - t0;
      g.calls += 1;
      return out;
    },
  };
  return isTrustedGuard(inner) ? markTrustedGuard(g) : g;
}

/** Time spent drawing cases (ms): every `generate` and `shrink` of the cells' arbitraries (templates, slots, trajectory placement). */
const drawClock = { ms: 0 };

/**
 * `inner` with the time of its `generate` and `shrink` added to `drawClock` (the values and
 * their shrinks are `inner`'s own: the campaign draws the same cases as without the wrapper).
 */
class TimedArbitrary<T> extends fc.Arbitrary<T> {
  constructor(private readonly inner: fc.Arbitrary<T>) {
    super();
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    const t0 = performance.now();
    try {
      return this.inner.generate(mrng, biasFactor);
    } finally {
      drawClock.ms += performance.now() - t0;
    }
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.inner.canShrinkWithoutContext(value);
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    const t0 = performance.now();
    try {
      return this.inner.shrink(value, context);
    } finally {
      drawClock.ms += performance.now() - t0;
    }
  }
}

/**
 * One campaign, timed. The cells' arbitraries are built before the clock starts (template
 * compilation, calibration load and the trajectory generator's fixed-seed probe happen once per
 * process, as at a CLI start, and the first campaign of a process would otherwise carry them
 * while later ones do not); `setupMs` is that build time, reported apart.
 */
async function campaign(guard: Guard, runs: number, cells: Array<{ domain: 'ehr' | 'rap'; family: FamilyId }>): Promise<{ outcome: CampaignOutcome; wallMs: number; setupMs: number; drawMs: number }> {
  const store = new MemoryStore(':memory:');
  try {
    const s0 = performance.now();
    const built = cells.map((c) => ({ ...c, arbitrary: new TimedArbitrary(FAMILY_REGISTRY[c.family].arbitrary(c.domain)) }));
    const setupMs = performance.now() - s0;
    drawClock.ms = 0;
    const t0 = performance.now();
    const outcome = await runCampaign({ guard, cells: built, store, phase: 'write', runsPerCell: runs, seed: 11, cache: true, stop: STOP, concurrency: 1 });
    return { outcome, wallMs: performance.now() - t0, setupMs, drawMs: drawClock.ms };
  } finally {
    store.close();
  }
}

function tallies(o: CampaignOutcome): { queries: number; hits: number; cases: number } {
  let queries = 0;
  let hits = 0;
  for (const c of o.cells) {
    const q = c.queries;
    if (!q) continue;
    queries += q.cases.queries + q.shrink.queries + q.recheck.queries;
    hits += q.cases.cacheHits + q.shrink.cacheHits + q.recheck.cacheHits;
  }
  return { queries, hits, cases: o.totalRuns };
}

const timeless = (o: CampaignOutcome): string => JSON.stringify(o.cells, (k, v: unknown) => (k === 'queries' ? undefined : k === 'elapsedMs' || k === 'elapsedUs' || k === 'guardUs' ? 0 : v));

async function run(ctx: BenchContext): Promise<void> {
  const guards: Array<{ id: string; make: () => Promise<Guard>; runs: number }> = [
    { id: 'sentinel', make: async () => createGuard('sentinel'), runs: ctx.quick ? 200 : 1000 },
    { id: 'keyword', make: async () => createGuard('keyword'), runs: ctx.quick ? 200 : 1000 },
    { id: 'atr', make: () => loadModuleGuard(ATR, { timeoutMs: ATR_TIMEOUT_MS }), runs: ctx.quick ? 20 : 60 },
  ];
  for (const g of guards) {
    const guard = timed(await g.make());
    const cells = FAMILIES.map((family) => ({ domain: 'ehr' as const, family }));
    const { outcome, wallMs, setupMs, drawMs } = await campaign(guard, g.runs, cells);
    const t = tallies(outcome);
    const guardPerCall = guard.ms / Math.max(1, guard.calls);
    const overheadPerCall = Math.max(0, wallMs - guard.ms) / Math.max(1, guard.calls);
    const note = `ehr × ${FAMILIES.length} families, ${g.runs} runs per cell (cap), default stop rule, one call in flight, load ${os.loadavg()[0]?.toFixed(1)}`;
    ctx.row({ id: `queries.per-case.${g.id}`, figure: `${g.id}: guard queries per counted case`, value: single(t.queries / Math.max(1, t.cases), 'queries'), status: 'reported', note: `${t.queries} queries for ${t.cases} cases; ${note}` });
    ctx.row({ id: `queries.cache-hit-rate.${g.id}`, figure: `${g.id}: verdict cache hit rate`, value: single(t.hits / Math.max(1, t.hits + t.queries), 'ratio'), status: 'reported', note: `${t.hits} of ${t.hits + t.queries} requests` });
    const ratio = overheadPerCall / Math.max(1e-9, guardPerCall);
    ctx.row({
      id: `overhead.${g.id}`,
      figure: `${g.id}: fuzzer time per guard call / guard time per call`,
      value: single(ratio, '×'),
      ...(g.id === 'sentinel' ? { budget: '<= 1×', status: status(ratio <= 1) } : { status: 'reported' as const }),
      note: `fuzzer ${(overheadPerCall * 1000).toFixed(1)} µs, guard ${(guardPerCall * 1000).toFixed(1)} µs per call (${guard.calls} calls); arbitraries built before the clock in ${setupMs.toFixed(0)} ms (row overhead.${g.id}.setup)`,
    });
    // Where the fuzzer's time goes: drawing the cases (generation and shrink steps), and the rest
    // (store setup per case, verdict-cache keys, the property runner, re-checks, bookkeeping).
    const drawPerCall = drawMs / Math.max(1, guard.calls);
    const restPerCall = Math.max(0, overheadPerCall - drawPerCall);
    ctx.row({ id: `overhead.${g.id}.draw`, figure: `${g.id}: of it, drawing cases (generate and shrink) per guard call / guard time per call`, value: single(drawPerCall / Math.max(1e-9, guardPerCall), '×'), status: 'reported', note: `${(drawPerCall * 1000).toFixed(1)} µs per call, ${((100 * drawMs) / Math.max(1e-9, wallMs - guard.ms)).toFixed(0)}% of the fuzzer's time` });
    ctx.row({ id: `overhead.${g.id}.rest`, figure: `${g.id}: of it, everything but drawing (store setup, cache keys, runner) per guard call / guard time per call`, value: single(restPerCall / Math.max(1e-9, guardPerCall), '×'), status: 'reported', note: `${(restPerCall * 1000).toFixed(1)} µs per call` });
    ctx.row({ id: `overhead.${g.id}.setup`, figure: `${g.id}: building the cells' arbitraries before the campaign (templates, calibration, probes; once per process)`, value: single(setupMs, 'ms'), status: 'reported' });
  }

  // Workers against ATR: one lane vs the calling thread plus one worker thread (started at once).
  const cells = (['ehr', 'rap'] as const).flatMap((domain) => (['seed', 'benign'] as FamilyId[]).map((family) => ({ domain, family })));
  const runs = ctx.quick ? 15 : 40;
  const guardOne = await loadModuleGuard(ATR, { timeoutMs: ATR_TIMEOUT_MS });
  const store = new MemoryStore(':memory:');
  try {
    const t1 = performance.now();
    const one = await runCampaign({ guard: guardOne, cells: cells.map((c) => ({ ...c, arbitrary: FAMILY_REGISTRY[c.family].arbitrary(c.domain) })), store, phase: 'write', runsPerCell: runs, seed: 11, stop: STOP, timeoutMs: ATR_TIMEOUT_MS });
    const oneMs = performance.now() - t1;
    const t2 = performance.now();
    const two = await runCampaignParallel({
      ...fuzzWorkerPool(),
      workers: 2,
      local: localCellRunner(guardOne, store),
      guardId: guardOne.id,
      guard: { spec: ATR, stop: STOP, timeoutMs: ATR_TIMEOUT_MS },
      cells,
      phase: 'write',
      runsPerCell: runs,
      seed: 11,
    });
    const twoMs = performance.now() - t2;
    const same = timeless(one) === timeless(two);
    ctx.row({ id: 'parallel.atr.speedup', figure: 'ATR (slow sync guard): --workers 2 over one lane', value: single(oneMs / twoMs, '×'), status: 'reported', note: `${(oneMs / 1000).toFixed(1)} s vs ${(twoMs / 1000).toFixed(1)} s, ${cells.length} cells × ${runs} runs, outcomes ${same ? 'identical' : 'DIFFERENT'}, ${os.availableParallelism()} CPUs, load ${os.loadavg()[0]?.toFixed(1)}` });
  } finally {
    store.close();
    await guardOne.close?.();
  }
}

export const queries: BenchSection = { id: 'queries', title: 'guard queries per case, cache hit rate, fuzzer overhead per guard call (SENTINEL, keyword, ATR), workers with ATR', run };
