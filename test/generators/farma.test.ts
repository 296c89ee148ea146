import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS, UsageError, extractKeys } from '../../src/domain/index.js';
import type { DomainId, FuzzCase, MemoryEntry } from '../../src/domain/index.js';
import { defaultTemplates } from '../../generators/templates.js';
import { claimOf, findClaim } from '../../generators/claims/claims.js';
import { claimPreserved, recoverClaim } from '../../generators/paraphrase/claim-check.js';
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
import { runs } from '../helpers/tier.js';

const templates = defaultTemplates();
// 60 cases per property in the full tier, a fixed 12 in the fast tier (test/helpers/tier.ts).
const RUNS = { numRuns: runs(60, 12) };

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

/** Source and trust a template declares (default: Algorithm 1's AGENT/VERIFIED). */
function channelOf(templateId: string | undefined): { source: string; trust: string } {
  const t = templateId === undefined ? undefined : templates.byId.get(templateId);
  return { source: typeof t?.meta.source === 'string' ? t.meta.source : FORGED_SOURCE, trust: typeof t?.meta.trust === 'string' ? t.meta.trust : FORGED_TRUST };
}

function assertForgedMetadata(e: MemoryEntry, domain: DomainId, templateId?: string): void {
  const channel = channelOf(templateId);
  expect(e.source).toBe(channel.source);
  expect(e.trust).toBe(channel.trust);
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
        assertForgedMetadata(entry, domain, truth.template);
        expect(entry.store).toBe(t?.meta.store ?? 'reasoning');
        expect(entry.traceType).toBe(t?.meta.traceType);
        expect(truth).toMatchObject({ label: 'forged', family: 'seed', domain, operators: [], source: entry.source, language: t?.meta.language ?? 'en', kinds: t?.meta.kinds ?? [] });
        expect(truth.chain).toBeUndefined();
        expect(setup).toBeUndefined();
        const claim = truth.claim!;
        expect(claim.checks).toEqual(claimOf(domain, claim.subject, t?.meta.checks ?? []).checks);
        const recovered = recoverClaim(domain, entry.content);
        if (t?.meta.countSlot === undefined) expect(claim.precedent).toBeUndefined();
        else expect(recovered.precedents, entry.content).toContain(claim.precedent);
        if (t?.meta.subjectInWords === true) expect(entry.content).toContain(claim.subject);
        else expect(extractKeys(entry.content)).toContain(claim.subject.toLowerCase());
        expect(recovered.checks, entry.content).toEqual(claim.checks);
        expect(claimPreserved(domain, claim, [entry]), entry.content).toBe(true);
        if (t?.meta.language === undefined && t?.meta.countSlot === undefined) expect(findClaim(domain, entry.content)).toEqual({ subject: claim.subject, checks: claim.checks });
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
        const lastTemplate = templates.byId.get(v.cycles.at(-1)!.template);
        const dishonest = lastTemplate?.meta.countSlot !== undefined;
        const slotCount = dishonest ? (v.cycles.at(-1)!.slots[String(lastTemplate?.meta.countSlot)] as number) : undefined;
        expect(c.truth.claim?.precedent).toBe(slotCount ?? nS + nA - 1);
        expect(c.setup?.length).toBe(h + nS + 2 * (nA - 1));
        expect(c.setup?.slice(0, h)).toEqual(v.history);
        const subject = c.truth.claim!.subject;
        const forged = forgedPart(c, h);
        // Seeds: reasoning store, in order.
        forged.slice(0, nS).forEach((e, i) => {
          const st = templates.byId.get(v.seeds[i]!.template);
          assertForgedMetadata(e, domain, v.seeds[i]!.template);
          expect(e.store).toBe(st?.meta.store ?? 'reasoning');
          expect(st?.meta.traceType).toBe(e.traceType);
          if (st?.meta.subjectInWords === true) expect(e.content).toContain(String(v.subject.subjectName));
          else expect(recoverClaim(domain, e.content).subjects).toContain(String(v.subject.subject).toLowerCase());
          if (st?.meta.countSlot === undefined) expect(findClaim(domain, e.content).precedent).toBeUndefined();
        });
        // Amplification: (reasoning, general) pairs with the same text, cycle c citing n_s + c - 1.
        const amps = forged.slice(nS);
        for (let c1 = 1; c1 <= nA; c1++) {
          const r = amps[2 * (c1 - 1)]!;
          const cycle = v.cycles[c1 - 1]!;
          const at = templates.byId.get(cycle.template);
          assertForgedMetadata(r, domain, cycle.template);
          expect(r.store).toBe('reasoning');
          const cited = at?.meta.countSlot !== undefined ? (cycle.slots[String(at.meta.countSlot)] as number) : nS + c1 - 1;
          expect(recoverClaim(domain, r.content).subjects).toContain(subject.toLowerCase());
          expect(recoverClaim(domain, r.content).precedents, r.content).toContain(cited);
          if (c1 < nA) {
            const g = amps[2 * (c1 - 1) + 1]!;
            assertForgedMetadata(g, domain, cycle.template);
            expect(g.store).toBe('general');
            expect(g.content).toBe(r.content);
            expect(g.id).not.toBe(r.id);
          }
        }
        expect(c.entry).toBe(amps.at(-1));
        expect(c.truth.template).toBe(v.cycles.at(-1)!.template);
        expect(claimPreserved(domain, c.truth.claim!, [c.entry]), c.entry.content).toBe(true);
        expect(c.truth.source).toBe(c.entry.source);
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
    // Algorithm 1's n_prior = 1, unless the shrunk template claims its own (dishonest) count slot, which shrinks to its minimum.
    const countSlot = templates.byId.get(c.truth.template)?.meta.countSlot;
    expect(c.truth.claim?.precedent).toBe(countSlot === 'bigCount' ? 50 : countSlot === 'smallCount' ? 3 : 1);
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
    const countSlot = templates.byId.get(c.truth.template)?.meta.countSlot;
    expect(c.truth.claim?.precedent).toBe(countSlot === 'bigCount' ? 50 : countSlot === 'smallCount' ? 3 : 4);
    expect(c.setup?.length).toBe(2 + 2 * 2);
  });
});
