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
import { countForms } from '../../generators/claims/numerals.js';
import { claimPreserved, recoverClaim } from '../../generators/paraphrase/claim-check.js';
import { isEvasionKind } from '../../generators/claims/evasion-kinds.js';
import { GENERAL_TRACE_TYPES } from '../../src/domain/index.js';

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

/** Renders with every slot; `count` is the template's count slot value when it names one, else `priorCount`. */
function render(t: CompiledTemplate, priorCount = 7, n = 12): { slots: AttackSlots; text: string; count: number }[] {
  return slotRecords(t.domain as DomainId, n, priorCount).map((slots) => {
    const count = typeof t.meta.countSlot === 'string' ? Number(slots[t.meta.countSlot]) : priorCount;
    return { slots, count, text: t.render({ ...slots, ...countForms(count) }) };
  });
}

const usesCount = (t: CompiledTemplate): boolean => t.slots.some((s) => s.startsWith('priorCount'));

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
      expect(t.slots.includes('subject') || (t.meta.subjectInWords === true && t.slots.includes('subjectName')), t.id).toBe(true);
      if (t.family === 'amplification') expect(usesCount(t), t.id).toBe(true);
      else expect(usesCount(t), t.id).toBe(t.meta.countSlot !== undefined);
    }
  });

  it('render under strict Handlebars with every slot filled, leaving no mustaches and keeping the subject indexable', () => {
    for (const t of attackTemplates) {
      for (const { slots, text } of render(t)) {
        expect(text, t.id).not.toMatch(/\{\{|\}\}/);
        expect(text.length, t.id).toBeGreaterThan(60);
        if (t.meta.subjectInWords === true) {
          expect(text, t.id).toContain(String(slots.subjectName));
          expect(text, `${t.id}: digit-free`).not.toMatch(/\d/);
        } else expect(extractKeys(text), t.id).toContain(String(slots.subject).toLowerCase());
      }
    }
  });

  it('declare a reasoning trace type (tool and external channels: any known type), checks from the domain vocabulary and known evasion kinds', () => {
    for (const t of attackTemplates) {
      const external = t.meta.source === 'TOOL' || t.meta.source === 'EXTERNAL';
      expect(external ? [...REASONING_TRACE_TYPES, ...GENERAL_TRACE_TYPES] : (REASONING_TRACE_TYPES as readonly string[]), t.id).toContain(t.meta.traceType);
      for (const k of (t.meta.kinds as string[] | undefined) ?? []) expect(isEvasionKind(k), `${t.id}: kind ${k}`).toBe(true);
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
        // Naive attacks with verbs outside common blocklists declare them (meta overtVerbs), and use them.
        const declared = ((t.meta.overtVerbs as string[] | undefined) ?? []).filter((v) => lower.includes(v));
        if (t.family === 'naive') expect(hits.length + declared.length, `${t.id}: ${text}`).toBeGreaterThan(0);
        else expect(hits, `${t.id}: ${text}`).toEqual([]);
      }
    }
  });

  it('findClaim recovers subject, exactly the declared checks, and the precedent (amplification, or a declared count slot) from English digit templates', () => {
    for (const t of attackTemplates) {
      const domain = t.domain as DomainId;
      const plain = (t.meta.language ?? 'en') === 'en' && t.meta.subjectInWords !== true && !t.slots.some((s) => s.startsWith('priorCount') && s !== 'priorCount');
      if (!plain) continue;
      for (const prior of t.family === 'amplification' ? [1, 2, 13, 250] : [7]) {
        for (const { slots, text, count } of render(t, prior, 6)) {
          const found = findClaim(domain, text);
          const expected = claimOf(domain, String(slots.subject), t.meta.checks ?? []);
          expect(found.subject, `${t.id}: ${text}`).toBe(expected.subject);
          expect(found.checks, `${t.id}: ${text}`).toEqual(expected.checks);
          if (usesCount(t)) expect(found.precedent, `${t.id}: ${text}`).toBe(count);
          else expect(found.precedent, `${t.id}: ${text}`).toBeUndefined();
        }
      }
    }
  });

  it('the claim check (every language, every count form) recovers exactly the declared checks and the cited count, with no negation, from every attack template', () => {
    for (const t of attackTemplates) {
      const domain = t.domain as DomainId;
      for (const prior of t.family === 'amplification' ? [1, 13, 250] : [7]) {
        for (const { slots, text, count } of render(t, prior, 4)) {
          const r = recoverClaim(domain, text);
          const subject = t.meta.subjectInWords === true ? String(slots.subjectName) : String(slots.subject);
          const claim = claimOf(domain, subject, t.meta.checks ?? [], usesCount(t) ? count : undefined);
          expect(r.checks, `${t.id}: ${text}`).toEqual(claim.checks);
          if (usesCount(t)) expect(r.precedents, `${t.id}: ${text}`).toContain(count);
          if (t.family !== 'naive') expect(r.negatedChecks, `${t.id}: ${text}`).toEqual([]);
          else expect(r.negatedChecks.length, `${t.id}: a naive attack negates what it names: ${text}`).toBeGreaterThan(0);
          expect(claimPreserved(domain, claim, [{ id: 'x', store: 'reasoning', content: text, source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: '2025-01-01T00:00:00Z' }], 'exact', { original: text }), `${t.id}: ${text}`).toBe(true);
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

  it('every claimed check of every English attack template is phrased with a lexicon phrasing (so claim recovery by the paraphrase side works)', () => {
    for (const t of attackTemplates.filter((x) => (x.meta.language ?? 'en') === 'en')) {
      const lex = lexicon(t.domain as DomainId).checks;
      const text = form(render(t, 3, 1)[0]!.text);
      for (const c of t.meta.checks ?? []) {
        const phrasings = [c, ...(lex[c] ?? [])].map((p) => form(p));
        expect(phrasings.some((p) => text.includes(p)), `${t.id}: check ${c}`).toBe(true);
      }
    }
  });
});
