/**
 * The report of `farma-fuzz fpr` (`fpr.json`) and its markdown (`fpr.md`, and the console text
 * with `maxRejections: 0`): a guard's false-positive rate on benign traces, with Wilson 95%
 * intervals (paper §V-E, RQ5), beside the real sets, the realism gap and the leave-one-source-out
 * check (docs/calibration.md). `src/campaign/fpr.ts` measures it; this file only shapes and renders.
 */
import type { Phase } from '../domain/guard.js';
import { DOMAINS } from '../domain/fuzz-case.js';
import { unreadLinesHead } from './percent.js';
import { pct } from './markdown.js';
import { printableLine } from './format-verdict.js';
import type { Interval, LosoCheckRow } from './model.js';
import { exportVerdict, preferenceOf, type PredictorValidation } from '../metrics/predictor-validation.js';

/** A benign entry the guard rejected, with the layer and the signals that fired. */
export interface FprRejection {
  set: string;
  id: string;
  template?: string;
  traceType: string;
  layer?: string;
  signals: string;
  reasons: string[];
  content: string;
}

/** One row of the FPR breakdown: a set (or domain), a dimension and one of its values. */
export interface FprBreakdownRow {
  /** `generated`: the natural estimate; `stress`: hard negatives (never the estimate); `real`: traces nobody here wrote; `curated`: the hand-written set (ours, kept apart from real). */
  kind: 'generated' | 'stress' | 'real' | 'curated';
  set: string;
  dimension: 'all' | 'domain' | 'traceType' | 'format' | 'language' | 'hardNegative';
  value: string;
  fpr: Interval;
  errors: number;
}

/** One real set beside the estimate. */
export interface RealSetGap {
  set: string;
  source: string;
  real: Interval;
  errors: number;
  /** Lines of a `--benign` export that hold no measured entry (unreadable, empty, repeated id); the gate counts them against the guard. */
  unreadLines?: number;
  /** |estimate − real| over judged rows, in [0,1]; absent when the set has no judged row. */
  gap?: number;
  /** True when the estimate lies inside the set's Wilson 95% interval (judged rows). */
  estimateInCi: boolean;
  /** Half the width of the set's Wilson 95% interval, in [0,1]: a gap below it is sampling noise. */
  halfWidth: number;
}

/**
 * One real set beside the generated estimates that match it (docs/calibration.md, "Per profile"):
 * - `profile`: the generator domain of the set (`all domains` when it has none), and that
 *   domain's estimate under the checked-in calibration;
 * - `matched`: the estimate under a calibration on this set's text alone (kinds, trace types,
 *   episode lengths, store structure; never a verdict), over the same domain(s), with the store
 *   structure of the set and of its matched generated trajectories (`structure`).
 * Gaps are |estimate − real| over judged rows, in [0,1]; `halfWidth` as in `RealSetGap`.
 */
export interface ProfileRow {
  set: string;
  profile: string;
  real: Interval;
  realErrors: number;
  halfWidth: number;
  profileEstimate: Interval;
  profileGap?: number;
  matched?: { estimate: Interval; errors: number; gap?: number; structure?: { real: StructureRates; generated: StructureRates } };
  /** The set is the user's `--benign` export (not a bundled set). */
  userExport?: boolean;
}

/**
 * Store structure of a set's entries in their store context, as rates in [0,1]
 * (docs/calibration.md, "Store structure"): no near-repeat (`alone`); a near-repeat group larger
 * than / as large as / smaller than the largest rival group (`win`, `tie`, `lose`); the median
 * overlap of direct near-repeats (`overlap`); the share of direct near-repeats that are
 * entity-sharing reframes (`reframe`); the share of entries that are short observations (`short`); the share of entries that are entity-free turns (`entityFree`); the share of group members that are indirect (`indirect`: near-repeats of another member, not of the entry).
 */
export interface StructureRates {
  alone: number;
  win: number;
  tie: number;
  lose: number;
  overlap: number;
  reframe: number;
  short: number;
  entityFree: number;
  indirect: number;
}

