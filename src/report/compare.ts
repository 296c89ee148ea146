/**
 * Two fuzz reports compared, A (before, e.g. version 1 of a guard) against B (after): the
 * change of every rate with Fisher's exact test on the two proportions and Holm's
 * adjustment over all of them (`src/metrics/fisher-exact.ts`); the counterexamples new in B,
 * fixed in B (not found in its run) and still open, by signature; the operators that started
 * or stopped getting through; and every configuration field that differs. Pure: `compare` (src/cli) reads the
 * files, `fuzz --baseline` renders the same model into report.html.
 */
import { fisherExact, holmAdjust } from '../metrics/fisher-exact.js';
import { cellGateRate, realSetRate } from './gate.js';
import { interval, type Interval, type ReportCell, type ReportCounterexample, type ReportData } from './model.js';

/** One configuration field that differs between A and B (`guardOptions.tauGuard`, `seed`, `versions.node`…). */
export interface ConfigDifference {
  key: string;
  /** The value in A as text, `(absent)` when A has none. */
  a: string;
  b: string;
}

/** Which way a rate moved, judged on Holm-adjusted p-values at `alpha`. Every rate here is one where lower is better. */
export type RateChange = 'better' | 'worse' | 'not significant' | 'only in A' | 'only in B';

/**
 * One rate of both reports: a cell's bypass rate or FPR, a real set's FPR, a cell's or real
 * set's error rate (when either side has errors), or the attack success rate. Bypass rates and
 * FPRs count guard errors against the guard with the CI gate's own rates (`cellGateRate`, `realSetRate` in `gate.ts`): a forged entry
 * answered with an error was not rejected, a benign one was not admitted. So a version that
 * crashes where the other rejected is worse, never better.
 */
export interface RateRow {
  /** `ehr/seed`, a real set's name, or `attack (all)`. */
  name: string;
  metric: 'bypass rate' | 'FPR' | 'FPR (hard negatives)' | 'FPR (real set)' | 'error rate' | 'attack success rate';
  a?: Interval;
  b?: Interval;
  /** b.rate − a.rate, in [−1, 1]; absent when one side is missing. */
  delta?: number;
  /** Two-sided p-value of Fisher's exact test, in [0,1]. */
  p?: number;
  /** `p` after Holm's adjustment over every row with both sides. */
  pAdjusted?: number;
  change: RateChange;
}

/** A counterexample signature in the comparison, with where it was found. */
export interface SignatureRow {
  /** `domain|signature` (the signature names family, template, operators and signals fired). */
  key: string;
  signature: string;
  domain: string;
  family: string;
  property: string;
  kind: string;
  /** The id and replay command in the report that has it (B's for new and open, A's for fixed). */
  id: string;
  replay: string;
  /** Why the absence on the other side proves little, when it does (the cell reached `maxFailures`, or did not run). */
  caveat?: string;
}

/** One paraphrase operator measured in both reports (sampled variants and attack mode pooled). */
export interface OperatorRow {
  operator: string;
  group?: string;
  /** Forged entries through the operator that got through, out of those run (attack mode: flips of queries). */
  a: { k: number; n: number };
  b: { k: number; n: number };
  p: number;
  /** `p` after Holm's adjustment over every operator row. */
  pAdjusted: number;
  status: 'started working' | 'stopped working' | 'still working' | 'never worked';
}

/** The result of `compareReports`: both sides, their configuration differences, every rate row with its test, counterexamples new/fixed/open, operators, and the overall verdict. */
export interface Comparison {
  a: ReportSide;
  b: ReportSide;
  configDifferences: ConfigDifference[];
  /** Significance level for `change`, in (0,1). */
  alpha: number;
  rates: RateRow[];
  counterexamples: { new: SignatureRow[]; fixed: SignatureRow[]; open: SignatureRow[] };
  operators: OperatorRow[];
  /**
   * Counts of rate rows by change; `tested`, the rows with both sides; `missingInB`, the rows
   * A has and B lacks (B cannot be shown not to be worse there); whether B is significantly
   * worse anywhere (`regressed`).
   */
  verdict: { better: number; worse: number; unchanged: number; tested: number; missingInB: string[]; regressed: boolean };
}

