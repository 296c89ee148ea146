/**
 * Self-contained HTML rendering of a report (`report.html`): inline CSS, charts as inline
 * SVG made in Node (see `charts.ts`), no script and no external URL. A Content-Security-
 * Policy forbids scripts and remote loads, as a second wall behind escaping: entry text is
 * attacker-controlled, and every piece of it is HTML-escaped (`entities`, by fb55).
 */
import { attackHtml, flipText } from './attack-html.js';
import { escapeUTF8 } from 'entities';
import { formatCounterexample } from './format-verdict.js';
import { chartPackages, droppedCharts, renderCharts } from './charts.js';
import { baselineHtml, type BaselineSection } from './compare-html.js';
import { formatGateCheck, type GateResult } from './gate.js';
import { htmlTable, type HtmlCell } from './html-table.js';
import { pct, realismGapLine, renderFindings } from './markdown.js';
import { queryLines } from './queries.js';
import { unreadLinesHead } from './percent.js';
import { interval, type Interval, type ReportCell, type ReportCounterexample, type ReportData } from './model.js';
import { plural } from '../domain/plural.js';
import { htmlSafe } from './xml-text.js';

/** HTML-escapes text for element content and quoted attributes (`& < > " '`). */
export function escapeHtml(text: string): string {
  return escapeUTF8(text);
}

const e = escapeHtml;

const CSS = `
:root { --ok: #1a7f37; --bad: #cf222e; --muted: #57606a; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; max-width: 1100px; padding: 24px; color: #1f2328; overflow-wrap: break-word; }
code { overflow-wrap: anywhere; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 20px 0 6px; }
.verdict { font-weight: 600; padding: 8px 12px; border-radius: 6px; display: inline-block; }
.verdict.ok { background: #dafbe1; color: var(--ok); } .verdict.bad { background: #ffebe9; color: var(--bad); }
b.ok { color: var(--ok); } b.bad { color: var(--bad); }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; max-width: 100%; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.ok { color: var(--ok); } td.bad { color: var(--bad); font-weight: 600; }
figure { margin: 16px 0; padding: 12px; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); margin-top: 6px; } figcaption b { color: #1f2328; }
pre { background: #f6f8fa; padding: 10px; border-radius: 6px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; font-size: 12px; }
details { margin: 6px 0; } summary { cursor: pointer; }
details.group { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; }
details.group > summary { font-weight: 600; }
details.cx { margin: 4px 0 4px 8px; } details.cx > summary { font-size: 13px; }
p.cell { margin: 10px 0 2px; font-size: 12px; }
nav.toc ol { margin: 4px 0; padding-left: 22px; columns: 2; } nav.toc li { break-inside: avoid; }
.muted { color: var(--muted); }
.replay { font-size: 12px; } .small { font-size: 12px; }
@media (max-width: 640px) {
  body { padding: 12px; }
  h1 { font-size: 19px; }
  nav.toc ol { columns: 1; }
  table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: 100%; }
  table.stack thead { display: none; }
  table.stack tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 8px; }
  table.stack td { border: none; border-top: 1px solid #eaeef2; display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: 8px; text-align: left; }
  table.stack tr td:first-child { border-top: none; font-weight: 600; }
  table.stack td::before { content: attr(data-label); color: var(--muted); font-weight: 400; }
  table.stack td.num { text-align: left; }
}
`;

const cellNum = (n: number | string): HtmlCell => ({ html: e(String(n)), cls: 'num' });

/** The pooled rate of some cells: violations over runs, with its Wilson interval. */
function pooled(cells: readonly ReportCell[]): Interval {
  return interval(cells.reduce((a, c) => a + c.violations, 0), cells.reduce((a, c) => a + c.runs, 0));
}

