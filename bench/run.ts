/**
 * `npm run bench`: the performance figures of DESIGN.md "Budgets", measured with tinybench.
 * Each figure is a median with its spread (p25–p75, MAD); each budget is marked met or
 * missed, never hidden. Writes `reports/bench.json` and `reports/bench.md` and prints the
 * markdown table. Budgets are reported here, never asserted by timed tests.
 *
 * Flags: `--quick` (smaller samples, for a smoke run), `--no-memory` (skip the 1M-case child),
 * `--no-parallel` (skip the 1 → 2 worker scaling).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { Bench } from 'tinybench';
import type { MemoryEntry } from '../src/domain/entry.js';
import type { Guard, Phase, SyncGuard } from '../src/domain/guard.js';
import type { Verdict } from '../src/domain/verdict.js';
import { DOMAINS } from '../src/domain/fuzz-case.js';
import { evaluateSync } from '../src/fuzz/evaluate.js';
import { judge } from '../src/fuzz/oracle.js';
import { runCell } from '../src/fuzz/property.js';
import { replayRecords } from '../src/fuzz/replay.js';
import { runCampaign } from '../src/fuzz/campaign.js';
import { runCampaignParallel } from '../src/fuzz/parallel.js';
import { loadRegressions } from '../src/corpus/regressions.js';
import { createGuard, type BuiltinGuardId } from '../src/guards/registry.js';
import { MemoryStore } from '../src/memory/index.js';
import { FAMILY_IDS, FAMILY_REGISTRY, type FamilyId } from '../generators/families.js';
import { fuzzWorkerPool, localCellRunner } from '../src/cli/fuzz-worker.js';
import { benignHistory, corpusFile, entriesOf300Chars, filledStore, sampleCases } from './fixtures.js';
import { formatFigure, summarize, type Figure } from './summary.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const QUICK = args.has('--quick');
const log = (s: string): void => void process.stderr.write(`${s}\n`);

/** One row of the bench table. */
export interface BenchRow {
  id: string;
  figure: string;
  value: Figure;
  /** e.g. `<= 10 µs`; absent when the figure has no budget. */
  budget?: string;
  /** `met` / `missed` against the budget; `reported` when there is none. */
  status: 'met' | 'missed' | 'reported';
  note?: string;
}

const rows: BenchRow[] = [];
function row(r: BenchRow): void {
  rows.push(r);
  log(`  ${r.figure}: ${formatFigure(r.value, 2)}${r.budget ? ` [budget ${r.budget}: ${r.status}]` : ''}`);
}

/** Runs `fn` under tinybench and returns the per-iteration latency samples, ms. */
async function samplesOf(name: string, fn: () => unknown, opts: { time: number; iterations: number; warmupIterations?: number }): Promise<number[]> {
  const bench = new Bench({
    name,
    time: opts.time,
    iterations: opts.iterations,
    warmupIterations: opts.warmupIterations ?? 3,
    warmupTime: 0,
    retainSamples: true,
    throws: true,
  });
  bench.add(name, fn);
  await bench.run();
  const task = bench.tasks[0];
  const res = task?.result;
  if (!res || !('latency' in res) || !res.latency.samples) throw new Error(`bench ${name}: no samples (${res?.state})`);
  return [...res.latency.samples];
}

