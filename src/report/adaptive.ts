/**
 * The adaptive-attacker section of a report: which rewrites bypass a guard and at
 * what rate (per operator and per operator group, Wilson 95% intervals), the minimal operator
 * sets found, what the rewrites cost in claim losses, and what the black-box search cost in
 * queries. Pure renderers over plain data; nothing here imports generators or guards.
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import { DISCARDED_RUN_KEY, discardedOperatorOf, type CellStats, type Tally } from '../fuzz/stats.js';
import { interval, type Interval } from './model.js';
import { pct } from './percent.js';


/** What the section reads from a fuzz report. */
export interface AdaptiveSectionInput {
  cells: ReadonlyArray<{ domain: string; family: string; runs: number; violations: number; breakdown: CellStats['breakdown'] }>;
  counterexamples: ReadonlyArray<{ family: string; domain: string; case: FuzzCase }>;
  /** Operator id → group (e.g. from `listOperators()`); without it the group table is left out. */
  operatorGroups?: Readonly<Record<string, string>>;
  /** Families to read (default `['adaptive']`). */
  families?: readonly string[];
}

interface OperatorRate {
  operator: string;
  group?: string;
  /** Bypass rate among runs whose variant used this operator. */
  bypass: Interval;
  /** Rewrites with this operator that lost the claim and fell back to the base case. */
  discarded: number;
}

function add(into: Tally, t: Tally): void {
  into.runs += t.runs;
  into.violations += t.violations;
  into.errors += t.errors;
}

/** Per-operator and per-group bypass rates (Wilson 95%) and discard counts, from the cells' operator breakdowns. */
function adaptiveRates(input: AdaptiveSectionInput): { operators: OperatorRate[]; groups: Array<{ group: string; bypass: Interval }>; runs: number; discardedRuns: number } {
  const families = input.families ?? ['adaptive'];
  const cells = input.cells.filter((c) => families.includes(c.family));
  const kept = new Map<string, Tally>();
  const discarded = new Map<string, number>();
  for (const cell of cells) {
    for (const [op, t] of Object.entries(cell.breakdown.operator)) {
      if (op === DISCARDED_RUN_KEY) continue;
      const id = discardedOperatorOf(op);
      if (id !== undefined) {
        discarded.set(id, (discarded.get(id) ?? 0) + t.runs);
      } else {
        const into = kept.get(op) ?? { runs: 0, violations: 0, errors: 0 };
        add(into, t);
        kept.set(op, into);
      }
    }
  }
  const ids = [...new Set([...kept.keys(), ...discarded.keys()])].sort();
  const operators: OperatorRate[] = ids.map((op) => {
    const t = kept.get(op) ?? { runs: 0, violations: 0, errors: 0 };
    const group = input.operatorGroups?.[op];
    return { operator: op, ...(group !== undefined ? { group } : {}), bypass: interval(t.violations, t.runs), discarded: discarded.get(op) ?? 0 };
  });
  const groups: Array<{ group: string; bypass: Interval }> = [];
  if (input.operatorGroups) {
    const byGroup = new Map<string, Tally>();
    for (const [op, t] of kept) {
      const g = op === '(none)' ? '(none)' : input.operatorGroups[op] ?? '(other)';
      const into = byGroup.get(g) ?? { runs: 0, violations: 0, errors: 0 };
      add(into, t);
      byGroup.set(g, into);
    }
    for (const [g, t] of [...byGroup].sort(([a], [b]) => a.localeCompare(b))) groups.push({ group: g, bypass: interval(t.violations, t.runs) });
  }
  const runs = cells.reduce((n, c) => n + c.runs, 0);
  const discardedRuns = cells.reduce((n, c) => n + (c.breakdown.operator[DISCARDED_RUN_KEY]?.runs ?? 0), 0);
  return { operators, groups, runs, discardedRuns };
}

/** Minimal operator sets among counterexamples: sorted ids joined by ` + ` → count, most frequent first. */
function minimalOperatorSets(counterexamples: AdaptiveSectionInput['counterexamples'], families: readonly string[] = ['adaptive']): Array<{ set: string; count: number; domains: string[] }> {
  const sets = new Map<string, { count: number; domains: Set<string> }>();
  for (const cx of counterexamples) {
    if (!families.includes(cx.family)) continue;
    const ops = cx.case.truth.operators;
    const key = ops.length === 0 ? '(none: the unmutated forgery)' : [...new Set(ops)].sort().join(' + ');
    const s = sets.get(key) ?? { count: 0, domains: new Set<string>() };
    s.count += 1;
    s.domains.add(cx.domain);
    sets.set(key, s);
  }
  return [...sets].map(([set, s]) => ({ set, count: s.count, domains: [...s.domains].sort() })).sort((a, b) => b.count - a.count || a.set.localeCompare(b.set));
}

/**
 * Markdown section for the adaptive family of a fuzz report: bypass rate per operator and per
 * group (Wilson 95%), discards, minimal operator sets; and, when given, the search summary.
 * Returns '' when no cell of the families ran.
 */