/** The summary rows: one per family over all domains, what it measures and its rate. */
function summaryTable(r: ReportData): string {
  const families = [...new Set(r.cells.map((c) => c.family))];
  const rows = families.map((family) => {
    const cells = r.cells.filter((c) => c.family === family);
    const forged = cells[0]?.property === 'forgery-rejected';
    const failing = cells.filter((c) => !c.holds).map((c) => c.domain);
    const what = forged ? 'bypass rate' : family === 'benign-stress' ? 'FPR, hard negatives' : 'FPR (the estimate)';
    return [`<a href="#family-${e(family)}">${e(family)}</a>`, e(what), e(pct(pooled(cells))), failing.length === 0 ? { html: 'held', cls: 'ok' } : { html: e(`failed: ${failing.join(', ')}`), cls: 'bad' }];
  });
  return htmlTable(['family', 'rate', 'all domains [95% CI]', 'invariant'], rows);
}

/** Key facts under the summary table: real-trace FPR, attack, findings, gate. */
function summaryFacts(r: ReportData, groups: number, gateResult: GateResult | undefined, baseline: BaselineSection | undefined): string[] {
  const facts: string[] = [];
  const cmp = baseline?.comparison;
  if (cmp) facts.push(`Against the baseline: significantly worse in ${cmp.verdict.worse} and better in ${cmp.verdict.better} of ${cmp.rates.length} rates; ${cmp.counterexamples.new.length} new and ${cmp.counterexamples.fixed.length} fixed counterexample signatures (section below).`);
  else if (baseline?.refused) facts.push(`Not compared with the baseline: the configurations differ (section below).`);
  if (r.fpr.real.length > 0) {
    const k = r.fpr.real.reduce((a, s) => a + s.fpr.k, 0);
    const n = r.fpr.real.reduce((a, s) => a + s.fpr.n, 0);
    facts.push(`FPR on ${plural(n, 'real benign entry', 'real benign entries')} from ${plural(r.fpr.real.length, 'set')} that nobody here wrote: ${pct(interval(k, n))}; ${realismGapLine(r)}.`);
  }
  if (r.attack) {
    const o = r.attack.overall;
    facts.push(`Adaptive attack: ${o.flipped} of ${o.flipped + o.held} rejected bases flipped, attack success rate ${pct(o.asr)}${o.queriesPerFlip ? `, median ${o.queriesPerFlip.median} queries per flip` : ''} (${o.skipped} bases admitted unmutated were skipped).`);
  }
  if (r.timing.queries) facts.push(`${(queryLines(r.timing.queries)[0] ?? '').replace(/^guard queries/, 'Guard queries')}.`);
  const kinds = Object.entries(r.summary.findings ?? {}).map(([k, v]) => `${v} ${k}`).join(', ');
  facts.push(r.counterexamples.length === 0 ? 'No minimal counterexample: no invariant broke.' : `${plural(r.counterexamples.length, 'minimal counterexample')}${kinds ? ` (${kinds})` : ''} in ${plural(groups, 'cause')}, below.`);
  if (gateResult && gateResult.checks.length > 0) {
    const failed = gateResult.checks.filter((g) => !g.pass).length;
    facts.push(`CI gate ${gateResult.pass ? 'passed' : 'FAILED'}: ${failed} of ${gateResult.checks.length} checks failed, judged on the upper bound of each Wilson 95% interval.`);
  }
  return facts;
}

/** The operators of a counterexample: the minimal flip set, else the case's operators (lost-claim markers left out). */
function operatorsOf(x: ReportCounterexample): string[] {
  const ops = x.flip?.operators ?? x.case?.truth?.operators ?? [];
  return ops.filter((o) => !o.startsWith('discarded'));
}

/** The signals that fired, as the signature records them (`s2+s3`, or `-` for none). */
function signalPattern(x: ReportCounterexample): string {
  return x.signature.split('|').at(-1) ?? '-';
}

/**
 * What a counterexample has in common with others, to group them by: the operator group(s)
 * of its rewrite; else, for a rejection (false positive), the layer that rejected and the
 * signals that fired; for an admission (bypass), the signals that fired below the threshold.
 */