function checkAll(guard: Guard, entries: readonly MemoryEntry[], store: MemoryStore, phase: Phase): void {
  for (const e of entries) {
    const v = guard.check(e, { phase, store: store.view }) as Verdict;
    if (v.decision === 'error') throw new Error(`guard ${guard.id} errored in the bench: ${v.reasons.join('; ')}`);
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Guard check cost per ~300-character entry, by store size.

async function guardCost(): Promise<void> {
  log('guard check cost per ~300-char entry');
  const entries = entriesOf300Chars(60);
  const meanLen = entries.reduce((a, e) => a + e.content.length, 0) / entries.length;
  const distinct = sampleCases('benign', QUICK ? 1000 : 5000, 3).map((c) => c.entry);
  const sizes = QUICK ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const guards: Array<{ id: BuiltinGuardId; phases: Phase[] }> = [
    { id: 'sentinel', phases: ['retrieve', 'write'] },
    { id: 'none', phases: ['retrieve'] },
    { id: 'keyword', phases: ['retrieve'] },
    { id: 'amemguard', phases: ['retrieve'] },
  ];
  const medians = new Map<string, Figure>();
  for (const size of sizes) {
    const t0 = performance.now();
    const { store, dispose } = filledStore(benignHistory(size, distinct));
    log(`  store of ${size} entries filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    try {
      for (const g of guards) {
        const guard = createGuard(g.id) as SyncGuard;
        // A-MemGuard searches the store (FTS5 top-k) and clusters per check: milliseconds, so fewer samples.
        const slow = g.id === 'amemguard';
        const batch = slow ? entries.slice(0, 10) : entries;
        for (const phase of g.phases) {
          const samples = await samplesOf(`${g.id}-${phase}-${size}`, () => checkAll(guard, batch, store, phase), {
            time: slow ? 0 : QUICK ? 150 : 400,
            iterations: slow ? 3 : QUICK ? 5 : 15,
            warmupIterations: slow ? 1 : 3,
          });
          const fig = summarize(samples.map((ms) => (ms * 1000) / batch.length), 'µs');
          medians.set(`${g.id}-${phase}-${size}`, fig);
          const headline = g.id === 'sentinel' && phase === 'retrieve' && size === 1_000;
          row({
            id: `check.${g.id}.${phase}.${size}`,
            figure: `${g.id} check (${phase} path), ${size.toLocaleString('en')} entries in store`,
            value: fig,
            ...(headline ? { budget: '<= 10 µs', status: fig.median <= 10 ? 'met' : 'missed' } : { status: 'reported' as const }),
            note: `per entry, batches of ${batch.length} entries of mean ${meanLen.toFixed(0)} chars`,
          });
        }
      }
    } finally {
      dispose();
    }
  }
  const small = sizes[0] as number;
  const large = sizes[sizes.length - 1] as number;
  for (const g of guards) {
    for (const phase of g.phases) {
      const a = medians.get(`${g.id}-${phase}-${small}`);
      const b = medians.get(`${g.id}-${phase}-${large}`);
      if (!a || !b) continue;
      const ratio = b.median / a.median;
      const ratioFig: Figure = { median: ratio, p25: b.p25 / a.p75, p75: b.p75 / a.p25, mad: Number.NaN, n: Math.min(a.n, b.n), unit: '×' };
      const budgeted = g.id === 'sentinel';
      row({
        id: `ratio.${g.id}.${phase}`,
        figure: `${g.id} check (${phase}) cost ratio, ${large.toLocaleString('en')} / ${small.toLocaleString('en')} entries`,
        value: ratioFig,
        ...(budgeted ? { budget: '<= 1.5×', status: ratio <= 1.5 ? 'met' : 'missed' } : { status: 'reported' as const }),
        note: 'spread: worst/best pairing of the two p25–p75 ranges',
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 2. End-to-end fuzz throughput per family, and fast-check's bare per-run cost.

async function throughput(): Promise<void> {
  log('fuzz throughput (generate, render, mutate, check) per family, SENTINEL write path, one thread');
  const bareRuns = 100_000;
  const bare = await samplesOf('fast-check bare', () => fc.assert(fc.property(fc.integer(), () => true), { numRuns: bareRuns }), {
    time: QUICK ? 200 : 1000,
    iterations: QUICK ? 5 : 10,
  });
  const bareFig = summarize(bare.map((ms) => (bareRuns / ms) * 1000), 'runs/s');
  row({ id: 'throughput.fast-check-bare', figure: 'fast-check bare run rate (trivial property on fc.integer())', value: bareFig, status: 'reported' });

  const store = new MemoryStore(':memory:');
  const guard = createGuard('sentinel');
  for (const family of FAMILY_IDS) {
    const runs = Math.max(30, Math.round((family === 'amplification' ? 300 : 1500) * (QUICK ? 0.2 : 1)));
    let iteration = 0;
    const samples = await samplesOf(
      `throughput-${family}`,
      async () => {
        iteration += 1;
        for (const domain of DOMAINS) {
          await runCell({ domain, family, arbitrary: FAMILY_REGISTRY[family].arbitrary(domain), guard, store, phase: 'write', runs, seed: 1000 + iteration, maxFailures: 0 });
        }
      },
      { time: 0, iterations: QUICK ? 3 : 7, warmupIterations: 1 },
    );
    const cases = runs * DOMAINS.length;
    const fig = summarize(samples.map((ms) => (cases / ms) * 1000), 'cases/s');
    row({
      id: `throughput.${family}`,
      figure: `fuzz throughput, ${family} family (${cases} cases per sample over ${DOMAINS.length} domains)`,
      value: fig,
      budget: '>= 20,000 cases/s',
      status: fig.median >= 20_000 ? 'met' : 'missed',
      note: `${(bareFig.median / fig.median).toFixed(1)}× fast-check's bare per-run cost`,
    });
    rows.push({
      id: `throughput.${family}.vs-bare`,
      figure: `per-case cost of ${family} / fast-check bare per-run cost`,
      value: { median: bareFig.median / fig.median, p25: bareFig.p25 / fig.p75, p75: bareFig.p75 / fig.p25, mad: Number.NaN, n: fig.n, unit: '×' },
      status: 'reported',
    });
  }
  store.close();
}

// ---------------------------------------------------------------------------------------------
// 3. Shrink time for a planted bypass.

/**
 * SENTINEL with a planted hole: it admits any entry whose content contains the digit `7`.
 * A forged case with a 7 is a bypass; fast-check then shrinks it to a minimal one.
 */
function plantedGuard(): SyncGuard {
  const inner = createGuard('sentinel') as SyncGuard;
  return {
    id: 'sentinel-planted-7',
    mode: 'sync',
    check: (entry, ctx) => (entry.content.includes('7') ? { decision: 'admit', trace: [], reasons: ['planted hole'], elapsedUs: 0 } : inner.check(entry, ctx)),
  };
}

async function shrinking(): Promise<void> {
  log('shrink time for a planted bypass (find + shrink, fc.check)');
  const guard = plantedGuard();
  const store = new MemoryStore(':memory:');
  const times: number[] = [];
  const shrinks: number[] = [];
  const seeds = QUICK ? 2 : 5;
  for (const family of ['seed', 'naive', 'amplification'] as FamilyId[]) {
    for (const domain of DOMAINS) {
      for (let s = 1; s <= seeds; s++) {
        const arb = FAMILY_REGISTRY[family].arbitrary(domain);
        const t0 = performance.now();
        const details = fc.check(
          fc.property(arb, (c) => judge(c.truth, evaluateSync(guard, c, store, 'write')) !== 'violated'),
          { seed: s * 7919, numRuns: 10_000, interruptAfterTimeLimit: 30_000 },
        );
        const ms = performance.now() - t0;
        if (details.failed) {
          times.push(ms);
          shrinks.push(details.numShrinks);
        }
      }
    }
  }
  store.close();
  const fig = summarize(times, 'ms');
  row({
    id: 'shrink.planted',
    figure: `shrink time of a planted bypass (SENTINEL admitting any text with a "7"; seed, naive, amplification × ${DOMAINS.length} domains × ${seeds} seeds)`,
    value: fig,
    budget: '<= 2,000 ms',
    status: fig.median <= 2000 ? 'met' : 'missed',
    note: `${times.length} bypasses found and shrunk; median ${summarize(shrinks, '').median} shrink steps`,
  });
}

// ---------------------------------------------------------------------------------------------
// 4. Corpus replay throughput.

async function replay(): Promise<void> {
  await replayOne('all families', 'replay.sentinel', undefined, '>= 50,000 entries/s');
  await replayOne('single-entry families (seed, naive, benign: no setup to load into the scratch store)', 'replay.sentinel.no-setup', ['seed', 'naive', 'benign']);
}

async function replayOne(label: string, id: string, families: FamilyId[] | undefined, budget?: string): Promise<void> {
  log(`corpus replay, ${label} (read + validate JSONL, re-evaluate with SENTINEL)`);
  const n = QUICK ? 400 : 2000;
  const { file, dispose } = corpusFile(n, 11, families);
  const store = new MemoryStore(':memory:');
  const guard = createGuard('sentinel');
  try {
    let count = 0;
    const samples = await samplesOf(
      'replay',
      async () => {
        const { records, issues } = loadRegressions(file);
        if (issues.length > 0) throw new Error(`bench corpus has issues: ${issues[0]?.message}`);
        count = records.length;
        await replayRecords(
          records.map((r) => r.value),
          guard,
          store,
        );
      },
      { time: 0, iterations: QUICK ? 3 : 9, warmupIterations: 1 },
    );
    const fig = summarize(samples.map((ms) => (count / ms) * 1000), 'entries/s');
    row({
      id,
      figure: `corpus replay, ${count} records, ${label}; load + validate + evaluate`,
      value: fig,
      ...(budget ? { budget, status: fig.median >= 50_000 ? ('met' as const) : ('missed' as const) } : { status: 'reported' as const }),
    });
  } finally {
    store.close();
    dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// 5. Peak memory of a one-million-case campaign (child process).

async function peakMemory(): Promise<void> {
  const total = QUICK ? 30_000 : 1_000_000;
  log(`peak memory of a ${total.toLocaleString('en')}-case campaign (naive family, SENTINEL, child process)`);
  const run = promisify(execFile);
  const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const { stdout } = await run(process.execPath, [tsx, path.join(ROOT, 'bench', 'campaign-child.ts'), String(total), 'naive', 'sentinel'], {
    cwd: ROOT,
    maxBuffer: 1 << 20,
  });
  const r = JSON.parse(stdout.trim().split('\n').pop() as string) as { cases: number; elapsedMs: number; maxRssBytes: number; sampledPeakRssBytes: number; counterexamples: number };
  const mb = r.maxRssBytes / 1024 / 1024;
  row({
    id: 'memory.campaign',
    figure: `peak RSS of a ${r.cases.toLocaleString('en')}-case campaign (naive × ${DOMAINS.length} domains, SENTINEL, one thread)`,
    value: { median: mb, p25: mb, p75: mb, mad: 0, n: 1, unit: 'MiB' },
    status: 'reported',
    note: `kernel high-water mark; ${(r.elapsedMs / 1000).toFixed(0)} s, ${((r.cases / r.elapsedMs) * 1000).toFixed(0)} cases/s; sampled RSS peak ${(r.sampledPeakRssBytes / 1024 / 1024).toFixed(0)} MiB`,
  });
}

// ---------------------------------------------------------------------------------------------
// 6. Parallel scaling 1 → 2 workers.

async function scaling(): Promise<void> {
  const runsPerCell = QUICK ? 100 : 1000; // 1000 = the default `fuzz` campaign
  log(`parallel scaling: ${DOMAINS.length * FAMILY_IDS.length} cells × ${runsPerCell} runs, SENTINEL`);
  const cells = DOMAINS.flatMap((domain) => FAMILY_IDS.map((family) => ({ domain, family })));
  const store = new MemoryStore(':memory:');
  const t0 = performance.now();
  await runCampaign({
    guard: createGuard('sentinel'),
    cells: cells.map((c) => ({ ...c, arbitrary: FAMILY_REGISTRY[c.family].arbitrary(c.domain) })),
    store,
    phase: 'write',
    runsPerCell,
    seed: 5,
  });
  const seqMs = performance.now() - t0;
  store.close();
  // Alternate the modes and keep the best wall time of each (the machine may be shared).
  // 'in-process' is what `fuzz --workers 1` runs; '2-local' (the calling thread plus one worker
  // thread) is what `--workers 2` runs; 'pool-1' and 'pool-2' are pools of worker threads only.
  const wall: Record<string, number[]> = { 'in-process': [seqMs], 'pool-1': [], 'pool-2': [], '2-local': [] };
  const localStore = new MemoryStore(':memory:');
  const localGuard = createGuard('sentinel');
  for (let round = 0; round < (QUICK ? 1 : 2); round++) {
    if (round > 0) {
      const s2 = new MemoryStore(':memory:');
      const t = performance.now();
      await runCampaign({ guard: createGuard('sentinel'), cells: cells.map((c) => ({ ...c, arbitrary: FAMILY_REGISTRY[c.family].arbitrary(c.domain) })), store: s2, phase: 'write', runsPerCell, seed: 5 });
      wall['in-process']?.push(performance.now() - t);
      s2.close();
    }
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
  localStore.close();
  const best = (k: string): number => Math.min(...(wall[k] ?? [Number.NaN]));
  const one = (x: number, unit = 's'): Figure => ({ median: x, p25: x, p75: x, mad: 0, n: 1, unit });
  const tries = (k: string): string => (wall[k] ?? []).map((x) => (x / 1000).toFixed(1)).join(', ');
  const labels: Record<string, string> = {
    'in-process': 'in-process, no pool (`--workers 1`)',
    'pool-1': 'pool of 1 worker thread',
    'pool-2': 'pool of 2 worker threads',
    '2-local': 'calling thread + 1 worker thread (`--workers 2`)',
  };
  for (const k of Object.keys(labels)) {
    row({ id: `parallel.${k}`, figure: `default campaign wall time, ${labels[k]}`, value: one(best(k) / 1000), status: 'reported', note: `best of ${tries(k)} s` });
  }
  row({
    id: 'parallel.speedup',
    figure: 'speed-up 1 → 2 workers (`--workers 1` in-process → `--workers 2` calling thread + 1 worker)',
    value: one(best('in-process') / best('2-local'), '×'),
    status: 'reported',
    note: `pool-only 1 → 2 threads: ${(best('pool-1') / best('pool-2')).toFixed(2)}×; ${os.cpus().length} logical CPUs, load average ${os.loadavg()[0]?.toFixed(2)} at the end`,
  });
}

// ---------------------------------------------------------------------------------------------

function fmt(x: number, unit: string): string {
  if (!Number.isFinite(x)) return '–';
  if (unit === '×') return x.toFixed(2);
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en');
  return x >= 100 ? x.toFixed(0) : x.toFixed(2);
}

/** The markdown table: figure, median, p25–p75, budget, met/missed. */
export function benchTable(list: readonly BenchRow[]): string {
  const lines = ['| figure | median | p25–p75 | n | budget | status |', '|---|---:|---:|---:|---|---|'];
  for (const r of list) {
    const v = r.value;
    const spread = v.n > 1 ? `${fmt(v.p25, v.unit)}–${fmt(v.p75, v.unit)}` : '–';
    const status = r.status === 'met' ? 'met' : r.status === 'missed' ? '**missed**' : '–';
    lines.push(`| ${r.figure}${r.note ? ` — ${r.note}` : ''} | ${fmt(v.median, v.unit)} ${v.unit} | ${spread} | ${v.n} | ${r.budget ?? '–'} | ${status} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const started = performance.now();
  const env = {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    loadAverageAtStart: os.loadavg()[0],
    quick: QUICK,
    date: new Date().toISOString(),
  };
  await guardCost();
  await throughput();
  await shrinking();
  await replay();
  if (!args.has('--no-parallel')) await scaling();
  if (!args.has('--no-memory')) await peakMemory();
  const missed = rows.filter((r) => r.status === 'missed');
  const table = benchTable(rows);
  const md = [
    '# farma-fuzz bench',
    '',
    `${env.date} · Node ${env.node} · ${env.platform} · ${env.cpus} CPUs (${env.cpuModel}) · load average ${env.loadAverageAtStart?.toFixed(2)} at start${QUICK ? ' · QUICK run (small samples)' : ''}`,
    '',
    table,
    '',
    missed.length === 0 ? 'Every budget was met.' : `Budgets missed (${missed.length}): ${missed.map((r) => r.id).join(', ')}.`,
    '',
  ].join('\n');
  const outDir = path.join(ROOT, 'reports');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'bench.json'), `${JSON.stringify({ env, elapsedS: (performance.now() - started) / 1000, rows }, null, 2)}\n`);
  writeFileSync(path.join(outDir, 'bench.md'), md);
  process.stdout.write(`${md}\n`);
  log(`bench finished in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote reports/bench.json and reports/bench.md`);
}

await main();
