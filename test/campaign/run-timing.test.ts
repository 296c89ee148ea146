/**
 * The run's time is accounted for: `timing.phases` in report.json names every phase in order
 * with its wall time, `timing.wallMs` covers them all, and the real-set phase reports progress
 * as a phase of its own (so a log that is not a terminal shows it). Nothing here bounds a time:
 * only which phases there are, their order, and that disjoint parts fit in the whole.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFuzz } from '../../src/campaign/fuzz.js';
import type { Progress } from '../../src/campaign/progress.js';
import { loadRealBenignSets } from '../../src/corpus/benign-sets.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const out = mkdtempSync(path.join(tmpdir(), 'ff-timing-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** A progress that records every call. */
function recording(): Progress & { calls: Array<[string, ...unknown[]]> } {
  const calls: Array<[string, ...unknown[]]> = [];
  return { calls, start: (t, l) => void calls.push(['start', t, l]), update: (d) => void calls.push(['update', d]), log: (l) => void calls.push(['log', l]), stop: () => void calls.push(['stop']) };
}

describe('run timing and progress', () => {
  it('names every phase in order with a non-negative time, and a wall time', async () => {
    const store = new MemoryStore(':memory:');
    const progress = recording();
    // As the CLI does: the start-up phase is the time since the process started (performance.now() counts from 0 there).
    try {
      await runFuzz(
        {
          guardSpec: 'sentinel',
          guard: createGuard('sentinel'),
          store,
          domains: ['ehr'],
          families: ['naive', 'adaptive'],
          runs: 5,
          seed: 11,
          phase: 'write',
          maxFailures: 1,
          outDir: out,
          benignFile: path.join(ROOT, 'corpora', 'benign', 'curated.jsonl'),
          realData: true,
          generatedAt: '2026-01-01T00:00:00.000Z',
          attack: { bases: 3, budget: 4 },
          startedAtMs: 0,
        },
        progress,
      );
    } finally {
      store.close();
    }
    const timing = (JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { timing: { phases: Array<{ phase: string; elapsedMs: number }>; wallMs: number } }).timing;
    expect(timing.phases.map((p) => p.phase)).toEqual(['start-up', 'cells', 'adaptive attack', 'real sets', 'benign export', 'report']);
    // Shapes only: how long a phase took is the machine's business (time bounds live in npm run bench).
    for (const p of timing.phases) expect(Number.isFinite(p.elapsedMs) && p.elapsedMs >= 0, p.phase).toBe(true);
    expect(Number.isFinite(timing.wallMs) && timing.wallMs >= 0).toBe(true);

    // The header counts the attack cells apart; the real sets are a progress phase of their own, counted to the end.
    const starts = progress.calls.filter((c) => c[0] === 'start');
    expect(starts[0]![2]).toBe('sentinel: 1 cell, then the adaptive attack (1 cell of up to 3 bases each)');
    const sets = loadRealBenignSets().sets.length;
    const realStart = progress.calls.findIndex((c) => c[0] === 'start' && String(c[2]).startsWith(`real benign sets: ${sets} sets, `));
    expect(realStart).toBeGreaterThan(0);
    const total = progress.calls[realStart]![1] as number;
    const after = progress.calls.slice(realStart + 1);
    const stop = after.findIndex((c) => c[0] === 'stop');
    expect(after.slice(0, stop).filter((c) => c[0] === 'update').at(-1)?.[1]).toBe(total);
    expect(progress.calls.some((c) => c[0] === 'log' && /^adaptive attack: 1 domain, up to 3 forged bases each, 4 queries per rejected base at most$/.test(String(c[1])))).toBe(true);
  });

  it('records how the cells ran: the calls in flight and the lanes (report.json timing.execution, a report.md row)', async () => {
    const inner = createGuard('keyword');
    // An async guard: the engine keeps up to --concurrency calls in flight; a sync guard always one.
    const asyncGuard = { id: 'keyword-async', mode: 'async' as const, check: async (...a: Parameters<typeof inner.check>) => inner.check(...a) };
    const seen: Record<string, unknown> = {};
    for (const [name, guard, concurrency] of [['async-c3', asyncGuard, 3], ['sync-c3', inner, 3], ['async-c1', asyncGuard, 1]] as const) {
      const dir = path.join(out, name);
      const store = new MemoryStore(':memory:');
      try {
        await runFuzz({ guardSpec: guard.id, guard, store, domains: ['ehr'], families: ['naive'], runs: 4, seed: 11, phase: 'write', maxFailures: 1, outDir: dir, realData: false, generatedAt: '2026-01-01T00:00:00.000Z', concurrency }, recording());
      } finally {
        store.close();
      }
      seen[name] = (JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as { timing: { execution?: unknown } }).timing.execution;
      if (name === 'async-c3') expect(readFileSync(path.join(dir, 'report.md'), 'utf8')).toContain('| execution | 3 guard calls in flight at most, 1 lane |');
    }
    expect(seen).toEqual({ 'async-c3': { callsInFlight: 3, lanes: 1 }, 'sync-c3': { callsInFlight: 1, lanes: 1 }, 'async-c1': { callsInFlight: 1, lanes: 1 } });
  });
});
