/**
 * Measure mode over a fixed list of benign entries (e.g. real traces nobody here wrote):
 * every entry is checked once on an empty store, and the rejections are listed.
 */
import type { MemoryEntry } from '../domain/entry.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { evaluateCase, type ScratchStore } from './evaluate.js';

export interface BenignSetMeasurement {
  n: number;
  rejected: Array<{ entry: MemoryEntry; verdict: Verdict }>;
  errors: number;
}

/** Checks each benign entry; `rejected.length / n` is the FPR (rate in [0,1]). */
export async function measureBenignEntries(
  entries: readonly MemoryEntry[],
  guard: Guard,
  store: ScratchStore,
  phase: Phase = 'write',
): Promise<BenignSetMeasurement> {
  const rejected: BenignSetMeasurement['rejected'] = [];
  let errors = 0;
  for (const entry of entries) {
    const c = { entry, truth: { label: 'benign' as const, family: 'benign', domain: 'real', template: 'real', operators: [] } };
    const verdict = await evaluateCase(guard, c, store, phase);
    if (verdict.decision === 'reject') rejected.push({ entry, verdict });
    else if (verdict.decision === 'error') errors += 1;
  }
  return { n: entries.length, rejected, errors };
}
