/**
 * The leave-one-source-out check over several lanes (src/campaign/fpr.ts `leaveOneSourceOut`
 * with remote lanes, src/cli/fuzz-worker.ts `kind: 'loso'` tasks, src/campaign/fuzz.ts
 * `losoLanes`): the rows are the same for any number of lanes, a failed lane loses no row, a
 * worker thread computes what this thread computes. The lane decision: loso-lanes-decision.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { leaveOneSourceOut, leftOutEstimate, matchedEstimate, type MatchedTally, type RemoteLeftOut } from '../../src/campaign/fpr.js';
import { loadRealBenignSets } from '../../src/corpus/benign-sets.js';
import { fuzzWorkerPool } from '../../src/cli/fuzz-worker.js';
import { taskPool, type LosoTask, type LosoTaskResult, type MatchedTask } from '../../src/fuzz/parallel.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

// Small sources cut from the bundled sets: enough to calibrate, quick to do it.
const sets = loadRealBenignSets()
  .sets.filter((s) => s.entries.length >= 8)
  .slice(0, 4)
  .map((s) => ({ name: s.name, domain: s.domain, entries: s.entries.slice(0, 8) }));
const realOf = (name: string) => ({ k: name.length % 3, n: 40, errors: 0 });
const options = () => ({ guard: createGuard('sentinel'), store, domains: ['ehr' as const, 'rap' as const], runs: 30, seed: 7, phase: 'write' as const });

describe('leave-one-source-out over lanes', () => {
  it('gives the same rows in the same order with two extra lanes as with this thread alone', { timeout: 240_000 }, async () => {
    const alone = await leaveOneSourceOut(options(), sets, realOf);
    const calls: string[] = [];
    // A lane that computes in this thread but after a delay, so sources finish out of order.
    const lane = (delayMs: number): RemoteLeftOut => async (leftOut) => {
      calls.push(leftOut);
      await new Promise((r) => setTimeout(r, delayMs));
      return leftOutEstimate(options(), sets, leftOut);
    };
    let domains = 0;
    const spread = await leaveOneSourceOut(options(), sets, realOf, () => (domains += 1), [lane(30), lane(5)]);
    expect(spread).toEqual(alone);
    expect(spread.map((r) => r.leftOut)).toEqual(sets.map((s) => s.name));
    expect(calls.length).toBeGreaterThan(0); // the lanes took sources
    expect(domains).toBe(sets.length * 2); // once per domain of every source, wherever it ran
  });

  it('computes a failed lane\'s source in this thread and reports the failure', { timeout: 240_000 }, async () => {
    const alone = await leaveOneSourceOut(options(), sets, realOf);
    const failures: string[] = [];
    const broken: RemoteLeftOut = async (leftOut) => {
      throw new Error(`thread died on ${leftOut}`);
    };
    const rows = await leaveOneSourceOut(options(), sets, realOf, () => undefined, [broken], (leftOut, e) => failures.push(`${leftOut}: ${(e as Error).message}`));
    expect(rows).toEqual(alone);
    expect(failures).toHaveLength(1); // a failed lane takes no further source
    expect(failures[0]).toMatch(/thread died on/);
  });

  it('a worker thread gives the row and the matched estimate this thread gives', { timeout: 240_000 }, async () => {
    const all = loadRealBenignSets().sets.filter((s) => s.entries.length > 0);
    const leftOut = all[all.length - 1]!.name;
    const o = { ...options(), domains: ['ehr' as const], runs: 40 };
    const here = await leftOutEstimate(o, all, leftOut);
    const pool = taskPool({ ...fuzzWorkerPool(), threads: 1 });
    try {
      const there = await pool.run<LosoTask<{ spec: string }>, LosoTaskResult>({ kind: 'loso', guard: { spec: 'sentinel' }, sets: all.map((s) => s.name), leftOut, domains: o.domains, runs: o.runs, seed: o.seed, phase: o.phase });
      expect({ k: there.k, n: there.n, errors: there.errors }).toEqual(here);
      expect(there.queries).toBe(40);
      // Its calibration came from the worker's cache or was computed there: one lookup, reported back so the closing line adds up.
      expect(there.cache).toBeDefined();
      expect(there.cache!.hits + there.cache!.misses).toBe(1);
      // A matched estimate (fpr) travels with its set's entries and comes back as computed here.
      const set = { name: sets[0]!.name, domain: sets[0]!.domain, entries: [...sets[0]!.entries] };
      const matchedHere = await matchedEstimate(o, set, ['ehr']);
      const matchedThere = await pool.run<MatchedTask<{ spec: string }>, MatchedTally>({ kind: 'matched', guard: { spec: 'sentinel' }, set, domains: ['ehr'], runs: o.runs, seed: o.seed, phase: o.phase });
      expect({ k: matchedThere.k, n: matchedThere.n, errors: matchedThere.errors, structure: matchedThere.structure }).toEqual(matchedHere);
      // Sets that are not the worker's own are refused, naming both lists.
      await expect(pool.run({ kind: 'loso', guard: { spec: 'sentinel' }, sets: ['elsewhere'], leftOut: 'elsewhere', domains: ['ehr'], runs: 1, seed: 1, phase: 'write' })).rejects.toThrow(/not the calling thread's \(elsewhere\)/);
    } finally {
      await pool.close();
    }
  });
});
