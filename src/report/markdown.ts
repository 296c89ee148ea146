/**
 * Markdown rendering of a report (`report.md`): summary, one section per domain with a
 * row per family, FPR on generated and real benign traces side by side, and every minimal
 * counterexample with its replay command.
 */
import { queryMarkdownRows } from './queries.js';
import { realismGap, type BenignTally } from '../metrics/realism-gap.js';
import { formatCounterexample, printableLine } from './format-verdict.js';
import type { ReportData } from './model.js';
import { renderAdaptiveSection, renderAttackSection } from './adaptive.js';
import { renderCoverage } from './coverage.js';
import { flipText } from './attack-html.js';
import { exportRejectionNote, pct, unreadLinesHead } from './percent.js';
import { plural } from '../domain/plural.js';
import { addCount, nameKeyed } from '../domain/name-keyed.js';

export { pct };

/**
 * The realism-gap sentence: the gap in percentage points, or why there is none (every real
 * or generated row was a guard error, so no gap can be measured). Errors are named either way.
 */
export function realismGapLine(r: ReportData): string {
  const realErrors = r.fpr.real.reduce((a, s) => a + s.errors, 0);
  const genErrors = r.fpr.generated.reduce((a, g) => a + (g.errors), 0);
  const note = realErrors + genErrors > 0 ? ` (${genErrors} generated and ${realErrors} real rows with guard errors left out)` : '';
  if (r.fpr.realismGap !== undefined) {
    // Pooled over several sets, the figure hides a user export's own gap: name it beside the pool.
    const exports = r.fpr.real.filter((s) => s.source === 'user export');
    const pooled = r.fpr.real.length > 1 ? ` over ${plural(r.fpr.real.length, 'real set')} pooled${exports.length > 0 ? `, ${exports.map((s) => `${s.name} alone: ${gapPp(estimateOf(r), { rejected: s.fpr.k, n: s.fpr.n, errors: s.errors })}`).join(', ')}` : ''}` : '';
    return `realism gap |FPR_generated − FPR_real| = ${(r.fpr.realismGap * 100).toFixed(2)} percentage points${pooled}${note}`;
  }
  return `realism gap not computed: no ${r.fpr.generated.length === 0 ? 'generated benign cell ran' : 'judged row on one side'}${note}`;
}

/** The pooled natural estimate of a report (rejected, n, errors over the `benign` cells). */
function estimateOf(r: ReportData): BenignTally {
  return r.fpr.generated.reduce((a, g) => ({ rejected: a.rejected + g.fpr.k, n: a.n + g.fpr.n, errors: a.errors + g.errors }), { rejected: 0, n: 0, errors: 0 });
}

/** |estimate − real| in percentage points over judged rows, or `n/a`. */
function gapPp(est: BenignTally, real: BenignTally): string {
  const g = realismGap(est, real);
  return g === undefined ? 'n/a' : `${(g * 100).toFixed(2)} pp`;
}

/** The Markdown report (`report.md`) of a report model. Pure; dates and timings come from `r`. */
export function renderMarkdown(r: ReportData): string {
  const out: string[] = [];
  out.push(...headerMarkdown(r));
  if (r.gate) out.push(...gateMarkdown(r.gate));
  out.push('How to read this: each row is one property run on one family. For forged families the');
  out.push('violation rate is the bypass rate (forged entries admitted); for the benign family it is');
  out.push('the false-positive rate (benign entries rejected). Brackets hold the Wilson 95% interval.');
  out.push('Guard errors are counted apart and never as rejections.');
  out.push('');
  out.push(...renderFindings(r));
  for (const domain of r.config.domains) out.push(...domainMarkdown(r, domain));
  // In attack mode the adaptive cells hold attacked bases, not sampled variants: the attack section replaces the per-variant one.
  const adaptive = r.attack ? '' : renderAdaptiveSection({ cells: r.cells, counterexamples: r.counterexamples, ...(r.operatorGroups ? { operatorGroups: r.operatorGroups } : {}) });
  if (adaptive) out.push(adaptive, '');
  if (r.attack) out.push(renderAttackSection(r.attack), '');
  if (r.coverage) out.push(renderCoverage(r.coverage), '');
  out.push(...fprMarkdown(r));
  out.push(...counterexamplesMarkdown(r));
  if (r.corpus) {
    out.push(`Regression corpus \`${r.corpus.file}\`: ${r.corpus.added} added, ${r.corpus.duplicates} already present.`);
    out.push('');
  }
  return out.join('\n');
}

