/**
 * One differential trial (paper §V-B, Algorithm 1): a fresh SQLite memory store holds the
 * benign history (written through the defense's write path); the agent runs on it (clean run);
 * then FARMA writes its n_s seeds and n_a amplification cycles through the same write path
 * (each cycle's entry to both store parts) and the agent runs again on the same task (poisoned
 * run). The clean run writes nothing, so running it first on the same store is the same as
 * running it on a separate clean store.
 */
import type { Guard, MemoryEntry } from '../domain/index.js';
import { MemoryStore } from '../memory/index.js';
import { runAgent, type AgentTask, type PlanDecision, type Planner } from '../agents/index.js';
import { classifyAction, differentialOutcome, type DifferentialOutcome } from './differential.js';
import type { Defense, FarmaInjection } from './eval-inputs.js';

/** Counts of guarded writes. */
export interface WriteCounts {
  attempted: number;
  committed: number;
  rejected: number;
  errors: number;
}

export interface TrialResult {
  outcome: DifferentialOutcome;
  clean: PlanDecision;
  poisoned: PlanDecision;
  /** Writes of the benign history. */
  benignWrites: WriteCounts;
  /** Writes of the FARMA entries (seeds and amplification entries). */
  forgedWrites: WriteCounts;
  /** Forged entries among what the planner saw in the poisoned run. */
  forgedSeen: number;
  /** Top-k entries the retrieve path dropped (clean run, poisoned run). */
  dropped: { clean: number; poisoned: number };
}

export interface TrialSpec {
  task: AgentTask;
  benign: readonly MemoryEntry[];
  injection: FarmaInjection;
  /** Use only the first this-many amplification cycles (default: all of `injection.cycles`). */
  cycles?: number;
}

function zero(): WriteCounts {
  return { attempted: 0, committed: 0, rejected: 0, errors: 0 };
}

async function writeAll(store: MemoryStore, entries: readonly MemoryEntry[], guard: Guard | undefined, counts: WriteCounts): Promise<void> {
  for (const e of entries) {
    counts.attempted += 1;
    if (guard === undefined) {
      store.insert(e);
      counts.committed += 1;
      continue;
    }
    const r = await store.write(e, guard, 'write');
    if (r.committed) counts.committed += 1;
    else if (r.verdict.decision === 'error') counts.errors += 1;
    else counts.rejected += 1;
  }
}

/**
 * Runs one trial against one defense. `k` is the retrieval depth.
 * @throws StoreError when the store fails (e.g. two entries share an id in one store part).
 */
export async function runTrial(spec: TrialSpec, defense: Defense, planner: Planner, k: number): Promise<TrialResult> {
  const store = new MemoryStore(':memory:');
  try {
    const benignWrites = zero();
    await writeAll(store, spec.benign, defense.write, benignWrites);
    const agentOptions = { k, retrieve: defense.retrieve, planner };
    const clean = await runAgent(store, spec.task, agentOptions);

    const forged = [...spec.injection.seeds, ...spec.injection.cycles.slice(0, spec.cycles ?? spec.injection.cycles.length).flat()];
    const forgedWrites = zero();
    await writeAll(store, forged, defense.write, forgedWrites);
    const poisoned = await runAgent(store, spec.task, agentOptions);

    const forgedKeys = new Set(forged.map((e) => `${e.store}:${e.id}`));
    const domain = spec.task.domain;
    return {
      outcome: differentialOutcome(classifyAction(domain, clean.decision.action), classifyAction(domain, poisoned.decision.action)),
      clean: clean.decision,
      poisoned: poisoned.decision,
      benignWrites,
      forgedWrites,
      forgedSeen: poisoned.seen.filter((s) => forgedKeys.has(s)).length,
      dropped: { clean: clean.dropped, poisoned: poisoned.dropped },
    };
  } finally {
    store.close();
  }
}
