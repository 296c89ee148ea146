/**
 * A guard that bounds its own calls (`boundsOwnCalls`: the HTTP, exec and module adapters) gets
 * no engine clock over each call. Before, the engine's `--timeout` started before the adapter's
 * wait behind other checks of the same input and before its retries, so the three re-checks of a
 * finding, queued one after another, passed the bound together: a deterministic 300 ms HTTP
 * guard at `--timeout 700` gave 13 flaky findings and no clean one at `--concurrency 8`, and 2
 * clean bypasses at `--concurrency 1`.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Guard, MemoryEntry } from '../../src/domain/index.js';
import { MemoryStore } from '../../src/memory/index.js';
import { runCell } from '../../src/fuzz/property.js';
import { countingGuard, emptyTally, timedGuard } from '../../src/fuzz/query-meter.js';
import { createExecGuard, createHttpGuard, loadModuleGuard } from '../../src/guards/adapters/index.js';
import { FAMILY_REGISTRY } from '../../generators/families.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

/**
 * Admits everything after 30 ms, one check of an input at a time (as the adapters' per-input
 * queue does), so each forged case is a bypass and its re-checks wait behind each other.
 */
function queuedGuard(boundsOwnCalls: boolean): Guard {
  const tails = new Map<string, Promise<unknown>>();
  return {
    id: boundsOwnCalls ? 'self-bounded' : 'unbounded',
    mode: 'async',
    ...(boundsOwnCalls ? { boundsOwnCalls: true } : {}),
    check(entry: MemoryEntry) {
      const run = (tails.get(entry.content) ?? Promise.resolve()).then(() => new Promise((r) => setTimeout(r, 30)));
      tails.set(entry.content, run);
      return run.then(() => ({ decision: 'admit' as const, trace: [], reasons: [], elapsedUs: 30_000 }));
    },
  };
}

const cell = (guard: Guard) =>
  runCell({ domain: 'ehr', family: 'seed', arbitrary: FAMILY_REGISTRY.seed.arbitrary('ehr'), guard, store, phase: 'write', runs: 12, seed: 5, maxFailures: 1, concurrency: 8, timeoutMs: 10 });

describe('boundsOwnCalls', () => {
  it('a self-bounded guard slower than --timeout is never cut to a timeout: its findings are clean', async () => {
    const out = await cell(queuedGuard(true));
    expect(out.stats.errors).toBe(0);
    expect(out.counterexamples.length).toBeGreaterThan(0);
    expect(out.counterexamples.every((c) => c.kind === 'bypass')).toBe(true);
  });

  it('without the flag the engine bound applies (the control: every call times out)', async () => {
    const out = await cell(queuedGuard(false));
    expect(out.stats.errors).toBe(out.stats.runs);
    expect(out.counterexamples.some((c) => c.kind === 'bypass')).toBe(false);
  });

  it('the adapters declare it, and the engine wrappers keep it', async () => {
    const http = createHttpGuard('http://127.0.0.1:9/check', { timeoutMs: 100 });
    const exec = createExecGuard('python3 -c "pass"', { timeoutMs: 100 });
    const mod = await loadModuleGuard(path.join(import.meta.dirname, '../../examples/module-guard.ts'), { timeoutMs: 100 });
    try {
      for (const g of [http, exec, mod]) {
        expect(g.boundsOwnCalls).toBe(true);
        expect(countingGuard(g, emptyTally()).boundsOwnCalls).toBe(true);
        expect(timedGuard(g, { ms: 0 }).boundsOwnCalls).toBe(true);
      }
    } finally {
      await Promise.all([http.close?.(), exec.close?.(), mod.close?.()]);
    }
  });
});
