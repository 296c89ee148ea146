/**
 * The engine's `--timeout` over a guard object of the API (one that does not bound its own
 * calls) measures the guard, not the engine: the clock starts when `check` is called, not when
 * the call was queued behind the engine's own synchronous work (with cells side by side, each
 * cell's first batch of cases is generated before any call runs), and an answer that arrived
 * while the event loop was busy still wins. Before, the first calls of a campaign timed out at
 * `--timeout 100` against a guard answering in 3 ms.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Guard, MemoryEntry } from '../../src/domain/index.js';
import { MemoryStore } from '../../src/memory/index.js';
import { evaluateAsync } from '../../src/fuzz/evaluate.js';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import fc from 'fast-check';
import { FAMILY_REGISTRY } from '../../generators/families.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

const fiveMs: Guard = {
  id: 'five-ms',
  mode: 'async',
  check: (_e: MemoryEntry) => new Promise((r) => setTimeout(() => r({ decision: 'admit', trace: [], reasons: [], elapsedUs: 5000 }), 5)),
};

/** Blocks the thread for `ms`, as generating a batch of cases does (Atomics.wait: a synchronous sleep, no clock read here). */
function busy(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('the engine timeout clock', () => {
  it('does not count the engine\'s own work before the call starts', async () => {
    const cases = fc.sample(FAMILY_REGISTRY.benign.arbitrary('ehr'), { numRuns: 4, seed: 1 }) as FuzzCase[];
    const pending = cases.map((c) => evaluateAsync(fiveMs, c, store, 'write', 50));
    busy(120);
    const verdicts = await Promise.all(pending);
    expect(verdicts.map((v) => v.decision)).toEqual(['admit', 'admit', 'admit', 'admit']);
  });

  it('still times out a guard that does not answer', async () => {
    const never: Guard = { id: 'never', mode: 'async', check: () => new Promise(() => undefined) };
    const [c] = fc.sample(FAMILY_REGISTRY.benign.arbitrary('ehr'), { numRuns: 1, seed: 2 }) as FuzzCase[];
    const v = await evaluateAsync(never, c as FuzzCase, store, 'write', 30);
    expect(v.decision).toBe('error');
    expect(v.error?.kind).toBe('timeout');
  });
});
