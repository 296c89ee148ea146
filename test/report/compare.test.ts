/**
 * compareReports: rates tested with Fisher's exact test and Holm's adjustment, signatures
 * new / fixed / still open (with the max-failures caveat), operators that started or stopped
 * getting through, and every configuration difference named.
 */
import { describe, expect, it } from 'vitest';
import type { SyncGuard } from '../../src/domain/guard.js';
import { compareReports, configDifferences, renderComparisonText } from '../../src/report/compare.js';
import type { ReportCounterexample, ReportData } from '../../src/report/model.js';
import { cell, handReport, toyReport } from './fixture.js';

function cx(id: string, domain: string, family: string, signature: string): ReportCounterexample {
  return { id, domain, family, property: family === 'benign' ? 'benign-admitted' : 'forgery-rejected', judgement: 'violated', kind: family === 'benign' ? 'false-positive' : 'bypass', signature, case: {} as never, verdict: { decision: 'admit', trace: [], reasons: [] }, seed: 1, path: '0', numShrinks: 0, replay: `replay --id ${id}` };
}

function withOps(c: ReportData['cells'][number], ops: Record<string, [number, number]>): ReportData['cells'][number] {
  return { ...c, breakdown: { ...c.breakdown, operator: Object.fromEntries(Object.entries(ops).map(([k, [v, n]]) => [k, { runs: n, violations: v, errors: 0 }])) } };
}

describe('compareReports on hand-built reports', () => {
  const a = handReport([withOps(cell('ehr', 'seed', 300, 1000), { homoglyph: [50, 100], 'zero-width': [0, 100], typo: [10, 100] }), cell('ehr', 'benign', 5, 1000), cell('ehr', 'naive', 40, 100)]);
  const b = handReport([withOps(cell('ehr', 'seed', 120, 1000), { homoglyph: [0, 100], 'zero-width': [9, 100], typo: [8, 100] }), cell('ehr', 'benign', 30, 1000), cell('ehr', 'naive', 42, 100)]);
  a.counterexamples = [cx('a1', 'ehr', 'seed', 'violated|seed|t1|-|-'), cx('a2', 'ehr', 'seed', 'violated|seed|t2|-|-')];
  b.counterexamples = [cx('b1', 'ehr', 'seed', 'violated|seed|t2|-|-'), cx('b2', 'ehr', 'benign', 'violated|benign|t9|-|-')];
  const c = compareReports(a, b);

  it('calls a significant fall better and a significant rise worse, and leaves noise alone', () => {
    const by = Object.fromEntries(c.rates.map((r) => [r.name, r]));
    expect(by['ehr/seed']?.change).toBe('better');
    expect(by['ehr/seed']?.delta).toBeCloseTo(-0.18, 10);
    expect(by['ehr/benign']?.change).toBe('worse');
    expect(by['ehr/benign']?.metric).toBe('FPR');
    expect(by['ehr/naive']?.change).toBe('not significant');
    expect(by['ehr/naive']?.p).toBeGreaterThan(0.5);
    for (const r of c.rates) expect(r.pAdjusted).toBeGreaterThanOrEqual(r.p as number);
    expect(c.verdict).toEqual({ better: 1, worse: 1, unchanged: 1, tested: 3, missingInB: [], regressed: true });
  });

  it('sorts signatures into new, fixed and still open', () => {
    expect(c.counterexamples.new.map((x) => x.id)).toEqual(['b2']);
    expect(c.counterexamples.fixed.map((x) => x.id)).toEqual(['a1']);
    expect(c.counterexamples.open.map((x) => x.id)).toEqual(['b1']);
  });

  it('names operators that started and stopped getting through', () => {
    const by = Object.fromEntries(c.operators.map((o) => [o.operator, o.status]));
    expect(by).toEqual({ homoglyph: 'stopped working', 'zero-width': 'started working', typo: 'still working' });
    expect(c.operators.find((o) => o.operator === 'homoglyph')?.p).toBeLessThan(0.001);
  });

  it('prints the table and the verdict line', () => {
    const t = renderComparisonText(c);
    expect(t).toMatch(/\| ehr\/benign +\| FPR +\| 0\.5% \(5\/1000\) +\| 3\.0% \(30\/1000\) +\| \+2\.5 pp/);
    expect(t).toContain('B is significantly worse than A in 1 of 3 rates tested (better in 1).');
    expect(t).toMatch(/homoglyph .*\| 50\/100 .*\| 0\/100 .*stopped working/);
  });

  it('adds the max-failures caveat when the other side hit the cap', () => {
    const full = handReport([{ ...cell('ehr', 'seed', 300, 1000), counterexamples: ['x1', 'x2', 'x3', 'x4', 'x5'] }]);
    full.counterexamples = [cx('x1', 'ehr', 'seed', 's1')];
    const other = handReport([cell('ehr', 'seed', 300, 1000)]);
    other.counterexamples = [cx('y1', 'ehr', 'seed', 's2')];
    const d = compareReports(full, other);
    expect(d.counterexamples.new[0]?.caveat).toMatch(/reached 5 signatures \(max-failures\) in A/);
    expect(d.counterexamples.fixed[0]?.caveat).toBeUndefined();
  });

  it('counts guard errors against the guard, as the gate does: a version that errors where the other rejected is worse, never better', () => {
    // v1 rejects 70% of forged entries; v2 answers error on those same 70% (a refactor broke its scorer).
    const v1 = handReport([cell('ehr', 'seed', 30, 100), cell('ehr', 'benign', 0, 100)]);
    const v2 = handReport([cell('ehr', 'seed', 30, 100, 70), cell('ehr', 'benign', 0, 100, 40)]);
    const d = compareReports(v1, v2);
    const row = (name: string, metric: string) => d.rates.find((r) => r.name === name && r.metric === metric);
    expect(row('ehr/seed', 'bypass rate')?.b).toMatchObject({ k: 100, n: 100 });
    expect(row('ehr/seed', 'bypass rate')?.change).toBe('worse');
    expect(row('ehr/seed', 'error rate')).toMatchObject({ a: { k: 0, n: 100 }, b: { k: 70, n: 100 }, change: 'worse' });
    expect(row('ehr/benign', 'FPR')?.change).toBe('worse');
    expect(row('ehr/benign', 'error rate')?.change).toBe('worse');
    expect(d.verdict.regressed).toBe(true);
    expect(renderComparisonText(d)).toContain('bypass rates and FPRs count each error against the guard');
    // The other way round, fixing the crash is better; with no errors on either side there is no error row.
    expect(compareReports(v2, v1).rates.find((r) => r.metric === 'error rate' && r.name === 'ehr/seed')?.change).toBe('better');
    expect(compareReports(v1, v1).rates.some((r) => r.metric === 'error rate')).toBe(false);
  });

  it('counts a real set\'s errors against its FPR, with an error rate row', () => {
    const set = (k: number, errors: number) => ({ name: 'real-x', source: 'x', fpr: { rate: k / 200, low: 0, high: 1, k, n: 200 }, errors }) as ReportData['fpr']['real'][number];
    const d = compareReports(handReport([cell('ehr', 'benign', 0, 100)], [set(2, 0)]), handReport([cell('ehr', 'benign', 0, 100)], [set(0, 150)]));
    expect(d.rates.find((r) => r.name === 'real-x' && r.metric === 'FPR (real set)')).toMatchObject({ b: { k: 150, n: 200 }, change: 'worse' });
    expect(d.rates.find((r) => r.name === 'real-x' && r.metric === 'error rate')?.change).toBe('worse');
    // An export's unread lines count against the guard too, as in the gate.
    const unread = { ...set(0, 0), unread: { lines: 120, first: [] } };
    const u = compareReports(handReport([cell('ehr', 'benign', 0, 100)], [set(0, 0)]), handReport([cell('ehr', 'benign', 0, 100)], [unread]));
    expect(u.rates.find((r) => r.name === 'real-x')).toMatchObject({ b: { k: 120, n: 320 }, change: 'worse' });
  });

  it('lists the rates A has and B lacks, and counts only the rates tested', () => {
    const d = compareReports(handReport([cell('ehr', 'seed', 30, 100), cell('ehr', 'benign', 0, 100)]), handReport([cell('ehr', 'seed', 30, 100)]));
    expect(d.verdict).toMatchObject({ tested: 1, missingInB: ['ehr/benign FPR'], regressed: false });
    expect(renderComparisonText(d)).toContain('B has no result for 1 rate that A has (ehr/benign FPR): B cannot be shown not to be worse there.');
  });

  it('rejects an alpha outside (0,1)', () => {
    expect(() => compareReports(a, b, { alpha: 0 })).toThrow(RangeError);
  });
});

