/**
 * The report's charts as SVG, made in Node with no browser: Vega-Lite specs compiled with
 * `vega-lite` and drawn by `vega`'s headless SVG renderer (https://vega.github.io/). All
 * data is inline, so nothing is fetched. The derivations are pure and exported for tests.
 *
 * Scores come from each cell's `scoreHistogram` (F rounded to 0.01), so the sweep and the
 * ROC curve are those of the rounded scores. A threshold t rejects an entry when F > t
 * (paper §IV-E, SENTINEL's tau_guard).
 *
 * `vega` and `vega-lite` are optional peer dependencies, loaded on first use: without them
 * {@link renderCharts} returns no chart and {@link chartPackages} says what to install.
 */
import type * as Vega from 'vega';
import type { TopLevelSpec } from 'vega-lite';
import { importOptional } from '../domain/optional-package.js';
import { rocAuc, rocCurve, tauGrid, thresholdSweep, type LabelledScores } from '../metrics/threshold-sweep.js';
import { interval, type Interval, type ReportData } from './model.js';

/** Chart ids, used as `data-chart` attributes in the HTML report. */
export const CHART_IDS = ['score-distribution', 'threshold-sweep', 'roc', 'operator-bypass', 'signal-contribution'] as const;
type ChartId = (typeof CHART_IDS)[number];

export interface ChartSpec {
  id: ChartId;
  title: string;
  /** One or two sentences on how to read the chart. */
  caption: string;
  spec: TopLevelSpec;
}

export interface ChartSvg extends Omit<ChartSpec, 'spec'> {
  /** A standalone `<svg>` element. */
  svg: string;
}

const KIND_COLORS = { domain: ['benign', 'forged'], range: ['#4c78a8', '#e45756'] };
const NONE_OPERATOR = '(none)';

function isBenign(property: string): boolean {
  return property === 'benign-admitted';
}

function expand(hist: Record<string, number>, into: number[]): void {
  for (const [key, count] of Object.entries(hist)) {
    const score = Number(key);
    if (!Number.isFinite(score)) continue;
    for (let i = 0; i < count; i += 1) into.push(score);
  }
}

/** Every scored entry of the report, split into benign (benign cells) and forged (forged cells), pooled over domains. */
export function scoreSamples(r: ReportData): { benign: number[]; forged: number[] } {
  const benign: number[] = [];
  const forged: number[] = [];
  for (const c of r.cells) expand(c.scoreHistogram, isBenign(c.property) ? benign : forged);
  return { benign, forged };
}

/** Per forged family (or `benign` alone when no forged family ran): the share of entries at each F score, benign beside forged. */
function scoreDistributionRows(r: ReportData): Array<{ panel: string; kind: 'benign' | 'forged'; score: number; share: number }> {
  const pooled = (cells: ReportData['cells']): Map<number, number> => {
    const m = new Map<number, number>();
    for (const c of cells) for (const [k, n] of Object.entries(c.scoreHistogram)) if (Number.isFinite(Number(k))) m.set(Number(k), (m.get(Number(k)) ?? 0) + n);
    return m;
  };
  const shares = (m: Map<number, number>): Array<[number, number]> => {
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    return total === 0 ? [] : [...m.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => [s, n / total]);
  };
  const benign = shares(pooled(r.cells.filter((c) => isBenign(c.property))));
  const families = [...new Set(r.cells.filter((c) => !isBenign(c.property)).map((c) => c.family))];
  const rows: Array<{ panel: string; kind: 'benign' | 'forged'; score: number; share: number }> = [];
  const panels = families.length > 0 ? families : ['benign'];
  for (const panel of panels) {
    for (const [score, share] of benign) rows.push({ panel, kind: 'benign', score, share });
    if (families.length === 0) continue;
    const forged = shares(pooled(r.cells.filter((c) => !isBenign(c.property) && c.family === panel)));
    for (const [score, share] of forged) rows.push({ panel, kind: 'forged', score, share });
  }
  return rows;
}

