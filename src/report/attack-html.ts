/**
 * HTML tables of attack mode and of signal and layer coverage, for `report.html`.
 * Takes the escaper as a parameter so this file stays a leaf of `html.ts`.
 */
import type { ReportCounterexample, ReportData } from './model.js';
import type { AttackRates } from './adaptive.js';
import { pct } from './percent.js';
import { formatFlip } from './flip.js';

type Escape = (text: string) => string;

function tr(cells: string[], head = false): string {
  const tag = head ? 'th' : 'td';
  return `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
}

function q(r: AttackRates): string {
  return r.queriesPerFlip ? `${r.queriesPerFlip.median} / ${Number.isInteger(r.queriesPerFlip.p90) ? r.queriesPerFlip.p90 : r.queriesPerFlip.p90.toFixed(1)}` : '-';
}

/** The attack-mode section and the coverage table, or '' when the report has neither. */
export function attackHtml(r: ReportData, e: Escape): string {
  const out: string[] = [];
  const a = r.attack;
  if (a) {
    out.push('<h2 id="attack">Adaptive attack (attack mode)</h2>');
    out.push(`<p>Forged bases the guard admits are skipped; each rejected base is attacked with at most ${a.budget} queries. Wilson 95% intervals. Rewrites discarded for a lost claim: ${a.discarded} of ${a.proposed} (never queried, never flips). Guard errors are counted apart.</p>`);
    out.push('<table>');
    out.push(tr(['scope', 'bases', 'skipped', 'attacked', 'flipped', 'errors', 'original detection', 'detection under attack', 'attack success rate', 'queries per flip (median / p90)'], true));
    const line = (label: string, x: AttackRates): string => tr([e(label), String(x.bases), String(x.skipped), String(x.flipped + x.held), String(x.flipped), String(x.errors), e(pct(x.originalDetection)), e(pct(x.underAttack)), e(pct(x.asr)), e(q(x))]);
    out.push(line('all', a.overall));
    for (const d of a.domains) out.push(line(d.domain, d));
    for (const c of a.cells) out.push(line(`${c.domain} / ${c.family}`, c));
    out.push('</table>');
    if (a.overall.asrByReading) {
      out.push('<h3>ASR by reading: natural against encoded</h3>');
      out.push('<p>Natural flips have a minimal rewrite a reader takes as it is; encoded flips need at least one operator a reader must decode first. Both over the attacked bases; they add up to the ASR.</p><table>');
      out.push(tr(['scope', 'attacked', 'ASR', 'natural ASR [Wilson 95%]', 'encoded ASR [Wilson 95%]'], true));
      for (const [label, x] of [['all', a.overall] as const, ...a.domains.map((d) => [d.domain, d] as const)]) {
        if (x.asrByReading) out.push(tr([e(label), String(x.flipped + x.held), e(pct(x.asr)), e(pct(x.asrByReading.natural)), e(pct(x.asrByReading.encoded))]));
      }
      out.push('</table>');
    }
    if (a.groupReadings && a.groupReadings.length > 0) {
      out.push('<table>');
      out.push(tr(['operator group', 'natural flips', 'natural ASR [Wilson 95%]', 'encoded flips', 'encoded ASR [Wilson 95%]'], true));
      for (const g of a.groupReadings) out.push(tr([e(g.group), String(g.natural.k), e(pct(g.natural)), String(g.encoded.k), e(pct(g.encoded))]));
      out.push('</table>');
    }
    out.push('<h3>Budget curve</h3><table>');
    out.push(tr(['queries per base', 'attack success rate [Wilson 95%]'], true));
    for (const b of a.budgetCurve) out.push(tr([String(b.queries), e(pct(b.asr))]));
    out.push('</table>');
    out.push('<h3>Operators</h3><table>');
    out.push(tr(['operator', 'group', 'reading', 'queries', 'flips', 'flips per query', 'in minimal sets', 'lost-claim rewrites'], true));
    for (const o of a.operators.filter((x) => x.queries > 0 || x.discarded > 0)) out.push(tr([`<code>${e(o.operator)}</code>`, e(o.group ?? ''), e(o.reading ?? ''), String(o.queries), String(o.flips), e(pct(o.flipRate)), String(o.inMinimal), String(o.discarded)]));
    out.push('</table>');
    if (a.groups.length > 0) {
      out.push('<table>');
      out.push(tr(['operator group', 'queries', 'flips', 'flips per query', 'in minimal sets'], true));
      for (const g of a.groups) out.push(tr([e(g.operator), String(g.queries), String(g.flips), e(pct(g.flipRate)), String(g.inMinimal)]));
      out.push('</table>');
    }
  }
  const t = r.coverage;
  if (t) {
    out.push('<h2 id="coverage">Signal and layer coverage</h2>');
    out.push(`<p>Over ${t.forgedEntries} forged entries and ${t.flips} flips. Fired: score above 0 (signal), or rejected / passed with a value above 0 (layer). Turned off: fired on the rejected original, not on the admitted rewrite.</p>`);
    out.push('<table>');
    out.push(tr(['kind', 'id', 'forged entries that fired it', 'flips whose original fired it', 'flips that turned it off'], true));
    for (const x of t.rows) out.push(tr([x.kind, `<code>${e(x.id)}</code>`, e(`${x.fired} · ${pct(x.firedShare)}`), String(x.firedOnOriginal), e(`${x.evaded} · ${pct(x.evadedShare)}`)]));
    out.push('</table>');
  }
  return out.join('\n');
}

/** Plain text of a counterexample: the flip view for attack-mode flips, else `fallback`. */
export function flipText(x: ReportCounterexample, elapsedUs: number, fallback: () => string): string {
  if (!x.flip) return fallback();
  return formatFlip({
    id: x.id,
    original: { case: x.flip.original.case, verdict: { ...x.flip.original.verdict, elapsedUs: 0 } },
    rewrite: { case: x.case, verdict: { ...x.verdict, elapsedUs } },
    operators: x.flip.operators,
    queriesToFlip: x.flip.queriesToFlip,
    replay: x.replay,
  });
}