export function renderAdaptiveSection(input: AdaptiveSectionInput, search?: SearchSummary): string {
  const rates = adaptiveRates(input);
  if (rates.runs === 0 && search === undefined) return '';
  const out: string[] = ['## Adaptive attacker', ''];
  if (rates.runs > 0) {
    out.push(`${rates.runs} adaptive runs; ${rates.discardedRuns} were rewrites that lost the forged claim and fell back to the unmutated forgery.`);
    out.push('A run counts for every distinct operator it applied, so rows overlap. `(none)` is the unmutated forgery.');
    out.push('');
    out.push('| operator | group | runs | bypass rate [Wilson 95%] | lost-claim rewrites |');
    out.push('| --- | --- | ---: | --- | ---: |');
    for (const r of rates.operators) out.push(`| \`${r.operator}\` | ${r.group ?? ''} | ${r.bypass.n} | ${pct(r.bypass)} | ${r.discarded} |`);
    out.push('');
    if (rates.groups.length > 0) {
      out.push('| operator group | runs | bypass rate [Wilson 95%] |');
      out.push('| --- | ---: | --- |');
      for (const g of rates.groups) out.push(`| ${g.group} | ${g.bypass.n} | ${pct(g.bypass)} |`);
      out.push('');
    }
    const sets = minimalOperatorSets(input.counterexamples, input.families ?? ['adaptive']);
    out.push('Minimal operator sets (shrunk counterexamples):');
    out.push('');
    if (sets.length === 0) out.push('- none: no adaptive counterexample.');
    for (const s of sets) out.push(`- ${s.set}: ${s.count} (${s.domains.join(', ')})`);
    out.push('');
  }
  if (search) out.push(renderSearchSummary(search));
  return out.join('\n');
}

// ---- search summaries -------------------------------------------------------------------

/** One search run: one start case (template) against the guard. */
export interface SearchRow {
  domain: string;
  family: string;
  template: string;
  bypassed: boolean;
  /** Queries spent (queries-to-bypass when bypassed). */
  queries: number;
  /** Mutations of the bypassing case, in order. */
  path: string[];
  /** 1-minimal operator set of the bypass (after removal tests); equals `path` when not minimised. */
  minimal: string[];
  /** Extra queries the minimisation spent (not in `queries`). */
  minimiseQueries: number;
  /** Lowest F seen (0 on a bypass). */
  bestScore: number;
  /** Rewrites proposed and discarded for a lost claim. */
  proposed: number;
  discarded: number;
  restarts: number;
  errors: number;
  /** `pool`: a composition transferred from another start case bypassed it; `search`: fresh search did (bypassed rows of MCTS). */
  flipSource?: 'pool' | 'search';
}

export interface SearchSummary {
  guard: string;
  mode: string;
  strategy: string;
  budget: number;
  seed: number;
  rows: SearchRow[];
  /** Bypass rate over start cases within the full budget. */
  bypass: Interval;
  /**
   * The bypass rate split by the reading its minimal rewrite needs (present when the operators'
   * readings are known): natural (every operator natural) and encoded (at least one encoded), over
   * the searched start cases; they add up to `bypass`.
   */
  bypassByReading?: { natural: Interval; encoded: Interval };
  /** Queries-to-bypass over bypassed rows: min, quartiles, max; absent when none bypassed. */
  queries?: { min: number; q1: number; median: number; q3: number; max: number; mean: number };
  /** Bucket label → rows bypassed with that many queries. */
  histogram: Array<{ bucket: string; count: number }>;
  /** Bypass rate as a function of the budget (Wilson 95%), from the same runs. */
  budgetCurve: Array<{ budget: number; bypass: Interval }>;
  minimalSets: Array<{ set: string; count: number }>;
  resisting: Array<{ domain: string; template: string; bestScore: number }>;
  discarded: number;
  proposed: number;
  /** Start cases the guard admitted unmutated: skipped, not searched (`--from rejected`). */
  skipped?: Array<{ domain: string; family: string; template: string }>;
  /** Start cases whose unmutated check was a guard `error`: not searched, never counted as resisting. */
  errored?: Array<{ domain: string; family: string; template: string; message: string }>;
  /**
   * The transfer pool of the MCTS search (`src/fuzz/pool.ts`): the search's queries up to its
   * first bypass (domains in order, every start case's own query included, minimisation not),
   * and the pool's top compositions. Absent for greedy and beam.
   */
  transfer?: Omit<AttackTransfer, 'domains'>;
}

/** Linear-interpolation quantile (type 7) of sorted numbers; p in [0,1]. */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(sorted.length - 1, lo + 1)] as number;
  return a + (h - lo) * (b - a);
}

const BUCKETS: Array<[string, number, number]> = [
  ['1', 1, 1],
  ['2–5', 2, 5],
  ['6–10', 6, 10],
  ['11–25', 11, 25],
  ['26–50', 26, 50],
  ['51–100', 51, 100],
  ['101–200', 101, 200],
  ['201–500', 201, 500],
  ['> 500', 501, Infinity],
];

/** Default budgets of the budget curve (those up to the run's budget are used, plus the budget itself). */
const BUDGET_POINTS = [10, 25, 50, 100, 200] as const;

/**
 * Summarises search rows. Because a search's query order does not depend on its budget
 * (src/fuzz/search.ts), a row bypasses within budget b exactly when it bypassed with
 * `queries <= b`, so one run gives the whole budget curve.
 */
