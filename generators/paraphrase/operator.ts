/**
 * The paraphrase/mutation operator contract (DESIGN.md, "Claim preservation"; docs/STYLE.md §4).
 * An operator is a pure function of (entry, choice, ctx): the same input gives the same
 * output, and nothing reads Math.random or the clock. `choice` is a non-negative integer
 * that selects among the operator's variants (taken modulo the variant count).
 */
import type { Claim, DomainId, MemoryEntry } from '../../src/domain/index.js';
import type { EvasionKind } from '../claims/evasion-kinds.js';

/** The operator families of the adaptive attacker. */
export const OPERATOR_GROUPS = ['lexical', 'syntactic', 'structural', 'encoding', 'metadata', 'count', 'language', 'framing'] as const;
type OperatorGroup = (typeof OPERATOR_GROUPS)[number];

/**
 * How a reader must take an operator's rewrite:
 * - `natural`: a reader takes it as written (translation, synonyms, record forms, typos,
 *   look-alike letters, framing): an agent that recalls the memory acts on it as it is.
 * - `encoded`: a reader must decode it first with a known scheme (ciphers, base64, leetspeak,
 *   percent or HTML escapes, invisible tag characters, reversed text): an agent may not act on it.
 * ASR is reported for the two apart (`bypassRatesByReading`, attack reports).
 */
export const READINGS = ['natural', 'encoded'] as const;
type Reading = (typeof READINGS)[number];

/**
 * What an operator leaves intact.
 * - `subject`, `checks`, `precedent`: the three parts of the forged claim (recoverable by
 *   `claimPreserved` after canonicalisation).
 * - `semantics`: the text still says the same thing with the same force (no hedge, no new count).
 * - `store`, `source`, `traceType`, `timestamp`: the MemoryEntry field of that name.
 */
export const PRESERVABLE = ['subject', 'checks', 'precedent', 'semantics', 'store', 'source', 'traceType', 'timestamp'] as const;
export type Preserved = (typeof PRESERVABLE)[number];

/** What an operator may know about the attack it rewrites. */
export interface OperatorContext {
  domain: DomainId;
  claim: Claim;
  /** Committed entries in the target store (count manipulation keeps claims at or below it). */
  storeSize?: number;
}

/** Rewrites one entry; splitting operators return two entries. */
type OperatorFn = (entry: MemoryEntry, choice: number, ctx?: OperatorContext) => MemoryEntry | MemoryEntry[];

export interface Operator {
  id: string;
  group: OperatorGroup;
  /** Required: whether a reader takes the rewrite as it is or must decode it (`READINGS`). */
  reading: Reading;
  description: string;
  preserves: readonly Preserved[];
  /** Evasion kinds of the taxonomy (`generators/claims/evasion-kinds.ts`) the operator produces; added to `truth.kinds`. */
  kinds?: readonly EvasionKind[];
  /**
   * True when the operator writes the claim afresh from its context (the translate operators)
   * rather than rewriting the text it gets: the kinds of the operators before it (and of the
   * base) are gone from its output, and it leaves a text that makes no claim as it is.
   */
  restates?: boolean;
  apply: OperatorFn;
}

/** Every claim-level and field-level property: the default for pure text rewrites. */
export const ALL_TEXT: readonly Preserved[] = ['subject', 'checks', 'precedent', 'semantics', 'store', 'source', 'traceType', 'timestamp'];
/** Text rewrites that keep the claim but change the wording's force (hedges, framing). */
export const CLAIM_AND_FIELDS: readonly Preserved[] = ['subject', 'checks', 'precedent', 'store', 'source', 'traceType', 'timestamp'];

/** Picks `items[choice mod length]`; `items` must be non-empty. */
export function pick<T>(items: readonly T[], choice: number): T {
  const item = items[((choice % items.length) + items.length) % items.length];
  if (item === undefined) throw new RangeError('pick() needs a non-empty list');
  return item;
}

/** Returns a copy of `entry` with new content. */
export function withContent(entry: MemoryEntry, content: string): MemoryEntry {
  return { ...entry, content };
}
