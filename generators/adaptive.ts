/**
 * The adaptive attacker (DESIGN.md "adaptive variant"): a forged FARMA case rewritten
 * by a sequence of paraphrase/mutation operators (`generators/paraphrase/`), as a fast-check
 * arbitrary whose operator list shrinks, plus the neighbour function used by the black-box
 * search (`src/fuzz/search.ts`) and the start cases of the `search` command.
 *
 * Claim preservation: a rewrite that no longer makes the forged claim (`claimPreserved` is
 * false) is never a bypass candidate. The arbitrary maps such a rewrite back to the UNMUTATED
 * base case and writes `discarded` then `discarded:<op>` for every operator of the lost
 * sequence into `truth.operators` (see `DISCARDED_MARKER`, `DISCARDED_PREFIX`). The attacker then "falls back" to the base
 * forgery, which is still a forged entry (its label comes from provenance), so the engine counts
 * it as one more forged run and the report counts the discard from the operator breakdown.
 * This keeps the arbitrary total (no `.filter`, no `fc.pre`), so fast-check never gives up
 * and shrinking stays a plain shrink of the operator array.
 */
import fc from 'fast-check';
import type { MemoryEntry } from '../src/domain/entry.js';
import type { DomainId, FuzzCase } from '../src/domain/fuzz-case.js';
import { UsageError } from '../src/domain/errors.js';
import { amplificationChain, attackChoice, attackTemplates, buildChainCase, buildEntryCase, seedTrace } from './farma.js';
import type { ChainValue, EntryValue } from './farma.js';
import { subjectSlots } from './slots.js';
import { naiveAttack } from './naive.js';
import { applyOperators, claimPreserved, isOperatorId, listOperators, OPERATORS, OPERATOR_IDS, operatorChoiceArb, precedentRule } from './paraphrase/index.js';
import type { OperatorChoice, OperatorId } from './paraphrase/index.js';

/** Family id of adaptive variants (`Truth.family`). */
export const ADAPTIVE_FAMILY = 'adaptive';

/** Prefix of `truth.operators` items for operators whose rewrite lost the claim and was discarded. */
export const DISCARDED_PREFIX = 'discarded:';
/** First `truth.operators` item of a discarded rewrite, so the engine's operator breakdown counts discarded runs exactly. */
export const DISCARDED_MARKER = 'discarded';

/** Options of `adaptiveAttack` and `adaptiveNeighbours`. */
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

/** Outcome of rewriting one base case with one operator sequence. */
export type AdaptiveBuild =
  | { kept: true; case: FuzzCase }
  | { kept: false; case: FuzzCase; lost: OperatorChoice[] };

/**
 * Rewrites a forged base case with `ops` (pure). When the rewritten entries still make the
 * base case's claim (`claimPreserved`, with the `count` rule when an operator manipulates
 * the precedent), the case is the variant: family `adaptive`, `operators` = the applied ids in
 * order; a split's earlier parts are appended to `setup` as attacker writes
 * (`attackerSetup` grows by their number) and the last part is `entry`. Otherwise the base
 * case is returned unmutated with `operators` = `discarded`, then `discarded:<id>` per operator, and
 * `kept: false`. A base case without a claim cannot be checked and is returned as discarded.
 */