export function summariseSearch(meta: { guard: string; mode: string; strategy: string; budget: number; seed: number }, rows: SearchRow[], operatorReadings?: Readonly<Record<string, string>>): SearchSummary {
  const hits = rows.filter((r) => r.bypassed);
  const encoded = operatorReadings ? hits.filter((r) => flipReading(r.minimal, (op) => (Object.hasOwn(operatorReadings, op) ? operatorReadings[op] : undefined)) === 'encoded').length : 0;
  const q = hits.map((r) => r.queries).sort((a, b) => a - b);
  const points = [...new Set([...BUDGET_POINTS.filter((b) => b < meta.budget), meta.budget])];
  const sets = new Map<string, number>();
  for (const r of hits) {
    const key = r.minimal.length === 0 ? '(none: the unmutated forgery)' : [...new Set(r.minimal)].sort().join(' + ');
    sets.set(key, (sets.get(key) ?? 0) + 1);
  }
  return {
    ...meta,
    rows,
    bypass: interval(hits.length, rows.length),
    ...(operatorReadings ? { bypassByReading: { natural: interval(hits.length - encoded, rows.length), encoded: interval(encoded, rows.length) } } : {}),
    ...(q.length > 0
      ? {
          queries: {
            min: q[0] as number,
            q1: quantile(q, 0.25),
            median: quantile(q, 0.5),
            q3: quantile(q, 0.75),
            max: q[q.length - 1] as number,
            mean: q.reduce((s, x) => s + x, 0) / q.length,
          },
        }
      : {}),
    histogram: BUCKETS.map(([bucket, lo, hi]) => ({ bucket, count: q.filter((x) => x >= lo && x <= hi).length })).filter((b) => b.count > 0),
    budgetCurve: points.map((b) => ({ budget: b, bypass: interval(hits.filter((r) => r.queries <= b).length, rows.length) })),
    minimalSets: [...sets].map(([set, count]) => ({ set, count })).sort((a, b) => b.count - a.count || a.set.localeCompare(b.set)),
    resisting: rows.filter((r) => !r.bypassed).map((r) => ({ domain: r.domain, template: r.template, bestScore: r.bestScore })),
    discarded: rows.reduce((n, r) => n + r.discarded, 0),
    proposed: rows.reduce((n, r) => n + r.proposed, 0),
  };
}

function num(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/** Markdown for a search summary (the body of `search.md`, or a subsection of a report). */
export function renderSearchSummary(s: SearchSummary): string {
  const out: string[] = [];
  out.push(`### Black-box search: ${s.mode} mode, ${s.strategy}, budget ${s.budget} queries`);
  out.push('');
  const skippedNote =
    (s.skipped && s.skipped.length > 0 ? ` ${s.skipped.length} more start cases were admitted unmutated and skipped (listed below).` : '') +
    (s.errored && s.errored.length > 0 ? ` ${s.errored.length} start cases got a guard error unmutated and were not searched (listed below).` : '');
  out.push(`Start cases searched: ${s.rows.length} (one per template, rejected unmutated). Bypassed within the budget: ${pct(s.bypass)}.${skippedNote}`);
  if (s.bypassByReading) out.push(`By the reading the minimal rewrite needs: natural (a reader takes it as it is) ${pct(s.bypassByReading.natural)}; encoded (a reader must decode it first) ${pct(s.bypassByReading.encoded)}.`);
  if (s.queries) {
    const q = s.queries;
    out.push(`Queries to bypass (bypassed cases only): median ${num(q.median)}, quartiles ${num(q.q1)}–${num(q.q3)}, min ${q.min}, max ${q.max}, mean ${num(q.mean)}.`);
  } else out.push('Queries to bypass: no start case was bypassed.');
  out.push(`Rewrites proposed ${s.proposed}; discarded for a lost claim ${s.discarded} (never sent to the guard, never counted as queries).`);
  if (s.transfer) {
    const t = s.transfer;
    const fromPool = s.rows.filter((r) => r.bypassed && r.flipSource === 'pool').length;
    const fromSearch = s.rows.filter((r) => r.bypassed && r.flipSource === 'search').length;
    out.push(
      `Transfer: bypasses from a composition transferred from another start case ${fromPool}, from fresh search ${fromSearch}; queries to the first bypass ${t.firstFlip ? `${t.firstFlip.queries} (${t.firstFlip.domain})` : '-'}; pool ${t.poolSize} compositions${t.pool.length > 0 ? ` (top: ${t.pool.map((e) => `${e.composition} ${e.successes}/${e.tries}`).join('; ')})` : ''}.`,
    );
  }
  out.push('');
  if (s.histogram.length > 0) {
    out.push('| queries to bypass | start cases |');
    out.push('| --- | ---: |');
    for (const h of s.histogram) out.push(`| ${h.bucket} | ${h.count} |`);
    out.push('');
  }
  out.push('| budget (queries) | bypass rate [Wilson 95%] |');
  out.push('| ---: | --- |');
  for (const b of s.budgetCurve) out.push(`| ${b.budget} | ${pct(b.bypass)} |`);
  out.push('');
  out.push('Minimal operator sets of the bypasses (each tested by removing one operator at a time):');
  out.push('');
  if (s.minimalSets.length === 0) out.push('- none');
  for (const m of s.minimalSets) out.push(`- ${m.set}: ${m.count}`);
  out.push('');
  out.push(s.resisting.length === 0 ? 'Templates that resist: none.' : `Templates that resist (${s.resisting.length}):`);
  if (s.resisting.length > 0) {
    out.push('');
    for (const r of s.resisting) out.push(`- \`${r.template}\` (lowest F ${r.bestScore.toFixed(2)})`);
  }
  out.push('');
  if (s.skipped && s.skipped.length > 0) {
    out.push(`Skipped start cases (admitted unmutated, no search needed): ${s.skipped.map((x) => `\`${x.template}\``).join(', ')}.`);
    out.push('');
  }
  if (s.errored && s.errored.length > 0) {
    out.push(`Start cases the guard answered with an error (not searched, neither bypassed nor resisting; ${s.errored.length}):`);
    out.push('');
    for (const e of s.errored) out.push(`- \`${e.template}\`: ${e.message}`);
    out.push('');
  }
  out.push('| template | result | queries | path | minimal set | discarded / proposed |');
  out.push('| --- | --- | ---: | --- | --- | ---: |');
  for (const r of s.rows) {
    out.push(
      `| \`${r.template}\` | ${r.bypassed ? 'bypassed' : 'resists'} | ${r.queries} | ${r.bypassed ? r.path.join(' → ') || '(unmutated)' : ''} | ${r.bypassed ? r.minimal.join(' + ') || '(none)' : ''} | ${r.discarded} / ${r.proposed} |`,
    );
  }
  out.push('');
  return out.join('\n');
}

