/**
 * Measure mode over a fixed list of benign entries (e.g. real traces nobody here wrote). Each
 * entry is checked in its store context (`storeContextIndices`, docs/calibration.md): the earlier
 * entries of its own episode (`metadata.episode`), then the entries of the episodes before it,
 * up to `history` entries, as the generated benign trajectories are checked. A set without
 * episode labels is one trajectory: each entry after the `history` entries before it (cyclic).
 * `history: 0` checks every entry on an empty store.
 */
import type { MemoryEntry } from '../domain/entry.js';
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { episodeOf, ownEpisodeCount, storeContextIndices } from '../domain/store-context.js';
import { evaluateCase, type ScratchStore } from './evaluate.js';
import { mapInOrder } from './in-flight.js';

export interface BenignSetMeasurement {
  n: number;
  rejected: Array<{ entry: MemoryEntry; verdict: Verdict }>;
  errors: number;
}

/**
 * The cases of a real set: entry `i` with its store context (`storeContextIndices`, at most
 * `history` entries, never itself) as `setup`, committed directly. Truth: benign, family `real`,
 * template `real`, and `context.ownEpisode` = how many setup entries are from its own episode.
 */
export function realSetCases(entries: readonly MemoryEntry[], history: number, set = 'real'): FuzzCase[] {
  const episodes = entries.map(episodeOf);
  return entries.map((entry, i) => {
    const at = storeContextIndices(episodes, i, history);
    const setup = at.map((j) => entries[j]!);
    const context = { ownEpisode: ownEpisodeCount(episodes, i, at) };
    return { entry, truth: { label: 'benign' as const, family: 'real', domain: set, template: 'real', operators: [], context }, ...(setup.length > 0 ? { setup } : {}) };
  });
}

/**
 * Checks each benign entry (`concurrency` calls in flight for an async guard, results in
 * order), each after `options.history` entries of its set (default 0: an empty store);
 * `rejected.length / n` is the FPR (rate in [0,1]); errors apart.
 */
export async function measureBenignEntries(
  entries: readonly MemoryEntry[],
  guard: Guard,
  store: ScratchStore,
  phase: Phase = 'write',
  concurrency = 1,
  options: { history?: number } = {},
): Promise<BenignSetMeasurement> {
  const rejected: BenignSetMeasurement['rejected'] = [];
  let errors = 0;
  const cases = realSetCases(entries, options.history ?? 0);
  const verdicts = await mapInOrder(cases, (c) => evaluateCase(guard, c, store, phase), guard.mode === 'sync' ? 1 : concurrency);
  for (const [i, verdict] of verdicts.entries()) {
    const entry = cases[i]!.entry;
    if (verdict.decision === 'reject') rejected.push({ entry, verdict });
    else if (verdict.decision === 'error') errors += 1;
  }
  return { n: entries.length, rejected, errors };
}