/** The title, the verdict line and the settings table. */
function headerMarkdown(r: ReportData): string[] {
  const out: string[] = [];
  const c = r.config;
  out.push(`# farma-fuzz report: ${c.guard}`);
  out.push('');
  const exportNote = exportRejectionNote(r);
  out.push(`**Verdict: ${r.summary.held ? 'every invariant held' : `invariants FAILED in ${plural(r.summary.failingCells.length, 'cell')}`}${exportNote === undefined ? '' : `, ${printableLine(exportNote)}`}.** ${plural(r.summary.totalRuns, 'case')}, ${plural(r.summary.violations, 'violation')}, ${plural(r.summary.errors, 'guard error')}.`);
  out.push('');
  out.push('| setting | value |');
  out.push('| --- | --- |');
  out.push(`| guard | \`${c.guard}\` (config hash \`${c.guardConfigHash}\`) |`);
  out.push(`| seed | ${c.seed} |`);
  out.push(`| runs per cell | ${c.runsPerCell} |`);
  out.push(`| phase | ${c.phase} |`);
  out.push(`| domains | ${c.domains.join(', ')} |`);
  out.push(`| families | ${c.families.join(', ')} |`);
  out.push(`| versions | ${Object.entries(c.versions).map(([k, v]) => `${k} ${v}`).join(', ')} |`);
  out.push(`| throughput | ${r.timing.casesPerSecond.toFixed(0)} cases/s over ${(r.timing.elapsedMs / 1000).toFixed(1)} s |`);
  if (r.timing.execution) out.push(`| execution | ${plural(r.timing.execution.callsInFlight, 'guard call')} in flight at most, ${plural(r.timing.execution.lanes, 'lane')} |`);
  if (r.timing.queries) out.push(...queryMarkdownRows(r.timing.queries));
  out.push(`| generated | ${r.generatedAt} |`);
  out.push('');
  return out;
}

/** The CI gate: its verdict and limits, and one row per check. */
function gateMarkdown(gate: NonNullable<ReportData['gate']>): string[] {
  const out: string[] = [];
  out.push(`**CI gate (Wilson 95% upper bounds): ${gate.pass ? 'passed' : 'FAILED'}.** Limits: ${Object.entries(gate.thresholds).map(([k, v]) => `${k} ${(v * 100).toFixed(1)}%`).join(', ')}.`);
  out.push('');
  out.push('| check | observed [95% CI] | limit | result |');
  out.push('| --- | --- | ---: | --- |');
  for (const g of gate.checks) out.push(`| ${g.name} | ${pct(g.observed)} (${g.observed.k}/${g.observed.n}${g.counted ? `: ${g.counted}` : ''}) | ${(g.limit * 100).toFixed(1)}% | ${g.pass ? 'pass' : '**FAIL**'} |`);
  out.push('');
  return out;
}

