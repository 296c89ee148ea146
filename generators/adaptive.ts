/**
 * The adaptive attacker (DESIGN.md "adaptive variant"): a forged FARMA case rewritten
 * by a sequence of paraphrase/mutation operators (`generators/paraphrase/`), as a fast-check
 * arbitrary whose operator list shrinks, plus the neighbour function used by the black-box
 * search (`src/fuzz/search.ts`) and the start cases of the `search` command.
 *
 * Claim preservation (the attack's constraint): a rewrite that no longer makes the forged claim
 * (`claimPreserved` is false) is never a bypass candidate; `buildAdaptiveCase` returns one typed
 * `ClaimCheck` (kept, or discarded with the operator). The arbitrary maps a discarded rewrite back
 * to the UNMUTATED base case with `truth.discarded` naming the rewrite's operators. The attacker
 * then "falls back" to the base forgery, which is still a forged entry (its label comes from
 * provenance), so the engine counts it as one more forged run and the report counts the discard
 * per operator. This keeps the arbitrary total (no `.filter`, no `fc.pre`), so fast-check never
 * gives up and shrinking stays a plain shrink of the operator array.
 */
import fc from 'fast-check';
import type { MemoryEntry } from '../src/domain/entry.js';
import type { ClaimCheck, DomainId, FuzzCase, MoveStep } from '../src/domain/fuzz-case.js';
import { UsageError } from '../src/domain/errors.js';
import { amplificationChain, attackChoice, attackTemplates, buildChainCase, buildEntryCase, seedTrace } from './farma.js';
import type { ChainValue, EntryValue } from './farma.js';
import { subjectSlots } from './slots.js';
import { naiveAttack } from './naive.js';
import { applyOperators, claimPreserved, isOperatorId, listOperators, OPERATORS, OPERATOR_IDS, operatorChoiceArb, precedentRule } from './paraphrase/index.js';
import type { OperatorChoice, OperatorId } from './paraphrase/index.js';

/** Family id of adaptive variants (`Truth.family`). */
export const ADAPTIVE_FAMILY = 'adaptive';

/** Options of `adaptiveAttack`. */
export interface AdaptiveOptions {
  /** Operators to draw from (default: every registered operator). Must be non-empty. */
  operators?: readonly OperatorId[];
  /** Longest operator sequence (default 4). */
  maxOperators?: number;
  /** Also draw naive attacks as base cases (default false). */
  naive?: boolean;
  /** Also draw amplification chains as base cases (default false: seed traces only). */
  amplification?: boolean;
  /** Largest number of amplification cycles when `amplification` is on (default 4). */
  maxCycles?: number;
}

/**
 * The transformation: rewrites a forged base case with `ops` (pure, no claim check). The variant
 * has family `adaptive`, `operators` = the base's then the applied ids in order, and the kinds of
 * those operators; a split's earlier parts are appended to `setup` as attacker writes
 * (`attackerSetup` grows by their number, `claimParts` counts the parts) and the last part is `entry`.
 */
function rewriteAdaptiveCase(domain: DomainId, base: FuzzCase, ops: readonly OperatorChoice[]): FuzzCase {
  const claim = base.truth.claim;
  const setup = base.setup ?? [];
  if (ops.length === 0) return { ...base, truth: { ...base.truth, family: ADAPTIVE_FAMILY, operators: [...base.truth.operators] } };
  const restatedAt = { index: -1 };
  const entries: MemoryEntry[] = claim === undefined ? [base.entry] : applyOperators(base.entry, ops, { domain, claim, storeSize: setup.length }, restatedAt);
  const last = entries.at(-1) ?? base.entry;
  const parts = entries.slice(0, -1);
  // An operator that restated the claim afresh (translate-*) leaves none of the kinds before it in its output.
  const restated = restatedAt.index;
  const kinds = [...new Set([...(restated >= 0 ? [] : (base.truth.kinds ?? [])), ...ops.slice(Math.max(0, restated)).flatMap((o) => OPERATORS[o.op].kinds ?? [])])];
  const truth = { ...base.truth, family: ADAPTIVE_FAMILY, operators: [...base.truth.operators, ...ops.map((o) => o.op)], ...(kinds.length > 0 ? { kinds } : {}) };
  if (parts.length > 0) {
    truth.attackerSetup = (base.truth.attackerSetup ?? 0) + parts.length;
    truth.claimParts = parts.length + 1;
  }
  const out: FuzzCase = { entry: last, truth };
  if (setup.length > 0 || parts.length > 0) out.setup = [...setup, ...parts];
  return out;
}

/** The entries that carry the claim of a rewrite: the last `claimParts - 1` setup entries, then the entry. */
function claimEntries(c: FuzzCase): MemoryEntry[] {
  const parts = Math.max(0, (c.truth.claimParts ?? 1) - 1);
  return [...(c.setup ?? []).slice((c.setup?.length ?? 0) - parts), c.entry];
}