// ---- attack mode: TextAttack accounting, flips, coverage ----------------------

/** Counts and rates of attack mode over a set of bases (a cell, a domain, or all of them). */
export interface AttackRates {
  /** Bases drawn. */
  bases: number;
  /** Admitted unmutated: no attack needed (TextAttack's skipped results). */
  skipped: number;
  /** Rejected, then admitted after a claim-keeping rewrite (successful attacks). */
  flipped: number;
  /** Rejected, and still rejected when the per-base budget ran out (failed attacks). */
  held: number;
  /** Guard errors: on the base itself, or during an unflipped attack. Neither a flip nor a hold. */
  errors: number;
  /** Rejected bases / (skipped + flipped + held): the detection rate without attack. */
  originalDetection: Interval;
  /** Held bases / (skipped + flipped + held): the detection rate under attack. */
  underAttack: Interval;
  /** Flipped / (flipped + held): the attack success rate (ASR). */
  asr: Interval;
  /** Queries to flip over the flipped bases (the original query included); absent when none flipped. */
  queriesPerFlip?: { median: number; p90: number; mean: number; max: number };
  /** Queries spent per attacked base (flipped + held), mean; the original query included. */
  queriesPerAttackedBase: number;
  /**
   * The ASR split by the reading the flip needs (present when the operators' readings are known):
   * `natural` counts flips whose minimal operator set is all natural (a reader takes the rewrite as
   * it is), `encoded` flips with at least one encoded operator (a reader must decode it first).
   * Both over the attacked bases, so they add up to `asr`.
   */
  asrByReading?: { natural: Interval; encoded: Interval };
  /**
   * Where the flips came from: `pool` when a composition that had flipped an earlier base,
   * transferred to this one, flipped it; `search` when fresh search found it. They add up to
   * `flipped`. Absent in reports written before the pool existed.
   */
  flipsBySource?: { pool: number; search: number };
}

/** An operator's reading: `natural` or `encoded` (`Operator.reading`, `generators/paraphrase/operator.ts`). */
type ReadingOf = (operator: string) => string | undefined;

/** `encoded` when any operator of a minimal set is encoded, else `natural`. */
function flipReading(minimal: readonly string[] | undefined, readingOf: ReadingOf): 'natural' | 'encoded' {
  return (minimal ?? []).some((op) => readingOf(op) === 'encoded') ? 'encoded' : 'natural';
}

/** One operator (or operator group) in attack mode. */
interface AttackArmRow {
  operator: string;
  group?: string;
  /** Queries whose rewrite added this operator last. */
  queries: number;
  /** Flips found by adding it. */
  flips: number;
  /** Flips per query when it was added (Wilson 95%). */
  flipRate: Interval;
  /** Flips whose minimal operator set holds it, and that share of all flips (Wilson 95%). */
  inMinimal: number;
  minimalShare: Interval;
  /** Rewrites with it that lost the claim (discarded, never queried). */
  discarded: number;
  /** The operator's reading (`natural` or `encoded`); absent for group rows and unknown ids. */
  reading?: string;
}

/** Flips of one operator group, split by the reading of the flip's minimal set (ASR over the attacked bases). */
interface GroupReadingRow {
  group: string;
  /** Flips whose minimal set holds this group and is all natural; their share of the attacked bases. */
  natural: Interval;
  /** Flips whose minimal set holds this group and at least one encoded operator. */
  encoded: Interval;
}

/**
 * How many bases one domain's attack drew, and why it stopped: `settled` (the stop rule of
 * `--precision` / `--target`: the bypass rate under attack was settled) or `cap` (it reached
 * `--attack-bases` before the rate settled) or `budget` (its share of `--max-queries` was spent:
 * the next base or candidate could have passed it).
 */
