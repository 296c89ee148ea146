import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS, UsageError, extractKeys } from '../../src/domain/index.js';
import type { DomainId, FuzzCase, MemoryEntry } from '../../src/domain/index.js';
import { defaultTemplates } from '../../generators/templates.js';
import { claimOf, findClaim } from '../../generators/claims/claims.js';
import {
  FORGED_SOURCE,
  FORGED_TRUST,
  amplificationChain,
  buildChainCase,
  buildSeedCase,
  chainValue,
  seedTrace,
  seedValue,
} from '../../generators/farma.js';
import { ATTACK_EPOCH_MS } from '../../generators/slots.js';

const templates = defaultTemplates();
const RUNS = { numRuns: 60 };

/** A small benign-looking history with unique ids (independent of the benign generator). */
const history: fc.Arbitrary<MemoryEntry[]> = fc
  .uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 5 })
  .map((ns) =>
    ns.map((n) => ({
      id: `hist-${n}`,
      store: 'general' as const,
      content: `Observed ${n} rows in the nightly export.`,
      source: 'TOOL',
      trust: 'UNVERIFIED',
      traceType: 'observation',
      timestamp: new Date(ATTACK_EPOCH_MS - (n + 1) * 60_000).toISOString(),
    })),
  );

function assertForgedMetadata(e: MemoryEntry, domain: DomainId): void {
  expect(e.source).toBe(FORGED_SOURCE);
  expect(e.trust).toBe(FORGED_TRUST);
  expect(e.id.startsWith(`farma-${domain}-`)).toBe(true);
  expect(Number.isNaN(Date.parse(e.timestamp))).toBe(false);
  expect(Date.parse(e.timestamp)).toBeGreaterThanOrEqual(ATTACK_EPOCH_MS);
  expect(e.metadata).toBeUndefined();
}

describe.each(DOMAINS)('seedTrace(%s)', (domain) => {
  it('builds reasoning-store entries whose truth matches how they were built', () => {
    fc.assert(
      fc.property(seedTrace(domain), ({ entry, truth, setup }) => {
        const t = templates.byId.get(truth.template);
        expect(t?.domain).toBe(domain);
        expect(t?.family).toBe('seed');
        assertForgedMetadata(entry, domain);
        expect(entry.store).toBe('reasoning');
        expect(entry.traceType).toBe(t?.meta.traceType);
        expect(truth).toMatchObject({ label: 'forged', family: 'seed', domain, operators: [] });
        expect(truth.chain).toBeUndefined();
        expect(setup).toBeUndefined();
        const claim = truth.claim!;
        expect(claim.precedent).toBeUndefined();
        expect(claim.checks).toEqual(claimOf(domain, claim.subject, t?.meta.checks ?? []).checks);
        expect(extractKeys(entry.content)).toContain(claim.subject.toLowerCase());
        expect(findClaim(domain, entry.content)).toEqual({ subject: claim.subject, checks: claim.checks });
      }),
      RUNS,
    );
  });

  it('is deterministic for a fixed fast-check seed, and re-renders from its structured value', () => {
    const a = fc.sample(seedTrace(domain), { numRuns: 25, seed: 99 });
    const b = fc.sample(seedTrace(domain), { numRuns: 25, seed: 99 });
    expect(a).toEqual(b);
    const values = fc.sample(seedValue(domain), { numRuns: 25, seed: 99 });
    expect(values.map((v) => buildSeedCase(v))).toEqual(a);
    expect(new Set(a.map((c) => c.truth.template)).size).toBeGreaterThan(3);
  });
});

function forgedPart(c: FuzzCase, historyLength: number): MemoryEntry[] {
  return [...(c.setup ?? []).slice(historyLength), c.entry];
}

