/** What counts as a secret, and redaction of values and object keys alike. */
import { describe, expect, it } from 'vitest';
import { REDACTED, redactDeep, redactSecrets, secretValues } from '../../src/domain/secrets.js';
import { MemoryStore } from '../../src/memory/index.js';
import type { Guard } from '../../src/domain/guard.js';

const KEY = 'sk-test-0123456789abcdef';

describe('secretValues', () => {
  it('takes OPENAI_API_KEY, secret-named variables, credential-shaped values and URL passwords', () => {
    const env = {
      OPENAI_API_KEY: KEY,
      MY_SERVICE_TOKEN: 'tok-123456',
      GH_ANYTHING: 'ghp_abcdefghijklmnopqrstu',
      DATABASE_URL: 'postgres://app:hunter2hunter2@db:5432/x',
      SHORT_KEY: 'on',
      PATH: '/usr/bin:/bin',
    };
    const s = secretValues(env);
    for (const v of [KEY, 'tok-123456', 'ghp_abcdefghijklmnopqrstu', 'hunter2hunter2']) expect(s).toContain(v);
    expect(s).not.toContain('on');
    expect(s).not.toContain('/usr/bin:/bin');
    expect(s).toContain(Buffer.from(KEY).toString('base64').replace(/=+$/, ''));
  });
});

describe('redactDeep', () => {
  const env = { OPENAI_API_KEY: KEY };

  it('redacts object keys as well as values, at any depth', () => {
    const v = { layer: `L-${KEY}`, signals: { [KEY]: 1, [`s-${KEY}`]: 0.5, s1: 0 }, trace: [{ layer: KEY, reasons: [`saw ${KEY}`] }] };
    const r = redactDeep(v, env);
    expect(JSON.stringify(r)).not.toContain(KEY);
    expect(r.signals).toEqual({ [REDACTED]: 1, [`s-${REDACTED}`]: 0.5, s1: 0 });
    expect(r.layer).toBe(`L-${REDACTED}`);
  });

  it('keeps two keys that redact to the same name apart', () => {
    const r = redactDeep({ [KEY]: 1, [`x${KEY}`]: 2, [`y${KEY}`]: 3 }, { OPENAI_API_KEY: KEY, OTHER_KEY: `x${KEY}`, THIRD_KEY: `y${KEY}` });
    expect(Object.values(r).sort()).toEqual([1, 2, 3]);
    expect(JSON.stringify(r)).not.toContain(KEY);
  });

  it('returns the value itself when there is no secret, and survives cycles', () => {
    const v = { a: 'x' };
    expect(redactDeep(v, {})).toBe(v);
    const cyclic: Record<string, unknown> = { k: KEY };
    cyclic.self = cyclic;
    const r = redactDeep(cyclic, env) as Record<string, unknown>;
    expect(r.k).toBe(REDACTED);
    expect(r.self).toBe(r);
  });

  it('redactSecrets on text', () => {
    expect(redactSecrets(`auth ${KEY} failed`, env)).toBe(`auth ${REDACTED} failed`);
  });
});

describe('the store keeps no secret in its log of rejected writes', () => {
  it('a rejecting guard that quotes the key', () => {
    const old = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
    const store = new MemoryStore(':memory:');
    try {
      const g: Guard = { id: 'g', mode: 'sync', check: () => ({ decision: 'reject', layer: KEY, trace: [], signals: { [KEY]: 1 }, reasons: [KEY], elapsedUs: 0 }) };
      store.writeSync({ id: 'a', store: 'reasoning', content: 'x', source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: 't' }, g);
      expect(JSON.stringify(store.rejectedWrites())).not.toContain(KEY);
    } finally {
      store.close();
      if (old === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = old;
    }
  });
});

describe('a guard whose id carries the key', () => {
  it('is refused before it names a corpus file or a report', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadGuard } = await import('../../src/cli/context.js');
    const file = join(mkdtempSync(join(tmpdir(), 'farma-id-')), 'g.mjs');
    writeFileSync(file, "export const guard = { id: 'g-' + process.env.OPENAI_API_KEY, check: () => ({ decision: 'admit' }) };\n");
    const old = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
    try {
      const err = await loadGuard(file).catch((e: unknown) => e as Error);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/contains a secret value/);
      expect((err as Error).message).not.toContain(KEY);
    } finally {
      if (old === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = old;
    }
  });
});