/**
 * The constraint: does `rewritten` (= `rewriteAdaptiveCase(domain, base, ops)`) still make the
 * base's forged claim (`claimPreserved`, with the `count` rule when an operator manipulates the
 * precedent)? A base without a claim cannot be checked and is discarded. Pure.
 */
function checkAdaptiveClaim(domain: DomainId, base: FuzzCase, ops: readonly OperatorChoice[], rewritten: FuzzCase): ClaimCheck {
  const claim = base.truth.claim;
  const lost = (): ClaimCheck => ({ kept: false, operator: ops.at(-1)?.op ?? '(none)', operators: ops.map((o) => o.op) });
  if (claim === undefined) return lost();
  if (ops.length === 0) return { kept: true, case: rewritten };
  if (!claimPreserved(domain, claim, claimEntries(rewritten), precedentRule(ops), { original: base.entry.content })) return lost();
  return { kept: true, case: rewritten };
}

/**
 * Rewrites a forged base case with `ops` and checks the claim (`rewriteAdaptiveCase`, then
 * `checkAdaptiveClaim`). Pure.
 * @returns `{ kept: true, case }` for the variant, or `{ kept: false, operator, operators }`.
 */
export function buildAdaptiveCase(domain: DomainId, base: FuzzCase, ops: readonly OperatorChoice[]): ClaimCheck {
  return checkAdaptiveClaim(domain, base, ops, rewriteAdaptiveCase(domain, base, ops));
}

/** The case a property run uses for `ops`: the variant, or the unmutated base with `truth.discarded` when the claim was lost. */
function adaptiveCaseOf(domain: DomainId, base: FuzzCase, ops: readonly OperatorChoice[]): FuzzCase {
  const built = buildAdaptiveCase(domain, base, ops);
  if (built.kept) return built.case;
  return { ...base, truth: { ...base.truth, family: ADAPTIVE_FAMILY, operators: [...base.truth.operators], discarded: { operator: built.operator, operators: built.operators } } };
}

function checkOptions(options: AdaptiveOptions): { ids: readonly OperatorId[]; maxOperators: number } {
  const ids = options.operators ?? OPERATOR_IDS;
  if (ids.length === 0) throw new UsageError('adaptive attack needs at least one operator');
  const maxOperators = options.maxOperators ?? 4;
  if (!Number.isInteger(maxOperators) || maxOperators < 0) throw new UsageError(`maxOperators must be an integer >= 0, got ${maxOperators}`);
  return { ids, maxOperators };
}

/**
 * Adaptive variants of FARMA forgeries for one domain: a base case (a seed trace, or with
 * `amplification` also an amplification chain with benign-free setup) and an `fc.array` of
 * operator choices, mapped through `buildAdaptiveCase`. Lost-claim rewrites become the
 * unmutated base with `truth.discarded` (never filtered away).
 * Shrinking: the operator array shrinks to fewer and earlier operators, so a bypass that needs
 * one operator shrinks to exactly that operator.
 * @throws UsageError for an empty operator list or a negative `maxOperators` (at construction);
 *   TemplateError when the domain has no seed templates.
 * @example fc.sample(adaptiveAttack('ehr', { operators: ['homoglyph', 'format-json'] }), { numRuns: 1, seed: 7 })
 */
export function adaptiveAttack(domain: DomainId, options: AdaptiveOptions = {}): fc.Arbitrary<FuzzCase> {
  const { ids, maxOperators } = checkOptions(options);
  const bases: fc.Arbitrary<FuzzCase>[] = [seedTrace(domain)];
  if (options.naive) bases.push(naiveAttack(domain));
  if (options.amplification) bases.push(amplificationChain(domain, { maxCycles: options.maxCycles ?? 4 }).map(markAttackerChain));
  const base: fc.Arbitrary<FuzzCase> = bases.length === 1 ? seedTrace(domain) : fc.oneof(...bases);
  return fc
    .tuple(base, operatorChoiceArb(ids, { maxLength: maxOperators }))
    .map(([b, ops]) => adaptiveCaseOf(domain, b, ops));
}

/** An amplification chain's seeds and earlier cycles are the attacker's writes (as in FAMILY_REGISTRY). */
function markAttackerChain(c: FuzzCase): FuzzCase {
  const chain = c.truth.chain;
  return chain ? { ...c, truth: { ...c.truth, attackerSetup: chain.seeds + 2 * (chain.cycle - 1) } } : c;
}

/** Operator id → operator group, for the report's per-group table (`renderAdaptiveSection`). */
export function operatorGroupMap(): Record<string, string> {
  return Object.fromEntries(listOperators().map((o) => [o.id, o.group]));
}

let readings: Map<string, 'natural' | 'encoded'> | undefined;
/** The reading of an operator id (`natural` | `encoded`), undefined for an unknown id. */
function readingOfOperator(id: string): 'natural' | 'encoded' | undefined {
  readings ??= new Map(listOperators().map((o) => [o.id, o.reading]));
  return readings.get(id);
}

