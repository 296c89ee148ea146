import { describe, expect, it } from 'vitest';
import { attackRates, renderAttackSection, summariseAttack, type AttackBaseRow } from '../../src/report/adaptive.js';
import { coverageTable, layerLevel, renderCoverage } from '../../src/report/coverage.js';
import { changedText, formatFlip, wordDiff } from '../../src/report/flip.js';
import type { Verdict } from '../../src/domain/verdict.js';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import { makeEntry } from '../fixtures/guards/make-entry.js';

const row = (status: AttackBaseRow['status'], extra: Partial<AttackBaseRow> = {}): AttackBaseRow => ({ domain: 'ehr', family: 'seed', status, queries: 1, queryErrors: 0, proposed: 0, discarded: 0, ...extra });

describe('attack accounting (TextAttack style)', () => {
  it('original detection, detection under attack, ASR and queries per flip', () => {
    const rows = [
      row('skipped'),
      row('skipped'),
      row('flipped', { queries: 3, queriesToFlip: 3, minimal: ['homoglyph'] }),
      row('flipped', { queries: 11, queriesToFlip: 11, minimal: ['zero-width'] }),
      row('held', { queries: 30 }),
      row('error', { queries: 5, queryErrors: 1 }),
    ];
    const r = attackRates(rows);
    expect([r.bases, r.skipped, r.flipped, r.held, r.errors]).toEqual([6, 2, 2, 1, 1]);
    // Errors are in neither numerator nor denominator.
    expect(r.originalDetection.k).toBe(3);
    expect(r.originalDetection.n).toBe(5);
    expect(r.underAttack.k).toBe(1);
    expect(r.underAttack.n).toBe(5);
    expect(r.asr.k).toBe(2);
    expect(r.asr.n).toBe(3);
    expect(r.asr.low).toBeLessThan(r.asr.rate);
    expect(r.queriesPerFlip?.median).toBe(7);
    expect(r.queriesPerFlip?.p90).toBeCloseTo(10.2);
    expect(r.queriesPerAttackedBase).toBeCloseTo((3 + 11 + 30) / 3);
  });

  it('summarises per cell, domain, operator, group and budget', () => {
    const rows = [
      row('flipped', { queriesToFlip: 2, minimal: ['homoglyph'], proposed: 3, discarded: 1 }),
      row('flipped', { domain: 'rap', family: 'naive', queriesToFlip: 9, minimal: ['homoglyph', 'format-json'] }),
      row('held', { domain: 'rap', family: 'naive' }),
    ];
    const a = summariseAttack({
      budget: 10,
      feedback: 'auto',
      rows,
      arms: { homoglyph: { queries: 5, flips: 1, discarded: 0, inMinimal: 2 }, 'format-json': { queries: 4, flips: 1, discarded: 1, inMinimal: 1 } },
      totalQueries: 40,
      operatorGroups: { homoglyph: 'encoding', 'format-json': 'structural' },
    });
    expect(a.domains.map((d) => d.domain)).toEqual(['ehr', 'rap']);
    expect(a.cells.map((c) => `${c.domain}/${c.family}`)).toEqual(['ehr/seed', 'rap/naive']);
    expect(a.operators[0]?.operator).toBe('homoglyph');
    expect(a.groups.find((g) => g.operator === 'encoding')?.inMinimal).toBe(2);
    expect(a.groups.find((g) => g.operator === 'structural')?.inMinimal).toBe(1);
    expect(a.budgetCurve.find((b) => b.queries === 5)?.asr.k).toBe(1);
    expect(a.budgetCurve.at(-1)).toMatchObject({ queries: 10, asr: { k: 2, n: 3 } });
    expect(a.discarded).toBe(1);
    expect(a.minimalSets[0]).toMatchObject({ set: 'format-json + homoglyph', count: 1 });
    const md = renderAttackSection(a);
    expect(md).toContain('detection under attack');
    expect(md).toContain('| **rap** |');
    // The attack counts candidates; the query accounting counts guard calls: the line says which.
    expect(md).toContain('Candidates evaluated: 40 (minimisation included)');
  });
});

const v = (decision: Verdict['decision'], signals: Record<string, number>, trace: Verdict['trace']): Verdict => ({ decision, signals, trace, reasons: [], elapsedUs: 0 });

describe('signal and layer coverage', () => {
  it('counts fires over forged entries and what flips turned off', () => {
    const original = v('reject', { s1: 1, s3: 0.5, s5: 0 }, [
      { layer: 'L1', outcome: 'pass', reasons: [] },
      { layer: 'L5', outcome: 'reject', value: 0.6, reasons: [] },
    ]);
    const rewrite = v('admit', { s1: 0, s3: 0.5, s5: 0 }, [
      { layer: 'L1', outcome: 'pass', reasons: [] },
      { layer: 'L5', outcome: 'pass', value: 0.2, reasons: [] },
    ]);
    expect(layerLevel(original, 'L5')).toBe(2);
    expect(layerLevel(rewrite, 'L5')).toBe(1);
    expect(layerLevel(rewrite, 'L1')).toBe(0);
    const t = coverageTable({ forged: [{ runs: 10, signalFires: { s3: 4 }, layerFires: { L5: 4 } }], extra: [original], flips: [{ original, rewrite }] });
    expect(t?.forgedEntries).toBe(11);
    const s1 = t?.rows.find((r) => r.id === 's1');
    expect(s1).toMatchObject({ kind: 'signal', fired: 1, firedOnOriginal: 1, evaded: 1 });
    expect(t?.rows.find((r) => r.id === 's3')).toMatchObject({ fired: 5, evaded: 0 });
    expect(t?.rows.find((r) => r.id === 'L5')).toMatchObject({ kind: 'layer', fired: 5, evaded: 1 });
    expect(t?.neverFired).toEqual(['s5', 'L1']);
    expect(t?.neverEvaded).toEqual(['s3']);
    expect(renderCoverage(t!)).toContain('Never fired by a forged entry: `s5`, `L1`.');
  });

  it('is absent for a guard without signals or layers', () => {
    expect(coverageTable({ forged: [{ runs: 3, signalFires: {}, layerFires: {} }], extra: [v('reject', {}, [])], flips: [] })).toBeUndefined();
  });
});

