/**
 * Plain-text rendering of verdicts and counterexamples, shared by the console output and
 * the markdown report: the entry, its truth, the verdict layer by layer and signal by
 * signal, and the command that replays it.
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Verdict } from '../domain/verdict.js';
import { plural } from '../domain/plural.js';

/**
 * Makes untrusted text safe to print to a terminal or a text report: C0/C1 control
 * characters (except newline and tab), DEL and bidirectional overrides become visible
 * `\u{…}` escapes, so entry text or guard reasons cannot move the cursor, clear the screen
 * or reorder what is shown.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/**
 * `printable` for fields that must stay on one line (layer names, reasons, ids, signal
 * keys): newlines and carriage returns become visible `\n` / `\r`, so a guard's text
 * cannot open a new line in the console or close a code block in report.md.
 */
export function printableLine(text: string): string {
  return printable(text).replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

/** `s1=0.00 s2=1.00 …`, or `-` when the guard exposes no signals. */
export function formatSignals(signals: Record<string, number> | undefined): string {
  if (!signals || Object.keys(signals).length === 0) return '-';
  return Object.entries(signals)
    .map(([k, v]) => `${printableLine(k)}=${v.toFixed(2)}`)
    .join(' ');
}

/** One line per layer: `L3-taint  pass  0.40  reason; reason`. */
function formatTrace(verdict: Verdict, indent = '  '): string[] {
  if (verdict.trace.length === 0) return [`${indent}(the guard exposes no per-layer trace)`];
  const layers = verdict.trace.map((l) => printableLine(String(l.layer)));
  const width = Math.max(...layers.map((l) => l.length));
  return verdict.trace.map((l, i) => {
    const value = typeof l.value === 'number' ? ` ${l.value.toFixed(2)}` : '';
    const reasons = Array.isArray(l.reasons) && l.reasons.length > 0 ? `  ${printableLine(l.reasons.join('; '))}` : '';
    return `${indent}${(layers[i] ?? '').padEnd(width)}  ${printableLine(String(l.outcome)).padEnd(6)}${value}${reasons}`;
  });
}

/** Verdict headline: `reject at L5-reasoning-guard, F=0.60`. */
export function formatDecision(verdict: Verdict): string {
  const at = verdict.layer ? ` at ${printableLine(verdict.layer)}` : '';
  const f = verdict.score !== undefined ? `, F=${verdict.score.toFixed(2)}` : '';
  const err = verdict.error ? ` (${verdict.error.kind}: ${printableLine(verdict.error.message)})` : '';
  return `${verdict.decision}${at}${f}${err}`;
}

/** Indents a possibly multi-line text, and cuts it at `max` characters. */
export function quoteContent(text: string, indent = '    ', max = 2000): string {
  const cut = printable(text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text);
  return cut
    .split('\n')
    .map((l) => `${indent}${l}`)
    .join('\n');
}

export function formatTruth(c: FuzzCase): string {
  const t = c.truth;
  const parts = [`label=${t.label}`, `family=${t.family}`, `domain=${t.domain}`, `template=${t.template}`];
  parts.push(`operators=${t.operators.length > 0 ? t.operators.join(',') : '-'}`);
  if (t.claim) {
    parts.push(`claim: subject=${t.claim.subject} checks=${t.claim.checks.join(',') || '-'} precedent=${t.claim.precedent ?? '-'}`);
  }
  if (t.chain) parts.push(`chain: seeds=${t.chain.seeds} cycle=${t.chain.cycle}`);
  if (t.format) parts.push(`format=${t.format}`);
  if (t.language) parts.push(`language=${t.language}`);
  if (t.hardNegatives && t.hardNegatives.length > 0) parts.push(`hard-negatives=${t.hardNegatives.join(',')}`);
  return parts.join(' ');
}

export interface PrintableCounterexample {
  id: string;
  property: string;
  judgement: string;
  /** Finding kind (see `FindingKind`); absent in records written before re-checks existed. */
  kind?: string;
  recheck?: { reproduced: number; of: number };
  signature: string;
  case: FuzzCase;
  verdict: Verdict;
  replay: string;
}

/** What a finding is, in words: e.g. `bypass (forged entry admitted)`, `FLAKY bypass (reproduced 1/3 re-checks)`. */
function findingLabel(cx: Pick<PrintableCounterexample, 'property' | 'judgement' | 'kind' | 'recheck' | 'verdict'>): string {
  const base = cx.judgement === 'error' ? 'guard error' : cx.property === 'benign-admitted' ? 'false positive (benign entry rejected)' : 'bypass (forged entry admitted)';
  const times = cx.recheck ? `reproduced ${cx.recheck.reproduced}/${cx.recheck.of} re-checks` : '';
  if (cx.kind === 'flaky') return `FLAKY ${cx.judgement === 'error' ? 'guard error' : cx.property === 'benign-admitted' ? 'false positive' : 'bypass'} (${times}; not a clean finding)`;
  if (cx.kind === 'crash') return `${cx.verdict.error?.kind === 'timeout' ? 'this input makes the guard time out' : 'this input crashes the guard'} (${printableLine(cx.verdict.error?.kind ?? 'error')}${times ? `, ${times}` : ''})`;
  return times ? `${base}, ${times}` : base;
}

/** A multi-line block describing one minimal counterexample. */
export function formatCounterexample(cx: PrintableCounterexample): string {
  const e = cx.case.entry;
  const what = findingLabel(cx);
  const lines = [
    `✗ ${cx.property} · ${cx.case.truth.domain}/${cx.case.truth.family} · ${what} · id ${cx.id}`,
    `  signature: ${cx.signature}`,
    `  entry ${printableLine(e.id)} [${e.store} · ${printableLine(e.traceType)} · ${printableLine(e.source)}/${printableLine(e.trust)}]:`,
    quoteContent(e.content),
    `  truth: ${formatTruth(cx.case)}`,
  ];
  if (cx.case.setup && cx.case.setup.length > 0) lines.push(`  setup: ${plural(cx.case.setup.length, 'entry', 'entries')} in the store before this one`);
  lines.push(`  verdict: ${formatDecision(cx.verdict)}`);
  lines.push(...formatTrace(cx.verdict, '    '));
  lines.push(`  signals: ${formatSignals(cx.verdict.signals)}`);
  if (cx.verdict.reasons.length > 0) lines.push(`  reasons: ${printableLine(cx.verdict.reasons.join('; '))}`);
  lines.push(`  replay: ${cx.replay}`);
  return lines.join('\n');
}
