/**
 * The console summary of a `fuzz` or `merge-reports` run: the minimal counterexamples first
 * (a flip of each domain before the rest), then the table of cells, the real benign sets, the
 * attack and coverage lines, warnings and where the report and corpus went. Plain text.
 */
import { queryLines } from './queries.js';
import path from 'node:path';
import { attackSummaryLines } from './adaptive.js';
import { flipText } from './attack-html.js';
import { coverageLines } from './coverage.js';
import { formatCounterexample } from './format-verdict.js';
import { formatGateCheck } from './gate.js';
import { pct, realismGapLine } from './markdown.js';
import { exportRejectionNote } from './percent.js';
import { interval, type ReportData } from './model.js';
import { plural } from '../domain/plural.js';

/** What the summary needs of a finished run: its report, the report folder, and the warnings of the run. */
export interface FuzzRunSummary {
  report: ReportData;
  reportDir: string;
  warnings: readonly string[];
}

/** ` (2 flaky, 1 crashing the guard)` for a list of findings, or `` when none is flaky or a crash. */
export function findingNote(cxs: ReadonlyArray<{ kind?: string }>): string {
  const flaky = cxs.filter((x) => x.kind === 'flaky').length;
  const crashes = cxs.filter((x) => x.kind === 'crash').length;
  const parts = [...(flaky > 0 ? [`${flaky} flaky`] : []), ...(crashes > 0 ? [`${crashes} crashing the guard`] : [])];
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** The console summary printed after a run: counterexamples first, the table last (where the eye lands). */
export function summaryText(r: FuzzRunSummary, options: { maxCounterexamples?: number; extra?: string[] } = {}): string {
  const rep = r.report;
  const lines: string[] = [];
  // One flip per domain first (the adaptive attack's original beside its rewrite), then the rest in report order.
  const firstFlips = rep.config.domains.flatMap((d) => rep.counterexamples.find((cx) => cx.flip && cx.domain === d) ?? []);
  const ordered = [...firstFlips, ...rep.counterexamples.filter((cx) => !firstFlips.includes(cx))];
  const shown = ordered.slice(0, options.maxCounterexamples ?? ordered.length);
  if (shown.length > 0) {
    lines.push(`Minimal counterexamples (${rep.counterexamples.length}${shown.length < rep.counterexamples.length ? `, first ${shown.length} shown; all are in report.md` : ''}):`);
    for (const cx of shown) {
      lines.push('');
      const us = rep.timing.counterexampleUs[cx.id] ?? 0;
      lines.push(flipText(cx, us, () => formatCounterexample({ ...cx, verdict: { ...cx.verdict, elapsedUs: us } })));
    }
    lines.push('');
  }
  lines.push(`farma-fuzz · guard ${rep.config.guard} · seed ${rep.config.seed} · ${plural(rep.summary.totalRuns, 'case')} in ${(rep.timing.elapsedMs / 1000).toFixed(1)} s (${rep.timing.casesPerSecond.toFixed(0)} cases/s)`);
  if (rep.timing.queries) lines.push(...queryLines(rep.timing.queries));
  for (const domain of rep.config.domains) {
    lines.push('');
    lines.push(`  ${domain}`);
    for (const c of rep.cells.filter((x) => x.domain === domain)) {
      const label = c.property === 'benign-admitted' ? 'FPR' : 'bypass';
      const mine = rep.counterexamples.filter((x) => c.counterexamples.includes(x.id));
      const cx = c.counterexamples.length > 0 ? `  (${c.counterexamples.length} minimal counterexample${c.counterexamples.length > 1 ? 's' : ''}${findingNote(mine).replace(/^ \((.*)\)$/, ', $1')})` : '';
      lines.push(
        `    ${c.holds ? '✓' : '✗'} ${c.family.padEnd(14)} ${c.property.padEnd(17)} ${String(c.violations).padStart(5)}/${String(c.runs).padEnd(6)} ${label} ${pct(c.violationRate)}${c.errors > 0 ? `  errors ${pct(c.errorRate)}` : ''}${cx}`,
      );
    }
  }
  if (rep.fpr.real.length > 0) {
    lines.push('');
    lines.push('  real benign traces (FPR)');
    for (const s of rep.fpr.real) {
      const errs = s.errors > 0 ? `  errors ${s.errors}/${s.fpr.n} ${pct(interval(s.errors, s.fpr.n))}` : '';
      const unread = s.unread ? `  ${s.unread.lines} unread line${s.unread.lines === 1 ? '' : 's'} (not in the FPR; the gate counts them against the guard)` : '';
      lines.push(`    ${s.name.padEnd(20)} ${String(s.fpr.k).padStart(5)}/${String(s.fpr.n).padEnd(6)} FPR ${pct(s.fpr)}${errs}${unread}`);
    }
    lines.push(`    ${realismGapLine(rep)}`);
    if (rep.fpr.loso && rep.fpr.loso.length > 0) lines.push(`    leave-one-source-out gaps: ${rep.fpr.loso.map((l) => `${l.leftOut} ${l.gap === undefined ? 'n/a' : `${(l.gap * 100).toFixed(2)} pp`}`).join(', ')}`);
  }
  if (rep.attack) lines.push('', ...attackSummaryLines(rep.attack));
  if (rep.coverage) lines.push('', ...coverageLines(rep.coverage));
  lines.push('');
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  if (rep.corpus) lines.push(`corpus: ${rep.corpus.file} (+${rep.corpus.added} new, ${rep.corpus.duplicates} already known)`);
  lines.push(`report: ${path.join(r.reportDir, 'report.md')} and report.json`);
  lines.push(...(options.extra ?? []));
  if (rep.gate) {
    lines.push(`CI gate (Wilson 95% upper bounds): ${rep.gate.pass ? 'PASS' : 'FAIL'}`);
    for (const c of rep.gate.checks.filter((x) => !x.pass)) lines.push(`  ${formatGateCheck(c)}`);
  }
  const f = rep.summary.findings ?? {};
  if (rep.counterexamples.length > 0) {
    lines.push(`findings: ${['bypass', 'false-positive', 'flaky', 'crash', 'guard-error'].map((k) => `${f[k] ?? 0} ${k}`).join(', ')}${(f.flaky ?? 0) > 0 ? ' (flaky: did not reproduce on every re-check; not clean findings)' : ''}`);
  }
  const exportNote = exportRejectionNote(rep);
  const result = rep.summary.held ? 'RESULT: every invariant held' : `RESULT: invariants FAILED in ${rep.summary.failingCells.join(', ')}`;
  lines.push(exportNote === undefined ? `${result}.` : `${result}, ${exportNote}.`);
  return lines.join('\n');
}
