import { describe, expect, it } from 'vitest';
import { runCell } from '../../src/fuzz/property.js';
import { runCampaign } from '../../src/fuzz/campaign.js';
import { judge, propertyFor } from '../../src/fuzz/oracle.js';
import { failureSignature } from '../../src/fuzz/signature.js';
import { admitAll, arrayStore, lengthGuard, rejectAll, throwingGuard, toyBenign, toyForged } from '../helpers/toy.js';

describe('oracle', () => {
  it('benign must be admitted, forged rejected, errors are neither', () => {
    expect(propertyFor({ label: 'benign' })).toBe('benign-admitted');
    expect(propertyFor({ label: 'forged' })).toBe('forgery-rejected');
    expect(judge({ label: 'forged' }, { decision: 'reject' })).toBe('holds');
    expect(judge({ label: 'forged' }, { decision: 'admit' })).toBe('violated');
    expect(judge({ label: 'benign' }, { decision: 'reject' })).toBe('violated');
    expect(judge({ label: 'benign' }, { decision: 'admit' })).toBe('holds');
    expect(judge({ label: 'forged' }, { decision: 'error' })).toBe('error');
  });
});

const base = { store: arrayStore, phase: 'write' as const, domain: 'toy', runs: 300, seed: 42 };

describe('runCell', () => {
  it('admit-all: forgery-rejected fails, shrunk to the simplest case (first template, one word, no history)', async () => {
    const out = await runCell({ ...base, family: 'seed', arbitrary: toyForged, guard: admitAll, maxFailures: 1 });
    expect(out.stats.runs).toBe(300);
    expect(out.stats.violations).toBe(300);
    expect(out.counterexamples).toHaveLength(1);
    const cx = out.counterexamples[0]!;
    expect(cx.property).toBe('forgery-rejected');
    expect(cx.case.truth.template).toBe('toy/seed/alpha');
    expect(cx.case.setup).toEqual([]);
    expect(cx.case.entry.content).toBe('For pipeline INT-EHR-1000: upstream.');
  });

  it('reject-all: benign-admitted fails with a minimal benign case', async () => {
    const out = await runCell({ ...base, family: 'benign', arbitrary: toyBenign, guard: rejectAll, maxFailures: 1 });
    expect(out.property).toBe('benign-admitted');
    expect(out.stats.violations).toBe(300);
    expect(out.counterexamples[0]!.case.entry.content).toBe('Imported 0 rows; all parsed.');
    expect(out.counterexamples[0]!.case.truth.template).toBe('toy/benign/one');
  });

  it('keeps searching for distinct signatures: one per template that bypasses', async () => {
    const out = await runCell({ ...base, family: 'seed', arbitrary: toyForged, guard: lengthGuard, maxFailures: 10 });
    const templates = out.counterexamples.map((c) => c.case.truth.template).sort();
    expect(templates).toEqual(['toy/seed/alpha', 'toy/seed/beta', 'toy/seed/gamma']);
    expect(new Set(out.counterexamples.map((c) => c.signature)).size).toBe(3);
    // every counterexample is minimal: a single word (two would still bypass, one is the floor)
    for (const c of out.counterexamples) expect(c.case.entry.content.split(':')[1]!.trim().split(' ')).toHaveLength(1);
    // rates are counted over all runs, not just until the first failure
    expect(out.stats.runs).toBe(300);
    expect(out.stats.violations).toBeGreaterThan(0);
    expect(out.stats.violations).toBeLessThan(300);
  });

  it('a throwing guard gives error verdicts, never rejections', async () => {
    const out = await runCell({ ...base, family: 'seed', arbitrary: toyForged, guard: throwingGuard, maxFailures: 1 });
    expect(out.stats.errors).toBe(300);
    expect(out.stats.violations).toBe(0);
    expect(out.counterexamples[0]!.judgement).toBe('error');
    expect(out.counterexamples[0]!.verdict.error?.kind).toBe('threw');
  });

  it('an async guard is awaited', async () => {
    const slowAdmit = { id: 'async-admit', mode: 'async' as const, check: async () => ({ decision: 'admit' as const, trace: [], reasons: [], elapsedUs: 0 }) };
    const out = await runCell({ ...base, runs: 50, family: 'seed', arbitrary: toyForged, guard: slowAdmit, maxFailures: 1 });
    expect(out.stats.violations).toBe(50);
  });

  it('signature = judgement|family|template|operators|signals', () => {
    const c = { entry: { id: 'x', store: 'reasoning' as const, content: '', source: 'AGENT', trust: 'VERIFIED', traceType: 'rationale', timestamp: '' }, truth: { label: 'forged' as const, family: 'adaptive', domain: 'ehr', template: 'ehr/seed/a', operators: ['zw', 'homoglyph', 'zw'] } };
    expect(failureSignature(c, { decision: 'admit', trace: [], reasons: [], elapsedUs: 0, signals: { s1: 0, s5: 1, s3: 0.5 } }, 'violated')).toBe('violated|adaptive|ehr/seed/a|homoglyph,zw|s3+s5');
  });
});

describe('runCampaign', () => {
  it('is deterministic for a seed (cases, verdicts, counterexamples)', async () => {
    const run = () =>
      runCampaign({
        guard: lengthGuard,
        cells: [
          { domain: 'toy', family: 'seed', arbitrary: toyForged },
          { domain: 'toy', family: 'benign', arbitrary: toyBenign },
        ],
        store: arrayStore,
        phase: 'write',
        runsPerCell: 200,
        seed: 7,
      });
    const strip = (o: Awaited<ReturnType<typeof run>>) => o.cells.map((c) => ({ stats: { ...c.stats, guardUs: 0 }, cx: c.counterexamples.map((x) => [x.signature, x.case, x.path, x.seed]) }));
    expect(strip(await run())).toEqual(strip(await run()));
  });
});

describe('stopping', () => {
  it('an aborted signal stops a cell between batches and marks it interrupted', async () => {
    const controller = new AbortController();
    let seen = 0;
    const out = await runCell({
      ...base,
      runs: 50_000,
      family: 'seed',
      arbitrary: toyForged,
      guard: lengthGuard,
      signal: controller.signal,
      onProgress: (done) => {
        seen = done;
        if (done === 1500) controller.abort();
      },
    });
    expect(out.interrupted).toBe(true);
    expect(out.stats.runs).toBe(seen);
    expect(out.stats.runs).toBeLessThan(50_000);
  });
});