export interface AttackSampling {
  domain: string;
  /** Bases attacked (each evaluated, the rejected ones attacked). */
  bases: number;
  /** Most bases it could draw (`--attack-bases`, or its query-budget share). */
  cap: number;
  stopped: 'settled' | 'cap' | 'budget';
}

/** The attack-mode part of a fuzz report (`report.json` → `attack`). */
export interface AttackReport {
  budget: number;
  feedback: string;
  /** Per domain: bases attacked and why the attack stopped (present when the stop rule was on, i.e. without `--exhaustive`). */
  sampling?: AttackSampling[];
  overall: AttackRates;
  domains: Array<AttackRates & { domain: string }>;
  /** Per domain × base family (seed, naive, amplification, ...). */
  cells: Array<AttackRates & { domain: string; family: string }>;
  operators: AttackArmRow[];
  groups: AttackArmRow[];
  /** ASR within q queries per base (Wilson 95%), from the queries-to-flip of this run. */
  budgetCurve: Array<{ queries: number; asr: Interval }>;
  /** Rewrites proposed, and discarded because they lost the forged claim (never counted as flips). */
  proposed: number;
  discarded: number;
  /** Guard queries of the attack, minimisation included. */
  totalQueries: number;
  /** `error` verdicts among the attack's queries. */
  queryErrors: number;
  /** Minimal operator sets of the flips: sorted ids joined by ` + ` → count. */
  minimalSets: Array<{ set: string; count: number; domains: string[] }>;
  /** ASR per operator group, natural against encoded (present when the readings are known). */
  groupReadings?: GroupReadingRow[];
  /** Transfer of what worked (present when the attack kept a pool, `src/fuzz/pool.ts`). */
  transfer?: AttackTransfer;
}

/** The transfer pool of the attack: queries to the first flip, and the compositions the pool held. */
export interface AttackTransfer {
  /**
   * The first flip of the attack (domains in order): the attack's queries up to and including it
   * (every base's original and search queries of the domains before it and of its own; minimisation
   * not counted); absent when no base flipped.
   */
  firstFlip?: { domain: string; queries: number };
  /** Per domain: its own search queries up to its first flip (absent when none flipped). */
  domains: Array<{ domain: string; firstFlipQueries?: number }>;
  /** Compositions in the pool at the end. */
  poolSize: number;
  /** The top compositions (most successes first): tries, successes, and the successes from transferred tries. */
  pool: Array<{ composition: string; operators: string[]; tries: number; successes: number; transferred: number }>;
}

/** What `summariseAttack` reads from one base (a `BaseResult` of `src/fuzz/attack.ts`). */
export interface AttackBaseRow {
  domain: string;
  family: string;
  status: 'skipped' | 'flipped' | 'held' | 'error';
  queries: number;
  queryErrors: number;
  proposed: number;
  discarded: number;
  queriesToFlip?: number;
  minimal?: string[];
  /** `pool`: a transferred composition flipped the base; `search`: fresh search did (flipped rows). */
  flipSource?: 'pool' | 'search';
}

/** TextAttack-style rates over base rows (see `AttackRates`); with `readingOf`, the ASR per reading too. Pure. */
export function attackRates(rows: readonly AttackBaseRow[], readingOf?: ReadingOf): AttackRates {
  const n = (s: AttackBaseRow['status']): number => rows.filter((r) => r.status === s).length;
  const skipped = n('skipped');
  const flipped = n('flipped');
  const held = n('held');
  const counted = skipped + flipped + held;
  const q = rows.flatMap((r) => (r.queriesToFlip !== undefined ? [r.queriesToFlip] : [])).sort((a, b) => a - b);
  const attacked = rows.filter((r) => r.status === 'flipped' || r.status === 'held');
  return {
    bases: rows.length,
    skipped,
    flipped,
    held,
    errors: n('error'),
    originalDetection: interval(flipped + held, counted),
    underAttack: interval(held, counted),
    asr: interval(flipped, flipped + held),
    ...(q.length > 0 ? { queriesPerFlip: { median: quantile(q, 0.5), p90: quantile(q, 0.9), mean: q.reduce((a, x) => a + x, 0) / q.length, max: q[q.length - 1] as number } } : {}),
    queriesPerAttackedBase: attacked.length > 0 ? attacked.reduce((a, r) => a + r.queries, 0) / attacked.length : 0,
    flipsBySource: { pool: rows.filter((r) => r.status === 'flipped' && r.flipSource === 'pool').length, search: rows.filter((r) => r.status === 'flipped' && r.flipSource !== 'pool').length },
    ...(readingOf
      ? (() => {
          const encoded = rows.filter((r) => r.status === 'flipped' && flipReading(r.minimal, readingOf) === 'encoded').length;
          return { asrByReading: { natural: interval(flipped - encoded, flipped + held), encoded: interval(encoded, flipped + held) } };
        })()
      : {}),
  };
}

/** Budget points of the attack curve: 1, 2, 3, 5, 10, 15, 20, 30, 50, 100, ... up to the budget. */
function attackBudgetPoints(budget: number): number[] {
  const points = [1, 2, 3, 5, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000].filter((p) => p < budget);
  return [...points, budget];
}

/**
 * Summarises attack mode: per cell (domain × base family), per domain and overall rates with
 * Wilson 95% intervals, per-operator and per-group success, the budget curve, discards and the
 * minimal operator sets. Pure.
 */
