/**
 * When the leave-one-source-out check of `fuzz` spreads over worker threads
 * (src/campaign/fuzz.ts `losoLanes`, pure): every CPU once the work pays and a CPU is idle,
 * never more lanes than sources or than asked, and one thread with the reason otherwise.
 */
import { describe, expect, it } from 'vitest';
import { losoLanes } from '../../src/campaign/fuzz.js';
import { cpusBusySince } from '../../src/fuzz/parallel.js';

describe('losoLanes', () => {
  const idle = { workers: 'auto' as const, pool: true, stateless: true, cpus: 2, load: 0.3, sources: 13, cases: 39_000, msPerCase: 1 };
  it('uses every CPU when the work pays and a CPU is idle', () => {
    const d = losoLanes(idle);
    expect(d.lanes).toBe(2);
    expect(d.reason).toMatch(/39\.0 s of work \(39000 cases at 1\.00 ms\), other processes kept 0\.00 of 2 CPUs busy since the run started/);
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
    [{ load: 1.6 }, /no CPU is idle \(other processes kept 0\.60 of 2 CPUs busy since the run started\)/],
  ])('stays on one thread for %o and says why', (change, reason) => {
    const d = losoLanes({ ...idle, ...change });
    expect(d.lanes).toBe(1);
    expect(d.reason).toMatch(reason);
  });
});

describe('cpusBusySince', () => {
  it('counts what other processes kept busy, plus one for this thread', () => {
    // 2 CPUs, 10 s each passed (20,000 ms of CPU time), 5,000 ms idle, 12,000 ms this process's: others 3,000 ms = 0.3 CPUs.
    expect(cpusBusySince({ idle: 1000, total: 4000, own: 500, cpus: 2 }, { idle: 6000, total: 24_000, own: 12_500, cpus: 2 })).toBeCloseTo(1.3, 10);
    // An idle machine, or one kept busy by this process alone (its compiler and collector threads too): one.
    expect(cpusBusySince({ idle: 0, total: 0, own: 0, cpus: 2 }, { idle: 20_000, total: 20_000, own: 0, cpus: 2 })).toBe(1);
    expect(cpusBusySince({ idle: 0, total: 0, own: 0, cpus: 2 }, { idle: 6000, total: 20_000, own: 14_000, cpus: 2 })).toBe(1);
    // Both CPUs busy with something else: three (no CPU is idle for a worker).
    expect(cpusBusySince({ idle: 0, total: 0, own: 0, cpus: 2 }, { idle: 0, total: 20_000, own: 0, cpus: 2 })).toBe(3);
  });
});
