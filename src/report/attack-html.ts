/**
 * HTML tables of attack mode and of signal and layer coverage, for `report.html`.
 * Takes the escaper as a parameter so this file stays a leaf of `html.ts`.
 */
import type { ReportCounterexample, ReportData } from './model.js';
import type { AttackRates } from './adaptive.js';
import { pct } from './percent.js';
import { formatFlip } from './flip.js';
import { htmlTable } from './html-table.js';

type Escape = (text: string) => string;

const num = (n: number | string): { html: string; cls: string } => ({ html: String(n), cls: 'num' });

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
    const line = (label: string, x: AttackRates) => [e(label), num(x.bases), num(x.skipped), num(x.flipped + x.held), num(x.flipped), num(x.errors), e(pct(x.originalDetection)), e(pct(x.underAttack)), e(pct(x.asr)), e(q(x))];
    const head = ['scope', 'bases', 'skipped', 'attacked', 'flipped', 'errors', 'original detection', 'detection under attack', 'attack success rate', 'queries per flip (median / p90)'];
    out.push(htmlTable(head, [line('all', a.overall)]));
    const parts = [...a.domains.map((d) => line(d.domain, d)), ...a.cells.map((c) => line(`${c.domain} / ${c.family}`, c))];
    if (parts.length > 0) out.push(`<details><summary>By domain and base family (${parts.length} rows)</summary>${htmlTable(head, parts)}</details>`);
    if (a.overall.asrByReading) {
      out.push('<h3>ASR by reading: natural against encoded</h3>');
      out.push('<p>Natural flips have a minimal rewrite a reader takes as it is; encoded flips need at least one operator a reader must decode first. Both over the attacked bases; they add up to the ASR.</p>');
      const readings = [['all', a.overall] as const, ...a.domains.map((d) => [d.domain, d] as const)].filter(([, x]) => x.asrByReading);
      out.push(htmlTable(['scope', 'attacked', 'ASR', 'natural ASR [Wilson 95%]', 'encoded ASR [Wilson 95%]'], readings.map(([label, x]) => [e(label), num(x.flipped + x.held), e(pct(x.asr)), e(pct(x.asrByReading!.natural)), e(pct(x.asrByReading!.encoded))])));
    }
    if (a.groupReadings && a.groupReadings.length > 0) {
      out.push(htmlTable(['operator group', 'natural flips', 'natural ASR [Wilson 95%]', 'encoded flips', 'encoded ASR [Wilson 95%]'], a.groupReadings.map((g) => [e(g.group), num(g.natural.k), e(pct(g.natural)), num(g.encoded.k), e(pct(g.encoded))])));
    }
    if (a.groups.length > 0) {
      out.push('<h3>Operator groups</h3>');
      out.push(htmlTable(['operator group', 'queries', 'flips', 'flips per query', 'in minimal sets'], a.groups.map((g) => [e(g.operator), num(g.queries), num(g.flips), e(pct(g.flipRate)), num(g.inMinimal)])));
    }
    const used = a.operators.filter((x) => x.queries > 0 || x.discarded > 0);
    out.push(`<details><summary>Operators (${used.length})</summary>`);
    out.push(htmlTable(['operator', 'group', 'reading', 'queries', 'flips', 'flips per query', 'in minimal sets', 'lost-claim rewrites'], used.map((o) => [`<code>${e(o.operator)}</code>`, e(o.group ?? ''), e(o.reading ?? ''), num(o.queries), num(o.flips), e(pct(o.flipRate)), num(o.inMinimal), num(o.discarded)])));
    out.push('</details>');
    out.push(`<details><summary>Budget curve (${a.budgetCurve.length} budgets)</summary>`);
    out.push(htmlTable(['queries per base', 'attack success rate [Wilson 95%]'], a.budgetCurve.map((b) => [num(b.queries), e(pct(b.asr))])));
    out.push('</details>');
  }
  const t = r.coverage;
  if (t) {
    out.push('<h2 id="coverage">Signal and layer coverage</h2>');
    out.push(`<p>Over ${t.forgedEntries} forged entries and ${t.flips} flips. Fired: score above 0 (signal), or rejected / passed with a value above 0 (layer). Turned off: fired on the rejected original, not on the admitted rewrite.</p>`);
    out.push(htmlTable(['kind', 'id', 'forged entries that fired it', 'flips whose original fired it', 'flips that turned it off'], t.rows.map((x) => [e(x.kind), `<code>${e(x.id)}</code>`, e(`${x.fired} · ${pct(x.firedShare)}`), num(x.firedOnOriginal), e(`${x.evaded} · ${pct(x.evadedShare)}`)])));
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
