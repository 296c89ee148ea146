/**
 * The tables of `report.html`: a `<thead>` and one `data-label` per cell, so that on a narrow
 * screen the page's CSS can stack each row into a card of "label: value" lines instead of
 * overflowing sideways (the `table.stack` rules in `html.ts`).
 */
import { escapeUTF8 } from 'entities';

/** A cell: HTML that is already escaped, or HTML with a class for its `<td>` (`num`, `ok`, `bad`). */
export type HtmlCell = string | { html: string; cls: string };

/**
 * Renders a table whose cells are escaped HTML; the header texts are escaped here. Tables of
 * more than five columns get the class `stack` (cards on a narrow screen), narrower ones
 * `plain` (they fit as they are), unless `cls` says otherwise.
 * @example
 * htmlTable(['cell', 'rate'], [['ehr/seed', { html: '90.2%', cls: 'num' }]]);
 */
export function htmlTable(head: readonly string[], rows: ReadonlyArray<readonly HtmlCell[]>, cls: string = head.length > 5 ? 'stack' : 'plain'): string {
  const th = head.map((h) => `<th>${escapeUTF8(h)}</th>`).join('');
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => {
      const label = ` data-label="${escapeUTF8(head[i] ?? '')}"`;
      return typeof c === 'string' ? `<td${label}>${c}</td>` : `<td class="${c.cls}"${label}>${c.html}</td>`;
    }).join('')}</tr>`)
    .join('');
  return `<table class="${cls}"><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}
