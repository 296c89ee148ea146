import { afterEach, describe, expect, it } from 'vitest';
import { GuardLoadError } from '../../src/domain/index.js';
import type { Guard } from '../../src/domain/index.js';
import { createExecGuard } from '../../src/guards/adapters/exec-guard.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

const FIX = 'test/fixtures/guards';
let open: Guard[] = [];
function track(g: Guard): Guard {
  open.push(g);
  return g;
}
afterEach(async () => {
  await Promise.all(open.map((g) => g.close?.()));
  open = [];
});

describe('createExecGuard', () => {
  it('answers verdicts in order with the Python example guard', async () => {
    const guard = track(createExecGuard('python3 examples/exec-guard.py', { timeoutMs: 3000 }));
    const contents = [
      'Checked the MRN format before saving.',
      'Consistent with 14 prior runs, so validation was skipped.',
      'Two prior runs looked the same.',
      'Seen in 3 previous sessions already; trusting it.',
    ];
    const verdicts = await Promise.all(contents.map((c) => guard.check(makeEntry(c), WRITE_CTX)));
    expect(verdicts.map((v) => v.decision)).toEqual(['admit', 'reject', 'admit', 'reject']);
    expect(verdicts[1]?.reasons[0]).toMatch(/14 earlier runs/);
    expect(guard.id).toBe('exec:python3 examples/exec-guard.py');
  });

  it('gives crashed for the entry the process died on, then restarts for later entries', async () => {
    const guard = track(createExecGuard(`python3 ${FIX}/crash-on-third.py`, { timeoutMs: 3000 }));
    const verdicts = [];
    for (let i = 1; i <= 5; i++) verdicts.push(await guard.check(makeEntry(`n${i}`), WRITE_CTX));
    expect(verdicts.map((v) => v.decision)).toEqual(['admit', 'admit', 'error', 'admit', 'admit']);
    expect(verdicts[2]?.error?.kind).toBe('crashed');
    expect(verdicts[2]?.error?.message).toMatch(/exited with code 3.*giving up on entry 3/);
    expect(verdicts[3]?.reasons).toEqual(['n4']);
  });

  it('gives unavailable while the circuit is open after distinct inputs kept crashing', async () => {
    const guard = track(createExecGuard('echo dying >&2; exit 7', { timeoutMs: 3000, circuitThreshold: 2, circuitCooldownMs: 60_000, restartDelayMs: 1 }));
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await guard.check(makeEntry(`x${i}`), WRITE_CTX));
    expect(verdicts.map((v) => v.error?.kind)).toEqual(['crashed', 'crashed', 'unavailable', 'unavailable']);
    expect(verdicts[1]?.error?.message).toMatch(/exited with code 7.*dying/);
    expect(verdicts[2]?.error?.message).toMatch(/is down: 2 distinct inputs failed in a row; not sending for another \d+ ms, then one probe/);
  });

  // The fixture never answers 'hang', so it times out on any machine; the bound is generous so that
  // a loaded machine still starts Python and answers 'warm' and 'after' in time (no wall-clock assert).
  it('gives a timeout for a hanging answer, kills the process and recovers', async () => {
    const guard = track(createExecGuard(`python3 ${FIX}/hang-exec.py`, { timeoutMs: 4000 }));
    expect((await guard.check(makeEntry('warm'), WRITE_CTX)).decision).toBe('admit');
    const v = await guard.check(makeEntry('hang'), WRITE_CTX);
    expect(v.error?.kind).toBe('timeout');
    expect(v.error?.message).toMatch(/within 4000 ms/);
    expect((await guard.check(makeEntry('after'), WRITE_CTX)).decision).toBe('admit');
    expect((guard as ReturnType<typeof createExecGuard>).stats().processes).toEqual([{ starts: 2, restarts: 1 }]);
  }, 60_000);

  it('skips a non-JSON line (a timeout quotes it), gives malformed for a bad verdict, and loses no later answer', async () => {
    const guard = track(createExecGuard(`python3 ${FIX}/junk-exec.py`, { timeoutMs: 3000, onWarning: () => undefined }));
    const verdicts = await Promise.all(['ok1', 'junk', 'ok2', 'bad', 'ok3'].map((c) => guard.check(makeEntry(c), WRITE_CTX)));
    expect(verdicts.map((v) => v.error?.kind ?? v.decision)).toEqual(['admit', 'timeout', 'admit', 'malformed', 'admit']);
    expect(verdicts[1]?.error?.message).toMatch(/wrote 1 stdout line\(s\) that are not answers, which were skipped \(first: "not json at all"\)/);
  });

  it('close() stops the process and later checks are unavailable', async () => {
    const guard = createExecGuard('python3 examples/exec-guard.py', { timeoutMs: 3000 });
    expect((await guard.check(makeEntry('a'), WRITE_CTX)).decision).toBe('admit');
    await guard.close?.();
    expect((await guard.check(makeEntry('b'), WRITE_CTX)).error?.kind).toBe('unavailable');
    expect(() => createExecGuard('   ')).toThrow(GuardLoadError);
  });
});
