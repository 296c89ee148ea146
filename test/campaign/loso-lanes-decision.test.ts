/**
 * When the leave-one-source-out check of `fuzz` spreads over worker threads
 * (src/campaign/fuzz.ts `losoLanes`, pure): every CPU once the work pays and a CPU is idle,
 * never more lanes than sources or than asked, and one thread with the reason otherwise.
 */
import { describe, expect, it } from 'vitest';
import { losoLanes } from '../../src/campaign/fuzz.js';

describe('losoLanes', () => {
  const idle = { workers: 'auto' as const, pool: true, stateless: true, cpus: 2, load: 0.3, sources: 13, cases: 39_000, msPerCase: 1 };
  it('uses every CPU when the work pays and a CPU is idle', () => {
    const d = losoLanes(idle);
    expect(d.lanes).toBe(2);
    expect(d.reason).toMatch(/39\.0 s of work \(39000 cases at 1\.00 ms\), load average 0\.30 on 2 CPUs/);
  });
  it('never more lanes than sources, or than asked', () => {
    expect(losoLanes({ ...idle, cpus: 8, sources: 3 }).lanes).toBe(3);
    expect(losoLanes({ ...idle, cpus: 8, workers: 2 }).lanes).toBe(2);
  });
  it.each([
    [{ workers: 1 as const }, /--workers 1/],
    [{ pool: false }, /no worker pool/],
    [{ cpus: 1 }, /1 CPU/],
    [{ sources: 1 }, /1 source/],
    [{ stateless: false }, /keeps state between calls/],
    [{ msPerCase: undefined }, /no benign cell measured/],
    [{ cases: 100 }, /less than a worker thread needs/],
    [{ load: 1.6 }, /no CPU is idle \(load average 1\.60 on 2 CPUs\)/],
  ])('stays on one thread for %o and says why', (change, reason) => {
    const d = losoLanes({ ...idle, ...change });
    expect(d.lanes).toBe(1);
    expect(d.reason).toMatch(reason);
  });
});
