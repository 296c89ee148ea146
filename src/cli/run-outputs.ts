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
import type { StopSignal } from './exit-codes.js';
import type { FuzzResult } from '../campaign/fuzz.js';

export interface RunOutputOptions {
  /** `--html [file]`: true or undefined for `report.html` in the report folder, a path, or false for none. */
  html?: string | boolean;
  /** `--junit <file>`. */
  junit?: string;
  thresholds: GateThresholds;
  requireInvariants: boolean;
  /** Ctrl-C stopped the run: the verdict is 130 (interrupted), with what had failed before the stop. */
  interrupted?: boolean;
  /** The signal that stopped it (default SIGINT; 143 for SIGTERM, 129 for SIGHUP). */
  signal?: StopSignal;
  /** Lines printed after the report paths (e.g. where a shard's blob went). */
  notes?: string[];
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
  if (o.html !== false) {
    const htmlFile = typeof o.html === 'string' ? path.resolve(o.html) : path.join(outDir, 'report.html');
    const [{ renderHtml }, { chartPackages }] = await Promise.all([import('../report/html.js'), import('../report/charts.js')]);
    await writeFileAtomic(htmlFile, await renderHtml(report, { gateResult }));
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
  extra.push(...(o.notes ?? []));
  const verdict = exitVerdict(report, gateResult, { thresholds: o.thresholds, requireInvariants: o.requireInvariants, reportDir: path.relative(process.cwd(), outDir) || outDir, ...(o.interrupted ? { interrupted: true, ...(o.signal ? { signal: o.signal } : {}) } : {}) });
  const summaryFile = writeStepSummary(report, process.env, gateResult, verdict.lines);
  if (summaryFile) extra.push(`step summary: ${summaryFile}`);
  process.stdout.write(`${redactSecrets(summaryText(result, { maxCounterexamples: 12, extra }))}\n`);
  process.stdout.write(`\n${verdict.lines.join('\n')}\n`);
  return verdict;
}
