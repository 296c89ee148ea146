/**
 * End-to-end fuzz throughput per family against SENTINEL (write path, one thread), as a ratio
 * to fast-check's bare per-run cost measured in the same run (DESIGN.md "Budgets": fuzz
 * throughput >= 20,000 cases/s).
 */
import fc from 'fast-check';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { runCell } from '../../src/fuzz/property.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_IDS, FAMILY_REGISTRY } from '../../generators/families.js';
import { samplesOf, status, type BenchContext, type BenchSection } from '../lib.js';
import { summarize } from '../summary.js';

async function run(ctx: BenchContext): Promise<void> {
  ctx.log('fuzz throughput (generate, render, mutate, check) per family, SENTINEL write path, one thread');
  const bareRuns = 100_000;
  const bare = await samplesOf('fast-check bare', () => fc.assert(fc.property(fc.integer(), () => true), { numRuns: bareRuns }), {
    time: ctx.quick ? 200 : 1000,
    iterations: ctx.quick ? 5 : 10,
  });
  const bareFig = summarize(bare.map((ms) => (bareRuns / ms) * 1000), 'runs/s');
  ctx.row({ id: 'throughput.fast-check-bare', figure: 'fast-check bare run rate (trivial property on fc.integer())', value: bareFig, status: 'reported' });

  const store = new MemoryStore(':memory:');
  const guard = createGuard('sentinel');
  try {
    for (const family of FAMILY_IDS) {
      const runs = Math.max(30, Math.round((family === 'amplification' ? 300 : 1500) * (ctx.quick ? 0.2 : 1)));
      let iteration = 0;
      const samples = await samplesOf(
        `throughput-${family}`,
        async () => {
          iteration += 1;
          for (const domain of DOMAINS) {
            await runCell({ domain, family, arbitrary: FAMILY_REGISTRY[family].arbitrary(domain), guard, store, phase: 'write', runs, seed: 1000 + iteration, maxFailures: 0 });
          }
        },
        { time: 0, iterations: ctx.quick ? 3 : 7, warmupIterations: 1 },
      );
      const cases = runs * DOMAINS.length;
      const fig = summarize(samples.map((ms) => (cases / ms) * 1000), 'cases/s');
      ctx.row({
        id: `throughput.${family}`,
        figure: `fuzz throughput, ${family} family (${cases} cases per sample over ${DOMAINS.length} domains)`,
        value: fig,
        budget: '>= 20,000 cases/s',
        status: status(fig.median >= 20_000),
        note: `${(bareFig.median / fig.median).toFixed(1)}× fast-check's bare per-run cost`,
      });
      ctx.row({
        id: `throughput.${family}.vs-bare`,
        figure: `per-case cost of ${family} / fast-check bare per-run cost`,
        value: { median: bareFig.median / fig.median, p25: bareFig.p25 / fig.p75, p75: bareFig.p75 / fig.p25, mad: Number.NaN, n: fig.n, unit: '×' },
        status: 'reported',
      });
    }
  } finally {
    store.close();
  }
}

export const throughput: BenchSection = { id: 'throughput', title: 'fuzz throughput per family vs fast-check bare', run };