/** Operator id → reading (`natural` | `encoded`), for the report's ASR split (`summariseAttack`). */
export function operatorReadingMap(): Record<string, string> {
  return Object.fromEntries(listOperators().map((o) => [o.id, o.reading]));
}

/** The transformation and constraint of the adaptive attacker for one domain (`runAttack`'s parts). */
export interface AdaptiveAttackParts {
  /** The transformation (`Transformation` of `src/fuzz/transformation.ts`). */
  transformation: { arms: readonly OperatorId[]; apply(base: FuzzCase, steps: readonly MoveStep[]): FuzzCase; readingOf(arm: string): 'natural' | 'encoded' | undefined };
  /** The constraint (`Constraint` of `src/fuzz/transformation.ts`). */
  constraint: { check(base: FuzzCase, steps: readonly MoveStep[], rewritten: FuzzCase): ClaimCheck };
}

function operatorChoices(steps: readonly MoveStep[]): OperatorChoice[] {
  return steps.map(({ op, choice }): OperatorChoice => {
    if (!isOperatorId(op)) throw new UsageError(`unknown operator "${op}"`);
    return { op, choice };
  });
}

/**
 * The adaptive attacker's transformation and constraint for one domain: every registered
 * operator (or `options.operators`) is an arm, `transformation.apply` rewrites a base with
 * `rewriteAdaptiveCase`, and `constraint.check` is the claim check (`checkAdaptiveClaim`), whose
 * discarded rewrites are never queried. Unknown arm ids throw. Pure.
 * @throws UsageError for an empty operator list.
 * @example runAttack({ guard, store, phase: 'write', bases, budget: 30, seed: 1, ...adaptiveAttackParts('ehr') })
 */
export function adaptiveAttackParts(domain: DomainId, options: Pick<AdaptiveOptions, 'operators'> = {}): AdaptiveAttackParts {
  const arms = options.operators ?? OPERATOR_IDS;
  if (arms.length === 0) throw new UsageError('adaptive attack needs at least one operator');
  return {
    transformation: { arms, apply: (base, steps) => rewriteAdaptiveCase(domain, base, operatorChoices(steps)), readingOf: (arm) => readingOfOperator(arm) },
    constraint: { check: (base, steps, rewritten) => checkAdaptiveClaim(domain, base, operatorChoices(steps), rewritten) },
  };
}

/** One start case of the search: the template id and the unmutated forged case. */
export interface StartCase {
  template: string;
  case: FuzzCase;
}

/** Attack families that can start a search. */
export const START_FAMILIES = ['seed', 'naive', 'amplification'] as const;
export type StartFamily = (typeof START_FAMILIES)[number];

const START_MINUTE = fc.integer({ min: 0, max: 366 * 24 * 60 });

/**
 * One unmutated forged case per template of `family` in the domain (sorted by template id),
 * each drawn with fast-check from that template's slots with a fixed `seed`. Pure given the seed.
 * - `seed`, `naive`: one entry from that template.
 * - `amplification`: Algorithm 1 with `seeds` (default 3) seed traces (the attacker's writes,
 *   through the guard) and one cycle from that template, citing n_prior = seeds.
 * @throws TemplateError when the domain has no valid templates of the family.
 */
export function startCases(domain: DomainId, family: StartFamily, seed: number, options: { seeds?: number } = {}): StartCase[] {
  const templates = attackTemplates(domain, family);
  const seedTemplates = family === 'amplification' ? attackTemplates(domain, 'seed') : [];
  const nSeeds = options.seeds ?? 3;
  return templates.map((t, i) => {
    const s = (seed + i * 7919) >>> 0;
    if (family === 'amplification') {
      const arb = fc
        .record({
          subject: subjectSlots(domain),
          seeds: fc.array(attackChoice(domain, seedTemplates), { minLength: nSeeds, maxLength: nSeeds }),
          cycles: fc.array(attackChoice(domain, [t]), { minLength: 1, maxLength: 1 }),
          history: fc.constant<MemoryEntry[]>([]),
          startMinute: START_MINUTE,
        })
        .map((r): ChainValue => ({ domain, ...r }));
      const [value] = fc.sample(arb, { numRuns: 1, seed: s });
      if (value === undefined) throw new UsageError(`no start case for ${t.id}`);
      return { template: t.id, case: markAttackerChain(buildChainCase(value)) };
    }
    const arb = fc
      .record({ subject: subjectSlots(domain), choice: attackChoice(domain, [t]), startMinute: START_MINUTE })
      .map((r): EntryValue => ({ domain, ...r }));
    const [value] = fc.sample(arb, { numRuns: 1, seed: s });
    if (value === undefined) throw new UsageError(`no start case for ${t.id}`);
    return { template: t.id, case: buildEntryCase(family, value) };
  });
}