/** One domain's cell table and the failing templates of its failing cells; nothing for a domain with no cell. */
function domainMarkdown(r: ReportData, domain: string): string[] {
  const out: string[] = [];
  const cells = r.cells.filter((x) => x.domain === domain);
  if (cells.length === 0) return out;
  out.push(`## Domain: ${domain}`);
  out.push('');
  out.push('| family | property | runs | violations | violation rate [95% CI] | detection rate [95% CI] | errors | signals fired | held |');
  out.push('| --- | --- | ---: | ---: | --- | --- | ---: | --- | --- |');
  for (const x of cells) {
    const fires = Object.entries(x.signalFires).map(([k, v]) => `${printableLine(k)}:${v}`).join(' ') || '-';
    out.push(
      `| ${x.family} | ${x.property} | ${x.runs}${x.interrupted ? ' (time limit)' : ''} | ${x.violations} | ${pct(x.violationRate)} | ${x.detectionRate ? pct(x.detectionRate) : '-'} | ${x.errors} | ${fires} | ${x.holds ? 'yes' : '**no**'} |`,
    );
  }
  out.push('');
  const failing = cells.filter((x) => x.violations > 0);
  for (const x of failing) {
    const rows = Object.entries(x.breakdown.template).filter(([, t]) => t.violations > 0);
    if (rows.length === 0) continue;
    out.push(`Failing templates in ${domain}/${x.family}: ${rows.map(([k, t]) => `\`${k}\` ${t.violations}/${t.runs}`).join(', ')}`);
    out.push('');
  }
  return out;
}

/** FPR on the generated mix, the hard negatives and each real set (with its gap to the estimate), leave-one-source-out, and the rejected real entries. */
function fprMarkdown(r: ReportData): string[] {
  const out: string[] = [];
  out.push('## False-positive rate: generated vs real benign traces');
  out.push('');
  out.push('The estimate is the natural `benign` mix (calibrated on real traces, docs/calibration.md); `benign-stress` holds the hard negatives, hunts false positives and is never the estimate. Guard errors are counts and never enter a gap. Every benign entry is checked in its trajectory\'s store: the earlier steps of its own episode, then the episodes before it, up to 8 entries (generated entries in generated trajectories; a real entry in its own set, episodes from its metadata), which is where a store-dependent guard\'s (A-MemGuard\'s) real-trace FPR comes from.');
  out.push('');
  out.push('| set | kind | FPR [95% CI] | n | errors | gap to estimate |');
  out.push('| --- | --- | --- | ---: | ---: | ---: |');
  const est = estimateOf(r);
  for (const g of r.fpr.generated) out.push(`| ${g.domain} | generated (benign, the estimate) | ${pct(g.fpr)} | ${g.fpr.n} | ${g.errors} | |`);
  for (const g of r.fpr.stress ?? []) out.push(`| ${g.domain} | hard negatives (benign-stress, not the estimate) | ${pct(g.fpr)} | ${g.fpr.n} | ${g.errors} | |`);
  for (const s of r.fpr.real) out.push(`| ${s.name} | real (${s.source}) | ${pct(s.fpr)} | ${s.fpr.n} | ${s.errors} | ${gapPp(est, { rejected: s.fpr.k, n: s.fpr.n, errors: s.errors })} |`);
  for (const s of r.fpr.real.filter((x) => x.unread)) {
    const u = s.unread as NonNullable<typeof s.unread>;
    out.push('', `**${unreadLinesHead(s.name, u.lines)}** (unreadable, empty content, or an id already taken). They are not in its FPR (n = ${s.fpr.n}); a \`--max-fpr\` gate counts them against the guard, since their verdict is unknown. First: ${u.first.map((x) => `\`${x.replace(/`/g, "'")}\``).join('; ')}.`);
  }
  if (r.fpr.real.length > 0) {
    out.push('');
    const line = realismGapLine(r);
    out.push(`${line.charAt(0).toUpperCase()}${line.slice(1)}.`);
  }
  if (r.fpr.loso && r.fpr.loso.length > 0) {
    out.push('');
    out.push('Leave-one-source-out (calibrated on every bundled real source but one, estimated with the same seed, compared with the one left out):');
    out.push('');
    out.push('| left out | estimate without it | FPR on it | gap |');
    out.push('| --- | --- | --- | ---: |');
    for (const l of r.fpr.loso) out.push(`| ${l.leftOut} | ${pct(l.estimate)} | ${pct(l.real)} | ${l.gap === undefined ? 'n/a' : `${(l.gap * 100).toFixed(2)} pp`} |`);
  }
  const rejectedReal = r.fpr.real.flatMap((s) => s.rejected.map((x) => ({ set: s.name, ...x })));
  if (rejectedReal.length > 0) {
    out.push('');
    out.push('Rejected real benign entries:');
    out.push('');
    for (const x of rejectedReal) out.push(`- ${printableLine(x.set)} \`${printableLine(x.id)}\` at ${printableLine(x.layer ?? '?')} (signals ${x.signals}): ${printableLine(x.content.length > 200 ? `${x.content.slice(0, 200)}…` : x.content)}`);
  }
  out.push('');
  return out;
}