export function summariseAttack(input: {
  budget: number;
  feedback: string;
  rows: readonly AttackBaseRow[];
  arms: Readonly<Record<string, { queries: number; flips: number; discarded: number; inMinimal: number }>>;
  totalQueries: number;
  operatorGroups?: Readonly<Record<string, string>>;
  /** Operator id → reading (`natural` | `encoded`); with it, every ASR is also split by reading. */
  operatorReadings?: Readonly<Record<string, string>>;
  /** The transfer pool's figures (copied into the report as they are). */
  transfer?: AttackTransfer;
  /** Bases attacked per domain and why each stopped (with the stop rule). */
  sampling?: readonly AttackSampling[];
}): AttackReport {
  const rows = input.rows;
  const readings = input.operatorReadings;
  const readingOf: ReadingOf | undefined = readings ? (op) => (Object.hasOwn(readings, op) ? readings[op] : undefined) : undefined;
  const rates = (r: readonly AttackBaseRow[]): AttackRates => attackRates(r, readingOf);
  const domains = [...new Set(rows.map((r) => r.domain))];
  const cells = domains.flatMap((domain) =>
    [...new Set(rows.filter((r) => r.domain === domain).map((r) => r.family))].map((family) => ({ domain, family, ...rates(rows.filter((r) => r.domain === domain && r.family === family)) })),
  );
  const flips = rows.filter((r) => r.status === 'flipped').length;
  const armRow = (operator: string, a: { queries: number; flips: number; discarded: number; inMinimal: number }, group?: string): AttackArmRow => ({
    operator,
    ...(group !== undefined ? { group } : {}),
    queries: a.queries,
    flips: a.flips,
    flipRate: interval(a.flips, a.queries),
    inMinimal: a.inMinimal,
    minimalShare: interval(a.inMinimal, flips),
    discarded: a.discarded,
    ...(group !== undefined && readingOf?.(operator) !== undefined ? { reading: readingOf(operator) as string } : {}),
  });
  const operators = Object.entries(input.arms)
    .map(([op, a]) => armRow(op, a, input.operatorGroups?.[op]))
    .sort((a, b) => b.inMinimal - a.inMinimal || b.flips - a.flips || a.operator.localeCompare(b.operator));
  const groups: AttackArmRow[] = [];
  if (input.operatorGroups) {
    const byGroup = new Map<string, { queries: number; flips: number; discarded: number; inMinimal: number }>();
    for (const [op, a] of Object.entries(input.arms)) {
      const g = input.operatorGroups[op] ?? '(other)';
      const acc = byGroup.get(g) ?? { queries: 0, flips: 0, discarded: 0, inMinimal: 0 };
      acc.queries += a.queries;
      acc.flips += a.flips;
      acc.discarded += a.discarded;
      byGroup.set(g, acc);
    }
    // A flip counts once per group in its minimal set.
    for (const r of rows) for (const g of new Set((r.minimal ?? []).map((op) => input.operatorGroups?.[op] ?? '(other)'))) {
      const acc = byGroup.get(g);
      if (acc) acc.inMinimal += 1;
    }
    for (const [g, a] of [...byGroup].sort(([x], [y]) => x.localeCompare(y))) groups.push(armRow(g, a));
  }
  const attacked = rows.filter((r) => r.status === 'flipped' || r.status === 'held').length;
  let groupReadings: GroupReadingRow[] | undefined;
  if (readingOf && input.operatorGroups) {
    const tally = new Map<string, { natural: number; encoded: number }>();
    for (const g of groups) tally.set(g.operator, { natural: 0, encoded: 0 });
    for (const r of rows) {
      if (r.status !== 'flipped') continue;
      const reading = flipReading(r.minimal, readingOf);
      for (const g of new Set((r.minimal ?? []).map((op) => input.operatorGroups?.[op] ?? '(other)'))) {
        const t = tally.get(g) ?? { natural: 0, encoded: 0 };
        t[reading] += 1;
        tally.set(g, t);
      }
    }
    groupReadings = [...tally].sort(([x], [y]) => x.localeCompare(y)).map(([group, t]) => ({ group, natural: interval(t.natural, attacked), encoded: interval(t.encoded, attacked) }));
  }
  const sets = new Map<string, { count: number; domains: Set<string> }>();
  for (const r of rows) {
    if (r.status !== 'flipped') continue;
    const key = (r.minimal ?? []).length === 0 ? '(none)' : [...new Set(r.minimal)].sort().join(' + ');
    const s = sets.get(key) ?? { count: 0, domains: new Set<string>() };
    s.count += 1;
    s.domains.add(r.domain);
    sets.set(key, s);
  }
  return {
    budget: input.budget,
    feedback: input.feedback,
    ...(input.sampling ? { sampling: input.sampling.map((x) => ({ ...x })) } : {}),
    overall: rates(rows),
    domains: domains.map((domain) => ({ domain, ...rates(rows.filter((r) => r.domain === domain)) })),
    cells,
    operators,
    groups,
    budgetCurve: attackBudgetPoints(input.budget).map((q) => ({ queries: q, asr: interval(rows.filter((r) => r.queriesToFlip !== undefined && r.queriesToFlip <= q).length, attacked) })),
    proposed: rows.reduce((a, r) => a + r.proposed, 0),
    discarded: rows.reduce((a, r) => a + r.discarded, 0),
    totalQueries: input.totalQueries,
    queryErrors: rows.reduce((a, r) => a + r.queryErrors, 0),
    minimalSets: [...sets].map(([set, s]) => ({ set, count: s.count, domains: [...s.domains].sort() })).sort((a, b) => b.count - a.count || a.set.localeCompare(b.set)),
    ...(groupReadings ? { groupReadings } : {}),
    ...(input.transfer ? { transfer: input.transfer } : {}),
  };
}