/** Leave-one-source-out: calibrated without `leftOut`, estimated, compared with it (the fuzz report's row shape). */
export type LosoRow = LosoCheckRow;

/** What `fpr` measures for one guard (`fpr.json`). Rates are in [0,1]. */
export interface GuardFprReport {
  guard: string;
  seed: number;
  runsPerDomain: number;
  /** The generated domains the estimate covers (absent in reports written before it: all). */
  domains?: string[];
  phase: Phase;
  /** How each entry is checked (store context), one sentence. */
  storeContext: string;
  /** The natural estimate over all domains (errors in `n`; see `estimateErrors`). */
  estimate: Interval;
  estimateErrors: number;
  rows: FprBreakdownRow[];
  /** |FPR_estimate − FPR_real| over all generated and all real entries (hand-written set excluded), in [0,1]. */
  realismGap?: number;
  /** The gap for every real set (bundled and `--benign`). */
  realGaps: RealSetGap[];
  /** Leave-one-source-out over the bundled real sources (empty with `--no-real` or `--no-loso`). */
  loso: LosoRow[];
  /** Every real set beside its profile's and its matched estimate (matched absent with `--no-matched`). */
  profiles: ProfileRow[];
  /**
   * The plain estimate (leave-one-source-out) against the matched one on every bundled set, and
   * the one this validation backs for this guard (`src/metrics/predictor-validation.ts`). Absent
   * without the leave-one-source-out check or without matched estimates.
   */
  validation?: PredictorValidation;
  rejections: FprRejection[];
  issues: string[];
}

const pp = (x: number | undefined): string => (x === undefined ? 'n/a (no judged row)' : `${(x * 100).toFixed(2)} pp`);

/** The section "Which estimate to trust": plain (leave-one-source-out) against matched, per bundled set. */
function renderValidation(v: PredictorValidation): string[] {
  const yn = (b: boolean): string => (b ? 'yes' : 'no');
  const out = ['', '### Which estimate to trust (validated on the bundled sets)', ''];
  out.push("For every bundled set: the *plain* estimate calibrated on all the other sets (leave-one-source-out, so the set is out of sample) and the *matched* estimate calibrated on the set's own text, each against the FPR measured on the set. Within noise: the gap is at most the set's Wilson half-width.", '');
  out.push('| set | half-width | plain gap | within noise | matched gap | within noise |');
  out.push('| --- | ---: | ---: | --- | ---: | --- |');
  for (const s of v.sets) out.push(`| ${s.set} | ${pp(s.halfWidth)} | ${pp(s.plainGap)} | ${yn(s.plainWithinNoise)} | ${pp(s.matchedGap)} | ${yn(s.matchedWithinNoise)} |`);
  const line = (name: string, x: PredictorValidation['plain']): string => `${name}: within noise on ${x.withinNoise} of ${v.sets.length} sets, mean gap ${pp(x.meanGap)}, largest ${pp(x.maxGap)} (${pp(x.maxExcess)} beyond its set's noise)`;
  out.push('', `${line('Plain', v.plain)}; ${line('matched', v.matched)}. The validation backs the **${v.preferred}** estimate for this guard (more sets within noise, then the smaller mean gap; plain on a tie).`);
  return out;
}

/**
 * Why the validation prefers the other estimate to `which`, in the terms of its rule
 * (`preferenceOf`): e.g. "within noise on 14 of 14 held-out sets, as the matched one, but its
 * mean gap is larger (1.54 pp against 1.07 pp)".
 */
function otherBacking(v: PredictorValidation, which: 'plain' | 'matched'): string {
  const x = v[which];
  const y = v[which === 'plain' ? 'matched' : 'plain'];
  const shown = which === 'plain' ? 'matched' : 'plain';
  const within = `within noise on ${x.withinNoise} of ${v.sets.length} held-out sets`;
  const { by } = preferenceOf(v.plain, v.matched);
  if (by === 'sets') return `the validation does not back it for this guard (${within}, the ${shown} one on ${y.withinNoise})`;
  if (by === 'mean-gap') return `the validation does not back it for this guard: ${within}, as the ${shown} one, but its mean gap is larger (${pp(x.meanGap)} against ${pp(y.meanGap)})`;
  return `the validation does not back it for this guard (${within}, as the plain one, with the same mean gap: on a tie the plain estimate is shown)`;
}

