/**
 * Corpus replay throughput: load + validate JSONL, re-evaluate with SENTINEL (DESIGN.md
 * "Budgets": corpus replay >= 50,000 entries/s, counted as records). The all-families row is
 * also split, in the same run, into loading alone and evaluating alone, with the guard calls
 * per record, to show where the time goes.
 */
import { loadRegressions } from '../../src/corpus/regressions.js';
import { replayRecords } from '../../src/fuzz/replay.js';
import type { Guard } from '../../src/domain/guard.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import type { FamilyId } from '../../generators/families.js';
import { corpusFile } from '../fixtures.js';
import { samplesOf, status, type BenchContext, type BenchSection } from '../lib.js';
import { summarize } from '../summary.js';

async function replayOne(ctx: BenchContext, label: string, id: string, families: FamilyId[] | undefined, budget?: string): Promise<void> {
  ctx.log(`corpus replay, ${label} (read + validate JSONL, re-evaluate with SENTINEL)`);
  const n = ctx.quick ? 400 : 2000;
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
      { time: 0, iterations: ctx.quick ? 3 : 9, warmupIterations: 1 },
    );
    const fig = summarize(samples.map((ms) => (count / ms) * 1000), 'entries/s');
    ctx.row({
      id,
      figure: `corpus replay, ${count} records, ${label}; load + validate + evaluate`,
      value: fig,
      ...(budget ? { budget, status: status(fig.median >= 50_000) } : { status: 'reported' as const }),
    });
    if (!budget) return;
    const loadSamples = await samplesOf('replay-load', () => loadRegressions(file), { time: 0, iterations: ctx.quick ? 3 : 9, warmupIterations: 1 });
    ctx.row({ id: `${id}.load`, figure: `corpus replay, ${label}: loading alone (read + JSON.parse + record schema)`, value: summarize(loadSamples.map((ms) => (count / ms) * 1000), 'entries/s'), status: 'reported' });
    const records = loadRegressions(file).records.map((r) => r.value);
    let calls = 0;
    const counting: Guard = { ...guard, check: (e, c) => ((calls += 1), guard.check(e, c)) };
    await replayRecords(records, counting, store);
    const evalSamples = await samplesOf('replay-evaluate', () => replayRecords(records, guard, store), { time: 0, iterations: ctx.quick ? 3 : 9, warmupIterations: 1 });
    ctx.row({
      id: `${id}.evaluate`,
      figure: `corpus replay, ${label}: evaluating loaded records alone`,
      value: summarize(evalSamples.map((ms) => (count / ms) * 1000), 'entries/s'),
      status: 'reported',
      note: `${(calls / Math.max(1, records.length)).toFixed(1)} SENTINEL calls per record (re-checks included)`,
    });
  } finally {
    store.close();
    dispose();
  }
}

async function run(ctx: BenchContext): Promise<void> {
  await replayOne(ctx, 'all families', 'replay.sentinel', undefined, '>= 50,000 entries/s');
  await replayOne(ctx, 'single-entry families (seed, naive, benign: no setup to load into the scratch store)', 'replay.sentinel.no-setup', ['seed', 'naive', 'benign']);
}

export const replay: BenchSection = { id: 'replay', title: 'corpus replay throughput', run };
