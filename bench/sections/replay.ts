/**
 * Corpus replay throughput: load + validate JSONL, re-evaluate with SENTINEL (DESIGN.md
 * "Budgets": corpus replay >= 50,000 entries/s).
 */
import { loadRegressions } from '../../src/corpus/regressions.js';
import { replayRecords } from '../../src/fuzz/replay.js';
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
