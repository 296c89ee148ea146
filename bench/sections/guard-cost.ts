/**
 * Guard check cost per ~300-character entry, by store size (DESIGN.md "Budgets": SENTINEL
 * check, store size). Every built-in guard is timed at 1k / 10k / 100k entries; the 100k / 1k
 * ratio is budgeted at 1.5× for SENTINEL and 2× for every other built-in guard.
 */
import type { Phase, SyncGuard } from '../../src/domain/guard.js';
import { createGuard, type BuiltinGuardId } from '../../src/guards/registry.js';
import { benignHistory, entriesOf300Chars, filledStore, sampleCases } from '../fixtures.js';
import { checkAll, ratioOf, samplesOf, status, type BenchContext, type BenchSection } from '../lib.js';
import { summarize, type Figure } from '../summary.js';

interface Timed {
  id: BuiltinGuardId;
  phases: Phase[];
  /** Entries per tinybench iteration and iterations: costly guards get fewer. */
  batch: number;
  /** Times the batch is repeated per iteration, so cheap guards rise above timer resolution. */
  reps: number;
}

const GUARDS: Timed[] = [
  { id: 'sentinel', phases: ['retrieve', 'write'], batch: 60, reps: 1 },
  { id: 'none', phases: ['retrieve'], batch: 60, reps: 200 },
  { id: 'keyword', phases: ['retrieve'], batch: 60, reps: 5 },
  { id: 'amemguard', phases: ['retrieve'], batch: 20, reps: 1 },
];

async function run(ctx: BenchContext): Promise<void> {
  ctx.log('guard check cost per ~300-char entry');
  const entries = entriesOf300Chars(60);
  const meanLen = entries.reduce((a, e) => a + e.content.length, 0) / entries.length;
  const distinct = sampleCases('benign', ctx.quick ? 1000 : 5000, 3).map((c) => c.entry);
  const sizes = ctx.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
  const medians = new Map<string, Figure>();
  for (const size of sizes) {
    const t0 = performance.now();
    const { store, dispose } = filledStore(benignHistory(size, distinct));
    ctx.log(`  store of ${size} entries filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    try {
      for (const g of GUARDS) {
        const guard = createGuard(g.id) as SyncGuard;
        const batch = entries.slice(0, g.batch);
        for (const phase of g.phases) {
          const samples = await samplesOf(
            `${g.id}-${phase}-${size}`,
            () => {
              for (let r = 0; r < g.reps; r++) checkAll(guard, batch, store, phase);
            },
            { time: ctx.quick ? 150 : 400, iterations: ctx.quick ? 5 : 15, warmupIterations: 3 },
          );
          const fig = summarize(samples.map((ms) => (ms * 1000) / (batch.length * g.reps)), 'µs');
          medians.set(`${g.id}-${phase}-${size}`, fig);
          const headline = g.id === 'sentinel' && phase === 'retrieve' && size === 1_000;
          ctx.row({
            id: `check.${g.id}.${phase}.${size}`,
            figure: `${g.id} check (${phase} path), ${size.toLocaleString('en')} entries in store`,
            value: fig,
            ...(headline ? { budget: '<= 10 µs', status: status(fig.median <= 10) } : { status: 'reported' as const }),
            note: `per entry, batches of ${batch.length} entries of mean ${meanLen.toFixed(0)} chars${g.reps > 1 ? ` × ${g.reps}` : ''}`,
          });
        }
      }
    } finally {
      dispose();
    }
  }
  const small = sizes[0] as number;
  const large = sizes[sizes.length - 1] as number;
  for (const g of GUARDS) {
    for (const phase of g.phases) {
      const a = medians.get(`${g.id}-${phase}-${small}`);
      const b = medians.get(`${g.id}-${phase}-${large}`);
      if (!a || !b) continue;
      const ratio = ratioOf(b, a);
      const bound = g.id === 'sentinel' ? 1.5 : 2;
      ctx.row({
        id: `ratio.${g.id}.${phase}`,
        figure: `${g.id} check (${phase}) cost ratio, ${large.toLocaleString('en')} / ${small.toLocaleString('en')} entries`,
        value: ratio,
        budget: `<= ${bound}×`,
        status: status(ratio.median <= bound),
        note: 'spread: worst/best pairing of the two p25–p75 ranges',
      });
    }
  }
}

export const guardCost: BenchSection = { id: 'guard-cost', title: 'guard check cost per entry by store size (1k / 10k / 100k)', run };
