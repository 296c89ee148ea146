import { beforeAll, describe, expect, it } from 'vitest';
import { chartPlan, chartSpecs, operatorBypassRows, scoreSamples, signalRows } from '../../src/report/charts.js';
import { compareReports } from '../../src/report/compare.js';
import { gate } from '../../src/report/gate.js';
import { counterexampleCause, escapeHtml, renderHtml } from '../../src/report/html.js';
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

  it('lists every cell and every counterexample, collapsed, with its replay command once', () => {
    for (const x of r.counterexamples) {
      expect(html).toContain(`<details class="cx" id="cx-${x.id}">`);
      expect(html.split(escapeHtml(x.replay)).length - 1, x.id).toBe(1);
    }
    expect(html).not.toMatch(/<details[^>]* open/);
    expect((html.match(/<td class="(ok|bad)" data-label="held">(yes|no)<\/td>/g) ?? []).length).toBe(r.cells.length);
    expect(html).toContain('Gate ');
  });

  it('starts with the summary, then a table of contents whose every link has its target', () => {
    const body = html.slice(html.indexOf('<body>'));
    expect(body.indexOf('id="summary"')).toBeLessThan(body.indexOf('<nav class="toc"'));
    expect(body.indexOf('<nav class="toc"')).toBeLessThan(body.indexOf('id="findings"'));
    const toc = /<nav class="toc"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
    const links = [...toc.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(links).toEqual(expect.arrayContaining(['findings', 'charts', 'cells', 'fpr', 'gate', 'counterexamples', 'settings']));
    for (const id of links) expect(html, id).toContain(`id="${id}"`);
    for (const m of html.matchAll(/href="#([^"]+)"/g)) expect(html, m[1]).toContain(`id="${m[1]}"`);
  });

  it('groups counterexamples by cause, every one in exactly one group', () => {
    const groups = [...html.matchAll(/<details class="group"><summary>([^<]+) <span class="muted">\((\d+);/g)];
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.reduce((a, g) => a + Number(g[2]), 0)).toBe(r.counterexamples.length);
    expect(new Set(groups.map((g) => g[1])).size).toBe(groups.length);
  });

  it('leaves out, and names, charts whose data carries no information', () => {
    const f = cell('ehr', 'seed', 4, 4);
    f.breakdown.operator = { '(none)': { runs: 10, violations: 6, errors: 0 }, synonym: { runs: 2, violations: 2, errors: 0 }, typo: { runs: 3, violations: 3, errors: 0 } };
    f.scoreHistogram = { '0.00': 4 };
    f.signalFires = { s1: 2, s2: 2 };
    const plan = chartPlan(handReport([f]));
    expect(plan.specs.map((x) => x.id)).toEqual([]);
    expect(plan.dropped.map((x) => [x.id, x.reason])).toEqual([
      ['score-distribution', 'every scored entry has F = 0.00'],
      ['threshold-sweep', 'every scored entry has F = 0.00'],
      ['operator-bypass', 'every one of the 2 operators has a bypass rate of 100% (entries without paraphrase: 60.0%)'],
      ['signal-contribution', 'every signal fired on 50.0% of the entries, benign and forged alike'],
    ]);
    f.breakdown.operator.typo = { runs: 3, violations: 1, errors: 0 };
    f.scoreHistogram = { '0.00': 2, '0.40': 2 };
    f.signalFires = { s1: 3, s2: 2 };
    expect(chartPlan(handReport([f])).specs.map((x) => x.id)).toEqual(['score-distribution', 'threshold-sweep', 'operator-bypass', 'signal-contribution']);
  });

  it('leaves out charts without data', async () => {
    const plain = await renderHtml(handReport([cell('ehr', 'benign', 0, 20), cell('ehr', 'seed', 3, 20)]));
    expect(plain).not.toContain('<figure');
    expect(plain).toContain('No chart');
  });
});

