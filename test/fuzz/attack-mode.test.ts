/** Attack mode inside `fuzz`: accounting, flips with both halves in report and corpus, coverage, determinism. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { loadRegressions } from '../../src/corpus/regressions.js';
import { fuzzIn } from '../helpers/fuzz-run.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

function run(dir: string, tauGuard = 0.25) {
  return fuzzIn(dir, {
    guardSpec: 'sentinel',
    guard: createGuard('sentinel', { config: { tauGuard } }),
    store,
    domains: ['ehr', 'rap'],
    families: ['naive', 'adaptive'],
    runs: 40,
    seed: 77,
    attack: { budget: 20 },
    guardOptions: { tauGuard },
  });
}

describe('fuzz with the adaptive family in attack mode', () => {
  it('skips admitted bases, attacks rejected ones, and keeps both halves of each flip', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-attack-'));
    const r = await run(dir);
    const a = r.report.attack!;
    expect(a.domains.map((d) => d.domain)).toEqual(['ehr', 'rap']);
    expect(a.overall.bases).toBe(80);
    expect(a.overall.skipped + a.overall.flipped + a.overall.held + a.overall.errors).toBe(80);
    expect(a.overall.flipped).toBeGreaterThan(0);
    // The adaptive cell counts every base; admitted ones (skipped or flipped) are its violations.
    for (const d of a.domains) {
      const cell = r.report.cells.find((c) => c.domain === d.domain && c.family === 'adaptive')!;
      expect(cell.runs).toBe(d.bases);
      expect(cell.violations).toBe(d.skipped + d.flipped);
      expect(cell.errors).toBe(d.errors);
    }
    const flips = r.report.counterexamples.filter((c) => c.family === 'adaptive');
    expect(flips.length).toBeGreaterThan(0);
    for (const f of flips) {
      expect(f.flip?.original.verdict.decision).toBe('reject');
      expect(f.verdict.decision).toBe('admit');
      expect(f.flip?.operators.length).toBeGreaterThan(0);
      expect(f.case.truth.operators.slice(-f.flip!.operators.length)).toEqual(f.flip!.operators);
      expect(f.replay).toContain('--guard-option tauGuard=0.25');
    }
    // The corpus stores both halves.
    // A --guard-option run keeps its findings in its own file (<guard>.opts-<hash>.jsonl), named by the report.
    expect(r.report.corpus?.file).toMatch(/sentinel\.opts-[0-9a-f]+\.jsonl$/);
    const { records } = loadRegressions(path.resolve(r.report.corpus!.file));
    const withOriginal = records.filter((x) => x.value.original);
    expect(withOriginal.length).toBe(flips.length);
    expect(withOriginal[0]?.value.original?.observed.decision).toBe('reject');
    // Coverage: the keyword layer fired on forged entries and flips turned it off.
    const l1 = r.report.coverage?.rows.find((x) => x.id === 'L1-keyword');
    expect(l1?.fired).toBeGreaterThan(0);
    expect(l1?.evaded).toBeGreaterThan(0);
    expect(r.report.config.guardOptions).toEqual({ tauGuard: 0.25 });
  });

  it('gives the same attack section for the same seed', async () => {
    const a = await run(mkdtempSync(path.join(tmpdir(), 'farma-attack-')));
    const b = await run(mkdtempSync(path.join(tmpdir(), 'farma-attack-')));
    expect(b.report.attack).toEqual(a.report.attack);
    expect(b.report.coverage).toEqual(a.report.coverage);
    expect(b.report.counterexamples.map((c) => c.id)).toEqual(a.report.counterexamples.map((c) => c.id));
  });
});