export function counterexampleCause(x: ReportCounterexample, operatorGroups: Readonly<Record<string, string>> = {}): string {
  const kind = x.kind ?? x.judgement;
  const ops = operatorsOf(x);
  if (ops.length > 0) {
    const groups = [...new Set(ops.map((o) => operatorGroups[o] ?? o))].sort();
    return `${kind} · ${groups.join(' + ')} ${groups.length === 1 ? 'operators' : 'operators together'}`;
  }
  const signals = signalPattern(x);
  const fired = signals === '-' || signals === '' ? 'no signal fired' : `signals ${signals} fired`;
  if (x.verdict.decision === 'reject') return `${kind} · rejected at ${x.verdict.layer ?? 'an unnamed layer'}, ${fired}`;
  if (x.verdict.decision === 'error') return `${kind} · guard error`;
  return `${kind} · admitted, ${fired}`;
}

/** Counterexample text without its replay line (the page shows the command once, below the text). */
function withoutReplayLine(text: string): string {
  return text.split('\n').filter((l) => !/^\s*replay: /.test(l)).join('\n');
}

function counterexamplesHtml(r: ReportData, grouped: Map<string, ReportCounterexample[]>): string[] {
  const out: string[] = [];
  out.push(`<h2 id="counterexamples">Minimal counterexamples (${r.counterexamples.length})</h2>`);
  if (r.counterexamples.length === 0) {
    out.push('<p>None: no invariant broke.</p>');
    return out;
  }
  out.push('<p class="muted">Grouped by cause: the operator group of the rewrite, else the layer that rejected or the signals that fired. Open a group, then a counterexample, for its entry, ground truth, verdict layer by layer and the command that replays it.</p>');
  for (const [cause, xs] of grouped) {
    const cells = [...new Set(xs.map((x) => `${x.domain}/${x.family}`))];
    out.push(`<details class="group"><summary>${e(cause)} <span class="muted">(${xs.length}; ${e(cells.length <= 3 ? cells.join(', ') : `${cells.length} cells`)})</span></summary>`);
    let lastCell = '';
    for (const x of xs) {
      const cellName = `${x.domain}/${x.family}`;
      if (cells.length > 1 && cellName !== lastCell) out.push(`<p class="muted cell">${e(cellName)}</p>`);
      lastCell = cellName;
      const us = r.timing.counterexampleUs[x.id] ?? 0;
      const text = withoutReplayLine(flipText(x, us, () => formatCounterexample({ ...x, verdict: { ...x.verdict, elapsedUs: us } })));
      const ops = operatorsOf(x);
      const template = x.flip?.original.case.truth.template ?? x.case?.truth?.template ?? '';
      const flaky = x.kind === 'flaky' ? ' <b class="bad">flaky</b>' : '';
      const rep = x.recheck && x.recheck.reproduced < x.recheck.of ? ` · reproduced ${x.recheck.reproduced}/${x.recheck.of}` : '';
      out.push(`<details class="cx" id="cx-${e(x.id)}"><summary><code>${e(x.id)}</code>${cells.length > 1 ? '' : ` · ${e(cellName)}`} · <code>${e(template)}</code>${ops.length > 0 ? ` · ${e(ops.join(', '))}` : ''}${flaky}<span class="muted">${e(rep)}</span></summary>`);
      out.push(`<pre>${e(text)}</pre>`);
      out.push(`<p class="replay">Replay: <code>${e(x.replay)}</code></p></details>`);
    }
    out.push('</details>');
  }
  return out;
}