describe('query accounting in report.html', () => {
  it('gives the guard queries in the summary and per phase in the settings', async () => {
    const r = handReport([cell('ehr', 'seed', 3, 20)]);
    const tally = (queries: number, cacheHits = 0) => ({ queries, cacheHits });
    r.timing.queries = { cache: true, total: tally(1234, 66), byPhase: { cases: tally(1000, 66), shrink: tally(200), recheck: tally(34), attack: tally(0), real: tally(0), loso: tally(0) }, phaseMs: { cases: 1200, shrink: 300, recheck: 40, attack: 0, real: 0, loso: 0 }, perCell: [], costPerQuery: 0.001, cost: 1.234 };
    const html = await renderHtml(r);
    expect(html).toMatch(/<li>Guard queries: 1,234 \(cache on: 66 more requests served from it, 5\.1%\)\.<\/li>/);
    expect(html).toMatch(/data-label="setting">queries by phase<\/td><td data-label="value">cases 1,000 queries \(\+66 cached\) · 1\.2 s; shrinking 200 queries · 0\.3 s; re-checks 34 queries · 0\.0 s</);
    expect(html).toContain('1,234 queries × 0.001 = 1.234');
    expect(await renderHtml(handReport([cell('ehr', 'seed', 3, 20)]))).not.toContain('Guard queries');
  });
});

describe('the baseline section', () => {
  it('shows the significant changes first, every rate on demand, and a refusal with each difference', async () => {
    const a = handReport([cell('ehr', 'seed', 300, 1000), cell('ehr', 'benign', 2, 1000)]);
    const b = handReport([cell('ehr', 'seed', 100, 1000), cell('ehr', 'benign', 3, 1000)]);
    const html = await renderHtml(b, { baseline: { file: 'v1/report.json', comparison: compareReports(a, b) } });
    expect(html).toContain('<a href="#baseline">Compared with the baseline</a>');
    expect(html).toContain('Not significantly worse than the baseline in any rate');
    const changed = /<h2 id="baseline">[\s\S]*?<details>/.exec(html)?.[0] ?? '';
    expect(changed).toMatch(/data-label="cell">ehr\/seed<\/td>[\s\S]*<b class="ok">better<\/b>/);
    expect(changed).not.toContain('ehr/benign');
    expect(html).toMatch(/<summary>Every rate \(2\)<\/summary>[\s\S]*ehr\/benign/);
    const refused = await renderHtml(b, { baseline: { file: 'v1/report.json', refused: [{ key: 'guardOptions.tauGuard', a: '(absent)', b: '0.25' }] } });
    expect(refused).toContain('Not compared: the baseline <code>v1/report.json</code> comes from a different configuration.');
    expect(refused).toContain('<li><code>guardOptions.tauGuard</code>: (absent) in the baseline, 0.25 in this run</li>');
  });
});

describe('counterexampleCause', () => {
  const base = { id: 'x', domain: 'ehr', family: 'adaptive', property: 'forgery-rejected', judgement: 'violated', kind: 'bypass', seed: 1, path: '0', numShrinks: 0, replay: 'r' };
  const withOps = (ops: string[], signature: string, decision: 'admit' | 'reject', layer?: string) =>
    ({ ...base, signature, case: { entry: {}, truth: { operators: ops } }, verdict: { decision, trace: [], reasons: [], ...(layer ? { layer } : {}) } }) as never;

  it('names the operator group of a rewrite, else the rejecting layer or the signals that fired', () => {
    const groups = { homoglyph: 'encoding', 'translate-de': 'language' };
    expect(counterexampleCause(withOps(['homoglyph'], 'violated|adaptive|t|homoglyph|-', 'admit'), groups)).toBe('bypass · encoding operators');
    expect(counterexampleCause(withOps(['homoglyph', 'translate-de'], 'violated|adaptive|t|homoglyph,translate-de|-', 'admit'), groups)).toBe('bypass · encoding + language operators together');
    expect(counterexampleCause(withOps([], 'violated|seed|t|-|s3+s5', 'admit'), groups)).toBe('bypass · admitted, signals s3+s5 fired');
    expect(counterexampleCause(withOps([], 'violated|seed|t|-|-', 'admit'), groups)).toBe('bypass · admitted, no signal fired');
    expect(counterexampleCause({ ...(withOps([], 'violated|benign|t|-|-', 'reject', 'L1-keyword') as object), kind: 'false-positive' } as never, groups)).toBe('false-positive · rejected at L1-keyword, no signal fired');
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