/** One of the two reports compared: its file, guard, guard configuration hash and date. */
export interface ReportSide {
  /** The file it came from, as given. */
  file: string;
  guard: string;
  guardConfigHash: string;
  generatedAt: string;
}

const ABSENT = '(absent)';
const NONE_OPERATOR = '(none)';

function text(v: unknown): string {
  return v === undefined ? ABSENT : typeof v === 'string' ? v : JSON.stringify(v);
}

/**
 * Every configuration field that differs: the guard, its config hash and options (key by
 * key), the seed, runs per cell, phase, domains, families, max failures, farma-fuzz's and
 * each package's version. Timing and dates are not configuration.
 */
export function configDifferences(a: ReportData, b: ReportData): ConfigDifference[] {
  const out: ConfigDifference[] = [];
  const add = (key: string, x: unknown, y: unknown): void => {
    if (text(x) !== text(y)) out.push({ key, a: text(x), b: text(y) });
  };
  add('tool.version', a.tool.version, b.tool.version);
  const ca = a.config;
  const cb = b.config;
  add('guard', ca.guard, cb.guard);
  add('guardConfigHash', ca.guardConfigHash, cb.guardConfigHash);
  const oa = ca.guardOptions ?? {};
  const ob = cb.guardOptions ?? {};
  for (const k of [...new Set([...Object.keys(oa), ...Object.keys(ob)])].sort()) add(`guardOptions.${k}`, oa[k], ob[k]);
  add('seed', ca.seed, cb.seed);
  add('runsPerCell', ca.runsPerCell, cb.runsPerCell);
  add('phase', ca.phase, cb.phase);
  add('domains', ca.domains.join(','), cb.domains.join(','));
  add('families', ca.families.join(','), cb.families.join(','));
  add('maxFailures', ca.maxFailures, cb.maxFailures);
  for (const k of [...new Set([...Object.keys(ca.versions), ...Object.keys(cb.versions)])].sort()) add(`versions.${k}`, ca.versions[k], cb.versions[k]);
  return out;
}

/** `guardOptions.tauGuard: (absent) in A, 0.25 in B; seed: 1 in A, 2 in B`. */
export function describeDifferences(d: readonly ConfigDifference[], nameA = 'A', nameB = 'B'): string {
  return d.map((x) => `${x.key}: ${x.a} in ${nameA}, ${x.b} in ${nameB}`).join('; ');
}

function metricOf(c: ReportCell): RateRow['metric'] {
  if (c.property === 'forgery-rejected') return 'bypass rate';
  return c.family === 'benign-stress' ? 'FPR (hard negatives)' : 'FPR';
}

function rateRow(name: string, metric: RateRow['metric'], a: Interval | undefined, b: Interval | undefined): RateRow {
  if (!a) return { name, metric, ...(b ? { b } : {}), change: 'only in B' };
  if (!b) return { name, metric, a, change: 'only in A' };
  return { name, metric, a, b, delta: b.rate - a.rate, p: fisherExact(a, b), change: 'not significant' };
}

type RealSet = ReportData['fpr']['real'][number];

