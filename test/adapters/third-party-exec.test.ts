/**
 * Exec guards written the way an outside author writes them (test/fixtures/third-party): a
 * banner and log lines on stdout are skipped (with one warning), string ids and id-less
 * answers are read, a pretty-printed answer and a guard that never answers get messages that
 * say what is wrong.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Guard } from '../../src/domain/index.js';
import { createExecGuard } from '../../src/guards/adapters/exec-guard.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

const FIX = 'test/fixtures/third-party';
let open: Guard[] = [];
afterEach(async () => {
  await Promise.all(open.map((g) => g.close?.()));
  open = [];
});

describe('exec guards of outside authors', () => {
  it('skips a banner and log lines on stdout, reads string ids, CRLF, own words and nulls, and warns once', async () => {
    const warnings: string[] = [];
    const g = createExecGuard(`python3 ${FIX}/chatty-exec.py`, { timeoutMs: 20_000, concurrency: 2, onWarning: (m) => warnings.push(m) });
    open.push(g);
    const contents = ['We skip validation.', 'Checked the MRN.', 'skip again', 'fine'];
    const verdicts = await Promise.all(contents.map((c) => g.check(makeEntry(c), WRITE_CTX)));
    expect(verdicts.map((v) => v.decision)).toEqual(['reject', 'admit', 'reject', 'admit']);
    expect(verdicts[0]?.reasons).toEqual(['skip word']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/chatty-exec\.py.*not an answer; it is skipped.*logs go to stderr/);
    expect(g.stats().skippedLines).toBeGreaterThanOrEqual(contents.length * 2);
  });

  it('reads an answer line without an id as the answer to the one request in flight', async () => {
    const g = createExecGuard(`python3 ${FIX}/bare-exec.py`, { timeoutMs: 20_000 });
    open.push(g);
    expect((await g.check(makeEntry('skip it'), WRITE_CTX)).decision).toBe('reject');
    expect((await g.check(makeEntry('keep it'), WRITE_CTX)).decision).toBe('admit');
  });

  it('a pretty-printed answer is malformed at once, with a message saying one line per answer', async () => {
    const g = createExecGuard(`python3 ${FIX}/pretty-exec.py`, { timeoutMs: 20_000 });
    open.push(g);
    const v = await g.check(makeEntry('x'), WRITE_CTX);
    expect(v.error?.kind).toBe('malformed');
    expect(v.error?.message).toMatch(/starts like JSON but is not JSON.*one JSON object on one line/);
  });

  it('a guard that never answers times out with a hint about reading line by line and flushing', async () => {
    const g = createExecGuard(`python3 ${FIX}/read-all-exec.py`, { timeoutMs: 1500 });
    open.push(g);
    const v = await g.check(makeEntry('x'), WRITE_CTX);
    expect(v.error?.kind).toBe('timeout');
    expect(v.error?.message).toMatch(/wrote nothing on stdout: does it answer each line before reading the next one, and flush stdout/);
  });

  it('an entry with a lone surrogate, NUL, RTL and emoji reaches the guard and is judged', async () => {
    const g = createExecGuard('python3 examples/exec-guard.py', { timeoutMs: 20_000 });
    open.push(g);
    const v = await g.check(makeEntry('lone \ud800 surrogate, NUL \u0000, RTL \u202e שלום, emoji 👩‍👩‍👧 — 14 prior runs agree'), WRITE_CTX);
    expect(v.decision).toBe('reject');
  });

  it('a guard that ends itself cleanly after N requests blames no input: the pending one is sent to a fresh process', async () => {
    const g = createExecGuard(`python3 ${FIX}/recycles-exec.py`, { timeoutMs: 20_000, concurrency: 1 });
    open.push(g);
    const verdicts = [];
    for (let i = 1; i <= 7; i++) verdicts.push(await g.check(makeEntry(`entry ${i}`), WRITE_CTX));
    expect(verdicts.map((v) => v.decision)).toEqual(Array(7).fill('admit'));
    expect(verdicts.map((v) => v.reasons[0])).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => `entry ${i}`));
    expect(g.stats().crashes).toBe(0);
    expect(g.stats().failingInputs).toEqual([]);
  });
});
