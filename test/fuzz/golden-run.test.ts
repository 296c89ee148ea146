/**
 * One golden run, snapshot-tested (docs/STYLE.md §5): a pinned seed must keep giving the same
 * cases, verdicts and minimal counterexamples. A change here means generation, shrinking
 * or SENTINEL changed: review the diff, then update with `npx vitest run -u`.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFuzz } from '../../src/campaign/fuzz.js';
import { silentProgress } from '../../src/campaign/progress.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { loadRegressions } from '../../src/corpus/regressions.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

async function golden(dir: string, corpus = true) {
  return runFuzz(
    {
      guardSpec: 'sentinel',
      guard: createGuard('sentinel'),
      store,
      domains: ['ehr'],
      families: ['seed', 'amplification', 'naive', 'benign'],
      runs: 150,
      seed: 4242,
      phase: 'write',
      maxFailures: 3,
      outDir: path.join(dir, 'report'),
      ...(corpus ? { corpusDir: path.join(dir, 'corpus') } : {}),
      realData: true,
      generatedAt: '2026-01-01T00:00:00.000Z',
    },
    silentProgress,
  );
}

describe('golden run (sentinel, ehr, seed 4242)', () => {
  it('gives the same cells and counterexamples as the snapshot, writes the report and grows the corpus', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-golden-'));
    const r = await golden(dir);
    const digest = {
      cells: r.report.cells.map((c) => `${c.family} ${c.property} ${c.violations}/${c.runs} errors=${c.errors}`),
      counterexamples: r.report.counterexamples.map((c) => `${c.id} ${c.signature}`),
      real: r.report.fpr.real.map((s) => `${s.name} ${s.fpr.k}/${s.fpr.n}`),
    };
    expect(digest).toMatchSnapshot();
    const json = JSON.parse(readFileSync(path.join(dir, 'report', 'report.json'), 'utf8')) as { config: { seed: number } };
    expect(json.config.seed).toBe(4242);
    expect(readFileSync(path.join(dir, 'report', 'report.md'), 'utf8')).toContain('## Domain: ehr');
    const corpus = loadRegressions(path.join(dir, 'corpus', 'sentinel.jsonl'));
    expect(corpus.records.map((x) => x.value.id).sort()).toEqual(r.report.counterexamples.map((c) => c.id).sort());
    expect(corpus.records.every((x) => x.value.status === 'open')).toBe(true);
  });

  it('a second run with the same seed gives an identical report.json apart from timings and dates', async () => {
    const a = await golden(mkdtempSync(path.join(tmpdir(), 'farma-golden-a-')), false);
    const b = await golden(mkdtempSync(path.join(tmpdir(), 'farma-golden-b-')), false);
    const strip = (x: typeof a.report) => JSON.stringify({ ...x, timing: undefined, generatedAt: undefined });
    expect(strip(a.report)).toBe(strip(b.report));
  });
});