function rateRows(a: ReportData, b: ReportData, alpha: number): RateRow[] {
  const rows: RateRow[] = [];
  const cellKey = (c: ReportCell): string => `${c.domain}/${c.family}|${c.property}`;
  const bCells = new Map(b.cells.map((c) => [cellKey(c), c]));
  const aCells = new Map(a.cells.map((c) => [cellKey(c), c]));
  const errorRow = (name: string, x: { errors: number; n: number } | undefined, y: { errors: number; n: number } | undefined): void => {
    if ((x?.errors ?? 0) === 0 && (y?.errors ?? 0) === 0) return;
    rows.push(rateRow(name, 'error rate', x ? interval(x.errors, x.n) : undefined, y ? interval(y.errors, y.n) : undefined));
  };
  const cellPair = (x: ReportCell | undefined, y: ReportCell | undefined): void => {
    const c = (x ?? y) as ReportCell;
    const name = `${c.domain}/${c.family}`;
    rows.push(rateRow(name, metricOf(c), x && cellGateRate(x), y && cellGateRate(y)));
    errorRow(name, x && { errors: x.errors, n: x.runs }, y && { errors: y.errors, n: y.runs });
  };
  for (const c of a.cells) cellPair(c, bCells.get(cellKey(c)));
  for (const c of b.cells) if (!aCells.has(cellKey(c))) cellPair(undefined, c);
  const realPair = (x: RealSet | undefined, y: RealSet | undefined): void => {
    const name = (x ?? y)?.name ?? '';
    rows.push(rateRow(name, 'FPR (real set)', x && realSetRate(x.fpr, x.errors, x.unread?.lines ?? 0), y && realSetRate(y.fpr, y.errors, y.unread?.lines ?? 0)));
    errorRow(name, x && { errors: x.errors, n: x.fpr.n }, y && { errors: y.errors, n: y.fpr.n });
  };
  const bReal = new Map(b.fpr.real.map((s) => [s.name, s]));
  for (const s of a.fpr.real) realPair(s, bReal.get(s.name));
  for (const s of b.fpr.real) if (!a.fpr.real.some((x) => x.name === s.name)) realPair(undefined, s);
  if (a.attack || b.attack) rows.push(rateRow('attack (all)', 'attack success rate', a.attack?.overall.asr, b.attack?.overall.asr));
  const tested = rows.map((r, i) => ({ r, i })).filter(({ r }) => r.p !== undefined);
  const adjusted = holmAdjust(tested.map(({ r }) => r.p as number));
  tested.forEach(({ r }, j) => {
    const pa = adjusted[j] as number;
    r.pAdjusted = pa;
    if (pa < alpha && r.delta !== undefined && r.delta !== 0) r.change = r.delta > 0 ? 'worse' : 'better';
  });
  return rows;
}

/** Rows grouped by `domain/family`, in first-seen order (one caveat per cell: it depends on the cell only). */
export function groupByCell<T extends { domain: string; family: string }>(rows: readonly T[]): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const r of rows) {
    const k = `${r.domain}/${r.family}`;
    m.set(k, [...(m.get(k) ?? []), r]);
  }
  return m;
}

function signatureKey(x: ReportCounterexample): string {
  return `${x.domain}|${x.signature}`;
}

function signatureRow(x: ReportCounterexample, caveat?: string): SignatureRow {
  return { key: signatureKey(x), signature: x.signature, domain: x.domain, family: x.family, property: x.property, kind: x.kind ?? x.judgement, id: x.id, replay: x.replay, ...(caveat ? { caveat } : {}) };
}

/** Why not finding a signature in `other` proves little: its cell did not run, or reached the cap of distinct signatures. */
function absenceCaveat(x: ReportCounterexample, other: ReportData, side: 'A' | 'B'): string | undefined {
  const cell = other.cells.find((c) => c.domain === x.domain && c.family === x.family && c.property === x.property);
  if (!cell) return `${x.domain}/${x.family} did not run in ${side}`;
  if (cell.counterexamples.length >= other.config.maxFailures) return `${x.domain}/${x.family} reached ${other.config.maxFailures} signatures (max-failures) in ${side}, so it may still be there`;
  return undefined;
}

function counterexampleDiff(a: ReportData, b: ReportData): Comparison['counterexamples'] {
  const inA = new Map(a.counterexamples.map((x) => [signatureKey(x), x]));
  const inB = new Map(b.counterexamples.map((x) => [signatureKey(x), x]));
  const fresh: SignatureRow[] = [];
  const open: SignatureRow[] = [];
  const fixed: SignatureRow[] = [];
  for (const [k, x] of inB) (inA.has(k) ? open : fresh).push(inA.has(k) ? signatureRow(x) : signatureRow(x, absenceCaveat(x, a, 'A')));
  for (const [k, x] of inA) if (!inB.has(k)) fixed.push(signatureRow(x, absenceCaveat(x, b, 'B')));
  return { new: fresh, fixed, open };
}

/** Per operator: forged entries through it that got through, over the forged cells' breakdowns and attack mode's queries. */
function operatorTally(r: ReportData): Map<string, { k: number; n: number }> {
  const m = new Map<string, { k: number; n: number }>();
  const add = (op: string, k: number, n: number): void => {
    const t = m.get(op) ?? { k: 0, n: 0 };
    t.k += k;
    t.n += n;
    m.set(op, t);
  };
  // In attack mode the adaptive cells hold attacked bases, and the operators are in `attack.operators`.
  for (const c of r.cells) {
    if (c.property !== 'forgery-rejected' || (r.attack && c.family === 'adaptive')) continue;
    for (const [op, t] of Object.entries(c.breakdown.operator)) if (op !== NONE_OPERATOR && !op.startsWith('discarded')) add(op, t.violations, t.runs);
  }
  for (const o of r.attack?.operators ?? []) add(o.operator, o.flips, o.queries);
  return m;
}

