/**
 * The bounds shared by the exec and HTTP adapters: which requests count as the
 * same input, the bounded per-input memory, and the circuit's states under an injected clock.
 */
import { describe, expect, it } from 'vitest';
import { Circuit, InputFailureMemory, inputKey } from '../../src/guards/adapters/failure-memory.js';
import { makeEntry } from '../fixtures/guards/make-entry.js';

describe('inputKey', () => {
  it('is the same for the same text written again (other id, time or store) and differs for other text, source or phase', () => {
    const a = makeEntry('Consistent with 14 prior runs.');
    const k = inputKey(a, 'write');
    expect(inputKey({ ...a, id: 'other', timestamp: '2027-01-01T00:00:00.000Z', store: 'general' }, 'write')).toBe(k);
    expect(inputKey({ ...a, content: 'Consistent with 15 prior runs.' }, 'write')).not.toBe(k);
    expect(inputKey({ ...a, source: 'EXTERNAL' }, 'write')).not.toBe(k);
    expect(inputKey(a, 'retrieve')).not.toBe(k);
    expect(k).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('InputFailureMemory', () => {
  it('blocks an input once one kind reaches the limit, and forgets the oldest past maxKeys', () => {
    const m = new InputFailureMemory(2, 3);
    expect(m.record('a', 'crashed', 'exit 3', 'text a')).toBe(1);
    expect(m.blocked('a')).toBeUndefined();
    m.record('a', 'timeout', 'slow', 'text a');
    expect(m.blocked('a')).toBeUndefined();
    m.record('a', 'crashed', 'exit 4', 'text a');
    expect(m.blocked('a')).toMatchObject({ kind: 'crashed', record: { crashed: 2, timeout: 1, last: 'exit 4' } });
    for (const k of ['b', 'c', 'd']) m.record(k, 'timeout', 't', k);
    expect(m.records().map((r) => r.key).sort()).toEqual(['b', 'c', 'd']);
  });
});

describe('Circuit', () => {
  it('opens after `threshold` distinct failing inputs, half-opens after the cool-down, doubles it on a failed probe, closes on an answer', () => {
    let now = 0;
    const c = new Circuit({ threshold: 3, cooldownMs: 100, maxCooldownMs: 250, now: () => now });
    // The same input failing again and again never opens it.
    for (let i = 0; i < 10; i++) c.failure('same', false);
    expect(c.state).toBe('closed');
    c.failure('x', false);
    c.failure('y', false);
    expect(c.state).toBe('open');
    expect(c.admit()).toMatchObject({ pass: false, reason: expect.stringMatching(/3 distinct inputs failed in a row; not sending for another 100 ms/) });
    now = 100;
    expect(c.state).toBe('half-open');
    expect(c.admit()).toEqual({ pass: true, probe: true });
    expect(c.admit()).toMatchObject({ pass: false, reason: expect.stringMatching(/a probe request is in flight/) });
    c.failure('z', true);
    expect(c.timesOpened).toBe(2);
    now = 299;
    expect(c.state).toBe('open'); // 200 ms this time
    now = 300;
    expect(c.admit()).toEqual({ pass: true, probe: true });
    c.failure('z', true);
    now = 300 + 249;
    expect(c.state).toBe('open'); // capped at 250 ms
    now = 300 + 250;
    const probe = c.admit();
    expect(probe).toEqual({ pass: true, probe: true });
    c.success(true);
    expect(c.state).toBe('closed');
    expect(c.admit()).toEqual({ pass: true, probe: false });
    // The cool-down starts again from its first value.
    for (const k of ['p', 'q', 'r']) c.failure(k, false);
    now += 99;
    expect(c.state).toBe('open');
    now += 1;
    expect(c.state).toBe('half-open');
  });

  it('a failure counts towards opening only when no answer came after its request was sent', () => {
    const c = new Circuit({ threshold: 3, cooldownMs: 100, maxCooldownMs: 100, now: () => 0 });
    // Three requests go out together; one is answered, then the other two and three more fail.
    const sent = c.answers;
    c.success(false);
    for (const k of ['a', 'b', 'c', 'd', 'e']) c.failure(k, false, sent);
    expect(c.state).toBe('closed');
    // Requests sent after that answer, failing with no answer since, open it.
    const later = c.answers;
    for (const k of ['f', 'g']) c.failure(k, false, later);
    expect(c.state).toBe('closed');
    c.failure('h', false, later);
    expect(c.state).toBe('open');
  });
});