export function buildAdaptiveCase(domain: DomainId, base: FuzzCase, ops: readonly OperatorChoice[]): AdaptiveBuild {
  const claim = base.truth.claim;
  const setup = base.setup ?? [];
  if (ops.length === 0 && claim !== undefined) {
    return { kept: true, case: { ...base, truth: { ...base.truth, family: ADAPTIVE_FAMILY, operators: [...base.truth.operators] } } };
  }
  const entries: MemoryEntry[] =
    claim === undefined ? [] : applyOperators(base.entry, ops, { domain, claim, storeSize: setup.length });
  const last = entries.at(-1);
  if (claim === undefined || last === undefined || !claimPreserved(domain, claim, entries, precedentRule(ops), { original: base.entry.content })) {
    return {
      kept: false,
      lost: [...ops],
      case: { ...base, truth: { ...base.truth, family: ADAPTIVE_FAMILY, operators: [...base.truth.operators, DISCARDED_MARKER, ...ops.map((o) => DISCARDED_PREFIX + o.op)] } },
    };
  }
  const parts = entries.slice(0, -1);
  const kinds = [...new Set([...(base.truth.kinds ?? []), ...ops.flatMap((o) => OPERATORS[o.op].kinds ?? [])])];
  const truth = { ...base.truth, family: ADAPTIVE_FAMILY, operators: [...base.truth.operators, ...ops.map((o) => o.op)], ...(kinds.length > 0 ? { kinds } : {}) };
  if (parts.length > 0) {
    truth.attackerSetup = (base.truth.attackerSetup ?? 0) + parts.length;
    truth.claimParts = parts.length + 1;
  }
  const out: FuzzCase = { entry: last, truth };
  if (setup.length > 0 || parts.length > 0) out.setup = [...setup, ...parts];
  return { kept: true, case: out };
}

/** True when the case is a discarded rewrite (its claim was lost, so it is the unmutated base). */
export function isDiscarded(c: Pick<FuzzCase, 'truth'>): boolean {
  return c.truth.operators.some((o) => o === DISCARDED_MARKER || o.startsWith(DISCARDED_PREFIX));
}