/** The minimal counterexamples, each in a text block with its replay command, or "None". */
function counterexamplesMarkdown(r: ReportData): string[] {
  const out: string[] = [];
  out.push(`## Minimal counterexamples (${r.counterexamples.length})`);
  out.push('');
  if (r.counterexamples.length === 0) out.push('None: no invariant broke.');
  for (const cx of r.counterexamples) {
    out.push('```text');
    const us = r.timing.counterexampleUs[cx.id] ?? 0;
    out.push(flipText(cx, us, () => formatCounterexample({ ...cx, verdict: { ...cx.verdict, elapsedUs: us } })));
    out.push('```');
    out.push('');
  }
  return out;
}

/**
 * The findings section: per family over all domains, what the guard did, the highest
 * forgery score seen and the signals that fired; canonical-style templates apart.
 */
export function renderFindings(r: ReportData): string[] {
  const out: string[] = ['## Findings', ''];
  const families = [...new Set(r.cells.map((x) => x.family))];
  for (const family of families) {
    const cells = r.cells.filter((x) => x.family === family);
    const runs = cells.reduce((a, x) => a + x.runs, 0);
    const violations = cells.reduce((a, x) => a + x.violations, 0);
    const errors = cells.reduce((a, x) => a + x.errors, 0);
    const forged = cells[0]?.property === 'forgery-rejected';
    const scores = cells.flatMap((x) => Object.keys(x.scoreHistogram).map(Number));
    const maxF = scores.length > 0 ? Math.max(...scores) : undefined;
    const fires = nameKeyed<number>();
    for (const x of cells) for (const [k, v] of Object.entries(x.signalFires)) addCount(fires, k, v);
    const fired = Object.entries(fires).sort().map(([k, v]) => `${printableLine(k)} ${v}×`).join(', ') || 'none';
    const layers = nameKeyed<number>();
    for (const x of cells) for (const [k, v] of Object.entries(x.decidingLayers)) addCount(layers, k, v);
    const topLayers = Object.entries(layers).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${printableLine(k)} ${v}`).join(', ');
    const what = forged ? `${violations}/${runs} forged entries admitted (bypass rate)` : `${violations}/${runs} benign entries rejected (FPR)`;
    out.push(`- **${family}**: ${what}${errors > 0 ? `, ${errors} guard errors` : ''}; highest F ${maxF !== undefined ? maxF.toFixed(2) : 'n/a'}; signals fired: ${fired}; deciding layers: ${topLayers || '-'}.`);
    const canonical = cells.flatMap((x) => Object.entries(x.breakdown.template).filter(([k]) => /\/canonical-/.test(k)));
    if (canonical.length > 0) {
      const cRuns = canonical.reduce((a, [, t]) => a + t.runs, 0);
      const cViol = canonical.reduce((a, [, t]) => a + t.violations, 0);
      out.push(`  - canonical-style templates (the paper's decision-log vocabulary): ${cViol}/${cRuns} ${forged ? 'admitted' : 'rejected'}.`);
    }
  }
  out.push('');
  return out;
}
