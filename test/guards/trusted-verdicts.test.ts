/**
 * The fuzz engine skips the verdict schema for built-in guard objects from the registry
 * (src/domain/trusted-guard.ts): that is only sound if every verdict they return already is what
 * the schema would make of it. Checked here over generated cases of every family and domain,
 * on both paths, with each case's set-up in the store; and the mark stays with the registry's
 * objects (a copy or a wrapper is validated again).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Guard } from '../../src/domain/guard.js';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { isTrustedGuard } from '../../src/domain/trusted-guard.js';
import { checkedVerdict } from '../../src/domain/verdict-schema.js';
import { evaluateSync } from '../../src/fuzz/evaluate.js';
import { createGuard, GUARDS } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_IDS, FAMILY_REGISTRY } from '../../generators/families.js';

describe('built-in guards return verdicts the schema leaves as they are', () => {
  it('every built-in guard, every family and domain, both paths, with the set-up in the store', () => {
    const store = new MemoryStore(':memory:');
    try {
      let n = 0;
      for (const id of Object.keys(GUARDS)) {
        const guard = createGuard(id);
        expect(isTrustedGuard(guard)).toBe(true);
        for (const [d, domain] of DOMAINS.entries()) {
          for (const family of FAMILY_IDS) {
            for (const c of fc.sample(FAMILY_REGISTRY[family].arbitrary(domain), { seed: 31 + d, numRuns: 6 })) {
              const layer = store.overlay(c.setup ?? []);
              for (const phase of ['write', 'retrieve'] as const) {
                for (const e of [c.entry, ...(c.setup ?? []).slice(-3)]) {
                  const v = guard.check(e, { phase, store: layer.view });
                  const parsed = checkedVerdict(v);
                  expect(parsed.decision).not.toBe('error');
                  expect(v).toStrictEqual(parsed);
                  expect(JSON.stringify(v)).toBe(JSON.stringify(parsed));
                  n += 1;
                }
              }
            }
          }
        }
      }
      expect(n).toBeGreaterThan(500);
    } finally {
      store.close();
    }
  }, 120_000);
});

describe('the trusted mark stays with the registry', () => {
  it('a copy or a wrapper of a built-in guard is not trusted, and its malformed answers are errors', () => {
    const sentinel = createGuard('sentinel');
    const copy: Guard = { ...sentinel };
    expect(isTrustedGuard(copy)).toBe(false);
    const broken: Guard = { ...sentinel, check: () => ({ decision: 'admit', trace: [null] }) as never };
    const store = new MemoryStore(':memory:');
    try {
      const [c] = fc.sample(FAMILY_REGISTRY.seed.arbitrary('ehr'), { seed: 1, numRuns: 1 });
      const v = evaluateSync(broken, c!, store, 'write');
      expect(v.decision).toBe('error');
      expect(v.error?.kind).toBe('malformed');
      // The same case through the registry's own object is a normal verdict.
      expect(evaluateSync(sentinel, c!, store, 'write').decision).not.toBe('error');
    } finally {
      store.close();
    }
  });
});
