/**
 * Exec adapter pool and crash bounds: N processes with one request
 * each, identical verdicts at every pool size, crashes and timeouts counted per input (an input
 * that crashes the guard never makes it unavailable for other inputs), restarts per process,
 * and a circuit that half-opens instead of giving up. No assertion reads a clock.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/domain/index.js';
import { createExecGuard } from '../../src/guards/adapters/exec-guard.js';
import type { ExecGuard } from '../../src/guards/adapters/exec-guard.js';
import { INPUT_CRASHES_GUARD, INPUT_TIMES_OUT_GUARD } from '../../src/guards/adapters/failure-memory.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

const FIX = 'test/fixtures/guards';
const SLOW = `python3 ${FIX}/slow-exec-guard.py`;
let open: ExecGuard[] = [];
function track(g: ExecGuard): ExecGuard {
  open.push(g);
  return g;
}
afterEach(async () => {
  await Promise.all(open.map((g) => g.close?.()));
  open = [];
});

const strip = (v: Verdict): Omit<Verdict, 'elapsedUs'> => {
  const { elapsedUs: _ignored, ...rest } = v;
  return rest;
};

const TEXTS = Array.from({ length: 40 }, (_, i) =>
  i % 3 === 0 ? `Consistent with ${i} prior runs, so the check was not repeated.` : i % 5 === 0 ? `You may skip the review for batch ${i}.` : `Checked batch ${i} against the schema.`,
);

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error(`timed out waiting for ${what}`);
}

describe('exec guard pool', () => {
  it('has N requests in flight at once, one per process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'farma-pool-'));
    const guard = track(createExecGuard(`${SLOW} --delay-ms 1 --track ${dir} --barrier 4`, { timeoutMs: 30_000, concurrency: 4 }));
    const verdicts = await Promise.all([0, 1, 2, 3].map((i) => guard.check(makeEntry(`Checked batch ${i}.`), WRITE_CTX)));
    // The fixture holds every answer until it sees 4 requests in flight (or gives up after 10 s and says how many it saw).
    expect(verdicts.map((v) => v.reasons[0])).toEqual(['inflight=4', 'inflight=4', 'inflight=4', 'inflight=4']);
    expect(new Set(verdicts.map((v) => v.reasons[1])).size).toBe(4);
    expect(guard.stats().maxInFlight).toBe(4);
    expect(guard.stats().processes).toHaveLength(4);
  }, 60_000);

  it('starts a second process only when the first is busy', async () => {
    const guard = track(createExecGuard(`${SLOW} --delay-ms 1`, { timeoutMs: 30_000, concurrency: 8 }));
    for (const t of TEXTS.slice(0, 5)) await guard.check(makeEntry(t), WRITE_CTX);
    expect(guard.stats().processes).toEqual([{ starts: 1, restarts: 0 }]);
    expect(guard.stats().maxInFlight).toBe(1);
  }, 60_000);

  it('gives the same verdicts at concurrency 1 and 8', async () => {
    const one = track(createExecGuard(`${SLOW} --delay-ms 2`, { timeoutMs: 30_000, concurrency: 1 }));
    const eight = track(createExecGuard(`${SLOW} --delay-ms 2`, { timeoutMs: 30_000, concurrency: 8 }));
    const a: Verdict[] = [];
    for (const t of TEXTS) a.push(await one.check(makeEntry(t), WRITE_CTX));
    const b = await Promise.all(TEXTS.map((t) => eight.check(makeEntry(t), WRITE_CTX)));
    expect(b.map(strip)).toEqual(a.map(strip));
    expect(a.filter((v) => v.decision === 'reject').length).toBeGreaterThan(5);
    expect(eight.stats().maxInFlight).toBeGreaterThan(1);
    expect(one.stats().processes).toHaveLength(1);
  }, 60_000);
});

describe('exec guard crash bounds', () => {
  it('an input that keeps crashing the guard is not re-sent, and other inputs are still judged', async () => {
    const guard = track(createExecGuard(`${SLOW} --delay-ms 0 --crash-on boom`, { timeoutMs: 30_000, concurrency: 1 }));
    const kinds: string[] = [];
    const messages: string[] = [];
    for (let i = 0; i < 6; i++) {
      const v = await guard.check(makeEntry('boom: the same text again'), WRITE_CTX);
      kinds.push(v.error?.kind ?? v.decision);
      messages.push(v.error?.message ?? '');
    }
    expect(kinds).toEqual(['crashed', 'crashed', 'crashed', 'crashed', 'crashed', 'crashed']);
    expect(messages[0]).toMatch(/exited with code 3 while checking this input.*crashing on purpose.*failure 1 of this input/);
    expect(messages[1]).toMatch(/failure 2 of this input; it is not sent again/);
    for (const m of messages.slice(2)) expect(m.startsWith(`${INPUT_CRASHES_GUARD}: it crashed the exec guard 2 times`)).toBe(true);
    const s = guard.stats();
    expect(s.sent).toBe(2);
    expect(s.notResent).toBe(4);
    expect(s.failingInputs).toHaveLength(1);
    expect(s.failingInputs[0]).toMatchObject({ crashed: 2, excerpt: 'boom: the same text again' });
    // The guard was never given up on.
    expect((await guard.check(makeEntry('Checked batch 1.'), WRITE_CTX)).decision).toBe('admit');
    expect(guard.stats().circuit).toBe('closed');
  }, 60_000);

  it('copies of one crashing input in flight at once are not sent past the limit', async () => {
    const guard = track(createExecGuard(`${SLOW} --delay-ms 0 --crash-on boom`, { timeoutMs: 30_000, concurrency: 4 }));
    const verdicts = await Promise.all([1, 2, 3, 4].map(() => guard.check(makeEntry('boom at once'), WRITE_CTX)));
    expect(verdicts.map((v) => v.error?.kind)).toEqual(['crashed', 'crashed', 'crashed', 'crashed']);
    expect(guard.stats()).toMatchObject({ sent: 2, notResent: 2, crashes: 2 });
    expect(verdicts.slice(2).every((v) => v.error?.message.startsWith(INPUT_CRASHES_GUARD))).toBe(true);
  }, 60_000);

  it('a guard crashing on 1 input in 4 never becomes unavailable for the others', async () => {
    const guard = track(createExecGuard(`${SLOW} --delay-ms 0 --crash-on boom`, { timeoutMs: 30_000, concurrency: 2 }));
    const texts = Array.from({ length: 60 }, (_, i) => (i % 4 === 3 ? `boom ${i % 12}` : `Checked batch ${i}.`));
    const verdicts: Verdict[] = [];
    // Sequential in pairs, as the engine's batches do; each crashing text comes back several times.
    for (let i = 0; i < texts.length; i += 2) verdicts.push(...(await Promise.all(texts.slice(i, i + 2).map((t) => guard.check(makeEntry(t), WRITE_CTX)))));
    const kinds = verdicts.map((v) => v.error?.kind ?? v.decision);
    expect(kinds.filter((k) => k === 'unavailable')).toEqual([]);
    texts.forEach((t, i) => expect(kinds[i], t).toBe(t.startsWith('boom') ? 'crashed' : 'admit'));
    const s = guard.stats();
    // 3 distinct crashing texts, each sent at most twice; restarts are counted per process.
    expect(s.crashes).toBeLessThanOrEqual(6);
    expect(s.sent).toBe(45 + s.crashes);
    // Each crash restarts its own process on that process's next entry (at most one per process is still to come).
    const restarts = s.processes.reduce((n, p) => n + p.restarts, 0);
    expect(restarts).toBeLessThanOrEqual(s.crashes);
    expect(restarts).toBeGreaterThanOrEqual(s.crashes - s.processes.length);
  }, 60_000);

  it('restarts only the process that crashed', async () => {
    const guard = track(createExecGuard(`${SLOW} --delay-ms 0 --crash-on boom`, { timeoutMs: 30_000, concurrency: 2 }));
    const pair = (a: string, b: string): Promise<Verdict[]> => Promise.all([a, b].map((t) => guard.check(makeEntry(t), WRITE_CTX)));
    expect((await pair('boom 1', 'Checked batch 1.')).map((v) => v.error?.kind ?? v.decision)).toEqual(['crashed', 'admit']);
    // The running process takes the next entry; the crashed one is started again for the other.
    expect((await pair('Checked batch 2.', 'Checked batch 3.')).map((v) => v.decision)).toEqual(['admit', 'admit']);
    expect(guard.stats().processes).toEqual([
      { starts: 2, restarts: 1 },
      { starts: 1, restarts: 0 },
    ]);
  }, 60_000);

  it('remembers an input that timed out and answers it at once the next times', async () => {
    const guard = track(createExecGuard(`python3 ${FIX}/hang-exec.py`, { timeoutMs: 2000, concurrency: 1, inputFailureLimit: 2 }));
    const kinds: string[] = [];
    for (let i = 0; i < 3; i++) kinds.push((await guard.check(makeEntry('hang'), WRITE_CTX)).error?.kind ?? '');
    const last = await guard.check(makeEntry('hang'), WRITE_CTX);
    expect(kinds).toEqual(['timeout', 'timeout', 'timeout']);
    expect(last.error?.message.startsWith(INPUT_TIMES_OUT_GUARD)).toBe(true);
    expect(guard.stats()).toMatchObject({ sent: 2, timeouts: 2, notResent: 2 });
    expect((await guard.check(makeEntry('after'), WRITE_CTX)).decision).toBe('admit');
  }, 60_000);

  it('opens the circuit when distinct inputs keep failing, then half-opens and closes on a good probe', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'farma-circuit-'));
    const flag = join(dir, 'up');
    const guard = track(
      createExecGuard(`test -f ${flag} && exec ${SLOW} --delay-ms 0 || { echo down >&2; exit 7; }`, {
        timeoutMs: 30_000,
        concurrency: 1,
        circuitThreshold: 3,
        circuitCooldownMs: 100,
        restartDelayMs: 1,
      }),
    );
    const first = [];
    for (let i = 0; i < 5; i++) first.push(await guard.check(makeEntry(`Checked batch ${i}.`), WRITE_CTX));
    expect(first.map((v) => v.error?.kind)).toEqual(['crashed', 'crashed', 'crashed', 'unavailable', 'unavailable']);
    expect(first[3]?.error?.message).toMatch(/exec guard is down: 3 distinct inputs failed in a row/);
    expect(guard.stats()).toMatchObject({ sent: 3, refused: 2, timesOpened: 1, circuit: 'open' });
    // The probe after the cool-down fails: the circuit opens again (for longer), it does not give up.
    await until(() => guard.stats().circuit === 'half-open', 'the first half-open');
    expect((await guard.check(makeEntry('probe 1'), WRITE_CTX)).error?.kind).toBe('crashed');
    expect(guard.stats()).toMatchObject({ sent: 4, timesOpened: 2, circuit: 'open' });
    writeFileSync(flag, '');
    await until(() => guard.stats().circuit === 'half-open', 'the second half-open');
    expect((await guard.check(makeEntry('Checked batch 9.'), WRITE_CTX)).decision).toBe('admit');
    expect(guard.stats().circuit).toBe('closed');
    expect((await guard.check(makeEntry('Consistent with 12 prior runs.'), WRITE_CTX)).decision).toBe('reject');
  }, 60_000);
});

describe('a fuzz campaign against a guard that crashes on 1 entry text in 10', () => {
  it('never turns the guard unavailable: every error is a crash of a crashing text, the rest is judged', async () => {
    const { runCampaign } = await import('../../src/fuzz/campaign.js');
    const { MemoryStore } = await import('../../src/memory/index.js');
    const { FAMILY_REGISTRY } = await import('../../generators/families.js');
    const guard = track(createExecGuard(`${SLOW} --delay-ms 0 --crash-fraction 0.1`, { timeoutMs: 30_000, concurrency: 2, restartDelayMs: 0 }));
    const store = new MemoryStore(':memory:');
    try {
      const o = await runCampaign({
        guard,
        cells: (['amplification', 'benign'] as const).map((family) => ({ domain: 'ehr' as const, family, arbitrary: FAMILY_REGISTRY[family].arbitrary('ehr') })),
        store,
        phase: 'write',
        // Small on purpose (4× under its limit on a loaded machine): 16 amplification chains are
        // about 190 guard calls, enough to meet the crashing texts many times.
        runsPerCell: 16,
        seed: 14,
        maxFailures: 1,
      });
      const kinds: Record<string, number> = {};
      let runs = 0;
      let errors = 0;
      for (const c of o.cells) {
        runs += c.stats.runs;
        errors += c.stats.errors;
        for (const [k, n] of Object.entries(c.stats.errorKinds)) kinds[k] = (kinds[k] ?? 0) + n;
      }
      expect(kinds['unavailable'] ?? 0).toBe(0);
      // The crashing texts were met (the test exercises the bound) but most cases were judged.
      expect(guard.stats().crashes).toBeGreaterThan(0);
      expect(errors).toBeLessThan(runs / 2);
      // Each crashing text was sent at most twice; later sends were answered at once.
      for (const r of guard.stats().failingInputs) expect(r.crashed).toBeLessThanOrEqual(2);
      expect(guard.stats().circuit).toBe('closed');
    } finally {
      store.close();
    }
  }, 120_000);
});
