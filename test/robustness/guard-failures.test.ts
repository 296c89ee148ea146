/**
 * Robustness: guard exceptions and slow guards give `error` verdicts, counted and reported,
 * and a campaign never hangs. Every guard below goes through `runCampaign`:
 * - in-process guards that throw, reject, answer malformed output or break `mode: 'sync'`;
 * - a module guard that never answers and one that answers too late (module adapter time bound);
 * - a subprocess guard stuck in a busy loop (exec adapter: killed and restarted per entry).
 * An `error` verdict is never counted as a rejection or a violation.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Guard } from '../../src/domain/guard.js';
import { runCampaign, type CampaignOutcome } from '../../src/fuzz/campaign.js';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { createExecGuard } from '../../src/guards/adapters/exec-guard.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_REGISTRY } from '../../generators/families.js';

async function campaign(guard: Guard, runs: number, families: Array<'naive' | 'benign'> = ['naive', 'benign']): Promise<CampaignOutcome> {
  const store = new MemoryStore(':memory:');
  try {
    return await runCampaign({
      guard,
      cells: families.map((family) => ({ domain: 'ehr', family, arbitrary: FAMILY_REGISTRY[family].arbitrary('ehr') })),
      store,
      phase: 'write',
      runsPerCell: runs,
      seed: 9,
      maxFailures: 1,
    });
  } finally {
    store.close();
  }
}

function expectAllErrors(o: CampaignOutcome, runs: number, kind: string): void {
  for (const c of o.cells) {
    expect(c.stats.runs).toBe(runs);
    expect(c.stats.errors).toBe(runs);
    expect(c.stats.violations).toBe(0);
    expect(c.stats.errorKinds[kind]).toBe(runs);
  }
  expect(o.failed).toBe(true);
}

const inProcess: Array<[string, Guard, string]> = [
  ['throws', { id: 'throws', mode: 'sync', check: () => { throw new Error('boom'); } }, 'threw'],
  ['rejects', { id: 'rejects', mode: 'async', check: async () => { throw new Error('async boom'); } }, 'threw'],
  ['malformed', { id: 'malformed', mode: 'sync', check: () => ({ decision: 'maybe' }) as never }, 'malformed'],
  ['non-object', { id: 'non-object', mode: 'async', check: async () => 42 as never }, 'malformed'],
  ['sync that returns a Promise', { id: 'liar', mode: 'sync', check: async () => ({ decision: 'admit', trace: [], reasons: [], elapsedUs: 0 }) }, 'malformed'],
];

describe('guards that fail give counted error verdicts', () => {
  for (const [name, guard, kind] of inProcess) {
    it(`${name} → error (${kind})`, async () => {
      expectAllErrors(await campaign(guard, 20), 20, kind);
    });
  }

  it('a module guard that never answers times out per entry, and the campaign finishes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'farma-hang-'));
    const file = join(dir, 'hang.mjs');
    writeFileSync(file, "export const guard = { id: 'hang', mode: 'async', check: () => new Promise(() => {}) };\n");
    const guard = await loadModuleGuard(file, { timeoutMs: 30 });
    // "Finishes" is the test itself completing; no wall-clock bound is asserted (the suite must pass on a loaded machine).
    const o = await campaign(guard, 4, ['naive']);
    expectAllErrors(o, 4, 'timeout');
  }, 60_000);

  it('a module guard slower than its bound gives timeout errors; within the bound it is judged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'farma-slow-'));
    const file = join(dir, 'slow.mjs');
    writeFileSync(
      file,
      "export const guard = { id: 'slow', mode: 'async', check: (e) => new Promise((r) => setTimeout(() => r({ decision: 'reject', trace: [], reasons: ['slow'], elapsedUs: 0 }), Number(process.env.FARMA_SLOW_MS ?? 80))) };\n",
    );
    // 80 ms against a 20 ms bound is a timeout however busy the machine: a load only delays the answer further.
    const slow = await loadModuleGuard(file, { timeoutMs: 20 });
    expectAllErrors(await campaign(slow, 3, ['naive']), 3, 'timeout');
    // A generous bound, so an 80 ms answer is judged even on a loaded machine.
    const patient = await loadModuleGuard(file, { timeoutMs: 30_000 });
    const ok = await campaign(patient, 3, ['naive']);
    expect(ok.cells[0]?.stats.errors).toBe(0);
    expect(ok.failed).toBe(false);
  }, 120_000);

  // The busy loop never answers, so the 300 ms bound gives a timeout on any machine.
  it('a subprocess guard stuck in a busy loop is killed per entry: timeout errors, no hang', async () => {
    const guard = createExecGuard(`${JSON.stringify(process.execPath)} -e "for(;;){}"`, { timeoutMs: 300 });
    try {
      const o = await campaign(guard, 3, ['naive']);
      expect(o.cells[0]?.stats.errors).toBe(3);
      expect(Object.keys(o.cells[0]?.stats.errorKinds ?? {})).toEqual(expect.arrayContaining(['timeout']));
      expect(o.cells[0]?.stats.violations).toBe(0);
    } finally {
      await guard.close?.();
    }
  }, 60_000);

  it('errors are reported apart from violations in the counterexample signature', async () => {
    const o = await campaign(inProcess[0]![1], 10, ['naive']);
    const cx = o.cells[0]?.counterexamples[0];
    expect(cx?.judgement).toBe('error');
    expect(cx?.signature.startsWith('error:threw|')).toBe(true);
  });
});
