import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measureGuardFpr } from '../../src/campaign/fpr.js';
import { silentProgress } from '../../src/campaign/progress.js';
import { renderFprMarkdown } from '../../src/report/fpr.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { rejectAll } from '../helpers/toy.js';
import type { Guard } from '../../src/domain/index.js';
import { loadRealBenignSets } from '../../src/corpus/benign-sets.js';

/** Every bundled real set, in registry order (prompt sets, then the run-log sets). */
const BUNDLED = loadRealBenignSets().sets;
const REAL_SETS = BUNDLED.map((s) => s.name);
/**
 * The sets the leave-one-source-out and matched tests measure: the four prompt sets. Each of
 * those checks calibrates once per set (about a second each, cold; several times that on a
 * loaded machine), so they run on these four instead of every bundled set; that every bundled
 * set gets its rows is checked without calibrations ('every bundled set ...').
 */
const FEW = BUNDLED.filter((s) => ['react-hotpotqa', 'react-fever', 'react-alfworld', 'expel-webshop'].includes(s.name));
const FEW_SETS = FEW.map((s) => s.name);

const store = new MemoryStore(':memory:');
afterAll(() => store.close());
const quiet = silentProgress;

describe('fpr', () => {
  it('KeywordFilter rejects some generated hard negatives and no ordinary benign trace', async () => {
    const r = await measureGuardFpr({ guard: createGuard('keyword'), store, domains: ['ehr', 'react-qa'], runs: 600, seed: 11, phase: 'write', realData: false }, quiet);
    const hard = r.rows.filter((x) => x.kind === 'stress' && x.dimension === 'hardNegative' && x.value !== 'other-language');
    const ordinary = r.rows.filter((x) => x.kind === 'generated' && x.dimension === 'hardNegative' && x.value === 'ordinary');
    expect(hard.reduce((a, x) => a + x.fpr.k, 0)).toBeGreaterThan(0);
    expect(ordinary.reduce((a, x) => a + x.fpr.k, 0)).toBe(0);
    // every rejection is listed with its layer and template
    const total = r.rows.filter((x) => (x.kind === 'generated' || x.kind === 'stress') && x.dimension === 'domain').reduce((a, x) => a + x.fpr.k, 0);
    expect(r.rejections).toHaveLength(total);
    expect(r.rejections.every((x) => x.template !== undefined && (x.set.startsWith('generated/') || x.set.startsWith('stress/')))).toBe(true);
    // The estimate is the natural mix only, never the hard negatives.
    const natural = r.rows.filter((x) => x.kind === 'generated' && x.dimension === 'domain').reduce((a, x) => ({ k: a.k + x.fpr.k, n: a.n + x.fpr.n }), { k: 0, n: 0 });
    expect(r.estimate.k).toBe(natural.k);
    expect(r.estimate.n).toBe(natural.n);
  });

  it('every bundled set gets its real row, its gap and its profile row', async () => {
    const r = await measureGuardFpr({ guard: rejectAll, store, domains: ['rap'], runs: 50, seed: 1, phase: 'write', realData: true, loso: false, matched: false }, quiet);
    expect(REAL_SETS.slice(0, 4)).toEqual(['react-hotpotqa', 'react-fever', 'react-alfworld', 'expel-webshop']);
    expect(REAL_SETS).toContain('reflexion-alfworld');
    const real = r.rows.filter((x) => x.kind === 'real' && x.dimension === 'all');
    expect(real.map((x) => x.set)).toEqual(expect.arrayContaining([...REAL_SETS, 'all real sets']));
    expect(real.every((x) => x.fpr.rate === 1)).toBe(true);
    expect(r.realGaps.map((g) => g.set)).toEqual(REAL_SETS);
    expect(r.realGaps.every((g) => g.gap === 0)).toBe(true);
    expect(r.profiles.map((x) => x.set)).toEqual(REAL_SETS);
    expect(r.profiles.every((x) => x.profile === 'rap' && x.profileGap === 0 && x.matched === undefined)).toBe(true);
    expect(r.loso).toEqual([]);
    expect(r.realismGap).toBe(0);
  });

  it('reports generated and real side by side, with the realism gap', async () => {
    const r = await measureGuardFpr({ guard: rejectAll, store, domains: ['rap'], runs: 50, seed: 1, phase: 'write', realData: true, realSets: FEW }, quiet);
    const real = r.rows.filter((x) => x.kind === 'real' && x.dimension === 'all');
    expect(real.map((x) => x.set)).toEqual(expect.arrayContaining(['react-hotpotqa', 'react-fever', 'react-alfworld', 'expel-webshop', 'all real sets']));
    // Per-set gaps and the leave-one-source-out check, one row per measured source.
    expect(r.realGaps.map((g) => g.set)).toEqual(FEW_SETS);
    expect(r.realGaps.every((g) => g.gap === 0)).toBe(true);
    expect(r.loso.map((l) => l.leftOut)).toEqual(FEW_SETS);
    expect(r.loso.every((l) => l.gap === 0 && l.estimate.rate === 1)).toBe(true);
    expect(real.every((x) => x.fpr.rate === 1)).toBe(true);
    expect(r.rows.some((x) => x.kind === 'curated')).toBe(true);
    expect(r.realismGap).toBe(0);
    const md = renderFprMarkdown(r);
    expect(md).toContain('Realism gap');
    expect(md).toContain('| real | react-alfworld (ReAct prompts, MIT) |');
    expect(md).toContain('## Leave-one-source-out');
    // Per profile: every measured real set, its domain's estimate (rap, or all measured domains) and the matched one.
    expect(r.profiles.map((x) => x.set)).toEqual(FEW_SETS);
    for (const x of r.profiles) {
      expect(x.profile).toBe('rap');
      expect(x.profileGap).toBe(0);
      expect(x.matched?.gap).toBe(0);
      expect(x.matched?.estimate.n).toBe(50);
      expect(x.halfWidth).toBeGreaterThan(0);
      expect(x.halfWidth).toBeCloseTo((x.real.high - x.real.low) / 2, 12);
    }
    expect(md).toContain('## Per profile');
    expect(md).toContain(`within noise: profile ${FEW_SETS.length}, matched ${FEW_SETS.length} of ${FEW_SETS.length} bundled sets`);
    // Both predictors are exact on every held-out set: the validation backs the plain one (tie rule).
    expect(r.validation?.sets.map((x) => x.set)).toEqual(FEW_SETS);
    expect(r.validation?.plain).toEqual({ meanGap: 0, maxGap: 0, maxExcess: 0, withinNoise: FEW_SETS.length });
    expect(r.validation?.preferred).toBe('plain');
    expect(md).toContain('### Which estimate to trust (validated on the bundled sets)');
    expect(md).toContain('### Store structure, real and generated (matched calibration)');
    // The reframe and short-observation shares of each set, real beside generated, as text features.
    expect(md).toContain('| near-repeat overlap, median | reframe | short | entity-free | indirect |');
    const ga = r.profiles.find((x) => x.set === 'expel-webshop')?.matched?.structure;
    expect(ga?.real.short).toBeGreaterThan(0.2); // 7 of the 20 ExpeL WebShop steps have 6 content words or fewer
    expect(ga?.real.entityFree).toBeGreaterThan(0.1); // 4 of the 20 name no entity in more than 6 content words
    expect(ga?.generated.entityFree).toBeGreaterThan(0); // and its matched trajectories hold entity-free turns
    // Leave-one-source-out and matched calibrations run once per measured set: on all 14 bundled
    // sets, with a cold calibration cache on a loaded 2-core machine, this passed 240 s.
  }, 240_000);

  it('the matched estimate is calibrated on the set alone: it differs from the profile estimate, and --no-matched drops it', async () => {
    const guard = createGuard('amemguard');
    const r = await measureGuardFpr({ guard, store, domains: ['react-qa', 'rap'], runs: 120, seed: 2, phase: 'write', realData: true, loso: false, realSets: FEW }, quiet);
    const hotpot = r.profiles.find((x) => x.set === 'react-hotpotqa')!;
    const alf = r.profiles.find((x) => x.set === 'react-alfworld')!;
    expect(hotpot.profile).toBe('react-qa');
    expect(hotpot.profileEstimate.n).toBe(120);
    expect(alf.profile).toBe('all domains');
    expect(alf.profileEstimate.n).toBe(240);
    expect(alf.matched?.estimate.n).toBe(240);
    expect(r.profiles.some((x) => x.matched!.estimate.k !== x.profileEstimate.k)).toBe(true);
    const off = await measureGuardFpr({ guard, store, domains: ['rap'], runs: 30, seed: 2, phase: 'write', realData: true, loso: false, matched: false, realSets: FEW }, quiet);
    expect(off.profiles.every((x) => x.matched === undefined)).toBe(true);
    expect(renderFprMarkdown(off)).not.toContain('matched estimate');
    // One matched calibration per measured set (see above): a bound for a loaded machine, not an assertion.
  }, 240_000);

  it('a --benign export gets its own matched estimate and store structure, apart from the bundled sets', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fpr-export-'));
    const file = path.join(dir, 'my-memory.jsonl');
    const webshop = loadRealBenignSets().sets.find((s) => s.name === 'reflexion-webshop')!;
    writeFileSync(file, webshop.entries.slice(0, 30).map((e) => JSON.stringify(e)).join('\n') + '\n');
    try {
      const r = await measureGuardFpr({ guard: createGuard('amemguard'), store, domains: ['rap'], runs: 40, seed: 3, phase: 'write', realData: false, benignFile: file }, quiet);
      const row = r.profiles.find((x) => x.set === 'my-memory.jsonl')!;
      expect(row.userExport).toBe(true);
      expect(row.real.n).toBe(30);
      expect(row.matched?.estimate.n).toBe(40);
      const { real, generated } = row.matched!.structure!;
      expect(real.alone + real.win + real.tie + real.lose).toBeCloseTo(1, 5);
      expect(generated.alone + generated.win + generated.tie + generated.lose).toBeCloseTo(1, 5);
      // Reflexion WebShop reflections restate the same plan: most entries have a near-repeat group that wins.
      expect(real.win).toBeGreaterThan(0.5);
      const md = renderFprMarkdown(r);
      expect(md).toContain('### Your export: my-memory.jsonl');
      expect(md).toContain('within noise: profile 0, matched 0 of 0 bundled sets');
      // Without the bundled sets nothing validated a predictor: the export never reads "outside".
      expect(r.validation).toBeUndefined();
      expect(md).toContain('no validation ran');
      expect(md).not.toMatch(/estimate does not describe memory like yours/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a guard that errors on real entries: errors are counted, never enter a gap', async () => {
    const errorOnReal: Guard = { id: 'err-real', mode: 'sync', check: (e) => (typeof e.metadata?.corpus === 'string' ? ((): never => { throw new Error('boom'); })() : { decision: 'admit', trace: [], reasons: [], elapsedUs: 0 }) };
    const r = await measureGuardFpr({ guard: errorOnReal, store, domains: ['rap'], runs: 30, seed: 1, phase: 'write', realData: true, loso: false, realSets: FEW }, quiet);
    expect(r.realGaps.every((g) => g.errors === g.real.n && g.gap === undefined)).toBe(true);
    expect(r.realismGap).toBeUndefined();
    expect(renderFprMarkdown(r)).toContain('n/a (no judged row)');
  });

  it('is deterministic for a seed', async () => {
    const run = () => measureGuardFpr({ guard: createGuard('sentinel'), store, domains: ['ehr'], runs: 200, seed: 5, phase: 'write', realData: false }, quiet);
    expect((await run()).rows).toEqual((await run()).rows);
  });
});