function cellTable(cells: ReportCell[]): string {
  return htmlTable(
    ['family', 'violations / runs', 'violation rate [95% CI]', 'detection rate [95% CI]', 'errors', 'signals fired', 'held'],
    cells.map((x) => [
      `<span title="${e(x.property)}">${e(x.family)}</span>`,
      cellNum(`${x.violations} / ${x.runs}${x.interrupted ? ' (time limit)' : x.stopped && x.stopped !== 'runs' ? ` (stopped: ${x.stopped})` : ''}`),
      e(pct(x.violationRate)),
      e(x.detectionRate ? pct(x.detectionRate) : '-'),
      cellNum(x.errors),
      e(Object.entries(x.signalFires).map(([k, v]) => `${k}:${v}`).join(' ') || '-'),
      x.holds ? { html: 'yes', cls: 'ok' } : { html: 'no', cls: 'bad' },
    ]),
  );
}

/** Settings rows of the query accounting: the total, each phase, the cost when given. */
function queryRows(q: NonNullable<ReportData['timing']['queries']>): Array<[string, string]> {
  const [head = '', ...rest] = queryLines(q);
  const phases = rest.filter((l) => !l.trimStart().startsWith('cost:')).map((l) => l.trim().replace(/\s+/g, ' '));
  const cost = rest.find((l) => l.trimStart().startsWith('cost:'));
  return [['guard queries', head.replace(/^guard queries: /, '')], ['queries by phase', phases.join('; ')], ...(cost ? [['query cost', cost.trim().replace(/^cost: /, '')] as [string, string]] : [])];
}

export interface RenderHtmlOptions {
  /** The CI gate's result, when thresholds were given. */
  gateResult?: GateResult;
  /** `fuzz --baseline`: the comparison with an earlier report (this run is B), or why there is none. */
  baseline?: BaselineSection;
}

/**
 * Renders the report as one self-contained HTML page, laid out to be read in a minute on a
 * desktop or a 420 px phone screen (tables stack into cards below 640 px; nothing overflows).
 *
 * Sections, in order: the verdict and a summary (one row per family over all domains, the
 * real-trace FPR, the attack success rate, the findings, the gate); a table of contents; the
 * comparison with a baseline when `options.baseline` is given; findings per family; charts
 * (each a `<figure data-chart="<id>">` holding an inline `<svg>`; those without data, or
 * whose data carries no information, are left out and named with the reason); one table of
 * cells per domain; attack mode and coverage; FPR on generated vs real benign traces; gate
 * checks; the minimal counterexamples, collapsed and grouped by cause (operator group, layer
 * or signals), each with its replay command once; the run's settings. Every string from the
 * report is escaped.
 *
 * @returns the HTML text (UTF-8).
 * @throws Error when a chart fails to render (a programming error).
 * @example
 * await writeFile(path.join(outDir, 'report.html'), await renderHtml(report));
 */
