/**
 * The "Compared with a baseline" section of `report.html` (`fuzz --baseline <report.json>`):
 * the same comparison as `farma-fuzz compare` (`compare.ts`), with this run as B. Takes the
 * escaper as a parameter so this file stays a leaf of `html.ts`.
 */
import { groupByCell, rateTableRows, type Comparison, type ConfigDifference, type SignatureRow } from './compare.js';
import { htmlTable } from './html-table.js';
import { plural } from '../domain/plural.js';

type Escape = (text: string) => string;

/** What `fuzz --baseline` hands to the HTML renderer: the comparison, or why there is none. */
export interface BaselineSection {
  /** The baseline report as given on the command line. */
  file: string;
  /** Present when the reports were compared. */
  comparison?: Comparison;
  /** Present when the configurations differ and `--allow-config-diff` was not given. */
  refused?: ConfigDifference[];
}

function signatures(title: string, rows: readonly SignatureRow[], e: Escape): string {
  if (rows.length === 0) return '';
  const out = [`<details><summary>${e(title)} (${rows.length})</summary>`];
  for (const [cell, group] of groupByCell(rows)) {
    out.push(`<p><b>${e(cell)}</b>${group[0]?.caveat ? ` <span class="muted">(${e(group[0].caveat.replace(`${cell} `, ''))})</span>` : ''}</p><ul>`);
    for (const r of group) out.push(`<li>${e(r.kind)} <code>${e(r.signature)}</code> · <code>${e(r.id)}</code></li>`);
    out.push('</ul>');
  }
  out.push('</details>');
  return out.join('');
}

/** The baseline section (with its `h2 id="baseline"`). */
export function baselineHtml(b: BaselineSection, e: Escape): string {
  const out: string[] = ['<h2 id="baseline">Compared with the baseline</h2>'];
  if (b.refused) {
    out.push(`<p class="verdict bad">Not compared: the baseline <code>${e(b.file)}</code> comes from a different configuration.</p>`);
    out.push('<ul>' + b.refused.map((d) => `<li><code>${e(d.key)}</code>: ${e(d.a)} in the baseline, ${e(d.b)} in this run</li>`).join('') + '</ul>');
    out.push('<p>Run again with <code>--allow-config-diff</code> to compare anyway, or compare the two reports with <code>farma-fuzz compare</code>.</p>');
    return out.join('\n');
  }
  const c = b.comparison;
  if (!c) return '';
  const v = c.verdict;
  out.push(`<p><span class="verdict ${v.regressed ? 'bad' : 'ok'}">${e(v.regressed ? `Worse than the baseline in ${plural(v.worse, 'rate')}` : 'Not significantly worse than the baseline in any rate')}</span> better in ${v.better}, no significant change in ${v.unchanged} of ${v.tested} rates tested${v.missingInB.length > 0 ? `; ${v.missingInB.length} of the baseline's rates have no result in this run` : ''}. Baseline (A): <code>${e(b.file)}</code>; this run is B.</p>`);
  if (c.configDifferences.length > 0) out.push(`<p class="muted">Configurations differ (allowed): ${c.configDifferences.map((d) => `${e(d.key)}: ${e(d.a)} → ${e(d.b)}`).join('; ')}.</p>`);
  out.push(`<p class="muted">Fisher's exact test on the two proportions, two-sided; a change counts at Holm-adjusted p &lt; ${c.alpha}. Lower is better for every rate.</p>`);
  const head = ['cell', 'rate', 'baseline (k/n)', 'this run (k/n)', 'change', 'p Fisher', 'p Holm', 'verdict'];
  const rows = rateTableRows(c);
  const changed = rows.filter((_r, i) => c.rates[i]?.change === 'better' || c.rates[i]?.change === 'worse');
  const mark = (r: string[]): string[] => r.map((x, i) => (i === r.length - 1 ? (x === 'worse' ? `<b class="bad">${e(x)}</b>` : x === 'better' ? `<b class="ok">${e(x)}</b>` : e(x)) : e(x)));
  if (changed.length > 0) out.push(htmlTable(head, changed.map(mark)));
  else out.push('<p>No rate changed significantly.</p>');
  out.push(`<details><summary>Every rate (${rows.length})</summary>${htmlTable(head, rows.map(mark))}</details>`);
  const cx = c.counterexamples;
  out.push(`<p>Counterexamples by signature: ${cx.new.length} new, ${cx.fixed.length} fixed, ${cx.open.length} still open.</p>`);
  out.push(signatures('New in this run', cx.new, e), signatures('Fixed in this run (not found in it)', cx.fixed, e), signatures('Still open', cx.open, e));
  const moved = c.operators.filter((o) => o.status === 'started working' || o.status === 'stopped working');
  if (moved.length > 0) {
    out.push(`<details><summary>Operators that started or stopped getting through (${moved.length}; ${moved.filter((o) => o.pAdjusted < c.alpha).length} significant)</summary>`);
    out.push(htmlTable(['operator', 'group', 'baseline', 'this run', 'p Fisher', 'p Holm', 'status'], moved.map((o) => [`<code>${e(o.operator)}</code>`, e(o.group ?? ''), e(`${o.a.k}/${o.a.n}`), e(`${o.b.k}/${o.b.n}`), e(o.p.toFixed(4)), e(o.pAdjusted.toFixed(4)), e(o.status)])));
    out.push('</details>');
  } else out.push('<p>No operator started or stopped getting through.</p>');
  return out.join('\n');
}