/** The section "Your export": the validated prediction for the user's memory, and what its gap means. */
function renderExport(x: ProfileRow, v: PredictorValidation | undefined): string[] {
  const out = ['', `### Your export: ${x.set}`, ''];
  const useMatched = v?.preferred === 'matched' && x.matched !== undefined;
  const estimate = useMatched ? x.matched!.estimate : x.profileEstimate;
  const gap = useMatched ? x.matched!.gap : x.profileGap;
  const maxGap = v === undefined ? undefined : useMatched ? v.matched.maxGap : v.plain.maxGap;
  const excess = v === undefined ? undefined : useMatched ? v.matched.maxExcess : v.plain.maxExcess;
  const name = useMatched ? "the matched estimate (the natural mix calibrated on your export's text alone: kinds, trace types, episode lengths, store structure; never a verdict)" : `the plain estimate (the checked-in calibration, ${x.profile})`;
  const backing = v === undefined ? 'no validation ran (it needs the bundled real sets, the leave-one-source-out check and the matched estimates)' : `the validation on ${v.sets.length} bundled sets backs it for this guard (largest held-out gap ${pp(maxGap)})`;
  out.push(`Real FPR on your export ${pct(x.real)} (half-width ${pp(x.halfWidth)}). Prediction: ${name}, ${pct(estimate)}; ${backing}.`);
  if (gap === undefined) {
    out.push('', 'No entry of the export was judged: no gap.');
    return out;
  }
  const verdict = exportVerdict(gap, x.halfWidth, excess);
  const allowance = `half-width + ${pp(excess)}, the largest gap beyond sampling noise it showed on a held-out set`;
  const said = {
    'within-noise': 'within sampling noise: the prediction holds on your memory',
    'within-validated-error': `outside sampling noise, but within the error this predictor showed on held-out sets (${allowance}): the tool cannot say your memory behaves differently`,
    outside: `beyond both the sampling noise and the error this predictor showed on held-out sets (${allowance}): the estimate does not describe memory like yours for this guard; trust the FPR measured on your export`,
    unvalidated: 'outside sampling noise; without a validation run the tool makes no claim about what that means',
  }[verdict];
  out.push('', `Gap ${pp(gap)}: ${said}.`);
  const other = useMatched ? `plain estimate ${pct(x.profileEstimate)} (gap ${pp(x.profileGap)})` : x.matched ? `matched estimate ${pct(x.matched.estimate)} (gap ${pp(x.matched.gap)})` : undefined;
  if (other !== undefined) out.push('', `For comparison, the ${other}${v ? ` — ${otherBacking(v, useMatched ? 'plain' : 'matched')}` : ''}.`);
  return out;
}

/** Markdown: the estimate and the calibration check first, then stress, breakdowns and rejections. */
export function renderFprMarkdown(r: GuardFprReport, options: { maxRejections?: number } = {}): string {
  const out: string[] = [];
  out.push(...estimateMarkdown(r));
  if (r.profiles.length > 0) out.push(...profilesMarkdown(r));
  if (r.loso.length > 0) out.push(...losoMarkdown(r));
  out.push(...stressMarkdown(r));
  out.push(...breakdownMarkdown(r));
  out.push(...rejectionsMarkdown(r, options.maxRejections ?? Infinity));
  return out.join('\n');
}

