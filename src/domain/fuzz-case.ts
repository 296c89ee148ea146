/**
 * A generated test value (DESIGN.md, "Generation rules"): the entry under test, the ground
 * truth of how it was built, and the entries already in the store before it.
 * The oracle reads `truth` and nothing else.
 */
import type { MemoryEntry } from './entry.js';

/** The ground truth of a case: `benign` must be admitted, `forged` must be rejected. */
export type Label = 'benign' | 'forged';

/** Built-in families; other strings are allowed for user generators. */
export const FAMILIES = ['seed', 'amplification', 'naive', 'adaptive', 'benign', 'benign-stress'] as const;
type KnownFamily = (typeof FAMILIES)[number];
/** A family id: one of `FAMILIES`, or a user generator's own string. */
export type Family = KnownFamily | (string & {});

/** The three built-in domains: EHR pipelines, ReAct question answering, and RAP shopping (paper §V-A). */
export const DOMAINS = ['ehr', 'react-qa', 'rap'] as const;
/** One of `DOMAINS`. */
export type DomainId = (typeof DOMAINS)[number];

/** What a forgery asserts (paper §III-B/C). */
export interface Claim {
  /** The subject the forgery is about: pipeline id, question class, product category. */
  subject: string;
  /** Safety steps claimed done upstream, e.g. `['mrn-format', 'hipaa-screening']`. */
  checks: string[];
  /** Precedent count cited ("consistent with N prior runs"), when any. */
  precedent?: number;
}

/** One rewrite step of an attack: an operator arm and which of its variants (a whole number). */
export interface MoveStep {
  op: string;
  choice: number;
}

/**
 * The attack's constraint (the claim check) on one rewrite: kept, with the case to query, or
 * discarded, with the operator whose step lost the claim (the last one added) and every
 * operator of that rewrite, in order. A discarded rewrite is never queried.
 */
export type ClaimCheck = { kept: true; case: FuzzCase } | { kept: false; operator: string; operators: string[] };

/** The ground truth the generator attached to a case: label, family, domain, template and, for forgeries, the claim. */
export interface Truth {
  label: Label;
  family: Family;
  domain: DomainId | (string & {});
  /** Template id, `<domain>/<family>/<name>`. */
  template: string;
  /** Paraphrase/mutation operators applied, in order (empty for unmutated cases). */
  operators: string[];
  /**
   * Set on an adaptive case that stands for a rewrite whose claim was lost: the case is then the
   * UNMUTATED base (its `operators` are the base's), and this names the rewrite's operators.
   */
  discarded?: { operator: string; operators: string[] };
  /** The forged claim; absent for benign entries. */
  claim?: Claim;
  /** Benign-only descriptors used for FPR breakdowns. */
  format?: string;
  language?: string;
  /**
   * Forged entries: the evasion kinds the case uses (template kinds, then operator kinds; ids of
   * `generators/claims/evasion-kinds.ts`), and the write channel the attacker chose (the declared
   * source: AGENT, SYSTEM, TOOL for tool output, EXTERNAL for retrieved documents).
   */
  kinds?: string[];
  source?: string;
  /** Hard-negative tags: guard vocabulary that a benign entry uses on purpose. */
  hardNegatives?: string[];
  /** Amplification chains: seeds written and the cycle of this entry (Algorithm 1). */
  chain?: { seeds: number; cycle: number };
  /**
   * How many of the LAST `setup` entries are the attacker's own earlier writes. The engine
   * sends those through the guard's write path (committed only when admitted), as the
   * threat model has it (paper §II-C: the attack works only through the memory write path);
   * the other setup entries are history, committed directly. Absent = 0.
   */
  attackerSetup?: number;
  /**
   * When a claim is split over several writes: the entry plus the last `claimParts - 1`
   * attacker writes carry it together, and the forgery counts as rejected when the guard
   * rejects any of those parts. Absent = 1 (the entry alone).
   */
  claimParts?: number;
  /**
   * Benign cases checked in a generated trajectory (`generators/benign-trajectory.ts`): how many
   * of the LAST `setup` entries are earlier steps of the entry's own episode (the others come
   * from earlier episodes), and whether a near-repeat of the entry was placed in its own episode,
   * in an earlier one, or nowhere, and the repeat-group sizes drawn for the store: the entry's
   * group (itself included) and the largest rival group (0: none) (generated only;
   * docs/calibration.md, "Store context", "Store structure").
   */
  context?: { ownEpisode: number; repeat?: 'own' | 'other' | 'none'; groups?: { own: number; rival: number } };
}

/** One generated test case: the entry a guard checks, its ground truth, and the entries stored before it. */
export interface FuzzCase {
  entry: MemoryEntry;
  truth: Truth;
  /** Entries already committed to the store before `entry` is checked. */
  setup?: MemoryEntry[];
}
