/**
 * `fuzz --workers auto` (the default): worker threads start when the guard's own measured
 * time per case leaves enough work to share, not when generation does. The decisions are
 * pure functions of measured figures: these tests inject them and never read a clock.
 */
import { describe, expect, it, vi } from 'vitest';
import { casesLeftEstimate, WORKER_PAYBACK_MS, workerStartDecision, type WorkerStartInput } from '../../src/fuzz/parallel.js';
import { autoWorkers } from '../../src/campaign/fuzz.js';
import { timedGuard } from '../../src/fuzz/query-meter.js';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { oneCallAtATime, type Guard } from '../../src/domain/guard.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { makeEntry } from '../fixtures/guards/make-entry.js';

/** After the first cell of a 15-cell campaign: 35 cases ran, 14 cells are left at about 35 cases each. */
const afterFirstCell = (msPerCase: number, more: Partial<WorkerStartInput> = {}): WorkerStartInput => ({
  msPerCase,
  basis: 'guard',
  doneMs: msPerCase * 35,
  casesLeft: 14 * 35,
  cellsLeft: 14,
  minRemainingMs: WORKER_PAYBACK_MS,
  cpus: 2,
  load: 1,
  busyBefore: false,
  ...more,
});

describe('workerStartDecision at the guard basis', () => {
  it('a slow sync guard (75 ms of guard time per case, as an amplification chain of a 30 ms guard) starts the workers and says why', () => {
    const d = workerStartDecision(afterFirstCell(75));
    expect(d.start).toBe(true);
    expect(d.reason).toBe("the guard's own time is 75.0 ms per case, about 36.8 s of guard work left, load average 1.00 on 2 CPUs");
  });

  it('a fast guard (0.05 ms per case: generation dominates) stays on one thread, naming the guard time and the payback', () => {
    const d = workerStartDecision(afterFirstCell(0.05, { casesLeft: 14 * 1000 }));
    expect(d.start).toBe(false);
    expect(d.reason).toBe("the guard's own time is 0.05 ms per case, about 0.7 s of guard work left, less than a worker thread needs to pay back its start-up (5 s of work left)");
  });

  it('the threshold is the payback time: just above it starts, just below it does not', () => {
    const per = WORKER_PAYBACK_MS / (14 * 35);
    expect(workerStartDecision(afterFirstCell(per * 1.01)).start).toBe(true);
    expect(workerStartDecision(afterFirstCell(per * 0.99)).start).toBe(false);
  });

  it('a busy machine keeps one thread, and that reason stays once the work left is small', () => {
    const busy = workerStartDecision(afterFirstCell(75, { load: 7.5 }));
    expect(busy).toMatchObject({ start: false, busy: true });
    expect(busy.reason).toMatch(/no CPU is idle \(load average 7\.50 on 2 CPUs\)/);
    expect(workerStartDecision(afterFirstCell(0.05, { busyBefore: true })).reason).toBeUndefined();
  });

  it('with no cell left to hand out nothing starts', () => {
    const d = workerStartDecision(afterFirstCell(75, { cellsLeft: 0, casesLeft: 100 }));
    expect(d.start).toBe(false);
    expect(d.reason).toMatch(/^every cell was already running on the calling thread \(the guard's own time is 75\.0 ms per case/);
  });

  it('the wall basis (--workers N) keeps its wording: the whole campaign on one thread', () => {
    const d = workerStartDecision(afterFirstCell(0.05, { basis: 'wall', doneMs: 1000 }));
    expect(d.reason).toBe('the campaign is about 1.0 s of work on one thread, less than a worker thread needs to pay back its start-up (5 s of work left)');
  });
});

describe('casesLeftEstimate', () => {
  const first = { finishedCells: 0, finishedCases: 0, doneInCell: 128, runsInCell: 1000, runsPerCell: 1000, cellsLeft: 14 };
  it('before any cell finished, the guard basis counts the current cell so far per cell left (the wall basis: --runs)', () => {
    expect(casesLeftEstimate({ ...first, basis: 'guard' })).toBe(14 * 128);
    expect(casesLeftEstimate({ ...first, basis: 'wall' })).toBe(1000 - 128 + 14 * 1000);
  });
  it('after some cells, their mean size, capped at --runs', () => {
    expect(casesLeftEstimate({ ...first, basis: 'guard', finishedCells: 2, finishedCases: 70, doneInCell: 10 })).toBe(35 - 10 + 14 * 35);
    expect(casesLeftEstimate({ ...first, basis: 'guard', finishedCells: 1, finishedCases: 5000, doneInCell: 0 })).toBe(1000 + 14 * 1000);
  });
  it('SENTINEL as measured at load 15 (0.46 ms of guard time per case, 128 cases into its first cell) stays on one thread; a 30 ms guard (75 ms per case) does not', () => {
    const casesLeft = casesLeftEstimate({ ...first, basis: 'guard' });
    expect(workerStartDecision(afterFirstCell(0.46, { casesLeft, load: 0 })).start).toBe(false);
    expect(workerStartDecision(afterFirstCell(75, { casesLeft, load: 0 })).start).toBe(true);
  });
});

describe('autoWorkers', () => {
  const base = { cpus: 2, cells: 15, oneCallAtATime: true, timeLimited: false, pool: true };
  it('a sync guard on 2 CPUs gets 2 lanes (threads start later, when the guard time says they pay)', () => {
    expect(autoWorkers(base)).toEqual({ lanes: 2 });
    expect(autoWorkers({ ...base, cpus: 8 })).toEqual({ lanes: 8 });
  });
  it('one thread, with the reason, for one CPU, an async guard, --time, a single cell or no worker pool', () => {
    expect(autoWorkers({ ...base, cpus: 1 })).toEqual({ lanes: 1, reason: 'this machine has 1 CPU' });
    expect(autoWorkers({ ...base, oneCallAtATime: false, callsInFlight: 8 }).reason).toMatch(/the guard is async: its calls already overlap \(8 in flight, --concurrency\)/);
    // At --concurrency 1 nothing overlaps: the line points at --concurrency instead of saying it is in use.
    const c1 = autoWorkers({ ...base, oneCallAtATime: false, callsInFlight: 1 }).reason ?? '';
    expect(c1).toMatch(/its calls can overlap instead \(--concurrency N; this run keeps 1 in flight\)/);
    expect(c1).not.toMatch(/already overlap/);
    expect(autoWorkers({ ...base, timeLimited: true }).reason).toMatch(/^--time shares the wall clock/);
    expect(autoWorkers({ ...base, cells: 1 }).reason).toBe('the campaign has 1 property cell');
    expect(autoWorkers({ ...base, pool: false }).lanes).toBe(1);
  });
});

describe('oneCallAtATime', () => {
  it('a sync guard, or a module guard whose check is synchronous (async wrapper, one call in flight), but not an async guard with calls in flight', () => {
    expect(oneCallAtATime({ mode: 'sync' })).toBe(true);
    expect(oneCallAtATime({ mode: 'async', concurrencyLimit: 1 })).toBe(true);
    expect(oneCallAtATime({ mode: 'async' })).toBe(false);
    expect(oneCallAtATime({ mode: 'async', concurrencyLimit: 4 })).toBe(false);
  });
  it('the module adapter keeps a sync module (as examples/atr-guard.mjs is) one call at a time, and an async one not', async () => {
    const sync = await loadModuleGuard('test/fixtures/guards/named-guard.cjs');
    const slow = await loadModuleGuard('test/fixtures/guards/slow-module-guard.mjs');
    expect([sync.mode, oneCallAtATime(sync)]).toEqual(['async', true]);
    expect(oneCallAtATime(slow)).toBe(false);
  });
});

describe('timedGuard', () => {
  const verdict: Verdict = { decision: 'admit', trace: [], reasons: [], elapsedUs: 0 };
  it('adds the time of every call to the meter, sync and async, and passes the verdict through', async () => {
    let clock = 0;
    const meter = { ms: 0 };
    // The guard itself moves a fake clock through performance.now: the meter must read the time spent inside check.
    const spy = (advance: number): Guard => ({
      id: 'g',
      mode: 'sync',
      check: () => {
        clock += advance;
        return verdict;
      },
    });
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock);
    try {
      const sync = timedGuard(spy(30), meter);
      expect(sync.check(makeEntry('x'), { store: {} as never, phase: 'write' })).toBe(verdict);
      expect(meter.ms).toBe(30);
      const asyncGuard = timedGuard({ id: 'a', mode: 'async', check: async () => ((clock += 12), verdict) }, meter);
      expect(await asyncGuard.check(makeEntry('y'), { store: {} as never, phase: 'write' })).toBe(verdict);
      expect(meter.ms).toBe(42);
      expect(asyncGuard.mode).toBe('async');
    } finally {
      now.mockRestore();
    }
  });
});