function operatorRows(a: ReportData, b: ReportData): OperatorRow[] {
  const ta = operatorTally(a);
  const tb = operatorTally(b);
  const groups = { ...(a.operatorGroups ?? {}), ...(b.operatorGroups ?? {}) };
  const rows: OperatorRow[] = [];
  for (const op of [...new Set([...ta.keys(), ...tb.keys()])].sort()) {
    const x = ta.get(op);
    const y = tb.get(op);
    if (!x || !y || x.n === 0 || y.n === 0) continue; // measured on one side only: nothing to compare
    const status = x.k === 0 ? (y.k === 0 ? 'never worked' : 'started working') : y.k === 0 ? 'stopped working' : 'still working';
    rows.push({ operator: op, ...(groups[op] ? { group: groups[op] } : {}), a: x, b: y, p: fisherExact(x, y), pAdjusted: 1, status });
  }
  holmAdjust(rows.map((r) => r.p)).forEach((pa, i) => {
    (rows[i] as OperatorRow).pAdjusted = pa;
  });
  return rows;
}

/**
 * Compares report A (before) with report B (after).
 *
 * @param alpha significance level in (0,1) for calling a rate better or worse, on the
 *   Holm-adjusted p-value (default 0.05).
 * @throws RangeError when `alpha` is not in (0,1) (a programming error; the CLI checks the flag).
 * @example
 * const c = compareReports(v1, v2, { fileA: 'v1/report.json', fileB: 'v2/report.json' });
 * if (c.verdict.regressed) console.log(renderComparisonText(c));
 */
export function compareReports(a: ReportData, b: ReportData, options: { alpha?: number; fileA?: string; fileB?: string } = {}): Comparison {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`compareReports: alpha must be in (0,1), got ${alpha}`);
  const rates = rateRows(a, b, alpha);
  const side = (r: ReportData, file: string | undefined): ReportSide => ({ file: file ?? '', guard: r.config.guard, guardConfigHash: r.config.guardConfigHash, generatedAt: r.generatedAt });
  const worse = rates.filter((r) => r.change === 'worse').length;
  const better = rates.filter((r) => r.change === 'better').length;
  const tested = rates.filter((r) => r.p !== undefined).length;
  const missingInB = rates.filter((r) => r.change === 'only in A').map((r) => `${r.name} ${r.metric}`);
  return {
    a: side(a, options.fileA),
    b: side(b, options.fileB),
    configDifferences: configDifferences(a, b),
    alpha,
    rates,
    counterexamples: counterexampleDiff(a, b),
    operators: operatorRows(a, b),
    verdict: { better, worse, unchanged: tested - better - worse, tested, missingInB, regressed: worse > 0 },
  };
}

function signed(x: number): string {
  const v = (x * 100).toFixed(1);
  return x > 0 ? `+${v} pp` : x < 0 ? `${v.replace('-', '−')} pp` : '0.0 pp';
}

function pValue(p: number | undefined): string {
  if (p === undefined) return '';
  return p < 0.0001 ? '<0.0001' : p.toFixed(4);
}

/** A table with columns padded to their widest cell (plain text that is also a markdown table). */
function table(head: string[], rows: string[][]): string[] {
  const width = head.map((h, i) => Math.max([...h].length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c + ' '.repeat((width[i] ?? 0) - [...c].length)).join(' | ')} |`;
  return [line(head), `|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
}

/** The rate rows as table cells: name, metric, A and B (rate, k/n), change, p, Holm p, verdict. The Wilson intervals are in the JSON. */
export function rateTableRows(c: Comparison): string[][] {
  const side = (i: Interval | undefined): string => (i ? `${(i.rate * 100).toFixed(1)}% (${i.k}/${i.n})` : '-');
  return c.rates.map((r) => [r.name, r.metric, side(r.a), side(r.b), r.delta !== undefined ? signed(r.delta) : '', pValue(r.p), pValue(r.pAdjusted), r.change]);
}