export async function renderHtml(r: ReportData, options: RenderHtmlOptions = {}): Promise<string> {
  const c = r.config;
  const charts = await renderCharts(r);
  const dropped = droppedCharts(r);
  const grouped = groupByCause(r);
  const gateShown = options.gateResult && options.gateResult.checks.length > 0 ? options.gateResult : undefined;
  const out: string[] = [];
  out.push('<!doctype html>');
  out.push('<html lang="en"><head><meta charset="utf-8">');
  out.push(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`);
  out.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  out.push(`<title>farma-fuzz report: ${e(c.guard)}</title>`);
  out.push(`<style>${CSS}</style></head><body>`);
  out.push(`<h1>farma-fuzz report: <code>${e(c.guard)}</code></h1>`);
  out.push(...summaryHtml(r, grouped.size, gateShown, options.baseline));
  const domains = [...c.domains, ...new Set(r.cells.map((x) => x.domain).filter((d) => !c.domains.includes(d)))].filter((d) => r.cells.some((x) => x.domain === d));
  out.push(tocHtml(r, { charts: charts.length, domains: domains.length, causes: grouped.size, gate: gateShown !== undefined, baseline: options.baseline }));
  if (options.baseline) {
    const section = baselineHtml(options.baseline, e);
    if (section) out.push(section);
  }
  out.push(...findingsHtml(r));
  out.push(...chartsHtml(charts, dropped, await chartPackages()));
  out.push(...cellsHtml(r, domains));
  const attack = attackHtml(r, e);
  if (attack) out.push(attack);
  out.push(...fprHtml(r));
  if (gateShown) out.push(...gateHtml(gateShown));
  out.push(...counterexamplesHtml(r, grouped));
  if (r.corpus) out.push(`<p>Regression corpus <code>${e(r.corpus.file)}</code>: ${r.corpus.added} added, ${r.corpus.duplicates} already present.</p>`);
  out.push(...settingsHtml(r));
  out.push('</body></html>');
  // Every text in the page (charts included) is free of characters HTML and SVG cannot carry.
  return htmlSafe(`${out.join('\n')}\n`);
}

/** The counterexamples grouped by cause ({@link counterexampleCause}), the largest group first, then by cause. */
function groupByCause(r: ReportData): Map<string, ReportCounterexample[]> {
  const groups = new Map<string, ReportCounterexample[]>();
  for (const x of r.counterexamples) {
    const k = counterexampleCause(x, r.operatorGroups);
    groups.set(k, [...(groups.get(k) ?? []), x]);
  }
  return new Map([...groups.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0])));
}

/** The summary section, first: the verdict, the gate, the table per family and the facts a reader needs in the first minute. */
function summaryHtml(r: ReportData, causes: number, gateShown: GateResult | undefined, baseline: BaselineSection | undefined): string[] {
  const c = r.config;
  const out: string[] = [];
  out.push('<section id="summary">');
  const verdict = r.summary.held ? 'Every invariant held.' : `Invariants FAILED in ${r.summary.failingCells.length} of ${plural(r.cells.length, 'cell')}.`;
  out.push(`<p><span class="verdict ${r.summary.held ? 'ok' : 'bad'}">${e(verdict)}</span> ${plural(r.summary.totalRuns, 'case')}, ${plural(r.summary.violations, 'violation')}, ${plural(r.summary.errors, 'guard error')}. Seed ${e(String(c.seed))}, ${plural(c.runsPerCell, 'run')} per cell, ${e(c.phase)} path.</p>`);
  if (gateShown) out.push(`<p><span class="verdict ${gateShown.pass ? 'ok' : 'bad'}">Gate ${gateShown.pass ? 'passed' : 'FAILED'}</span> <span class="muted">judged on the upper bound of each Wilson 95% interval</span></p>`);
  out.push(summaryTable(r));
  out.push('<ul>' + summaryFacts(r, causes, gateShown, baseline).map((f) => `<li>${e(f)}</li>`).join('') + '</ul>');
  out.push('<p class="muted">For forged families the violation rate is the bypass rate (forged entries admitted); for benign families it is the false-positive rate (benign entries rejected). Brackets hold the Wilson 95% interval. Guard errors are counted apart and never as rejections.</p>');
  out.push('</section>');
  return out;
}

/** The table of contents: the sections the page has, with their counts. */
function tocHtml(r: ReportData, n: { charts: number; domains: number; causes: number; gate: boolean; baseline: BaselineSection | undefined }): string {
  const toc: Array<[string, string]> = [];
  if (n.baseline && (n.baseline.comparison || n.baseline.refused)) toc.push(['baseline', 'Compared with the baseline']);
  toc.push(['findings', 'Findings per family'], ['charts', `Charts (${n.charts})`], ['cells', `Results per domain (${n.domains})`]);
  if (r.attack) toc.push(['attack', 'Adaptive attack']);
  if (r.coverage) toc.push(['coverage', 'Signal and layer coverage']);
  toc.push(['fpr', 'FPR: generated vs real']);
  if (n.gate) toc.push(['gate', 'Gate checks']);
  toc.push(['counterexamples', `Counterexamples (${r.counterexamples.length}, ${plural(n.causes, 'cause')})`], ['settings', 'Run settings']);
  return `<nav class="toc" aria-label="Contents"><h2>Contents</h2><ol>${toc.map(([id, t]) => `<li><a href="#${id}">${e(t)}</a></li>`).join('')}</ol></nav>`;
}

/** Findings per family (the same text as report.md's Findings section), as a plain list. */
function findingsHtml(r: ReportData): string[] {
  const findings = renderFindings(r).filter((l) => l.trim().startsWith('-'));
  const out: string[] = ['<h2 id="findings">Findings per family</h2>'];
  if (findings.length === 0) {
    out.push('<p>No cell ran.</p>');
    return out;
  }
  out.push('<ul>');
  for (const l of findings) {
    const text = l.trim().replace(/^- /, '').replace(/\*\*/g, '').replace(/`/g, '');
    const family = /^([\w-]+):/.exec(text)?.[1];
    out.push(`<li${l.startsWith('  ') ? ' class="muted"' : family ? ` id="family-${e(family)}"` : ''}>${e(text)}</li>`);
  }
  out.push('</ul>');
  return out;
}