/** The title, the estimate beside each generated domain, real set and hand-written set, and the realism gap lines. */
function estimateMarkdown(r: GuardFprReport): string[] {
  const out: string[] = [];
  out.push(`# FPR of \`${r.guard}\` on benign traces`);
  out.push('');
  out.push(`Seed ${r.seed}, ${r.runsPerDomain} generated traces per domain, ${r.phase} path. Rates with Wilson 95% intervals. Store context: ${r.storeContext}.`);
  out.push('');
  out.push('## Estimate and calibration check');
  out.push('');
  out.push('The estimate is the natural `benign` mix, calibrated on the bundled real traces (docs/calibration.md). Guard errors are counted apart and never enter a gap.');
  out.push('');
  out.push('| kind | set | FPR [95% CI] | rejected / n | errors | gap to estimate | estimate in CI | real CI half-width |');
  out.push('| --- | --- | --- | ---: | ---: | ---: | --- | ---: |');
  const errs = (n: number): string => String(n);
  out.push(`| **estimate** | natural benign mix, ${r.domains === undefined || r.domains.length === DOMAINS.length ? 'all domains' : r.domains.join(', ')} | **${pct(r.estimate)}** | ${r.estimate.k}/${r.estimate.n} | ${errs(r.estimateErrors)} | | | |`);
  for (const row of r.rows.filter((x) => x.kind === 'generated' && x.dimension === 'domain')) out.push(`| generated | ${row.set} | ${pct(row.fpr)} | ${row.fpr.k}/${row.fpr.n} | ${row.errors} | | | |`);
  for (const g of r.realGaps) out.push(`| real | ${g.set} (${g.source}) | ${pct(g.real)} | ${g.real.k}/${g.real.n} | ${g.errors} | ${pp(g.gap)} | ${g.estimateInCi ? 'yes' : 'no'} | ${pp(g.halfWidth)} |`);
  const pooled = r.rows.find((x) => x.kind === 'real' && x.set === 'all real sets');
  if (pooled) out.push(`| real | all real sets | ${pct(pooled.fpr)} | ${pooled.fpr.k}/${pooled.fpr.n} | ${pooled.errors} | ${pp(r.realismGap)} | | ${pp((pooled.fpr.high - pooled.fpr.low) / 2)} |`);
  for (const row of r.rows.filter((x) => x.kind === 'curated' && x.dimension === 'all')) out.push(`| hand-written (not real) | ${row.set} | ${pct(row.fpr)} | ${row.fpr.k}/${row.fpr.n} | ${row.errors} | | | |`);
  out.push('');
  for (const g of r.realGaps.filter((x) => (x.unreadLines ?? 0) > 0)) out.push(`${unreadLinesHead(g.set, g.unreadLines ?? 0)} (unreadable, empty content, or an id already taken; the warnings name each). They are not in its FPR; \`--max-fpr\` counts them against the guard, since their verdict is unknown.`, '');
  out.push(`Realism gap |FPR_estimate − FPR_real| over all real sets: ${pp(r.realismGap)}; largest over the real sets: ${pp(r.realGaps.reduce<number | undefined>((m, g) => (g.gap === undefined ? m : Math.max(m ?? 0, g.gap)), undefined))}.`);
  const bundledGaps = r.realGaps.filter((g) => g.source !== 'user export' && g.gap !== undefined);
  if (bundledGaps.length > 0) out.push('', `Estimate inside the set's Wilson 95% interval: ${bundledGaps.filter((g) => g.estimateInCi).length} of ${bundledGaps.length} bundled sets; gap within the set's half-width (sampling noise): ${bundledGaps.filter((g) => (g.gap ?? 1) <= g.halfWidth).length} of ${bundledGaps.length}.`);
  return out;
}

