/**
 * The end of a `fuzz` or `merge-reports` run: the HTML report and JUnit XML when asked, the
 * GitHub step summary, the console summary, and the closing lines that say what decided the
 * exit code (`exit-verdict.ts`). Shared so a merged campaign ends exactly as an unsharded one.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../corpus/atomic.js';
import { redactSecrets } from '../llm/config.js';
import { gate, type GateThresholds } from '../report/gate.js';
import { writeStepSummary } from '../report/step-summary.js';
import { summaryText } from '../report/fuzz-summary.js';
import { exitVerdict, type ExitVerdict } from './exit-verdict.js';
import { paint } from './colour.js';
import type { StopSignal } from './exit-codes.js';
import type { FuzzResult } from '../campaign/fuzz.js';
import type { ReportData } from '../report/model.js';
import type { BaselineSection } from '../report/compare-html.js';

export interface RunOutputOptions {
  /** `--html [file]`: true or undefined for `report.html` in the report folder, a path, or false for none. */
  html?: string | boolean;
  /** `--junit <file>`. */
  junit?: string;
  thresholds: GateThresholds;
  /** Which gate limits a config file set (`ExitVerdictOptions.gateFrom`). */
  gateFrom?: Partial<Record<keyof GateThresholds, string>>;
  requireInvariants: boolean;
  /** Ctrl-C stopped the run: the verdict is 130 (interrupted), with what had failed before the stop. */
  interrupted?: boolean;
  /** The signal that stopped it (default SIGINT; 143 for SIGTERM, 129 for SIGHUP). */
  signal?: StopSignal;
  /** Lines printed after the report paths (e.g. where a shard's blob went). */
  notes?: string[];
  /** `fuzz --baseline`: the earlier report to compare this run with (this run is B). */
  baseline?: { report: ReportData; file: string; allowConfigDiff: boolean };
  /** `fuzz --shard i/n`: a finished shard exits 0 and leaves the verdict to merge-reports (`exit-verdict.ts`). */
  shard?: { index: number; total: number };
  /** `--json`: stdout gets one JSON document (report.json plus `exit`, `reportDir`), the human summary goes to stderr. */
  json?: boolean;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * The run's real duration: wall time since the process started (`performance.now()`), and
 * every phase of it (`start-up` is loading, the config and the guard's start), so the parts add
 * up to the total (`the rest` is what no phase covers: building the cells, the lines printed).
 * @param outputsMs the time taken by the HTML and JUnit outputs, written after report.json.
 */
/**
 * `p` as the closing lines show it: relative to the working folder when it lies inside it,
 * else absolute (`--out /tmp/run` read `../../../tmp/run/report.md` from a project folder).
 */
export function shownPath(p: string, cwd: string = process.cwd()): string {
  const rel = path.relative(cwd, p);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? path.resolve(cwd, p) : rel;
}

function timeLine(phases: ReadonlyArray<{ phase: string; elapsedMs: number }>, outputsMs: number): string {
  const total = performance.now();
  const parts = [...phases, ...(outputsMs >= 50 ? [{ phase: 'html and junit', elapsedMs: outputsMs }] : [])];
  const rest = total - parts.reduce((a, p) => a + p.elapsedMs, 0);
  return `time: ${seconds(total)} in all since farma-fuzz started (${[...parts, { phase: 'the rest', elapsedMs: Math.max(0, rest) }].map((p) => `${p.phase} ${seconds(p.elapsedMs)}`).join(', ')})`;
}

/** The comparison with the baseline for report.html, and the console line that sums it up. */
async function baselineOutputs(report: ReportData, b: NonNullable<RunOutputOptions['baseline']>): Promise<{ section: BaselineSection; line: string }> {
  const { compareReports, configDifferences, describeDifferences } = await import('../report/compare.js');
  const differences = configDifferences(b.report, report);
  if (differences.length > 0 && !b.allowConfigDiff) {
    return { section: { file: b.file, refused: differences }, line: `baseline ${b.file}: not compared, the configurations differ (${describeDifferences(differences, 'the baseline', 'this run')}); add --allow-config-diff to compare anyway` };
  }
  const c = compareReports(b.report, report, { fileA: b.file, fileB: 'this run' });
  const v = c.verdict;
  const cx = c.counterexamples;
  return {
    section: { file: b.file, comparison: c },
    line: `baseline ${b.file}: ${v.regressed ? `significantly worse in ${v.worse}` : 'not significantly worse in any'} of ${v.tested} rates tested, better in ${v.better}${v.missingInB.length > 0 ? ` (${v.missingInB.length} of the baseline's rates have no result in this run)` : ''} (Fisher's exact test, Holm-adjusted p < ${c.alpha}); counterexamples ${cx.new.length} new, ${cx.fixed.length} fixed, ${cx.open.length} still open${differences.length > 0 ? `; configurations differ: ${describeDifferences(differences, 'the baseline', 'this run')}` : ''}`,
  };
}

/**
 * Writes the HTML, JUnit and step-summary outputs, prints the summary and the closing lines.
 * @returns the exit verdict (its `code` is the exit code; 130 when the run was interrupted).
 * @throws the `fs` error when an output cannot be written.
 */
export async function writeRunOutputs(result: FuzzResult, o: RunOutputOptions): Promise<ExitVerdict> {
  const report = result.report;
  const outDir = result.reportDir;
  const gateResult = gate(report, o.thresholds);
  const extra: string[] = [];
  const baseline = o.baseline ? await baselineOutputs(report, o.baseline) : undefined;
  const outputsT0 = performance.now();
  if (o.html !== false) {
    const htmlFile = typeof o.html === 'string' ? path.resolve(o.html) : path.join(outDir, 'report.html');
    const [{ renderHtml }, { chartPackages }] = await Promise.all([import('../report/html.js'), import('../report/charts.js')]);
    await writeFileAtomic(htmlFile, await renderHtml(report, { gateResult, ...(baseline ? { baseline: baseline.section } : {}) }));
    const charts = await chartPackages();
    extra.push(`html: ${htmlFile}${charts.ok ? '' : ` (without charts: ${charts.hint})`}`);
  }
  if (o.junit !== undefined) {
    const junitFile = path.resolve(o.junit);
    mkdirSync(path.dirname(junitFile), { recursive: true });
    const { renderJunit } = await import('../report/junit.js');
    await writeFileAtomic(junitFile, renderJunit(report, o.thresholds));
    extra.push(`junit: ${junitFile}`);
  }
  if (baseline) extra.push(baseline.line);
  extra.push(...(o.notes ?? []));
  extra.push(timeLine(report.timing.phases ?? [], performance.now() - outputsT0));
  const verdict = exitVerdict(report, gateResult, { thresholds: o.thresholds, ...(o.gateFrom ? { gateFrom: o.gateFrom } : {}), requireInvariants: o.requireInvariants, reportDir: shownPath(outDir), ...(o.interrupted ? { interrupted: true, ...(o.signal ? { signal: o.signal } : {}) } : {}), ...(o.shard ? { shard: o.shard } : {}) });
  const summaryFile = writeStepSummary(report, process.env, gateResult, verdict.lines);
  if (summaryFile) extra.push(`step summary: ${summaryFile}`);
  // With --json the human summary moves to stderr, so stdout is one JSON document a script can parse.
  const human = o.json ? process.stderr : process.stdout;
  const colour = paint(human);
  human.write(`${colour(redactSecrets(summaryText(result, { maxCounterexamples: 12, extra })))}\n`);
  human.write(`\n${colour(verdict.lines.join('\n'))}\n`);
  if (o.json) process.stdout.write(`${JSON.stringify({ ...report, reportDir: outDir, ...(baseline ? { baseline: baseline.section } : {}), exit: { code: verdict.code, deciding: verdict.deciding, lines: verdict.lines } }, null, 2)}\n`);
  return verdict;
}