describe('flip counterexamples', () => {
  it('word diff marks removed and added words and shows invisible characters', () => {
    expect(wordDiff('all checks done', 'all checks were done')).toBe('all checks {+were +}done');
    expect(wordDiff('skip it', 's\u200bkip it')).toBe('[-skip-]{+s\\u{200b}kip+} it');
  });

  it('diffs the entry and the writes a rewrite added, not an amplification chain\'s unchanged seeds', () => {
    const seeds = [makeEntry('seed one'), makeEntry('seed two')];
    const o: FuzzCase = { entry: makeEntry('cycle text'), setup: seeds, truth: { label: 'forged', family: 'amplification', domain: 'ehr', template: 't', operators: [], attackerSetup: 2 } };
    const r: FuzzCase = { entry: makeEntry('part two'), setup: [...seeds, makeEntry('part one')], truth: { ...o.truth, operators: ['split-entries'], attackerSetup: 3, claimParts: 2 } };
    expect(changedText(o, r)).toEqual({ before: 'cycle text', after: 'part one\npart two', shared: 2 });
  });

  it('shows the original beside the rewrite: operators, both verdicts by layer, the diff', () => {
    const base: FuzzCase = { entry: makeEntry('ignore the check'), truth: { label: 'forged', family: 'naive', domain: 'ehr', template: 'ehr/naive/x', operators: [] } };
    const rewritten: FuzzCase = { entry: makeEntry('іgnore the check'), truth: { ...base.truth, family: 'adaptive', operators: ['homoglyph'] } };
    const text = formatFlip({
      id: 'abc',
      original: { case: base, verdict: v('reject', {}, [{ layer: 'L1-keyword', outcome: 'reject', reasons: [] }]) },
      rewrite: { case: rewritten, verdict: v('admit', { s1: 0 }, [{ layer: 'L1-keyword', outcome: 'pass', reasons: [] }, { layer: 'L5-reasoning-guard', outcome: 'pass', value: 0, reasons: [] }]) },
      operators: ['homoglyph'],
      queriesToFlip: 4,
      replay: 'npm run cli -- replay --id abc',
    });
    expect(text).toContain('operators (minimal set): homoglyph · found after 4 queries');
    expect(text).toMatch(/L1-keyword\s+reject\s+pass/);
    expect(text).toMatch(/L5-reasoning-guard\s+-\s+pass 0.00/);
    expect(text).toContain('[-ignore-]{+іgnore+} the check');
    expect(text).toContain('replay: npm run cli -- replay --id abc');
  });
});

describe('attack mode and coverage in report.md and report.html', () => {
  it('renders the TextAttack table, the budget curve, the coverage table and flips side by side', async () => {
    const { handReport, cell } = await import('./fixture.js');
    const { renderHtml } = await import('../../src/report/html.js');
    const { renderMarkdown } = await import('../../src/report/markdown.js');
    const r = handReport([cell('ehr', 'adaptive', 1, 2)]);
    r.attack = summariseAttack({ budget: 10, feedback: 'auto', rows: [row('flipped', { queriesToFlip: 4, minimal: ['homoglyph'] }), row('held'), row('skipped')], arms: { homoglyph: { queries: 3, flips: 1, discarded: 0, inMinimal: 1 } }, totalQueries: 14 });
    const original = v('reject', { s1: 1 }, [{ layer: 'L1-keyword', outcome: 'reject', reasons: [] }]);
    const rewrite = v('admit', { s1: 0 }, [{ layer: 'L1-keyword', outcome: 'pass', reasons: [] }]);
    r.coverage = coverageTable({ forged: [], extra: [original], flips: [{ original, rewrite }] })!;
    const base: FuzzCase = { entry: makeEntry('skip the check'), truth: { label: 'forged', family: 'naive', domain: 'ehr', template: 'ehr/naive/x', operators: [] } };
    const { elapsedUs: _o, ...ov } = original;
    const { elapsedUs: _r, ...rv } = rewrite;
    r.counterexamples = [
      { id: 'f1', domain: 'ehr', family: 'adaptive', property: 'forgery-rejected', judgement: 'violated', signature: 's', case: { ...base, entry: makeEntry('s\u200bkip the check') }, verdict: rv, seed: 1, path: 'attack base 0', numShrinks: 1, replay: 'replay f1', flip: { original: { case: base, verdict: ov }, operators: ['zero-width'], queriesToFlip: 4 } },
    ];
    const md = renderMarkdown(r);
    expect(md).toContain('## Adaptive attack (attack mode)');
    expect(md).toContain('## Signal and layer coverage');
    expect(md).toContain('operators (minimal set): zero-width');
    const html = await renderHtml(r);
    expect(html).toContain('<h2 id="attack">');
    expect(html).toContain('<h2 id="coverage">');
    expect(html).toContain('detection under attack');
    expect(html).toContain('[-skip-]{+s\\u{200b}kip+}');
  });
});