/** The charts section: each chart as a figure, the charts left out and why, or why there is none. */
function chartsHtml(charts: Awaited<ReturnType<typeof renderCharts>>, dropped: ReturnType<typeof droppedCharts>, chartLibs: Awaited<ReturnType<typeof chartPackages>>): string[] {
  const out: string[] = ['<h2 id="charts">Charts</h2>'];
  if (!chartLibs.ok) out.push(`<p class="muted">No chart: ${e(chartLibs.hint)}.</p>`);
  else if (charts.length === 0 && dropped.length === 0) out.push('<p class="muted">No chart: the guard reported no forgery score and no signal fired.</p>');
  for (const ch of charts) {
    out.push(`<figure data-chart="${e(ch.id)}">${ch.svg}<figcaption><b>${e(ch.title)}.</b> ${e(ch.caption)}</figcaption></figure>`);
  }
  if (dropped.length > 0) out.push('<p class="muted">Left out, since they would show nothing to tell apart:</p><ul class="muted">' + dropped.map((d) => `<li data-dropped-chart="${e(d.id)}">${e(d.title)}: ${e(d.reason)}.</li>`).join('') + '</ul>');
  return out;
}

/** Results per domain: one cell table each, and the failing templates of each cell (collapsed). */
function cellsHtml(r: ReportData, domains: readonly string[]): string[] {
  const out: string[] = ['<h2 id="cells">Results per domain</h2>'];
  const failingTemplates: string[] = [];
  for (const domain of domains) {
    const cells = r.cells.filter((x) => x.domain === domain);
    out.push(`<h3>Domain: ${e(domain)}</h3>`);
    out.push(cellTable(cells));
    for (const x of cells.filter((y) => y.violations > 0)) {
      const rows = Object.entries(x.breakdown.template).filter(([, t]) => t.violations > 0);
      if (rows.length > 0) failingTemplates.push(`<p><b>${e(`${domain}/${x.family}`)}</b>: ${rows.map(([k, t]) => `<code>${e(k)}</code> ${t.violations}/${t.runs}`).join(', ')}</p>`);
    }
  }
  if (failingTemplates.length > 0) out.push(`<details><summary>Failing templates per cell (${failingTemplates.length})</summary>${failingTemplates.join('')}</details>`);
  return out;
}