/**
 * Bypass rate per paraphrase operator over all forged cells, with Wilson 95% intervals; empty
 * when only `(none)` occurs. In attack mode the `adaptive` cells are left out: they record the
 * operators of flipped bases only, so every operator there would show 100% by construction
 * (attack mode's per-operator success, flips per query, is in the attack section).
 */
export function operatorBypassRows(r: ReportData): Array<{ operator: string } & Interval> {
  const tally = new Map<string, { runs: number; violations: number }>();
  for (const c of r.cells) {
    if (isBenign(c.property) || (r.attack && c.family === 'adaptive')) continue;
    for (const [op, t] of Object.entries(c.breakdown.operator)) {
      const acc = tally.get(op) ?? { runs: 0, violations: 0 };
      acc.runs += t.runs;
      acc.violations += t.violations;
      tally.set(op, acc);
    }
  }
  if (![...tally.keys()].some((op) => op !== NONE_OPERATOR)) return [];
  return [...tally.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([operator, t]) => ({ operator, ...interval(t.violations, t.runs) }));
}

/** Share of entries on which each signal fired (scored above 0), benign and forged apart, pooled over cells. */
export function signalRows(r: ReportData): Array<{ signal: string; kind: 'benign' | 'forged'; rate: number; fires: number; runs: number }> {
  const acc = { benign: { runs: 0, fires: new Map<string, number>() }, forged: { runs: 0, fires: new Map<string, number>() } };
  for (const c of r.cells) {
    const a = acc[isBenign(c.property) ? 'benign' : 'forged'];
    a.runs += c.runs;
    for (const [s, n] of Object.entries(c.signalFires)) a.fires.set(s, (a.fires.get(s) ?? 0) + n);
  }
  const signals = [...new Set([...acc.benign.fires.keys(), ...acc.forged.fires.keys()])].sort();
  return signals.flatMap((signal) =>
    (['benign', 'forged'] as const)
      .filter((kind) => acc[kind].runs > 0)
      .map((kind) => {
        const fires = acc[kind].fires.get(signal) ?? 0;
        return { signal, kind, fires, runs: acc[kind].runs, rate: fires / acc[kind].runs };
      }),
  );
}

/** A chart left out because its data would draw nothing worth reading, and why. */
export interface DroppedChart {
  id: ChartId;
  title: string;
  /** One sentence that says what the chart would have shown (e.g. every bar at 100%). */
  reason: string;
}

/** Distinct values of `xs`, rounded to 1e-9 so float noise does not count as a difference. */
function distinct(xs: readonly number[]): number[] {
  return [...new Set(xs.map((x) => Math.round(x * 1e9) / 1e9))];
}

const pct0 = (x: number): string => `${(x * 100).toFixed(x === 0 || x === 1 ? 0 : 1)}%`;

/**
 * The Vega-Lite specs of every chart the report's data supports, in {@link CHART_IDS} order.
 * Charts without data are left out: no F scores (guards that report none) means no score
 * distribution, sweep or ROC; the ROC needs both benign and forged scores; the operator
 * chart needs an operator other than `(none)`; the signal chart needs a signal that fired.
 * Charts whose data carries no information are left out too (see {@link chartPlan}).
 */
export function chartSpecs(r: ReportData): ChartSpec[] {
  return chartPlan(r).specs;
}

/** The charts left out because their data carries no information, each with the reason (see {@link chartPlan}). */
export function droppedCharts(r: ReportData): DroppedChart[] {
  return chartPlan(r).dropped;
}

/**
 * The charts to draw, and those left out because they would carry no information: every
 * entry at one F score (a flat sweep, a diagonal ROC, one bar per panel), every operator at
 * the same bypass rate (a wall of equal bars), every signal at the same rate. A dropped
 * chart's `reason` says in one sentence what it would have shown, so nothing is hidden.
 */
