/**
 * GitHub Actions job summary: a short markdown digest of a run appended to the file named
 * by `$GITHUB_STEP_SUMMARY` (GitHub docs, "Adding a job summary"). Outside Actions, where
 * the variable is unset, nothing is written.
 */
import { appendFileSync } from 'node:fs';
import { formatGateCheck, type GateResult } from './gate.js';
import { pct, exportRejectionNote } from './percent.js';
import type { ReportData } from './model.js';
import { plural } from '../domain/plural.js';

/** GitHub refuses job summaries above 1 MiB; stay well below it. */
const MAX_CHARS = 900_000;
/** Counterexamples shown in full; the rest are listed by replay command only. */
const MAX_SHOWN = 5;
const MAX_CONTENT = 600;

/** A code fence longer than any backtick run in `text`, so entry text cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(longest + 1);
}

/** Table cell text: no pipes or newlines, and no HTML (GitHub renders some). */
function cell(text: string): string {
  return text.replace(/[|\\]/g, (c) => `\\${c}`).replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c] ?? c).replace(/\s+/g, ' ');
}

/**
 * The job-summary markdown: verdict line, the gate line ("no gate set" when the report has
 * none), the `closing` lines that say what decided the exit code, one table row per cell, gate checks when given,
 * and the first few minimal counterexamples with their replay commands. Entry text sits in
 * code fences it cannot break out of. At most about 900,000 characters.
 */
export function renderStepSummary(r: ReportData, gateResult?: GateResult, closing: readonly string[] = []): string {
  const out: string[] = [];
  const verdict = r.summary.held ? '✅ every invariant held' : `❌ invariants failed in ${plural(r.summary.failingCells.length, 'cell')}`;
  out.push(`### farma-fuzz · ${cell(r.config.guard)} · seed ${r.config.seed}`);
  out.push('');
  const exportNote = exportRejectionNote(r);
  out.push(`${verdict}${exportNote === undefined ? '' : `, ${cell(exportNote)}`}: ${plural(r.summary.totalRuns, 'case')}, ${plural(r.summary.violations, 'violation')}, ${plural(r.summary.errors, 'guard error')}.`);
  if (gateResult && (r.gate !== undefined || gateResult.checks.length > 0)) out.push(`Gate: ${gateResult.pass ? '✅ passed' : '❌ failed'} (${gateResult.checks.filter((c) => !c.pass).length} of ${gateResult.checks.length} checks above their limit).`);
  else out.push('Gate: no gate set (the exit code follows the invariants).');
  for (const line of closing) out.push('', cell(line));
  out.push('');
  out.push('| domain | family | property | runs | violation rate [95% CI] | errors | held |');
  out.push('| --- | --- | --- | ---: | --- | ---: | --- |');
  for (const c of r.cells) {
    out.push(`| ${cell(c.domain)} | ${cell(c.family)} | ${c.property} | ${c.runs} | ${pct(c.violationRate)} | ${c.errors} | ${c.holds ? 'yes' : '**no**'} |`);
  }
  if (r.fpr.real.length > 0) {
    out.push('');
    out.push('| real benign set | FPR [95% CI] | n |');
    out.push('| --- | --- | ---: |');
    for (const s of r.fpr.real) out.push(`| ${cell(s.name)} | ${pct(s.fpr)} | ${s.fpr.n} |`);
  }
  if (gateResult && gateResult.checks.length > 0) {
    out.push('');
    out.push('Gate checks (judged on the upper bound of the Wilson 95% interval):');
    out.push('');
    for (const c of gateResult.checks) out.push(`- ${c.pass ? '✅' : '❌'} ${cell(formatGateCheck(c))}`);
  }
  if (r.counterexamples.length > 0) {
    out.push('');
    out.push(`#### Minimal counterexamples (${r.counterexamples.length})`);
    for (const [i, x] of r.counterexamples.entries()) {
      out.push('');
      if (i >= MAX_SHOWN) {
        out.push(`- ${cell(x.domain)}/${cell(x.family)} \`${x.id}\`: replay with the command in report.md`);
        continue;
      }
      const content = x.case.entry.content.length > MAX_CONTENT ? `${x.case.entry.content.slice(0, MAX_CONTENT)}… (${x.case.entry.content.length - MAX_CONTENT} more characters)` : x.case.entry.content;
      const f = fence(content);
      out.push(`**${x.property} · ${cell(x.domain)}/${cell(x.family)}** · ${x.judgement} · id \`${x.id}\``);
      out.push('');
      out.push(`${f}text`);
      out.push(content);
      out.push(f);
      const rf = fence(x.replay);
      out.push(`${rf}sh`);
      out.push(x.replay);
      out.push(rf);
    }
  }
  out.push('');
  const text = out.join('\n');
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n\n(summary cut; see report.md)\n` : text;
}

/**
 * Appends {@link renderStepSummary} to the file named by `env.GITHUB_STEP_SUMMARY`.
 * @returns the file written, or `undefined` when the variable is unset or empty (no-op).
 * @throws the `fs` error when the file cannot be appended to.
 * @example
 * writeStepSummary(report); // inside GitHub Actions: the summary shows on the run page
 */
export function writeStepSummary(r: ReportData, env: NodeJS.ProcessEnv = process.env, gateResult?: GateResult, closing: readonly string[] = []): string | undefined {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return undefined;
  appendFileSync(file, renderStepSummary(r, gateResult, closing), 'utf8');
  return file;
}