/** FPR on the generated benign mix, the hard negatives and each real set, the realism gap, and the rejected real entries (collapsed). */
function fprHtml(r: ReportData): string[] {
  const out: string[] = ['<h2 id="fpr">False-positive rate: generated vs real benign traces</h2>'];
  const setCell = (name: string, kind: string): string => `${e(name)}<br><span class="muted small">${e(kind)}</span>`;
  out.push(
    htmlTable(
      ['set', 'FPR [95% CI]', 'n', 'errors'],
      [
        ...r.fpr.generated.map((g) => [setCell(g.domain, 'generated benign mix: the estimate'), e(pct(g.fpr)), cellNum(g.fpr.n), cellNum(g.errors)]),
        ...(r.fpr.stress ?? []).map((g) => [setCell(g.domain, 'hard negatives (benign-stress), not the estimate'), e(pct(g.fpr)), cellNum(g.fpr.n), cellNum(g.errors)]),
        ...r.fpr.real.map((s) => [setCell(s.name, `real: ${s.source}`), e(pct(s.fpr)), cellNum(s.fpr.n), cellNum(s.errors)]),
      ],
    ),
  );
  for (const s of r.fpr.real.filter((x) => x.unread)) {
    const u = s.unread as NonNullable<typeof s.unread>;
    out.push(`<p class="verdict bad">${e(`${unreadLinesHead(s.name, u.lines)} (unreadable, empty content, or an id already taken). They are not in its FPR (n = ${s.fpr.n}); a --max-fpr gate counts them against the guard, since their verdict is unknown.`)}</p><ul>${u.first.map((x) => `<li><code>${e(x)}</code></li>`).join('')}</ul>`);
  }
  if (r.fpr.real.length > 0) out.push(`<p>${e(realismGapLine(r))}.</p>`);
  const rejectedReal = r.fpr.real.flatMap((s) => s.rejected.map((x) => ({ set: s.name, ...x })));
  if (rejectedReal.length > 0) {
    out.push(`<details><summary>Rejected real benign entries (${rejectedReal.length})</summary>`);
    out.push(htmlTable(['set', 'id', 'layer', 'signals', 'content'], rejectedReal.map((x) => [e(x.set), `<code>${e(x.id)}</code>`, e(x.layer ?? '?'), e(x.signals), `<pre>${e(x.content.slice(0, 2000))}</pre>`]), 'stack'));
    out.push('</details>');
  }
  return out;
}

/** The gate's checks: observed rate with its interval, the limit, pass or FAIL. */
function gateHtml(gateShown: GateResult): string[] {
  return [
    '<h2 id="gate">Gate checks</h2>',
    htmlTable(['check', 'observed [95% CI]', 'limit', 'result'], gateShown.checks.map((g) => [e(g.name), e(`${pct(g.observed)} (${g.observed.k}/${g.observed.n}${g.counted ? `: ${g.counted}` : ''})`), e(`${(g.limit * 100).toFixed(1)}%`), g.pass ? { html: 'pass', cls: 'ok' } : { html: `<span title="${e(formatGateCheck(g))}">FAIL</span>`, cls: 'bad' }])),
  ];
}

/** The run's settings: guard and options, seed, sizes, versions, throughput, queries, date. */
function settingsHtml(r: ReportData): string[] {
  const c = r.config;
  const settings: Array<[string, string]> = [
    ['guard', `${c.guard} (config hash ${c.guardConfigHash})`],
    ...(c.guardOptions && Object.keys(c.guardOptions).length > 0 ? [['guard options', JSON.stringify(c.guardOptions)] as [string, string]] : []),
    ['seed', String(c.seed)],
    ['runs per cell', String(c.runsPerCell)],
    ['phase', c.phase],
    ['domains', c.domains.join(', ')],
    ['families', c.families.join(', ')],
    ['max failures', String(c.maxFailures)],
    ['versions', Object.entries(c.versions).map(([k, v]) => `${k} ${v}`).join(', ')],
    ['throughput', `${r.timing.casesPerSecond.toFixed(0)} cases/s over ${(r.timing.elapsedMs / 1000).toFixed(1)} s`],
    ...(r.timing.queries ? queryRows(r.timing.queries) : []),
    ['generated', r.generatedAt],
  ];
  return ['<h2 id="settings">Run settings</h2>', htmlTable(['setting', 'value'], settings.map(([k, v]) => [e(k), e(v)]), 'settings')];
}