export function chartPlan(r: ReportData): { specs: ChartSpec[]; dropped: DroppedChart[] } {
  const dropped: DroppedChart[] = [];
  const allScores = scoreSamples(r);
  const scoreValues = distinct([...allScores.benign, ...allScores.forged]);
  const oneScore = scoreValues.length === 1 ? `every scored entry has F = ${(scoreValues[0] as number).toFixed(2)}` : undefined;
  const keep = (id: ChartId, title: string, flat: string | undefined): boolean => {
    if (flat === undefined) return true;
    dropped.push({ id, title, reason: flat });
    return false;
  };
  const out = chartSpecsOf(r, keep, oneScore);
  return { specs: out, dropped };
}

/** Decides whether a chart is drawn: false (and the chart is recorded as dropped with `flat` as the reason) when `flat` says its data carries no information. */
type KeepChart = (id: ChartId, title: string, flat: string | undefined) => boolean;

/** What every chart spec shares: background, font, frame and legend width. */
const CHART_BASE = { background: 'white', config: { font: 'sans-serif', view: { stroke: '#ddd' }, legend: { labelLimit: 320 } } } as const;

/** The charts in page order; `keep` is asked in that order, so the dropped list keeps it too. */
function chartSpecsOf(r: ReportData, keep: KeepChart, oneScore: string | undefined): ChartSpec[] {
  const scores: LabelledScores = scoreSamples(r);
  return [scoreDistributionChart(r, keep, oneScore), thresholdSweepChart(scores, keep, oneScore), rocChart(scores, keep, oneScore), operatorBypassChart(r, keep), signalChart(r, keep)].filter((c): c is ChartSpec => c !== undefined);
}

/** Share of entries per F-score bin, one panel per forged family with the benign distribution in each; none without scores. */
function scoreDistributionChart(r: ReportData, keep: KeepChart, oneScore: string | undefined): ChartSpec | undefined {
  const dist = scoreDistributionRows(r);
  if (!(dist.length > 0 && keep('score-distribution', 'F-score distribution, benign vs forged', oneScore))) return undefined;
  return {
    id: 'score-distribution',
    title: 'F-score distribution, benign vs forged',
    caption: 'Share of entries at each forgery score F (binned by 0.05). One panel per forged family; the benign distribution is repeated in each panel for comparison.',
    spec: {
      ...CHART_BASE,
      data: { values: dist },
      facet: { row: { field: 'panel', type: 'nominal', title: 'family' } },
      spec: {
        width: 460,
        height: 110,
        mark: { type: 'bar', opacity: 0.65 },
        encoding: {
          x: { field: 'score', type: 'quantitative', bin: { step: 0.05, extent: [0, 1.0001] }, title: 'forgery score F' },
          y: { aggregate: 'sum', field: 'share', type: 'quantitative', stack: null, title: 'share of entries', axis: { format: '.0%' } },
          color: { field: 'kind', type: 'nominal', scale: KIND_COLORS, title: 'entries' },
        },
      },
    } as TopLevelSpec,
  };
}