/** How many cases of a list are discarded rewrites (see `isDiscarded`). */
export function countDiscarded(cases: readonly Pick<FuzzCase, 'truth'>[]): number {
  return cases.filter(isDiscarded).length;
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
 * unmutated base with `discarded:<op>` operators (never filtered away).
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
    .map(([b, ops]) => buildAdaptiveCase(domain, b, ops).case);
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

/** What `adaptiveMoves` hands to attack mode (`src/fuzz/attack.ts`): arm ids and a claim-checked rewrite. */
export interface AdaptiveMoves {
  arms: readonly OperatorId[];
  build(base: FuzzCase, steps: readonly { op: string; choice: number }[]): FuzzCase | undefined;
}

/**
 * The moves of attack mode for one domain: every registered operator (or `options.operators`)
 * is an arm, and `build` rewrites a base with `buildAdaptiveCase`, returning undefined when the
 * rewrite lost the base's forged claim (so it is discarded and never queried). Unknown arm ids
 * throw. Pure.
 * @throws UsageError for an empty operator list.
 * @example runAttack({ ..., moves: adaptiveMoves('ehr') })
 */
export function adaptiveMoves(domain: DomainId, options: Pick<AdaptiveOptions, 'operators'> = {}): AdaptiveMoves {
  const arms = options.operators ?? OPERATOR_IDS;
  if (arms.length === 0) throw new UsageError('adaptive moves need at least one operator');
  return {
    arms,
    build(base, steps) {
      const ops = steps.map(({ op, choice }): OperatorChoice => {
        if (!isOperatorId(op)) throw new UsageError(`unknown operator "${op}"`);
        return { op, choice };
      });
      const built = buildAdaptiveCase(domain, base, ops);
      return built.kept ? built.case : undefined;
    },
  };
}

/** Random source handed to a neighbour function by the search engine (deterministic per seed). */
interface NeighbourStep {
  /** Search step index (0-based). */
  index: number;
  /** A whole number in [0, n). */
  nextInt(n: number): number;
}

/** Counters of a neighbour function: rewrites proposed, and those discarded for a lost claim. */
interface NeighbourStats {
  proposed: number;
  discarded: number;
  /** Discards per operator id (the operator that was added when the claim was lost). */
  discardedByOperator: Record<string, number>;
}

/** A neighbour function for `searchBypass`, with its discard counters. */
export interface AdaptiveNeighbours {
  (c: FuzzCase, step: NeighbourStep): FuzzCase[];
  readonly stats: NeighbourStats;
  /** The base case and operator choices a proposed case was built from (undefined for cases it did not build). */
  originOf(c: FuzzCase): { base: FuzzCase; ops: OperatorChoice[] } | undefined;
}

/**
 * The search's mutation function for one domain: each call proposes `width` (default 6)
 * one-operator extensions of the case (random operator id and variant drawn from
 * `step.nextInt`), rebuilt from the case's base and operator list so the claim check always
 * runs against the ORIGINAL claim; it returns only claim-preserving variants and counts the
 * discarded ones in `.stats`. Cases already at `maxOperators` (default 8) get no neighbours.
 * A case this function did not produce counts as a base with no operators.
 * @throws UsageError for an empty operator list.
 * Internal to the search engine (not exported by `farma-fuzz/generators`).
 * @example const nb = adaptiveNeighbours('ehr'); nb(start, { nextInt: (n) => n - 1 }).length // <= 6; nb.stats.discarded
 */
export function adaptiveNeighbours(
  domain: DomainId,
  options: AdaptiveOptions & { width?: number } = {},
): AdaptiveNeighbours {
  const ids = options.operators ?? OPERATOR_IDS;
  if (ids.length === 0) throw new UsageError('adaptive neighbours need at least one operator');
  const maxOps = options.maxOperators ?? 8;
  const width = options.width ?? 6;
  const stats: NeighbourStats = { proposed: 0, discarded: 0, discardedByOperator: {} };
  // Each variant remembers its base and its operator choices (ids alone lose the variants).
  const origin = new WeakMap<FuzzCase, { base: FuzzCase; ops: OperatorChoice[] }>();
  const fn = ((c: FuzzCase, step: NeighbourStep): FuzzCase[] => {
    const from = origin.get(c) ?? { base: c, ops: [] };
    if (from.ops.length >= maxOps) return [];
    const out: FuzzCase[] = [];
    for (let i = 0; i < width; i++) {
      const op = ids[step.nextInt(ids.length)] as OperatorId;
      const choice: OperatorChoice = { op, choice: step.nextInt(1024) };
      const ops = [...from.ops, choice];
      stats.proposed += 1;
      const built = buildAdaptiveCase(domain, from.base, ops);
      if (!built.kept) {
        stats.discarded += 1;
        stats.discardedByOperator[op] = (stats.discardedByOperator[op] ?? 0) + 1;
        continue;
      }
      origin.set(built.case, { base: from.base, ops });
      out.push(built.case);
    }
    return out;
  }) as AdaptiveNeighbours;
  Object.defineProperty(fn, 'stats', { value: stats, enumerable: true });
  Object.defineProperty(fn, 'originOf', { value: (c: FuzzCase) => origin.get(c), enumerable: false });
  return fn;
}

/** Outcome of `minimalOperatorSet`. */
export interface MinimalOperators {
  ops: OperatorChoice[];
  /** Extra queries spent (one per claim-preserving removal tried). */
  queries: number;
}

/**
 * Shrinks a bypassing operator sequence one removal at a time (each operator, last first; keep a
 * removal when the smaller sequence still keeps the claim and still bypasses), until no single
 * removal works: a 1-minimal operator set. `isBypass` queries the guard (the caller owns it).
 * Removals that lose the claim are skipped without a query.
 */
export async function minimalOperatorSet(
  domain: DomainId,
  base: FuzzCase,
  ops: readonly OperatorChoice[],
  isBypass: (c: FuzzCase) => Promise<boolean>,
): Promise<MinimalOperators> {
  let current = [...ops];
  let queries = 0;
  let changed = true;
  while (changed && current.length > 0) {
    changed = false;
    for (let i = current.length - 1; i >= 0; i--) {
      const fewer = current.filter((_, j) => j !== i);
      const built = buildAdaptiveCase(domain, base, fewer);
      if (!built.kept) continue;
      queries += 1;
      if (await isBypass(built.case)) {
        current = fewer;
        changed = true;
        break;
      }
    }
  }
  return { ops: current, queries };
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

