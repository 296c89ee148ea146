/**
 * A rate with its Wilson 95% interval as text, for every renderer (a leaf module, so the
 * section renderers can share it without importing each other).
 */
import type { Interval } from './model.js';
import { plural } from '../domain/plural.js';

/** `12.3% [8.1%, 17.9%]` (rate and interval bounds as percentages), or `n/a (0 runs)`. */
export function pct(i: Interval): string {
  const p = (x: number): string => `${(x * 100).toFixed(1)}%`;
  return i.n === 0 ? 'n/a (0 runs)' : `${p(i.rate)} [${p(i.low)}, ${p(i.high)}]`;
}

/**
 * What the RESULT line adds about the user's own benign exports (`--benign <file>`, source
 * `user export`) that the guard rejected or answered error on: without it a run whose export was
 * rejected entirely still read "every invariant held", because the invariants are
 * about the generated cases. Lines of an export that hold no measured entry are named too (a
 * run that read 10 of 50 lines is no clean run). Undefined when every line was read and every
 * entry admitted (or there is no export).
 * @example exportRejectionNote(report) // 'but team.jsonl: 30/30 entries rejected (FPR 100.0% [88.6%, 100.0%]); no gate on it (--max-fpr)'
 */
export function exportRejectionNote(r: { fpr: { real: ReadonlyArray<{ name: string; source: string; fpr: Interval; errors: number; unread?: { lines: number } }> }; gate?: unknown }): string | undefined {
  const parts = r.fpr.real
    .filter((s) => s.source === 'user export' && (s.fpr.k > 0 || s.errors > 0 || (s.unread?.lines ?? 0) > 0))
    .map((s) => {
      const unread = s.unread?.lines ?? 0;
      const rejected = s.fpr.k > 0 || s.errors > 0 ? `${s.fpr.k}/${s.fpr.n} entries rejected (FPR ${pct(s.fpr)})${s.errors > 0 ? `, ${s.errors} answered error` : ''}` : undefined;
      const notRead = unread > 0 ? `${plural(unread, 'line')} of ${s.fpr.n + unread} not measured` : undefined;
      return `${s.name}: ${[rejected, notRead].filter((x) => x !== undefined).join(', ')}`;
    });
  if (parts.length === 0) return undefined;
  return `but ${parts.join('; ')}${r.gate === undefined ? '; no gate on it (give --max-fpr to fail the run on it)' : ''}`;
}

/**
 * The head of every line about a `--benign` export's lines that hold no measured entry
 * (report.md, report.html, fpr.md, the run's warning), so they say it one way.
 * @example unreadLinesHead('team.jsonl', 70) // 'team.jsonl: 70 lines of the export hold no measured entry'
 */
export function unreadLinesHead(name: string, lines: number): string {
  return `${name}: ${plural(lines, 'line')} of the export ${lines === 1 ? 'holds' : 'hold'} no measured entry`;
}