describe.each(DOMAINS)('amplificationChain(%s)', (domain) => {
  it('follows Algorithm 1: n_s seeds, then cycles citing n_s + c - 1, written to both stores', () => {
    const arb = chainValue(domain, { history }).map((v) => ({ v, c: buildChainCase(v) }));
    fc.assert(
      fc.property(arb, ({ v, c }) => {
        const nS = v.seeds.length;
        const nA = v.cycles.length;
        const h = v.history.length;
        expect(c.truth).toMatchObject({ label: 'forged', family: 'amplification', domain, operators: [], chain: { seeds: nS, cycle: nA } });
        expect(c.truth.claim?.precedent).toBe(nS + nA - 1);
        expect(c.setup?.length).toBe(h + nS + 2 * (nA - 1));
        expect(c.setup?.slice(0, h)).toEqual(v.history);
        const subject = c.truth.claim!.subject;
        const forged = forgedPart(c, h);
        // Seeds: reasoning store, in order.
        forged.slice(0, nS).forEach((e, i) => {
          assertForgedMetadata(e, domain);
          expect(e.store).toBe('reasoning');
          expect(templates.byId.get(v.seeds[i]!.template)?.meta.traceType).toBe(e.traceType);
          expect(findClaim(domain, e.content).subject).toBe(subject);
          expect(findClaim(domain, e.content).precedent).toBeUndefined();
        });
        // Amplification: (reasoning, general) pairs with the same text, cycle c citing n_s + c - 1.
        const amps = forged.slice(nS);
        for (let c1 = 1; c1 <= nA; c1++) {
          const r = amps[2 * (c1 - 1)]!;
          assertForgedMetadata(r, domain);
          expect(r.store).toBe('reasoning');
          expect(findClaim(domain, r.content)).toMatchObject({ subject, precedent: nS + c1 - 1 });
          if (c1 < nA) {
            const g = amps[2 * (c1 - 1) + 1]!;
            assertForgedMetadata(g, domain);
            expect(g.store).toBe('general');
            expect(g.content).toBe(r.content);
            expect(g.id).not.toBe(r.id);
          }
        }
        expect(c.entry).toBe(amps.at(-1));
        expect(c.truth.template).toBe(v.cycles.at(-1)!.template);
        expect(findClaim(domain, c.entry.content)).toEqual({ subject, checks: c.truth.claim!.checks, precedent: nS + nA - 1 });
        // Ids unique across the whole case; forged timestamps never go backwards.
        const ids = [...(c.setup ?? []), c.entry].map((e) => e.id);
        expect(new Set(ids).size).toBe(ids.length);
        const times = forged.map((e) => Date.parse(e.timestamp));
        expect(times).toEqual([...times].sort((x, y) => x - y));
      }),
      RUNS,
    );
  });

  it('respects maxSeeds / maxCycles and rejects bad bounds', () => {
    for (const c of fc.sample(amplificationChain(domain, { maxSeeds: 1, maxCycles: 2 }), { numRuns: 30, seed: 3 })) {
      expect(c.truth.chain?.seeds).toBe(1);
      expect(c.truth.chain?.cycle).toBeLessThanOrEqual(2);
    }
    const big = fc.sample(amplificationChain(domain), { numRuns: 200, seed: 3 });
    expect(Math.max(...big.map((c) => c.truth.chain!.seeds))).toBe(3);
    expect(Math.max(...big.map((c) => c.truth.chain!.cycle))).toBeLessThanOrEqual(10);
    expect(Math.max(...big.map((c) => c.truth.chain!.cycle))).toBeGreaterThan(3);
    expect(() => amplificationChain(domain, { maxSeeds: 0 })).toThrow(UsageError);
    expect(() => amplificationChain(domain, { maxCycles: 1.5 })).toThrow(UsageError);
  });

  it('is deterministic for a fixed fast-check seed', () => {
    const a = fc.sample(amplificationChain(domain, { history }), { numRuns: 10, seed: 2024 });
    const b = fc.sample(amplificationChain(domain, { history }), { numRuns: 10, seed: 2024 });
    expect(a).toEqual(b);
  });
});

describe('amplification shrinking', () => {
  it('a property failing on every chain shrinks to 1 seed, 1 cycle and no history', () => {
    const out = fc.check(
      fc.property(amplificationChain('ehr', { history }), (_c: FuzzCase) => false),
      { seed: 11, numRuns: 50 },
    );
    expect(out.failed).toBe(true);
    const [c] = out.counterexample!;
    expect(c.truth.chain).toEqual({ seeds: 1, cycle: 1 });
    expect(c.truth.claim?.precedent).toBe(1);
    // History shrinks away: the only earlier write is the one seed.
    expect(c.setup?.length).toBe(1);
    expect(c.setup?.[0]?.id).toMatch(/^farma-ehr-s1-/);
  });

  it('a property failing only on long chains shrinks to the shortest failing one', () => {
    const out = fc.check(
      fc.property(amplificationChain('rap'), (c) => !(c.truth.chain!.seeds >= 2 && c.truth.chain!.cycle >= 3)),
      { seed: 5, numRuns: 200 },
    );
    expect(out.failed).toBe(true);
    const [c] = out.counterexample!;
    expect(c.truth.chain).toEqual({ seeds: 2, cycle: 3 });
    expect(c.truth.claim?.precedent).toBe(4);
    expect(c.setup?.length).toBe(2 + 2 * 2);
  });
});