const RATE_TABLE_HEAD = ['cell', 'rate', 'A (k/n)', 'B (k/n)', 'change', 'p Fisher', 'p Holm', 'verdict'];

/** The comparison as plain text (markdown tables): what `farma-fuzz compare` prints. */
export function renderComparisonText(c: Comparison): string {
  const out: string[] = [];
  out.push(`farma-fuzz compare: A = ${c.a.guard} (${c.a.guardConfigHash}) ${c.a.file}`);
  out.push(`                    B = ${c.b.guard} (${c.b.guardConfigHash}) ${c.b.file}`);
  if (c.configDifferences.length > 0) out.push(`configurations differ (allowed): ${describeDifferences(c.configDifferences)}`);
  out.push('');
  out.push(`Rates (lower is better for each). Fisher's exact test on the two proportions, two-sided; a change counts at Holm-adjusted p < ${c.alpha} over the ${c.verdict.tested} tests.`);
  if (c.rates.some((r) => r.metric === 'error rate')) out.push('The guard answered error on some calls: bypass rates and FPRs count each error against the guard, as the CI gate does (an error is neither a rejection nor an admission), and the error rate rows give the errors alone.');
  out.push('');
  out.push(...table(RATE_TABLE_HEAD, rateTableRows(c)));
  out.push('');
  const cx = c.counterexamples;
  out.push(`Counterexamples by signature: ${cx.new.length} new in B, ${cx.fixed.length} fixed in B, ${cx.open.length} still open.`);
  const list = (title: string, rows: SignatureRow[]): void => {
    if (rows.length === 0) return;
    out.push('', `${title} (${rows.length}):`);
    for (const [cellName, group] of groupByCell(rows)) {
      const caveat = group[0]?.caveat;
      out.push(`  ${cellName}${caveat ? ` (${caveat.replace(`${cellName} `, '')})` : ''}:`);
      for (const r of group) out.push(`    - ${r.kind} ${r.signature}  ${/^(npm|npx|farma-fuzz|node) /.test(r.replay) ? r.replay : r.id}`);
    }
  };
  list('New in B', cx.new);
  list('Fixed in B (not found in its run)', cx.fixed);
  if (cx.open.length > 0) out.push('', `Still open: ${cx.open.length} (--json lists them).`);
  out.push('');
  const moved = c.operators.filter((o) => o.status === 'started working' || o.status === 'stopped working');
  const still = c.operators.filter((o) => o.status === 'still working').length;
  const never = c.operators.filter((o) => o.status === 'never worked').length;
  out.push(`Operators (forged entries through each that got through; attack mode: flips per query): ${moved.filter((o) => o.status === 'started working').length} started working, ${moved.filter((o) => o.status === 'stopped working').length} stopped working, ${still} still working, ${never} never worked.`);
  if (moved.length > 0) {
    out.push('');
    out.push(...table(['operator', 'group', 'A', 'B', 'p Fisher', 'p Holm', 'status'], moved.map((o) => [o.operator, o.group ?? '', `${o.a.k}/${o.a.n}`, `${o.b.k}/${o.b.n}`, pValue(o.p), pValue(o.pAdjusted), o.status])));
    const significant = moved.filter((o) => o.pAdjusted < c.alpha).length;
    const level = `Holm-adjusted p < ${c.alpha}`;
    out.push('', significant === moved.length ? `Each of these changes is significant (${level}).` : significant === 0 ? `None of these changes is significant (${level}): each rests on too few entries to tell it from chance.` : `${significant} of these ${moved.length} changes ${significant === 1 ? 'is' : 'are'} significant (${level}); the others rest on too few entries to tell them from chance.`);
  }
  out.push('');
  const v = c.verdict;
  out.push(v.regressed ? `B is significantly worse than A in ${v.worse} of ${v.tested} rates tested (better in ${v.better}).` : `B is not significantly worse than A in any of the ${v.tested} rates tested (better in ${v.better}).`);
  if (v.missingInB.length > 0) out.push(`B has no result for ${v.missingInB.length} rate${v.missingInB.length === 1 ? '' : 's'} that A has (${v.missingInB.slice(0, 6).join(', ')}${v.missingInB.length > 6 ? ', …' : ''}): B cannot be shown not to be worse there.`);
  return out.join('\n');
}