/** Each real set beside its profile's estimate (and the matched estimate), store structure, the validation and the user exports. */
function profilesMarkdown(r: GuardFprReport): string[] {
  const out: string[] = [];
  const matched = r.profiles.some((x) => x.matched !== undefined);
  out.push('');
  out.push('## Per profile');
  out.push('');
  out.push(
    `Each real set beside the estimate of its generator domain (its *profile*; \`all domains\` when it has none)${matched ? ", and beside the *matched* estimate: the natural mix calibrated on that set's text alone (kinds, trace types, episode lengths, store structure; never a verdict)" : ''}. A gap below the set's Wilson half-width is within sampling noise.`,
  );
  out.push('');
  out.push(`| set | profile | FPR [95% CI] | half-width | profile estimate | gap |${matched ? ' matched estimate | gap |' : ''} within noise${matched ? ' (profile / matched)' : ''} |`);
  out.push(`| --- | --- | --- | ---: | --- | ---: |${matched ? ' --- | ---: |' : ''} --- |`);
  const within = (gap: number | undefined, x: ProfileRow): string => (gap === undefined ? 'n/a' : gap <= x.halfWidth ? 'yes' : 'no');
  for (const x of r.profiles) {
    const m = x.matched ? ` ${pct(x.matched.estimate)} | ${pp(x.matched.gap)} |` : matched ? ' | |' : '';
    out.push(`| ${x.set} | ${x.profile} | ${pct(x.real)} | ${pp(x.halfWidth)} | ${pct(x.profileEstimate)} | ${pp(x.profileGap)} |${m} ${within(x.profileGap, x)}${x.matched ? ` / ${within(x.matched.gap, x)}` : ''} |`);
  }
  const largest = (f: (x: ProfileRow) => number | undefined): string => pp(r.profiles.reduce<number | undefined>((acc, x) => (f(x) === undefined ? acc : Math.max(acc ?? 0, f(x) as number)), undefined));
  const bundled = r.profiles.filter((x) => x.userExport !== true);
  const count = (f: (x: ProfileRow) => number | undefined): number => bundled.filter((x) => within(f(x), x) === 'yes').length;
  out.push('', `Largest profile gap: ${largest((x) => x.profileGap)}${matched ? `; largest matched gap: ${largest((x) => x.matched?.gap)}` : ''}; within noise: profile ${count((x) => x.profileGap)}${matched ? `, matched ${count((x) => x.matched?.gap)}` : ''} of ${bundled.length} bundled sets. The profile estimate is in sample (its calibration saw the set); the validated comparison is below.`);
  const withStructure = r.profiles.filter((x) => x.matched?.structure !== undefined);
  if (withStructure.length > 0) {
    const share = (x: number): string => `${Math.round(x * 100)}%`;
    out.push('', '### Store structure, real and generated (matched calibration)', '');
    out.push("Each set's entries in their store context, and the generated trajectories of its matched calibration (probe of 300 per domain): no near-repeat in the store (alone); a near-repeat group (single linkage, content-word overlap ≥ 0.3) larger than, as large as, or smaller than the largest rival group (win / tie / lose); the median overlap of direct near-repeats; the share of direct near-repeats that name the same entities in another frame (reframe); the share of entries with 6 content words or fewer (short); the share of entries of more than 6 content words that name no entity (entity-free); the share of group members that repeat another member but not the entry (indirect). Text features only, never a verdict.", '');
    out.push('| set | alone (real / generated) | win | tie | lose | near-repeat overlap, median | reframe | short | entity-free | indirect |');
    out.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const x of withStructure) {
      const { real: a, generated: g } = x.matched!.structure!;
      out.push(`| ${x.set} | ${share(a.alone)} / ${share(g.alone)} | ${share(a.win)} / ${share(g.win)} | ${share(a.tie)} / ${share(g.tie)} | ${share(a.lose)} / ${share(g.lose)} | ${a.overlap.toFixed(2)} / ${g.overlap.toFixed(2)} | ${share(a.reframe)} / ${share(g.reframe)} | ${share(a.short)} / ${share(g.short)} | ${share(a.entityFree)} / ${share(g.entityFree)} | ${share(a.indirect)} / ${share(g.indirect)} |`);
    }
  }
  if (r.validation !== undefined) out.push(...renderValidation(r.validation));
  for (const x of r.profiles.filter((y) => y.userExport === true)) out.push(...renderExport(x, r.validation));
  return out;
}

/** Leave-one-source-out: each bundled source against the estimate calibrated without it. */
function losoMarkdown(r: GuardFprReport): string[] {
  const out: string[] = [];
  out.push('');
  out.push('## Leave-one-source-out');
  out.push('');
  out.push('Calibrated on every bundled real source but one, estimated on the same seed, compared with the source left out.');
  out.push('');
  out.push('| left out | estimate without it [95% CI] | errors | FPR on it [95% CI] | errors | gap |');
  out.push('| --- | --- | ---: | --- | ---: | ---: |');
  for (const l of r.loso) out.push(`| ${l.leftOut} | ${pct(l.estimate)} | ${l.estimateErrors} | ${pct(l.real)} | ${l.realErrors} | ${pp(l.gap)} |`);
  const gaps = r.loso.flatMap((l) => (l.gap === undefined ? [] : [l.gap]));
  if (gaps.length > 0) out.push('', `Largest leave-one-source-out gap: ${pp(Math.max(...gaps))}.`);
  return out;
}

