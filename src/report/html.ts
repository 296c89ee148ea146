/**
 * Self-contained HTML rendering of a report (`report.html`): inline CSS, charts as inline
 * SVG made in Node (see `charts.ts`), no script and no external URL. A Content-Security-
 * Policy forbids scripts and remote loads, as a second wall behind escaping: entry text is
 * attacker-controlled, and every piece of it is HTML-escaped (`entities`, by fb55).
 */
import { attackHtml, flipText } from './attack-html.js';
import { escapeUTF8 } from 'entities';
import { formatCounterexample } from './format-verdict.js';
import { chartPackages, renderCharts } from './charts.js';
import { formatGateCheck, type GateResult } from './gate.js';
import { pct, realismGapLine, renderFindings } from './markdown.js';
import type { ReportCell, ReportData } from './model.js';
import { plural } from '../domain/plural.js';

/** HTML-escapes text for element content and quoted attributes (`& < > " '`). */
export function escapeHtml(text: string): string {
  return escapeUTF8(text);
}

const e = escapeHtml;

const CSS = `
:root { --ok: #1a7f37; --bad: #cf222e; --muted: #57606a; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1100px; padding: 24px; color: #1f2328; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
.verdict { font-weight: 600; padding: 8px 12px; border-radius: 6px; display: inline-block; }
.verdict.ok { background: #dafbe1; color: var(--ok); } .verdict.bad { background: #ffebe9; color: var(--bad); }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.ok { color: var(--ok); } td.bad { color: var(--bad); font-weight: 600; }
figure { margin: 16px 0; padding: 12px; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); margin-top: 6px; } figcaption b { color: #1f2328; }
pre { background: #f6f8fa; padding: 10px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; font-size: 12px; }
details { margin: 8px 0; } summary { cursor: pointer; }
.muted { color: var(--muted); }
`;

function row(cells: string[], head = false): string {
  const tag = head ? 'th' : 'td';
  return `<tr>${cells.map((c) => (c.startsWith('<td') ? c : `<${tag}>${c}</${tag}>`)).join('')}</tr>`;
}

function num(n: number | string): string {
  return `<td class="num">${e(String(n))}</td>`;
}

function cellRows(cells: ReportCell[]): string {
  const head = row(['family', 'property', 'runs', 'violations', 'violation rate [95% CI]', 'detection rate [95% CI]', 'errors', 'signals fired', 'held'], true);
  const body = cells.map((x) =>
    row([
      e(x.family),
      e(x.property),
      num(`${x.runs}${x.interrupted ? ' (time limit)' : ''}`),
      num(x.violations),
      e(pct(x.violationRate)),
      e(x.detectionRate ? pct(x.detectionRate) : '-'),
      num(x.errors),
      e(Object.entries(x.signalFires).map(([k, v]) => `${k}:${v}`).join(' ') || '-'),
      x.holds ? '<td class="ok">yes</td>' : '<td class="bad">no</td>',
    ]),
  );
  return `<table>${head}${body.join('')}</table>`;
}

/**
 * Renders the report as one self-contained HTML page.
 *
 * Sections: verdict and settings; charts (each a `<figure data-chart="<id>">` holding an
 * inline `<svg>`: F-score distributions, threshold sweep, ROC with AUC, bypass per operator,
 * signal contribution; those without data are left out); one table of cells per domain;
 * FPR on generated vs real benign traces; gate checks when `gateResult` is given; every
 * minimal counterexample with its replay command. Every string from the report is escaped.
 *
 * @returns the HTML text (UTF-8).
 * @throws Error when a chart fails to render (a programming error).
 * @example
 * await writeFile(path.join(outDir, 'report.html'), await renderHtml(report));
 */