describe('configDifferences', () => {
  it('is empty for the same configuration and names each field that differs', () => {
    const a = handReport([cell('ehr', 'seed', 1, 10)]);
    expect(configDifferences(a, structuredClone(a))).toEqual([]);
    const b = structuredClone(a);
    b.config.seed = 2;
    b.config.guardOptions = { tauGuard: 0.25 };
    b.config.guardConfigHash = 'other';
    b.config.versions = { node: 'v22' };
    expect(configDifferences(a, b)).toEqual([
      { key: 'guardConfigHash', a: 'none', b: 'other' },
      { key: 'guardOptions.tauGuard', a: '(absent)', b: '0.25' },
      { key: 'seed', a: '1', b: '2' },
      { key: 'versions.node', a: '(absent)', b: 'v22' },
    ]);
  });
});

describe('compareReports on real campaign reports', () => {
  /** Stricter than the fixture's guard: rejects when F > 0.2 instead of 0.5. */
  const strict: SyncGuard = {
    id: 'toy-strict',
    mode: 'sync',
    check: (entry) => {
      const words = ['verified', 'upstream', 'pattern', 'complete'].filter((w) => entry.content.includes(w)).length;
      const score = Math.min(1, words / 4 + (entry.content.includes('<') ? 0.1 : 0));
      return { decision: score > 0.2 ? 'reject' : 'admit', layer: 'L5', trace: [], signals: {}, score, reasons: [], elapsedUs: 1 };
    },
  };

  it('finds the stricter guard better on bypass, and the same report unchanged', async () => {
    const v1 = await toyReport(42, 200);
    const v2 = await toyReport(42, 200, strict);
    expect(configDifferences(v1, v2).map((d) => d.key)).toEqual(['guard']);
    const c = compareReports(v1, v2);
    const forged = c.rates.filter((r) => r.metric === 'bypass rate');
    expect(forged.length).toBe(4);
    for (const r of forged) {
      expect(r.delta as number).toBeLessThan(0);
      expect(r.change).toBe('better');
    }
    expect(c.counterexamples.fixed.length).toBeGreaterThan(0);
    const same = compareReports(v1, await toyReport(42, 200));
    expect(same.rates.every((r) => r.change === 'not significant' && r.delta === 0)).toBe(true);
    expect(same.counterexamples.new).toEqual([]);
    expect(same.counterexamples.fixed).toEqual([]);
  });
});