/** The hard negatives (`benign-stress`), overall and per kind; nothing without them. */
function stressMarkdown(r: GuardFprReport): string[] {
  const out: string[] = [];
  const stressAll = r.rows.find((x) => x.kind === 'stress' && x.dimension === 'all');
  if (stressAll) {
    out.push('');
    out.push('## Hard negatives (`benign-stress`; hunts false positives, never the estimate)');
    out.push('');
    out.push('| set | kind of hard negative | FPR [95% CI] | rejected / n | errors |');
    out.push('| --- | --- | --- | ---: | ---: |');
    out.push(`| all domains | all | ${pct(stressAll.fpr)} | ${stressAll.fpr.k}/${stressAll.fpr.n} | ${stressAll.errors} |`);
    for (const row of r.rows.filter((x) => x.kind === 'stress' && x.dimension === 'hardNegative')) out.push(`| ${row.set} | ${row.value} | ${pct(row.fpr)} | ${row.fpr.k}/${row.fpr.n} | ${row.errors} |`);
  }
  return out;
}

/** FPR by trace type, format, language and kind (stress rows apart). */
function breakdownMarkdown(r: GuardFprReport): string[] {
  const out: string[] = [];
  for (const dim of ['traceType', 'format', 'language', 'hardNegative'] as const) {
    const rows = r.rows.filter((x) => x.dimension === dim && x.kind !== 'stress');
    if (rows.length === 0) continue;
    out.push('');
    out.push(`## By ${dim === 'hardNegative' ? 'kind (hard negative or ordinary)' : dim}`);
    out.push('');
    out.push(`| kind | set | ${dim === 'hardNegative' ? 'kind' : dim} | FPR [95% CI] | rejected / n |`);
    out.push('| --- | --- | --- | --- | ---: |');
    for (const row of rows) out.push(`| ${row.kind} | ${row.set} | ${row.value} | ${pct(row.fpr)} | ${row.fpr.k}/${row.fpr.n} |`);
  }
  return out;
}

/** The rejected entries grouped by set and template; with `max` infinite, every rejected entry too. */
function rejectionsMarkdown(r: GuardFprReport, max: number): string[] {
  const out: string[] = [];
  out.push('');
  out.push(`## Rejected benign entries (${r.rejections.length})`);
  out.push('');
  const byTemplate = new Map<string, FprRejection[]>();
  for (const x of r.rejections) {
    const key = `${x.set} · ${x.template ?? x.id}`;
    byTemplate.set(key, [...(byTemplate.get(key) ?? []), x]);
  }
  out.push('| set · template | count | layer | signals | reasons | example |');
  out.push('| --- | ---: | --- | --- | --- | --- |');
  for (const [key, list] of [...byTemplate.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))) {
    const x = list[0]!;
    out.push(`| ${printableLine(key)} | ${list.length} | ${printableLine(x.layer ?? '-')} | ${x.signals} | ${printableLine(x.reasons.join('; ')).replace(/\|/g, '\\|')} | ${printableLine(x.content.slice(0, 140).replace(/\s+/g, ' ')).replace(/\|/g, '\\|')} |`);
  }
  if (Number.isFinite(max)) return out;
  out.push('');
  out.push('Every rejected entry:');
  out.push('');
  for (const x of r.rejections) out.push(`- ${x.set} \`${printableLine(x.id)}\`${x.template ? ` (${x.template})` : ''} at ${printableLine(x.layer ?? '-')}, signals ${x.signals}: ${printableLine(x.content.replace(/\s+/g, ' ').slice(0, 300))}`);
  return out;
}
