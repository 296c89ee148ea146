/**
 * Measure mode over a fixed list of benign entries (e.g. real traces nobody here wrote):
 * every entry is checked once on an empty store, and the rejections are listed.
 */
import type { MemoryEntry } from '../domain/entry.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { evaluateCase, type ScratchStore } from './evaluate.js';
import { mapInOrder } from './in-flight.js';

export interface BenignSetMeasurement {
  n: number;
  rejected: Array<{ entry: MemoryEntry; verdict: Verdict }>;
  errors: number;
}

/** Checks each benign entry (`concurrency` calls in flight for an async guard, results in order); `rejected.length / n` is the FPR (rate in [0,1]). */
export async function measureBenignEntries(
  entries: readonly MemoryEntry[],
  guard: Guard,
  store: ScratchStore,
  phase: Phase = 'write',
  concurrency = 1,
): Promise<BenignSetMeasurement> {
  const rejected: BenignSetMeasurement['rejected'] = [];
  let errors = 0;
  const verdicts = await mapInOrder(
    entries,
    (entry) => evaluateCase(guard, { entry, truth: { label: 'benign' as const, family: 'benign', domain: 'real', template: 'real', operators: [] } }, store, phase),
    guard.mode === 'sync' ? 1 : concurrency,
  );
  for (const [i, verdict] of verdicts.entries()) {
    const entry = entries[i] as MemoryEntry;
    if (verdict.decision === 'reject') rejected.push({ entry, verdict });
    else if (verdict.decision === 'error') errors += 1;
  }
  return { n: entries.length, rejected, errors };
}
