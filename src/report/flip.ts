/**
 * Flip counterexamples: the rejected original beside the admitted rewrite, with
 * the operators that did the work, a word-level diff (jsdiff `diffWords`) and both verdicts
 * layer by layer. Plain text, shared by the console and report.md.
 */
import { diffWords } from 'diff';
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Verdict } from '../domain/verdict.js';
import { formatDecision, formatSignals, formatTruth, printable, printableLine, quoteContent } from './format-verdict.js';

/** Invisible characters an encoding operator may insert, shown as `\u{…}` so a diff can show them. */
const INVISIBLE = /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u2060-\u2064\ufeff]/g;

function visible(text: string): string {
  return printable(text).replace(INVISIBLE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** The attacker's own earlier writes of a case (the last `attackerSetup` setup entries). */
function attackerWrites(c: FuzzCase): string[] {
  const n = Math.max(0, c.truth.attackerSetup ?? 0);
  return n > 0 ? (c.setup ?? []).slice(-n).map((e) => e.content) : [];
}

/**
 * The text a rewrite changed, for the diff: the entry, preceded by the attacker writes the
 * rewrite added (e.g. the first part of a split) — earlier writes the base already had (an
 * amplification chain's seeds) are left out when they are unchanged. `shared` counts those.
 */
export function changedText(original: FuzzCase, rewrite: FuzzCase): { before: string; after: string; shared: number } {
  const o = attackerWrites(original);
  const r = attackerWrites(rewrite);
  let shared = 0;
  while (shared < o.length && shared < r.length && o[shared] === r[shared]) shared += 1;
  return { before: [...o.slice(shared), original.entry.content].join('\n'), after: [...r.slice(shared), rewrite.entry.content].join('\n'), shared };
}

/**
 * Word-level diff of two texts: unchanged words as they are, removed ones as `[-…-]`, added
 * ones as `{+…+}` (the `git diff --word-diff` notation). Invisible characters are made visible.
 * @example wordDiff('all checks done', 'all checks were done') // 'all checks {+were +}done'
 */
export function wordDiff(before: string, after: string): string {
  return diffWords(before, after)
    .map((p) => (p.added ? `{+${visible(p.value)}+}` : p.removed ? `[-${visible(p.value)}-]` : visible(p.value)))
    .join('');
}

function layerCell(v: Verdict, layer: string): string {
  const l = v.trace.find((x) => x.layer === layer);
  if (!l) return '-';
  return `${printableLine(String(l.outcome))}${typeof l.value === 'number' ? ` ${l.value.toFixed(2)}` : ''}`;
}

/** Both verdicts layer by layer, in two columns: layer, original, rewrite. */
function verdictColumns(original: Verdict, rewrite: Verdict, indent = '    '): string[] {
  const layers: string[] = [];
  for (const l of [...original.trace, ...rewrite.trace]) if (!layers.includes(l.layer)) layers.push(l.layer);
  const rows: Array<[string, string, string]> = [
    ['decision', formatDecision(original), formatDecision(rewrite)],
    ...layers.map((l): [string, string, string] => [printableLine(l), layerCell(original, l), layerCell(rewrite, l)]),
    ['signals', formatSignals(original.signals), formatSignals(rewrite.signals)],
  ];
  const w0 = Math.max(...rows.map((r) => r[0].length), 5);
  const w1 = Math.max(...rows.map((r) => r[1].length), 8);
  return [`${indent}${'layer'.padEnd(w0)}  ${'original'.padEnd(w1)}  rewrite`, ...rows.map(([a, b, c]) => `${indent}${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`)];
}

export interface PrintableFlip {
  id: string;
  original: { case: FuzzCase; verdict: Verdict };
  rewrite: { case: FuzzCase; verdict: Verdict };
  /** The minimal operator set, in order of application. */
  operators: readonly string[];
  queriesToFlip?: number;
  replay: string;
}

/** A multi-line block showing one flip: operators, both verdicts side by side, the word diff, both texts. */
export function formatFlip(f: PrintableFlip): string {
  const o = f.original.case;
  const r = f.rewrite.case;
  const changed = changedText(o, r);
  const lines = [
    `✗ forgery-rejected · ${r.truth.domain}/adaptive · flip: rejected ${o.truth.family} base admitted after rewriting · id ${f.id}`,
    `  operators (minimal set): ${f.operators.length > 0 ? f.operators.join(' → ') : '(none)'}${f.queriesToFlip !== undefined ? ` · found after ${f.queriesToFlip} queries` : ''}`,
    `  base: ${formatTruth(o)}`,
    '  verdicts:',
    ...verdictColumns(f.original.verdict, f.rewrite.verdict),
    `  entry fields: original [${o.entry.store} · ${printableLine(o.entry.traceType)} · ${printableLine(o.entry.source)}/${printableLine(o.entry.trust)}] → rewrite [${r.entry.store} · ${printableLine(r.entry.traceType)} · ${printableLine(r.entry.source)}/${printableLine(r.entry.trust)}]${(r.truth.attackerSetup ?? 0) > (o.truth.attackerSetup ?? 0) ? ` · rewrite split into ${(r.truth.claimParts ?? 1)} writes` : ''}`,
    `  word diff ([-removed-] {+added+})${changed.shared > 0 ? ` of the entry (the ${changed.shared} earlier attacker writes are unchanged)` : ''}:`,
    quoteContent(wordDiff(changed.before, changed.after)),
    '  original (rejected):',
    quoteContent(changed.before),
    '  rewrite (admitted):',
    quoteContent(changed.after),
    `  replay: ${f.replay}`,
  ];
  return lines.join('\n');
}