/** TPR and FPR if the guard rejected at each tau in [0, 1]; none without scores. */
function thresholdSweepChart(scores: LabelledScores, keep: KeepChart, oneScore: string | undefined): ChartSpec | undefined {
  if (!((scores.benign.length > 0 || scores.forged.length > 0) && keep('threshold-sweep', 'Threshold sweep of tau_guard', oneScore))) return undefined;
  const sweep = thresholdSweep(scores, tauGrid(0, 1, 100));
  const rows = sweep.flatMap((s) => [
    ...(scores.forged.length > 0 ? [{ tau: s.tau, metric: 'TPR (forged rejected)', rate: s.tpr }] : []),
    ...(scores.benign.length > 0 ? [{ tau: s.tau, metric: 'FPR (benign rejected)', rate: s.fpr }] : []),
  ]);
  return {
    id: 'threshold-sweep',
    title: 'Threshold sweep of tau_guard',
    caption: 'Detection rate and false-positive rate if the guard rejected every entry with F > tau, for tau from 0 to 1 in steps of 0.01.',
    spec: {
      ...CHART_BASE,
      width: 460,
      height: 220,
      data: { values: rows },
      mark: { type: 'line', interpolate: 'step-after' },
      encoding: {
        x: { field: 'tau', type: 'quantitative', title: 'tau (reject when F > tau)', scale: { domain: [0, 1] } },
        y: { field: 'rate', type: 'quantitative', title: 'rate', scale: { domain: [0, 1] }, axis: { format: '.0%' } },
        color: { field: 'metric', type: 'nominal', scale: { domain: ['FPR (benign rejected)', 'TPR (forged rejected)'], range: KIND_COLORS.range }, title: null },
      },
    } as TopLevelSpec,
  };
}

/** The ROC curve with its AUC; needs both benign and forged scores. */
function rocChart(scores: LabelledScores, keep: KeepChart, oneScore: string | undefined): ChartSpec | undefined {
  if (!(scores.benign.length > 0 && scores.forged.length > 0 && keep('roc', 'ROC curve', oneScore))) return undefined;
  const auc = rocAuc(scores);
  const points = rocCurve(scores);
  return {
    id: 'roc',
    title: `ROC curve, AUC ${auc.toFixed(3)}`,
    caption: `Each point is one threshold on F. AUC ${auc.toFixed(3)} is the chance that a random forged entry scores above a random benign one (ties count half); the diagonal is chance.`,
    spec: {
      ...CHART_BASE,
      width: 260,
      height: 260,
      layer: [
        { data: { values: [{ fpr: 0, tpr: 0 }, { fpr: 1, tpr: 1 }] }, mark: { type: 'line', strokeDash: [4, 4], color: '#999' }, encoding: { x: { field: 'fpr', type: 'quantitative' }, y: { field: 'tpr', type: 'quantitative' } } },
        {
          data: { values: points.map((p, i) => ({ ...p, i })) },
          mark: { type: 'line', point: { color: '#e45756' }, color: '#e45756' },
          encoding: {
            x: { field: 'fpr', type: 'quantitative', title: 'false-positive rate', scale: { domain: [0, 1] } },
            y: { field: 'tpr', type: 'quantitative', title: 'detection rate', scale: { domain: [0, 1] } },
            order: { field: 'i', type: 'quantitative' },
          },
        },
      ],
    } as TopLevelSpec,
  };
}

/** Bypass rate per paraphrase operator with Wilson intervals; dropped when every operator has the same rate, or (attack mode) when none was sampled. */
function operatorBypassChart(r: ReportData, keep: KeepChart): ChartSpec | undefined {
  const ops = operatorBypassRows(r);
  const paraphrased = ops.filter((o) => o.operator !== NONE_OPERATOR);
  const opRates = distinct(paraphrased.map((o) => o.rate));
  const none = ops.find((o) => o.operator === NONE_OPERATOR);
  const flatOps = paraphrased.length > 1 && opRates.length === 1 ? `every one of the ${paraphrased.length} operators has a bypass rate of ${pct0(opRates[0] as number)}${none ? ` (entries without paraphrase: ${pct0(none.rate)})` : ''}` : undefined;
  if (ops.length === 0 && r.attack) keep('operator-bypass', 'Bypass rate per paraphrase operator', 'no paraphrased entry was sampled outside attack mode; per-operator success under attack (flips per query) is in the Adaptive attack section');
  if (!(ops.length > 0 && keep('operator-bypass', 'Bypass rate per paraphrase operator', flatOps))) return undefined;
  return {
    id: 'operator-bypass',
    title: 'Bypass rate per paraphrase operator',
    caption: 'Forged entries admitted over forged entries that went through each operator (an entry with several operators counts for each), with Wilson 95% intervals. (none) is the unparaphrased baseline.',
    spec: {
      ...CHART_BASE,
      width: 420,
      data: { values: ops },
      encoding: { y: { field: 'operator', type: 'nominal', title: null, sort: null } },
      layer: [
        { mark: { type: 'bar', color: '#e45756' }, encoding: { x: { field: 'rate', type: 'quantitative', title: 'bypass rate', scale: { domain: [0, 1] }, axis: { format: '.0%' } } } },
        { mark: { type: 'rule', color: '#333' }, encoding: { x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } } },
      ],
    } as TopLevelSpec,
  };
}