function fmtQ(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

function ratesRow(label: string, r: AttackRates): string {
  const q = r.queriesPerFlip ? `${fmtQ(r.queriesPerFlip.median)} / ${fmtQ(r.queriesPerFlip.p90)}` : '-';
  return `| ${label} | ${r.bases} | ${r.skipped} | ${r.flipped + r.held} | ${r.flipped} | ${r.errors} | ${pct(r.originalDetection)} | ${pct(r.underAttack)} | ${pct(r.asr)} | ${q} |`;
}

/** Markdown of attack mode: the TextAttack table per domain, per cell and overall, operators, groups, budget curve. */
export function renderAttackSection(a: AttackReport): string {
  const out: string[] = ['## Adaptive attack (attack mode)', ''];
  out.push(
    `Each forged base (seed traces, naive attacks, amplification chains and every other forged family) is evaluated once. Bases the guard admits are **skipped**; each rejected base is attacked with at most ${a.budget} queries (the original included), scheduled by MCTS-Explore with UCB1 operator arms, using ${a.feedback === 'decision' ? 'decisions only' : 'the forgery score F where the guard gives one, decisions otherwise'}. Guard errors are counted apart: never a flip, never a hold. Rates carry Wilson 95% intervals.`,
  );
  out.push('');
  if (a.sampling && a.sampling.length > 0) {
    out.push(`Bases drawn per domain (sequential stopping: a domain stops drawing bases once its bypass rate under attack is settled, checked every tenth base): ${a.sampling.map(samplingText).join('; ')}.`);
    out.push('');
  }
  out.push('| scope | bases | skipped | attacked | flipped | errors | original detection | detection under attack | attack success rate | queries per flip (median / p90) |');
  out.push('| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- | --- |');
  out.push(ratesRow('**all**', a.overall));
  for (const d of a.domains) out.push(ratesRow(`**${d.domain}**`, d));
  for (const c of a.cells) out.push(ratesRow(`${c.domain} / ${c.family}`, c));
  out.push('');
  out.push(
    `Claim preservation: ${a.proposed} rewrites proposed, ${a.discarded} discarded because they lost the forged claim (never queried, never counted as flips). Candidates evaluated: ${a.totalQueries} (minimisation included), ${a.queryErrors} of them errors; each is one query of the attack budget, while the run's query accounting (attack mode) counts every guard call: a candidate's attacker writes too, and the re-checks of the flips.`,
  );
  out.push('');
  if (a.overall.asrByReading) {
    out.push(
      'ASR by the reading the flip needs: **natural** flips have a minimal rewrite a reader takes as it is (translation, synonyms, record forms, typos, look-alike letters); **encoded** flips need at least one operator a reader must decode first (leetspeak, base64, ROT13, escapes, invisible tags). An agent may act on the first and not on the second. Both over the attacked bases; they add up to the ASR.',
    );
    out.push('');
    out.push('| scope | attacked | ASR | natural ASR [Wilson 95%] | encoded ASR [Wilson 95%] |');
    out.push('| --- | ---: | --- | --- | --- |');
    for (const [label, r] of [['**all**', a.overall], ...a.domains.map((d) => [`**${d.domain}**`, d] as const)] as const) {
      if (r.asrByReading) out.push(`| ${label} | ${r.flipped + r.held} | ${pct(r.asr)} | ${pct(r.asrByReading.natural)} | ${pct(r.asrByReading.encoded)} |`);
    }
    out.push('');
  }
  if (a.groupReadings && a.groupReadings.length > 0) {
    out.push('ASR per operator group, natural against encoded (flips whose minimal set holds the group, over the attacked bases; a flip with two groups counts for both):');
    out.push('');
    out.push('| operator group | natural flips | natural ASR [Wilson 95%] | encoded flips | encoded ASR [Wilson 95%] |');
    out.push('| --- | ---: | --- | ---: | --- |');
    for (const g of a.groupReadings) out.push(`| ${g.group} | ${g.natural.k} | ${pct(g.natural)} | ${g.encoded.k} | ${pct(g.encoded)} |`);
    out.push('');
  }
  if (a.transfer) {
    const t = a.transfer;
    const src = a.overall.flipsBySource ?? { pool: 0, search: a.overall.flipped };
    out.push(
      `Transfer of what worked: a composition of two or more operators that flips a base joins a pool, and each later base, in this domain and the next, tries the pool's compositions (ranked by UCB1 over their success rate) after its first fresh query, alternating with fresh search (single operators are carried by the shared arm statistics). Flips from the pool ${src.pool}, from fresh search ${src.search}. Queries to the first flip: ${t.firstFlip ? `${t.firstFlip.queries} (in ${t.firstFlip.domain}; every base's original and search queries up to it, minimisation not counted)` : 'none: no base flipped'}.`,
    );
    out.push('');
    out.push('| domain | queries to its first flip | flips from the pool | flips from fresh search |');
    out.push('| --- | ---: | ---: | ---: |');
    for (const d of t.domains) {
      const r = a.domains.find((x) => x.domain === d.domain);
      out.push(`| ${d.domain} | ${d.firstFlipQueries ?? '-'} | ${r?.flipsBySource?.pool ?? 0} | ${r?.flipsBySource?.search ?? 0} |`);
    }
    out.push('');
    out.push(`Top compositions of the pool (${t.poolSize} in all):`);
    out.push('');
    if (t.pool.length === 0) out.push('- none: no base flipped.');
    else {
      out.push('| composition | tries | successes | from transferred tries |');
      out.push('| --- | ---: | ---: | ---: |');
      for (const e of t.pool) out.push(`| ${e.composition} | ${e.tries} | ${e.successes} | ${e.transferred} |`);
    }
    out.push('');
  }
  out.push('Budget curve (attack success rate within q queries per base):');
  out.push('');
  out.push('| queries per base | attack success rate [Wilson 95%] |');
  out.push('| ---: | --- |');
  for (const b of a.budgetCurve) out.push(`| ${b.queries} | ${pct(b.asr)} |`);
  out.push('');
  const armTable = (title: string, rows: AttackArmRow[], withGroup: boolean): void => {
    out.push(`| ${title} |${withGroup ? ' group | reading |' : ''} queries | flips | flips per query [Wilson 95%] | in minimal sets | share of flips [Wilson 95%] | lost-claim rewrites |`);
    out.push(`| --- |${withGroup ? ' --- | --- |' : ''} ---: | ---: | --- | ---: | --- | ---: |`);
    for (const r of rows) out.push(`| \`${r.operator}\` |${withGroup ? ` ${r.group ?? ''} | ${r.reading ?? ''} |` : ''} ${r.queries} | ${r.flips} | ${pct(r.flipRate)} | ${r.inMinimal} | ${pct(r.minimalShare)} | ${r.discarded} |`);
    out.push('');
  };
  armTable('operator', a.operators.filter((r) => r.queries > 0 || r.discarded > 0), true);
  if (a.groups.length > 0) armTable('operator group', a.groups, false);
  out.push('Minimal operator sets of the flips:');
  out.push('');
  if (a.minimalSets.length === 0) out.push('- none: no base flipped.');
  for (const s of a.minimalSets.slice(0, 30)) out.push(`- ${s.set}: ${s.count} (${s.domains.join(', ')})`);
  if (a.minimalSets.length > 30) out.push(`- … ${a.minimalSets.length - 30} more sets in report.json`);
  out.push('');
  return out.join('\n');
}

/** `ehr 40 of up to 200 (settled)`: one domain's bases and why it stopped. */
function samplingText(x: AttackSampling): string {
  return `${x.domain} ${x.bases} of up to ${x.cap} (${x.stopped === 'settled' ? 'settled' : x.stopped === 'budget' ? 'budget' : 'cap reached'})`;
}

/** One line of the console summary per domain: original detection, under attack, ASR, queries per flip. */
export function attackSummaryLines(a: AttackReport): string[] {
  const line = (label: string, r: AttackRates): string =>
    `    ${label.padEnd(10)} bases ${String(r.bases).padStart(4)} · skipped ${String(r.skipped).padStart(4)} · attacked ${String(r.flipped + r.held).padStart(4)} · flipped ${String(r.flipped).padStart(4)}${r.errors > 0 ? ` · errors ${r.errors}` : ''}\n` +
    `               original detection ${pct(r.originalDetection)} · under attack ${pct(r.underAttack)} · ASR ${pct(r.asr)} · queries/flip ${r.queriesPerFlip ? `median ${fmtQ(r.queriesPerFlip.median)}, p90 ${fmtQ(r.queriesPerFlip.p90)}` : '-'}` +
    (r.asrByReading ? `\n               ASR natural ${pct(r.asrByReading.natural)} · encoded ${pct(r.asrByReading.encoded)}` : '') +
    (r.flipped > 0 && r.flipsBySource ? ` · flips from the pool ${r.flipsBySource.pool}, from fresh search ${r.flipsBySource.search}` : '');
  const t = a.transfer;
  return [
    `  adaptive attack (budget ${a.budget} queries per base; rewrites discarded for a lost claim: ${a.discarded}/${a.proposed})`,
    ...a.domains.map((d) => line(d.domain, d)),
    line('all', a.overall),
    ...(a.sampling && a.sampling.length > 0 ? [`    bases drawn: ${a.sampling.map(samplingText).join('; ')}`] : []),
    ...(t
      ? [
          `    transfer   queries to the first flip ${t.firstFlip ? `${t.firstFlip.queries} (${t.firstFlip.domain})` : '-'} · pool ${t.poolSize} compositions${t.pool.length > 0 ? `, top: ${t.pool
              .slice(0, 3)
              .map((e) => `${e.composition} (${e.successes}/${e.tries})`)
              .join('; ')}` : ''}`,
        ]
      : []),
  ];
}
