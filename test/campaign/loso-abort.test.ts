import { afterAll, describe, expect, it } from 'vitest';
import { leaveOneSourceOut } from '../../src/campaign/fpr.js';
import { loadRealBenignSets } from '../../src/corpus/benign-sets.js';
import { MemoryStore } from '../../src/memory/index.js';
import type { SyncGuard } from '../../src/domain/index.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

// Three small sources cut from the bundled real sets: enough to calibrate, quick to do it.
const sets = loadRealBenignSets()
  .sets.filter((s) => s.entries.length >= 8)
  .slice(0, 3)
  .map((s) => ({ name: s.name, domain: s.domain, entries: s.entries.slice(0, 8) }));

/** Admits everything, counts its calls and aborts `ctl` on the first one (a Ctrl-C mid-check). */
function abortingGuard(ctl: AbortController): SyncGuard & { calls: number } {
  const g = {
    id: 'abort-on-first',
    mode: 'sync' as const,
    calls: 0,
    check: () => {
      g.calls += 1;
      ctl.abort();
      return { decision: 'admit' as const, trace: [], reasons: [], elapsedUs: 0 };
    },
  };
  return g;
}

describe('leave-one-source-out after Ctrl-C', () => {
  it('starts no calibration once the signal is aborted', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const guard = abortingGuard(ctl);
    const rows = await leaveOneSourceOut({ guard, store, domains: ['ehr'], runs: 5, seed: 1, phase: 'write', signal: ctl.signal }, sets, () => undefined);
    expect(rows).toEqual([]);
    expect(guard.calls).toBe(0);
  });

  it('sees an abort that comes from a macrotask (a signal handler) before the next calibration', async () => {
    // SIGTERM and SIGINT handlers run as macrotasks; with a sync guard and the sync calibration
    // the loop must still give them a turn, or a signal waits for every calibration to finish.
    const ctl = new AbortController();
    const guard = abortingGuard(new AbortController());
    setImmediate(() => ctl.abort());
    const rows = await leaveOneSourceOut({ guard, store, domains: ['ehr'], runs: 5, seed: 1, phase: 'write', signal: ctl.signal }, sets, () => undefined);
    expect(rows).toEqual([]);
    expect(guard.calls).toBe(0);
  });

  it('finishes the calibration in progress and stops there, keeping its row', { timeout: 240_000 }, async () => {
    expect(sets).toHaveLength(3);
    const ctl = new AbortController();
    const guard = abortingGuard(ctl);
    const rows = await leaveOneSourceOut({ guard, store, domains: ['ehr'], runs: 5, seed: 1, phase: 'write', signal: ctl.signal }, sets, () => undefined);
    expect(rows.map((r) => r.leftOut)).toEqual([sets[0]!.name]);
    expect(guard.calls).toBe(5);
  });

  it('without a signal leaves every source out in turn', { timeout: 240_000 }, async () => {
    const guard = abortingGuard(new AbortController());
    const rows = await leaveOneSourceOut({ guard, store, domains: ['ehr'], runs: 5, seed: 1, phase: 'write' }, sets, () => undefined);
    expect(rows.map((r) => r.leftOut)).toEqual(sets.map((s) => s.name));
    expect(guard.calls).toBe(15);
  });
});
