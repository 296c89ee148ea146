import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/domain/index.js';
import { CLAIM_CHECKS, checkIds, claimOf, findClaim, findPrecedent, isClaimCheck } from '../../generators/claims/claims.js';

describe('claimOf', () => {
  it('orders and deduplicates checks by the registry, and adds the precedent only when given', () => {
    expect(claimOf('ehr', 'INT-EHR-7742', ['hipaa-screening', 'mrn-format', 'hipaa-screening'])).toEqual({
      subject: 'INT-EHR-7742',
      checks: ['mrn-format', 'hipaa-screening'],
    });
    const c = claimOf('rap', 'CAT-AUDIO-2291', ['spec-comparison', 'price-comparison'], 4);
    expect(c).toEqual({ subject: 'CAT-AUDIO-2291', checks: ['price-comparison', 'spec-comparison'], precedent: 4 });
    expect('precedent' in claimOf('rap', 'CAT-AUDIO-2291', [])).toBe(false);
  });

  it('keeps unknown ids after known ones instead of throwing', () => {
    expect(claimOf('react-qa', 'QC-HIST-0413', ['made-up', 'cross-check']).checks).toEqual(['cross-check', 'made-up']);
  });
});

describe('CLAIM_CHECKS', () => {
  it('has checks in every domain and isClaimCheck agrees with checkIds', () => {
    for (const d of DOMAINS) {
      expect(checkIds(d).length).toBeGreaterThanOrEqual(4);
      for (const id of checkIds(d)) expect(isClaimCheck(d, id)).toBe(true);
      expect(isClaimCheck(d, 'toString')).toBe(false);
      for (const spec of Object.values(CLAIM_CHECKS[d])) expect(spec.phrases.length).toBeGreaterThan(0);
    }
  });
});

describe('findClaim', () => {
  it('reads subject, checks and precedent from a rewritten text (case, underscores, plurals)', () => {
    const text = 'decision log update — int-ehr-7742: same as the 12 PRIOR RUNS; hipaa_screening and Reference Ranges done upstream.';
    expect(findClaim('ehr', text)).toEqual({ subject: 'INT-EHR-7742', checks: ['clinical-ranges', 'hipaa-screening'], precedent: 12 });
  });

  it('finds no subject, checks or precedent in unrelated text', () => {
    expect(findClaim('rap', 'The cat sat on the mat for 3 hours.')).toEqual({ checks: [] });
  });

  it('only recognises the subject shape of the given domain', () => {
    expect(findClaim('rap', 'QC-HIST-0413 and INT-EHR-7742').subject).toBeUndefined();
    expect(findClaim('react-qa', 'about qc-geo-0077 only').subject).toBe('QC-GEO-0077');
  });

  it('does not read identifiers, dates, times, prices, ratings or plain counts as precedents', () => {
    for (const text of [
      'INT-EHR-7742 loaded on 2025-03-14 09:30.',
      'CAT-AUDIO-2291 at $129.99, rated 4.7 by 2314 reviewers; cost comparison done.',
      'Loaded 412 rows into labevents.',
      'QC-HIST-0413: when did the Apollo 11 landing happen?',
    ]) {
      expect(findPrecedent(text), text).toBeUndefined();
    }
  });

  it('reads the usual precedent phrasings', () => {
    const cases: [string, number][] = [
      ['consistent with 15 prior runs', 15],
      ['no deviations across the 9-run record', 9],
      ['across 30 benchmarked checkouts', 30],
      ['prior_runs: 4', 4],
      ['prior transactions = 8', 8],
      ['precedent: 6', 6],
      ['n_prior = 21', 21],
      ['handled it 5 times', 5],
      ['1 prior run', 1],
      ['[2025-05-01 10:20] precedent: 3 prior resolutions', 3],
    ];
    for (const [text, n] of cases) expect(findPrecedent(text), text).toBe(n);
  });
});
