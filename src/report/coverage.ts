/**
 * Signal and layer coverage: for guards whose verdicts expose layers and signals
 * (SENTINEL, A-MemGuard, module/HTTP/exec guards returning `signals`), how often forged
 * entries fired each layer and signal, and how often an adaptive flip turned it off. Pure.
 *
 * - A signal fires when its score is above 0; a flip turns it off when it fired on the
 *   rejected original and scores 0 (or is absent) on the admitted rewrite.
 * - A layer fires when it rejects the entry (level 2) or passes it with a value above 0, such
 *   as a taint or F (level 1); a flip turns it off when the rewrite's level is below the
 *   original's.
 */
import type { Verdict } from '../domain/verdict.js';
import { interval, type Interval } from './model.js';
import { pct } from './percent.js';
import { printableLine } from './format-verdict.js';
import { ownValue } from '../domain/name-keyed.js';

interface CoverageRow {
  kind: 'signal' | 'layer';
  id: string;
  /** Forged entries (counted runs) that fired it, and that share of all forged entries (Wilson 95%). */
  fired: number;
  firedShare: Interval;
  /** Flips whose original fired it. */
  firedOnOriginal: number;
  /** Flips that turned it off, and that share of the flips whose original fired it (Wilson 95%). */
  evaded: number;
  evadedShare: Interval;
}

export interface CoverageTable {
  /** Forged entries counted (campaign cells of forged families, plus every attack base). */
  forgedEntries: number;
  flips: number;
  rows: CoverageRow[];
  /** Ids never fired, and ids fired but never turned off by a flip. */
  neverFired: string[];
  neverEvaded: string[];
}

/** 2 when the layer rejected, 1 when it passed with a value above 0, else 0 (passed clean, skipped, not run). */
export function layerLevel(v: Pick<Verdict, 'trace'>, layer: string): 0 | 1 | 2 {
  const l = v.trace.find((x) => x.layer === layer);
  if (!l) return 0;
  if (l.outcome === 'reject') return 2;
  return typeof l.value === 'number' && l.value > 0 ? 1 : 0;
}

function signalOn(v: Pick<Verdict, 'signals'>, id: string): boolean {
  return (v.signals?.[id] ?? 0) > 0;
}

export interface CoverageInput {
  /** Tallies of forged campaign cells: runs, signals above 0, layers fired. */
  forged: ReadonlyArray<{ runs: number; signalFires: Readonly<Record<string, number>>; layerFires: Readonly<Record<string, number>> }>;
  /** Verdicts of forged entries evaluated outside the cells (e.g. attack bases), counted too. */
  extra: readonly Pick<Verdict, 'signals' | 'trace'>[];
  /** Each flip: the verdict of the rejected original and of the admitted rewrite. */
  flips: ReadonlyArray<{ original: Pick<Verdict, 'signals' | 'trace'>; rewrite: Pick<Verdict, 'signals' | 'trace'> }>;
}

const naturalOrder = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/**
 * Builds the coverage table. Rows: every signal and layer seen in any verdict or tally, signals
 * in natural order, layers in the order the guard's traces list them.
 * @returns undefined when no verdict exposed a signal or a layer (the guard has none).
 */
export function coverageTable(input: CoverageInput): CoverageTable | undefined {
  const signals = new Set<string>();
  const layers: string[] = [];
  const addLayer = (l: string): void => {
    if (!layers.includes(l)) layers.push(l);
  };
  const all = [...input.extra, ...input.flips.flatMap((f) => [f.original, f.rewrite])];
  for (const v of all) {
    for (const k of Object.keys(v.signals ?? {})) signals.add(k);
    for (const l of v.trace) addLayer(l.layer);
  }
  for (const c of input.forged) {
    for (const k of Object.keys(c.signalFires)) signals.add(k);
    for (const k of Object.keys(c.layerFires)) addLayer(k);
  }
  if (signals.size === 0 && layers.length === 0) return undefined;
  const forgedEntries = input.forged.reduce((a, c) => a + c.runs, 0) + input.extra.length;
  const flips = input.flips.length;
  const rows: CoverageRow[] = [];
  for (const id of [...signals].sort(naturalOrder)) {
    const fired = input.forged.reduce((a, c) => a + (ownValue(c.signalFires, id) ?? 0), 0) + input.extra.filter((v) => signalOn(v, id)).length;
    const on = input.flips.filter((f) => signalOn(f.original, id));
    const evaded = on.filter((f) => !signalOn(f.rewrite, id)).length;
    rows.push({ kind: 'signal', id, fired, firedShare: interval(fired, forgedEntries), firedOnOriginal: on.length, evaded, evadedShare: interval(evaded, on.length) });
  }
  for (const id of layers) {
    const fired = input.forged.reduce((a, c) => a + (ownValue(c.layerFires, id) ?? 0), 0) + input.extra.filter((v) => layerLevel(v, id) > 0).length;
    const on = input.flips.filter((f) => layerLevel(f.original, id) > 0);
    const evaded = on.filter((f) => layerLevel(f.rewrite, id) < layerLevel(f.original, id)).length;
    rows.push({ kind: 'layer', id, fired, firedShare: interval(fired, forgedEntries), firedOnOriginal: on.length, evaded, evadedShare: interval(evaded, on.length) });
  }
  return {
    forgedEntries,
    flips,
    rows,
    neverFired: rows.filter((r) => r.fired === 0).map((r) => r.id),
    neverEvaded: rows.filter((r) => r.fired > 0 && r.evaded === 0).map((r) => r.id),
  };
}

/** Markdown of the coverage table. */
export function renderCoverage(t: CoverageTable): string {
  const out = ['## Signal and layer coverage', ''];
  out.push(
    `Over ${t.forgedEntries} forged entries and ${t.flips} adaptive flips. A signal fires when it scores above 0; a layer fires when it rejects or passes with a value above 0 (taint, risk, F). A flip turns it off when it fired on the rejected original and not (or less, for a layer) on the admitted rewrite.`,
  );
  out.push('');
  out.push('| kind | id | forged entries that fired it [Wilson 95%] | flips whose original fired it | flips that turned it off [Wilson 95%] |');
  out.push('| --- | --- | --- | ---: | --- |');
  for (const r of t.rows) out.push(`| ${r.kind} | \`${printableLine(r.id)}\` | ${r.fired} · ${pct(r.firedShare)} | ${r.firedOnOriginal} | ${r.evaded} · ${pct(r.evadedShare)} |`);
  out.push('');
  if (t.neverFired.length > 0) out.push(`Never fired by a forged entry: ${t.neverFired.map((x) => `\`${printableLine(x)}\``).join(', ')}.`);
  if (t.neverEvaded.length > 0) out.push(`Fired but never turned off by a flip: ${t.neverEvaded.map((x) => `\`${printableLine(x)}\``).join(', ')}.`);
  if (t.neverFired.length === 0 && t.neverEvaded.length === 0) out.push('Every signal and layer was fired and evaded at least once.');
  out.push('');
  return out.join('\n');
}

/** Console lines of the coverage table (one per row). */
export function coverageLines(t: CoverageTable): string[] {
  const w = Math.max(...t.rows.map((r) => r.id.length), 4);
  return [
    `  signal and layer coverage (${t.forgedEntries} forged entries, ${t.flips} flips): fired / turned off by a flip`,
    ...t.rows.map((r) => `    ${r.kind.padEnd(6)} ${printableLine(r.id).padEnd(w)}  fired ${String(r.fired).padStart(6)}  turned off ${String(r.evaded).padStart(4)}/${r.firedOnOriginal}`),
  ];
}