export async function renderHtml(r: ReportData, options: { gateResult?: GateResult } = {}): Promise<string> {
  const c = r.config;
  const charts = await renderCharts(r);
  const out: string[] = [];
  out.push('<!doctype html>');
  out.push('<html lang="en"><head><meta charset="utf-8">');
  out.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  out.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  out.push(`<title>farma-fuzz report: ${e(c.guard)}</title>`);
  out.push(`<style>${CSS}</style></head><body>`);
  out.push(`<h1>farma-fuzz report: <code>${e(c.guard)}</code></h1>`);
  const verdict = r.summary.held ? 'Every invariant held.' : `Invariants FAILED in ${plural(r.summary.failingCells.length, 'cell')}: ${r.summary.failingCells.join(', ')}.`;
  out.push(`<p><span class="verdict ${r.summary.held ? 'ok' : 'bad'}">${e(verdict)}</span> ${plural(r.summary.totalRuns, 'case')}, ${plural(r.summary.violations, 'violation')}, ${plural(r.summary.errors, 'guard error')}.</p>`);
  if (options.gateResult && options.gateResult.checks.length > 0) {
    const g = options.gateResult;
    out.push(`<p><span class="verdict ${g.pass ? 'ok' : 'bad'}">Gate ${g.pass ? 'passed' : 'FAILED'}</span> <span class="muted">judged on the upper bound of each Wilson 95% interval</span></p>`);
  }
  // Findings per family (the same text as report.md's Findings section), as a plain list.
  const findings = renderFindings(r).filter((l) => l.trim().startsWith('-'));
  if (findings.length > 0) {
    out.push('<h2>Findings</h2><ul>');
    for (const l of findings) {
      const text = l.trim().replace(/^- /, '').replace(/\*\*/g, '').replace(/`/g, '');
      out.push(`<li${l.startsWith('  ') ? ' class="muted"' : ''}>${e(text)}</li>`);
    }
    out.push('</ul>');
  }
  out.push('<table>');
  const settings: Array<[string, string]> = [
    ['guard', `${c.guard} (config hash ${c.guardConfigHash})`],
    ['seed', String(c.seed)],
    ['runs per cell', String(c.runsPerCell)],
    ['phase', c.phase],
    ['domains', c.domains.join(', ')],
    ['families', c.families.join(', ')],
    ['versions', Object.entries(c.versions).map(([k, v]) => `${k} ${v}`).join(', ')],
    ['throughput', `${r.timing.casesPerSecond.toFixed(0)} cases/s over ${(r.timing.elapsedMs / 1000).toFixed(1)} s`],
    ['generated', r.generatedAt],
  ];
  for (const [k, v] of settings) out.push(row([e(k), e(v)]));
  out.push('</table>');
  out.push('<p class="muted">Each row of the tables below is one property run on one family. For forged families the violation rate is the bypass rate (forged entries admitted); for the benign family it is the false-positive rate (benign entries rejected). Brackets hold the Wilson 95% interval. Guard errors are counted apart and never as rejections.</p>');

  out.push('<h2 id="charts">Charts</h2>');
  const chartLibs = await chartPackages();
  if (!chartLibs.ok) out.push(`<p class="muted">No chart: ${e(chartLibs.hint)}.</p>`);
  else if (charts.length === 0) out.push('<p class="muted">No chart: the guard reported no forgery score and no signal fired.</p>');
  for (const ch of charts) {
    out.push(`<figure data-chart="${e(ch.id)}">${ch.svg}<figcaption><b>${e(ch.title)}.</b> ${e(ch.caption)}</figcaption></figure>`);
  }

  out.push('<h2 id="cells">Results per domain</h2>');
  const domains = [...c.domains, ...new Set(r.cells.map((x) => x.domain).filter((d) => !c.domains.includes(d)))];
  for (const domain of domains) {
    const cells = r.cells.filter((x) => x.domain === domain);
    if (cells.length === 0) continue;
    out.push(`<h3>Domain: ${e(domain)}</h3>`);
    out.push(cellRows(cells));
    for (const x of cells.filter((y) => y.violations > 0)) {
      const rows = Object.entries(x.breakdown.template).filter(([, t]) => t.violations > 0);
      if (rows.length > 0) out.push(`<p>Failing templates in ${e(`${domain}/${x.family}`)}: ${rows.map(([k, t]) => `<code>${e(k)}</code> ${t.violations}/${t.runs}`).join(', ')}</p>`);
    }
  }

  const attack = attackHtml(r, e);
  if (attack) out.push(attack);

  out.push('<h2 id="fpr">False-positive rate: generated vs real benign traces</h2>');
  out.push('<table>');
  out.push(row(['set', 'kind', 'FPR [95% CI]', 'n', 'errors'], true));
  for (const g of r.fpr.generated) out.push(row([e(g.domain), 'generated', e(pct(g.fpr)), num(g.fpr.n), num(g.errors)]));
  for (const s of r.fpr.real) out.push(row([e(s.name), e(`real (${s.source})`), e(pct(s.fpr)), num(s.fpr.n), num(s.errors)]));
  out.push('</table>');
  if (r.fpr.real.length > 0) out.push(`<p>${e(realismGapLine(r))}.</p>`);
  const rejectedReal = r.fpr.real.flatMap((s) => s.rejected.map((x) => ({ set: s.name, ...x })));
  if (rejectedReal.length > 0) {
    out.push('<details><summary>Rejected real benign entries (' + rejectedReal.length + ')</summary><table>');
    out.push(row(['set', 'id', 'layer', 'signals', 'content'], true));
    for (const x of rejectedReal) out.push(row([e(x.set), `<code>${e(x.id)}</code>`, e(x.layer ?? '?'), e(x.signals), `<pre>${e(x.content.slice(0, 2000))}</pre>`]));
    out.push('</table></details>');
  }

  if (options.gateResult && options.gateResult.checks.length > 0) {
    out.push('<h2 id="gate">Gate checks</h2><table>');
    out.push(row(['check', 'observed [95% CI]', 'limit', 'result'], true));
    for (const g of options.gateResult.checks) {
      out.push(row([e(g.name), e(`${pct(g.observed)} (${g.observed.k}/${g.observed.n})`), e(`${(g.limit * 100).toFixed(1)}%`), g.pass ? '<td class="ok">pass</td>' : `<td class="bad" title="${e(formatGateCheck(g))}">FAIL</td>`]));
    }
    out.push('</table>');
  }

  out.push(`<h2 id="counterexamples">Minimal counterexamples (${r.counterexamples.length})</h2>`);
  if (r.counterexamples.length === 0) out.push('<p>None: no invariant broke.</p>');
  else {
    out.push('<table>');
    out.push(row(['id', 'domain', 'family', 'property', 'judgement', 'finding', 'reproduced', 'decision', 'shrinks'], true));
    for (const x of r.counterexamples) {
      const rep = x.recheck ? `${x.recheck.reproduced}/${x.recheck.of}` : '–';
      out.push(row([`<a href="#cx-${e(x.id)}"><code>${e(x.id)}</code></a>`, e(x.domain), e(x.family), e(x.property), e(x.judgement), x.kind === 'flaky' ? '<td class="bad">flaky</td>' : e(x.kind ?? x.judgement), e(rep), e(x.verdict.decision), num(x.numShrinks)]));
    }
    out.push('</table>');
    for (const x of r.counterexamples) {
      const us = r.timing.counterexampleUs[x.id] ?? 0;
      const text = flipText(x, us, () => formatCounterexample({ ...x, verdict: { ...x.verdict, elapsedUs: us } }));
      out.push(`<details id="cx-${e(x.id)}" open><summary><code>${e(x.id)}</code> · ${e(`${x.domain}/${x.family}`)} · ${e(x.property)}</summary>`);
      out.push(`<pre>${e(text)}</pre>`);
      out.push(`<p>Replay: <code>${e(x.replay)}</code></p></details>`);
    }
  }
  if (r.corpus) out.push(`<p>Regression corpus <code>${e(r.corpus.file)}</code>: ${r.corpus.added} added, ${r.corpus.duplicates} already present.</p>`);
  out.push('</body></html>');
  return `${out.join('\n')}\n`;
}
