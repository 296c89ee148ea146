/**
 * An in-process campaign for the determinism and worker tests: `runCampaign` over the given
 * domain × family cells with a fresh in-memory store, and the outcome without wall-clock fields
 * (`timeless`), so two runs can be compared for equality.
 */
import type { DomainId } from '../../src/domain/fuzz-case.js';
import type { Guard } from '../../src/domain/guard.js';
import type { MemoryEntry } from '../../src/domain/entry.js';
import { runCampaign, type CampaignOutcome } from '../../src/fuzz/campaign.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_REGISTRY, type FamilyId } from '../../generators/families.js';

/** The cells of an outcome with `elapsedMs`, `elapsedUs` and `guardUs` set to 0. */
export function timeless(o: CampaignOutcome): unknown {
  // `queries` is timing too: it holds each phase's time (cells-in-flight.test.ts compares its counts).
  return JSON.parse(JSON.stringify(o.cells, (k, v: unknown) => (k === 'queries' ? undefined : k === 'elapsedMs' || k === 'elapsedUs' || k === 'guardUs' ? 0 : v)));
}

/**
 * Runs the cells in this thread on the write path; `seen`, when given, receives every entry the
 * guard checks, in order.
 */
export async function inProcessCampaign(
  guard: Guard,
  o: { cells: ReadonlyArray<{ domain: DomainId; family: FamilyId }>; runs: number; seed: number; maxFailures: number; seen?: MemoryEntry[] },
): Promise<CampaignOutcome> {
  const store = new MemoryStore(':memory:');
  const seen = o.seen;
  const recording: Guard = seen ? { ...guard, id: guard.id, mode: guard.mode, check: (e, ctx) => (seen.push(e), guard.check(e, ctx)) } : guard;
  try {
    return await runCampaign({
      guard: recording,
      cells: o.cells.map((c) => ({ ...c, arbitrary: FAMILY_REGISTRY[c.family].arbitrary(c.domain) })),
      store,
      phase: 'write',
      runsPerCell: o.runs,
      seed: o.seed,
      maxFailures: o.maxFailures,
    });
  } finally {
    store.close();
  }
}
