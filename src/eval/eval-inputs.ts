/**
 * What the evaluation receives as parameters: the attack (FARMA entries), the benign history,
 * and the defenses. `src/eval` never imports generators or guards; `src/cli` wires them in.
 */
import type { DomainId, Guard, MemoryEntry } from '../domain/index.js';
import type { RetrieveFn } from '../agents/index.js';

/** Which trial is being drawn: every source derives its values from `seed` only (fast-check). */
export interface TrialDraw {
  domain: DomainId;
  /** Trial index, 0-based. */
  trial: number;
  /** Seed of this trial (derived from the run seed, the domain and the index). */
  seed: number;
  /** n_s: seed traces. */
  seeds: number;
  /** n_a: amplification cycles. */
  cycles: number;
}

/**
 * One FARMA injection (paper Algorithm 1): phase-1 seed entries, then one group per
 * amplification cycle c = 1..n_a (the reasoning-store entry and its general-store copy).
 * All entries target `subject`.
 */
export interface FarmaInjection {
  subject: string;
  seeds: MemoryEntry[];
  cycles: MemoryEntry[][];
}

/** Produces the FARMA injection of a trial. Must be deterministic in `draw`. */
export type AttackSource = (draw: TrialDraw) => FarmaInjection;

/** Produces the benign history of a trial (the clean memory). Must be deterministic in `draw`. */
export type BenignSource = (draw: TrialDraw) => MemoryEntry[];

/**
 * A defense as deployed around the agent (paper §IV, §V-D):
 * - `write`: the guard on the write path (every memory write goes through it); absent = commit directly;
 * - `retrieve`: the retrieve path, applied to the bm25 top-k before the planner sees it;
 * - `fprGuard`: the check used for the FPR column (defaults to `write`), for defenses whose
 *   decision point is not the write path.
 */
export interface Defense {
  id: string;
  label: string;
  write?: Guard;
  retrieve: RetrieveFn;
  fprGuard?: Guard;
  /** One line on how the defense is deployed, for the report. */
  note?: string;
  close?(): void | Promise<void>;
}
