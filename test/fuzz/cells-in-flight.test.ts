/**
 * Cells side by side (`runCampaign`'s `cellsInFlight`): against an async guard with calls in
 * flight, later cells take the call slots an earlier cell leaves free. Each cell's outcome,
 * queries included, must be the one it has when the cells run one at a time; the callbacks
 * must see the cells in order; the limit on calls in flight holds across cells; a cell's time
 * bound starts only when it leads; and a failing later cell stops the campaign in order.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { slowSentinel } from '../helpers/slow-sentinel.js';
import fc from 'fast-check';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { Guard } from '../../src/domain/index.js';
import { MemoryStore } from '../../src/memory/index.js';
import { runCampaign, type CellSpec } from '../../src/fuzz/campaign.js';
import { runCell } from '../../src/fuzz/property.js';
import { FAMILY_REGISTRY, type FamilyId } from '../../generators/families.js';
import { timeless } from '../helpers/campaign.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

const CELLS: Array<{ domain: 'ehr' | 'rap'; family: FamilyId }> = [
  { domain: 'ehr', family: 'seed' },
  { domain: 'ehr', family: 'benign' },
  { domain: 'rap', family: 'amplification' },
  { domain: 'rap', family: 'seed' },
];

const specs = (cells = CELLS): CellSpec[] => cells.map((c) => ({ ...c, arbitrary: FAMILY_REGISTRY[c.family].arbitrary(c.domain) }));

type Event = { kind: 'start' | 'progress' | 'end'; cell: number };

async function campaign(cellsInFlight: number, concurrency = 4) {
  const guard = slowSentinel();
  const events: Event[] = [];
  const cells = specs();
  const index = (c: CellSpec): number => cells.indexOf(c);
  let callsBeforeFirstEnd: number | undefined;
  const outcome = await runCampaign({
    guard,
    cells,
    store,
    phase: 'write',
    runsPerCell: 40,
    seed: 4242,
    maxFailures: 2,
    concurrency,
    cellsInFlight,
    cache: true,
    onCellStart: (c, i) => events.push({ kind: 'start', cell: i }),
    onProgress: (c) => events.push({ kind: 'progress', cell: index(c) }),
    onCellEnd: (_o, i) => {
      callsBeforeFirstEnd ??= guard.calls;
      events.push({ kind: 'end', cell: i });
    },
  });
  return { outcome, events, guard, callsBeforeFirstEnd: callsBeforeFirstEnd ?? 0 };
}

describe('cells in flight', () => {
  it('every cell has the outcome, queries included, it has when the cells run one at a time', async () => {
    const one = await campaign(1);
    const two = await campaign(2);
    const four = await campaign(4);
    // The comparison covers findings: the forged cells fail against SENTINEL.
    expect(one.outcome.cells.some((c) => c.counterexamples.length > 0)).toBe(true);
    expect(timeless(two.outcome)).toEqual(timeless(one.outcome));
    expect(timeless(four.outcome)).toEqual(timeless(one.outcome));
    const queries = (o: typeof one) => o.outcome.cells.map((c) => ({ cases: c.queries?.cases, shrink: c.queries?.shrink, recheck: c.queries?.recheck }));
    expect(queries(two)).toEqual(queries(one));
    expect(queries(four)).toEqual(queries(one));
    expect(four.guard.calls).toBe(one.guard.calls);
  });

  it('later cells run beside the first, and never more than `concurrency` calls are in flight across cells', async () => {
    const one = await campaign(1, 4);
    const four = await campaign(4, 4);
    const firstCellQueries = (o: typeof one) => {
      const q = o.outcome.cells[0]?.queries;
      return q ? q.cases.queries + q.shrink.queries + q.recheck.queries : 0;
    };
    // One at a time, the first cell's end comes after its own calls only.
    expect(one.callsBeforeFirstEnd).toBe(firstCellQueries(one));
    // Side by side, other cells had asked the guard before the first cell ended.
    expect(four.callsBeforeFirstEnd).toBeGreaterThan(firstCellQueries(four));
    expect(four.guard.maxInFlight).toBeGreaterThan(1);
    expect(four.guard.maxInFlight).toBeLessThanOrEqual(4);
  });

  it('the callbacks see the cells in order: start, its own progress, end, then the next cell', async () => {
    const { events } = await campaign(4);
    let current = -1;
    let open = false;
    for (const e of events) {
      if (e.kind === 'start') {
        expect(open).toBe(false);
        expect(e.cell).toBe(current + 1);
        current = e.cell;
        open = true;
      } else {
        expect(open).toBe(true);
        expect(e.cell).toBe(current);
        if (e.kind === 'end') open = false;
      }
    }
    expect(current).toBe(CELLS.length - 1);
    expect(open).toBe(false);
    // Each cell reports progress, also one that ran ahead while an earlier cell led.
    for (let i = 0; i < CELLS.length; i++) expect(events.some((e) => e.kind === 'progress' && e.cell === i)).toBe(true);
  });

  it('a later cell whose generator throws fails the campaign after the earlier cells end, and nothing asks the guard afterwards', async () => {
    const guard = slowSentinel();
    const broken: fc.Arbitrary<FuzzCase> = fc.integer().map(() => {
      throw new Error('template {{missing');
    });
    const cells = specs(CELLS.slice(0, 3));
    cells[1] = { domain: 'ehr', family: 'benign', arbitrary: broken };
    const ended: number[] = [];
    await expect(
      runCampaign({ guard, cells, store, phase: 'write', runsPerCell: 30, seed: 7, maxFailures: 1, concurrency: 4, cellsInFlight: 3, cache: true, onCellEnd: (_o, i) => ended.push(i) }),
    ).rejects.toThrow(/generator failed in cell ehr\/benign: template \{\{missing/);
    expect(ended).toEqual([0]);
    const calls = guard.calls;
    await new Promise((r) => setTimeout(r, 50));
    expect(guard.calls).toBe(calls);
  });
});

describe('Ctrl-C with cells in flight', () => {
  it('returns the cells up to the one leading, as one at a time does, and no queued call of a cell that ran ahead starts', async () => {
    const stopAfterFirst = async (cellsInFlight: number) => {
      const guard = slowSentinel();
      const stop = new AbortController();
      let callsAtStop = 0;
      const outcome = await runCampaign({
        guard,
        cells: specs(),
        store,
        phase: 'write',
        runsPerCell: 40,
        seed: 4242,
        maxFailures: 2,
        concurrency: 4,
        cellsInFlight,
        cache: true,
        signal: stop.signal,
        onCellEnd: () => {
          callsAtStop = guard.calls;
          stop.abort();
        },
      });
      const callsAtReturn = guard.calls;
      await new Promise((r) => setTimeout(r, 50));
      return { outcome, callsAtStop, callsAtReturn, callsLater: guard.calls };
    };
    const one = await stopAfterFirst(1);
    const four = await stopAfterFirst(4);
    expect(one.outcome.cells.map((c) => `${c.domain}/${c.family}`)).toEqual(['ehr/seed']);
    expect(timeless(four.outcome)).toEqual(timeless(one.outcome));
    // Calls already in flight settle; none starts once the campaign has returned.
    expect(four.callsAtStop).toBeGreaterThan(0);
    expect(four.callsLater).toBe(four.callsAtReturn);
  });
});

describe('a cell that waits to lead (CellOptions.leads)', () => {
  // An async guard that admits everything: every forged case fails, so each round ends at its
  // first case and the cell starts a new round (where the time bound is read) every time.
  const admitAll: Guard = { id: 'admit-all', mode: 'async', check: async () => ({ decision: 'admit', trace: [], reasons: [], elapsedUs: 0 }) };
  const base = { domain: 'ehr', family: 'seed', arbitrary: FAMILY_REGISTRY.seed.arbitrary('ehr'), guard: admitAll, store, phase: 'write' as const, runs: 60, seed: 99, maxFailures: 2, concurrency: 2, timeLimitMs: 1e9 };

  it('its time bound starts when it leads: a bound of 0 ms from then stops it at its next round', async () => {
    const out = await runCell({ ...base, leads: Promise.resolve(0) });
    expect(out.stopped).toBe('time');
    expect(out.interrupted).toBe(true);
    expect(out.stats.runs).toBeLessThan(60);
  });

  it('no bound once it leads (undefined), or a lead that never comes, lets it run every case', async () => {
    const free = await runCell({ ...base, leads: Promise.resolve(undefined) });
    // A 1 ms bound that has not started: a cell waiting to lead is never stopped by the clock.
    const waiting = await runCell({ ...base, timeLimitMs: 1, leads: new Promise<number | undefined>(() => undefined) });
    for (const out of [free, waiting]) {
      expect(out.stopped).toBe('runs');
      expect(out.stats.runs).toBe(60);
    }
  });
});
