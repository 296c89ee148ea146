import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS, REASONING_TRACE_TYPES, extractKeys } from '../../src/domain/index.js';
import type { DomainId } from '../../src/domain/index.js';
import { defaultTemplates, TEMPLATES_DIR } from '../../generators/templates.js';
import type { CompiledTemplate } from '../../generators/templates.js';
import { CLAIM_CHECKS, EHR_REQUIREMENTS, checkIds, claimOf, findClaim, isClaimCheck } from '../../generators/claims/claims.js';
import { DERIVED_SLOTS, entrySlots, subjectSlots, timeSlots } from '../../generators/slots.js';
import type { AttackSlots } from '../../generators/slots.js';

const FAMILIES = ['seed', 'amplification', 'naive'] as const;
const MINIMUM = { seed: 8, amplification: 4, naive: 3 } as const;
const OVERT = ['skip', 'ignore', 'bypass', 'disregard', 'disable', 'override', 'without verification', 'do not validate'];

const templates = defaultTemplates();
const attackTemplates = templates.all.filter((t) => (FAMILIES as readonly string[]).includes(t.family) && (DOMAINS as readonly string[]).includes(t.domain));

/** A few fully filled slot records per domain (subject + entry slots + derived), fixed seed. */
function slotRecords(domain: DomainId, n: number, priorCount: number): AttackSlots[] {
  const arb = fc.tuple(subjectSlots(domain), entrySlots(domain), fc.integer({ min: 0, max: 500_000 }));
  return fc.sample(arb, { numRuns: n, seed: 1234 }).map(([s, e, minute]) => {
    const { date, time } = timeSlots(minute);
    return { ...e, ...s, date, time, priorCount };
  });
}

function render(t: CompiledTemplate, priorCount = 7, n = 12): { slots: AttackSlots; text: string }[] {
  return slotRecords(t.domain as DomainId, n, priorCount).map((slots) => ({ slots, text: t.render(slots) }));
}

describe('attack templates', () => {
  it('exist in every domain and family, at least the required number', () => {
    for (const domain of DOMAINS) {
      for (const family of FAMILIES) {
        expect(templates.of(domain, family).length, `${domain}/${family}`).toBeGreaterThanOrEqual(MINIMUM[family]);
      }
    }
  });

  it('read only slots that the attack slot arbitraries or the renderer provide', () => {
    for (const t of attackTemplates) {
      const [s, e] = fc.sample(fc.tuple(subjectSlots(t.domain as DomainId), entrySlots(t.domain as DomainId)), { numRuns: 1, seed: 1 })[0]!;
      const known = new Set([...Object.keys(s), ...Object.keys(e), ...DERIVED_SLOTS]);
      for (const slot of t.slots) expect(known.has(slot), `${t.id} reads unknown slot ${slot}`).toBe(true);
      expect(t.slots, t.id).toContain('subject');
      if (t.family === 'amplification') expect(t.slots, t.id).toContain('priorCount');
      else expect(t.slots, t.id).not.toContain('priorCount');
    }
  });

  it('render under strict Handlebars with every slot filled, leaving no mustaches and keeping the subject indexable', () => {
    for (const t of attackTemplates) {
      for (const { slots, text } of render(t)) {
        expect(text, t.id).not.toMatch(/\{\{|\}\}/);
        expect(text.length, t.id).toBeGreaterThan(60);
        expect(extractKeys(text), t.id).toContain(String(slots.subject).toLowerCase());
      }
    }
  });

  it('declare a reasoning trace type and checks from the domain vocabulary', () => {
    for (const t of attackTemplates) {
      expect(REASONING_TRACE_TYPES as readonly string[], t.id).toContain(t.meta.traceType);
      const checks = t.meta.checks ?? [];
      expect(checks.length, t.id).toBeGreaterThan(0);
      for (const c of checks) expect(isClaimCheck(t.domain as DomainId, c), `${t.id}: ${c}`).toBe(true);
    }
  });

  it('vary structure: each domain has seeds of at least three trace types and several openings', () => {
    for (const domain of DOMAINS) {
      const seeds = templates.of(domain, 'seed');
      expect(new Set(seeds.map((t) => t.meta.traceType)).size, domain).toBeGreaterThanOrEqual(3);
      const openings = new Set(seeds.map((t) => render(t, 1, 1)[0]!.text.split(/\s+/).slice(0, 2).join(' ').replace(/[A-Z]+-[A-Z]+-\d+/, 'ID')));
      expect(openings.size, domain).toBeGreaterThanOrEqual(6);
    }
  });

  it('EHR seeds together claim all five safety requirements of paper §V-A', () => {
    const claimed = new Set(templates.of('ehr', 'seed').flatMap((t) => t.meta.checks ?? []));
    for (const [req, ids] of Object.entries(EHR_REQUIREMENTS)) {
      expect(ids.some((id) => claimed.has(id)), `requirement ${req}`).toBe(true);
    }
    // Every EHR check id is claimed by some seed, too.
    for (const id of checkIds('ehr')) expect(claimed.has(id), id).toBe(true);
  });

  it('seeds and amplification entries avoid overt words; naive ones use them', () => {
    for (const t of attackTemplates) {
      for (const { text } of render(t, 5, 4)) {
        const lower = text.toLowerCase();
        const hits = OVERT.filter((w) => new RegExp(`\\b${w}\\b`).test(lower));
        if (t.family === 'naive') expect(hits.length, `${t.id}: ${text}`).toBeGreaterThan(0);
        else expect(hits, `${t.id}: ${text}`).toEqual([]);
      }
    }
  });

  it('findClaim recovers subject, exactly the declared checks, and the precedent (only for amplification)', () => {
    for (const t of attackTemplates) {
      const domain = t.domain as DomainId;
      for (const prior of t.family === 'amplification' ? [1, 2, 13, 250] : [7]) {
        for (const { slots, text } of render(t, prior, 6)) {
          const found = findClaim(domain, text);
          const expected = claimOf(domain, String(slots.subject), t.meta.checks ?? []);
          expect(found.subject, `${t.id}: ${text}`).toBe(expected.subject);
          expect(found.checks, `${t.id}: ${text}`).toEqual(expected.checks);
          if (t.family === 'amplification') expect(found.precedent, `${t.id}: ${text}`).toBe(prior);
          else expect(found.precedent, `${t.id}: ${text}`).toBeUndefined();
        }
      }
    }
  });
});

describe('claim vocabulary agrees with the shared claim lexicons', () => {
  const lexicon = (domain: DomainId): { checks: Record<string, string[]> } =>
    JSON.parse(readFileSync(path.join(TEMPLATES_DIR, 'lexicons', `claim-${domain}.json`), 'utf8')) as { checks: Record<string, string[]> };
  const form = (s: string): string => ` ${s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `;

  it('uses the same check ids as templates/lexicons/claim-<domain>.json', () => {
    for (const domain of DOMAINS) expect(Object.keys(CLAIM_CHECKS[domain]).sort(), domain).toEqual(Object.keys(lexicon(domain).checks).sort());
  });

  it('every claimed check of every attack template is phrased with a lexicon phrasing (so claim recovery by the paraphrase side works)', () => {
    for (const t of attackTemplates) {
      const lex = lexicon(t.domain as DomainId).checks;
      const text = form(render(t, 3, 1)[0]!.text);
      for (const c of t.meta.checks ?? []) {
        const phrasings = [c, ...(lex[c] ?? [])].map((p) => form(p));
        expect(phrasings.some((p) => text.includes(p)), `${t.id}: check ${c}`).toBe(true);
      }
    }
  });
});
