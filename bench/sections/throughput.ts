/**
 * End-to-end fuzz throughput per family against SENTINEL (write path, one thread), as a ratio
 * to fast-check's bare per-run cost measured in the same run (DESIGN.md "Budgets": fuzz
 * throughput >= 20,000 cases/s). For each family it also splits the case cost in two, in the
 * same run: generating the cases alone (fast-check drawing them, rendering included, no guard)
 * and evaluating already drawn cases alone (set-up layer, attacker writes through the guard,
 * the check), with the guard calls per case. These rows carry no budget: they say where a
 * missed budget's time goes.
 */
import fc from 'fast-check';
import { DOMAINS, type FuzzCase } from '../../src/domain/fuzz-case.js';
import type { Guard } from '../../src/domain/guard.js';
import { evaluateSync } from '../../src/fuzz/evaluate.js';
import { checkedVerdict } from '../../src/domain/verdict-schema.js';
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
    // What the verdict schema (zod) would cost per guard call: the engine skips it for the
    // registry's built-in guards (trusted in-process values) and keeps it for every adapter.
    const entries = DOMAINS.flatMap((d, i) => fc.sample(FAMILY_REGISTRY.amplification.arbitrary(d), { seed: 7 + i, numRuns: 100 })).flatMap((c) => [c.entry, ...(c.setup ?? [])]);
    const verdicts = entries.map((e) => guard.check(e, { phase: 'write', store: store.view }));
    const perVerdict = (ms: number): number => (ms * 1000) / entries.length;
    const schemaSamples = await samplesOf('verdict-schema', () => verdicts.forEach((v) => checkedVerdict(v)), { time: ctx.quick ? 100 : 500, iterations: 10 });
    const checkSamples = await samplesOf('sentinel-check', () => entries.forEach((e) => guard.check(e, { phase: 'write', store: store.view })), { time: ctx.quick ? 100 : 500, iterations: 10 });
    const schema = summarize(schemaSamples.map(perVerdict), 'µs');
    const check = summarize(checkSamples.map(perVerdict), 'µs');
    ctx.row({ id: 'verdict-schema.sentinel', figure: `verdict schema (zod) per SENTINEL verdict, ${entries.length} verdicts of amplification chains; skipped for built-in guards, kept at the adapters`, value: schema, status: 'reported' });
    ctx.row({
      id: 'verdict-schema.vs-check',
      figure: 'verdict schema cost / the SENTINEL check that made the verdict (write path, empty store)',
      value: { median: schema.median / check.median, p25: schema.p25 / check.p75, p75: schema.p75 / check.p25, mad: Number.NaN, n: Math.min(schema.n, check.n), unit: '×' },
      status: 'reported',
      note: `check ${check.median.toFixed(2)} µs per entry`,
    });
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
      // Where the time goes: generation alone, then evaluation alone, over the same number of cases.
      let drawIteration = 0;
      const drawn: FuzzCase[] = [];
      const genSamples = await samplesOf(
        `generate-${family}`,
        () => {
          drawIteration += 1;
          drawn.length = 0;
          for (const domain of DOMAINS) {
            fc.check(
              fc.property(FAMILY_REGISTRY[family].arbitrary(domain), (c) => {
                drawn.push(c);
                return true;
              }),
              { numRuns: runs, seed: 1000 + drawIteration },
            );
          }
        },
        { time: 0, iterations: ctx.quick ? 3 : 5, warmupIterations: 1 },
      );
      const gen = summarize(genSamples.map((ms) => (cases / ms) * 1000), 'cases/s');
      ctx.row({ id: `throughput.${family}.generate`, figure: `${family}: generating the cases alone (fast-check + rendering, no guard)`, value: gen, status: 'reported' });
      let calls = 0;
      const counting: Guard = { ...guard, check: (e, c) => ((calls += 1), guard.check(e, c)) };
      for (const c of drawn) evaluateSync(counting, c, store, 'write');
      const evalSamples = await samplesOf(
        `evaluate-${family}`,
        () => {
          for (const c of drawn) evaluateSync(guard, c, store, 'write');
        },
        { time: 0, iterations: ctx.quick ? 3 : 5, warmupIterations: 1 },
      );
      const ev = summarize(evalSamples.map((ms) => (drawn.length / ms) * 1000), 'cases/s');
      ctx.row({
        id: `throughput.${family}.evaluate`,
        figure: `${family}: evaluating drawn cases alone (set-up layer, attacker writes and check through SENTINEL)`,
        value: ev,
        status: 'reported',
        note: `${(calls / Math.max(1, drawn.length)).toFixed(1)} guard calls per case`,
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
