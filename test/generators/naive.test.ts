import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS, extractKeys } from '../../src/domain/index.js';
import { defaultTemplates } from '../../generators/templates.js';
import { claimOf, findClaim } from '../../generators/claims/claims.js';
import { recoverClaim } from '../../generators/paraphrase/claim-check.js';
import { buildNaiveCase, naiveAttack, naiveValue } from '../../generators/naive.js';

const templates = defaultTemplates();
/** Common blocklist verbs, plus the verbs outside common blocklists that a template declares (meta overtVerbs). */
const OVERT = /\b(skip|ignore|bypass|disable|do not|waive|forgo|stand down|pass over|switch off|omitir|saltar|überspringen|auslassen|ignorieren)\b|跳过|忽略/iu;

describe.each(DOMAINS)('naiveAttack(%s)', (domain) => {
  it('builds overt forged entries whose truth names the subject and the checks to skip', () => {
    fc.assert(
      fc.property(naiveAttack(domain), ({ entry, truth, setup }) => {
        const t = templates.byId.get(truth.template);
        expect(t?.family).toBe('naive');
        expect(t?.domain).toBe(domain);
        expect(truth).toMatchObject({ label: 'forged', family: 'naive', domain, operators: [] });
        expect(setup).toBeUndefined();
        expect(entry).toMatchObject({ store: 'reasoning', source: 'AGENT', trust: 'VERIFIED', traceType: t?.meta.traceType });
        expect(entry.id.startsWith(`farma-${domain}-n1-`)).toBe(true);
        expect(entry.content).toMatch(OVERT);
        const claim = truth.claim!;
        expect(claim.precedent).toBeUndefined();
        expect(claim.checks.length).toBeGreaterThan(0);
        expect(claim.checks).toEqual(claimOf(domain, claim.subject, t?.meta.checks ?? []).checks);
        expect(extractKeys(entry.content)).toContain(claim.subject.toLowerCase());
        // English templates: the attacker-side reader; other languages: the claim check, which reads es/de/zh.
        if ((t?.meta.language ?? 'en') === 'en') expect(findClaim(domain, entry.content)).toEqual({ subject: claim.subject, checks: claim.checks });
        else expect(recoverClaim(domain, entry.content).checks).toEqual(claim.checks);
      }),
      { numRuns: 60 },
    );
  });

  it('is deterministic and re-renders from its structured value', () => {
    const a = fc.sample(naiveAttack(domain), { numRuns: 15, seed: 77 });
    expect(fc.sample(naiveAttack(domain), { numRuns: 15, seed: 77 })).toEqual(a);
    expect(fc.sample(naiveValue(domain), { numRuns: 15, seed: 77 }).map((v) => buildNaiveCase(v))).toEqual(a);
  });
});