/** How often each signal fired, benign and forged apart; needs a signal that fired, dropped when every signal has the same rate. */
function signalChart(r: ReportData, keep: KeepChart): ChartSpec | undefined {
  const sig = signalRows(r);
  const sigRates = distinct(sig.map((x) => x.rate));
  if (!(sig.some((x) => x.fires > 0) && keep('signal-contribution', 'How often each signal fired', sigRates.length === 1 ? `every signal fired on ${pct0(sigRates[0] as number)} of the entries, benign and forged alike` : undefined))) return undefined;
  return {
    id: 'signal-contribution',
    title: 'How often each signal fired',
    caption: 'Share of entries on which each signal scored above 0, benign and forged apart. A signal that fires on forged entries and rarely on benign ones is the one doing the work.',
    spec: {
      ...CHART_BASE,
      height: 200,
      data: { values: sig },
      mark: 'bar',
      encoding: {
        x: { field: 'signal', type: 'nominal', title: 'signal', axis: { labelAngle: 0 } },
        xOffset: { field: 'kind', type: 'nominal' },
        y: { field: 'rate', type: 'quantitative', title: 'share of entries', scale: { domain: [0, 1] }, axis: { format: '.0%' } },
        color: { field: 'kind', type: 'nominal', scale: KIND_COLORS, title: 'entries' },
      },
    } as TopLevelSpec,
  };
}

/**
 * Compiles a Vega-Lite spec and renders it to an SVG string, headless (no canvas, no DOM).
 * @throws Error when the spec does not compile or render (a programming error).
 */
async function renderChartSvg(spec: TopLevelSpec, vega: typeof Vega, compile: typeof import('vega-lite').compile): Promise<string> {
  const compiled = compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

type ChartPackages = { ok: true; vega: typeof Vega; compile: typeof import('vega-lite').compile } | { ok: false; hint: string };
let packages: Promise<ChartPackages> | undefined;

/**
 * Loads `vega` and `vega-lite` once.
 * @returns both modules, or `{ ok: false, hint }` naming the missing package and the install command.
 */
export function chartPackages(): Promise<ChartPackages> {
  return (packages ??= (async (): Promise<ChartPackages> => {
    const purpose = "the HTML report's charts";
    const both = ['vega', 'vega-lite'] as const;
    const vega = await importOptional('vega', () => import('vega'), purpose, both);
    if (!vega.ok) return { ok: false, hint: vega.hint };
    const vl = await importOptional('vega-lite', () => import('vega-lite'), purpose, both);
    if (!vl.ok) return { ok: false, hint: vl.hint };
    return { ok: true, vega: vega.module, compile: vl.module.compile };
  })());
}

/**
 * Every chart the report supports, rendered to SVG (see {@link chartSpecs}); none when
 * `vega` or `vega-lite` is not installed ({@link chartPackages} says so).
 * @example
 * for (const c of await renderCharts(report)) console.log(c.id, c.svg.length);
 */
export async function renderCharts(r: ReportData): Promise<ChartSvg[]> {
  const pk = await chartPackages();
  if (!pk.ok) return [];
  const out: ChartSvg[] = [];
  for (const c of chartSpecs(r)) out.push({ id: c.id, title: c.title, caption: c.caption, svg: await renderChartSvg(c.spec, pk.vega, pk.compile) });
  return out;
}
