import { beforeAll, describe, expect, it } from 'vitest';
import { chartSpecs, operatorBypassRows, scoreSamples, signalRows } from '../../src/report/charts.js';
import { gate } from '../../src/report/gate.js';
import { escapeHtml, renderHtml } from '../../src/report/html.js';
import type { ReportData } from '../../src/report/model.js';
import { cell, handReport, toyReport } from './fixture.js';

describe('renderHtml', () => {
  let r: ReportData;
  let html: string;
  beforeAll(async () => {
    r = await toyReport(42, 30);
    html = await renderHtml(r, { gateResult: gate(r, { maxFpr: 0.2 }) });
  });

  it('escapes attacker-controlled entry text: no <script> or injected tag survives', () => {
    expect(r.counterexamples.some((x) => x.case.entry.content.includes('<script>'))).toBe(true);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
  });

  it('is self-contained: no external URL to load and a CSP that forbids scripts', () => {
    const refs = [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((m) => m[1]);
    expect(refs.every((u) => u?.startsWith('#'))).toBe(true);
    expect(html).not.toMatch(/url\(\s*['"]?https?:/);
    expect(html).not.toContain('<link');
    expect(html).toContain(`default-src 'none'`);
  });

  it('has one figure per chart the data supports, each with an inline SVG', () => {
    const ids = [...html.matchAll(/<figure data-chart="([^"]+)"><svg/g)].map((m) => m[1]);
    expect(ids).toEqual(['score-distribution', 'threshold-sweep', 'roc', 'operator-bypass', 'signal-contribution']);
    expect(html).toMatch(/ROC curve, AUC \d\.\d{3}/);
  });

  it('lists every cell and every counterexample with its replay command', () => {
    for (const x of r.counterexamples) {
      expect(html).toContain(`id="cx-${x.id}"`);
      expect(html).toContain(escapeHtml(x.replay));
    }
    expect((html.match(/<td class="(ok|bad)">(yes|no)<\/td>/g) ?? []).length).toBe(r.cells.length);
    expect(html).toContain('Gate ');
  });

  it('leaves out charts without data', async () => {
    const plain = await renderHtml(handReport([cell('ehr', 'benign', 0, 20), cell('ehr', 'seed', 3, 20)]));
    expect(plain).not.toContain('<figure');
    expect(plain).toContain('No chart');
  });
});

describe('chart data', () => {
  it('splits scores into benign and forged from the histograms', () => {
    const b = cell('ehr', 'benign', 0, 3);
    b.scoreHistogram = { '0.10': 2, '0.20': 1 };
    const f = cell('ehr', 'seed', 1, 2);
    f.scoreHistogram = { '0.80': 1, '0.40': 1 };
    const s = scoreSamples(handReport([b, f]));
    expect(s.benign.sort()).toEqual([0.1, 0.1, 0.2]);
    expect(s.forged.sort()).toEqual([0.4, 0.8]);
    expect(chartSpecs(handReport([b, f])).map((c) => c.id)).toEqual(['score-distribution', 'threshold-sweep', 'roc']);
    // Perfect separation gives AUC 1.
    expect(chartSpecs(handReport([b, f])).find((c) => c.id === 'roc')?.title).toBe('ROC curve, AUC 1.000');
  });

  it('draws the operator chart only when an operator other than (none) occurs', () => {
    const f = cell('ehr', 'seed', 1, 4);
    f.breakdown.operator = { '(none)': { runs: 4, violations: 1, errors: 0 } };
    expect(operatorBypassRows(handReport([f]))).toEqual([]);
    f.breakdown.operator.synonym = { runs: 2, violations: 2, errors: 0 };
    const rows = operatorBypassRows(handReport([f]));
    expect(rows.map((x) => [x.operator, x.rate])).toEqual([['(none)', 0.25], ['synonym', 1]]);
  });

  it('computes signal fire rates per kind', () => {
    const b = cell('ehr', 'benign', 0, 10);
    b.signalFires = { s1: 1 };
    const f = cell('ehr', 'seed', 0, 4);
    f.signalFires = { s1: 4, s2: 2 };
    expect(signalRows(handReport([b, f]))).toEqual([
      { signal: 's1', kind: 'benign', fires: 1, runs: 10, rate: 0.1 },
      { signal: 's1', kind: 'forged', fires: 4, runs: 4, rate: 1 },
      { signal: 's2', kind: 'benign', fires: 0, runs: 10, rate: 0 },
      { signal: 's2', kind: 'forged', fires: 2, runs: 4, rate: 0.5 },
    ]);
  });
});
