/**
 * ASR split by reading (natural against encoded) in every attack output: report.json's
 * `attack` (via `summariseAttack`), report.md, the console lines and report.html.
 */
import { describe, expect, it } from 'vitest';
import { attackSummaryLines, renderAttackSection, renderSearchSummary, summariseAttack, summariseSearch, type AttackBaseRow, type SearchRow } from '../../src/report/adaptive.js';

const row = (status: AttackBaseRow['status'], extra: Partial<AttackBaseRow> = {}): AttackBaseRow => ({ domain: 'ehr', family: 'seed', status, queries: 1, queryErrors: 0, proposed: 0, discarded: 0, ...extra });

const input = {
  budget: 10,
  feedback: 'auto',
  rows: [
    row('flipped', { queriesToFlip: 2, minimal: ['translate-es'] }),
    row('flipped', { queriesToFlip: 3, minimal: ['translate-es', 'base64-payload'] }),
    row('flipped', { domain: 'rap', queriesToFlip: 4, minimal: ['homoglyph'] }),
    row('held', { domain: 'rap' }),
    row('skipped'),
  ],
  arms: { 'translate-es': { queries: 4, flips: 1, discarded: 0, inMinimal: 2 }, 'base64-payload': { queries: 2, flips: 1, discarded: 0, inMinimal: 1 }, homoglyph: { queries: 1, flips: 1, discarded: 0, inMinimal: 1 } },
  totalQueries: 20,
  operatorGroups: { 'translate-es': 'language', 'base64-payload': 'encoding', homoglyph: 'encoding' },
  operatorReadings: { 'translate-es': 'natural', 'base64-payload': 'encoded', homoglyph: 'natural' },
};

describe('ASR by reading', () => {
  it('a flip is encoded when any operator of its minimal set is; natural + encoded = ASR over the attacked bases', () => {
    const a = summariseAttack(input);
    expect(a.overall.asr).toMatchObject({ k: 3, n: 4 });
    expect(a.overall.asrByReading?.natural).toMatchObject({ k: 2, n: 4 });
    expect(a.overall.asrByReading?.encoded).toMatchObject({ k: 1, n: 4 });
    expect(a.domains.find((d) => d.domain === 'rap')?.asrByReading?.natural).toMatchObject({ k: 1, n: 2 });
    expect(a.operators.find((o) => o.operator === 'base64-payload')?.reading).toBe('encoded');
    // Per group: encoding holds one natural flip (homoglyph) and one encoded (base64 with translate-es).
    expect(a.groupReadings?.find((g) => g.group === 'encoding')).toMatchObject({ natural: { k: 1 }, encoded: { k: 1 } });
    expect(a.groupReadings?.find((g) => g.group === 'language')).toMatchObject({ natural: { k: 1 }, encoded: { k: 1 } });
  });

  it('is in the markdown, the console lines and the HTML; absent without readings', async () => {
    const a = summariseAttack(input);
    const md = renderAttackSection(a);
    expect(md).toContain('| **all** | 4 | 75.0% [30.1%, 95.4%] | 50.0% [15.0%, 85.0%] | 25.0% [4.6%, 69.9%] |');
    expect(md).toMatch(/\| encoding \| 1 \| 25\.0% [^|]*\| 1 \| 25\.0%/);
    expect(attackSummaryLines(a).join('\n')).toContain('ASR natural 50.0% [15.0%, 85.0%] · encoded 25.0% [4.6%, 69.9%]');
    const { handReport, cell } = await import('./fixture.js');
    const { renderHtml } = await import('../../src/report/html.js');
    const r = handReport([cell('ehr', 'adaptive', 1, 2)]);
    r.attack = a;
    const html = await renderHtml(r);
    expect(html).toContain('ASR by reading: natural against encoded');
    expect(html).toContain('<td data-label="natural ASR [Wilson 95%]">50.0% [15.0%, 85.0%]</td><td data-label="encoded ASR [Wilson 95%]">25.0% [4.6%, 69.9%]</td>');
    const { operatorReadings: _r, ...without } = input;
    const b = summariseAttack(without);
    expect(b.overall.asrByReading).toBeUndefined();
    expect(renderAttackSection(b)).not.toContain('natural ASR');
  });

  it('the search summary (search.json, search.md) splits its bypass rate the same way', () => {
    const srow = (template: string, bypassed: boolean, minimal: string[]): SearchRow => ({ domain: 'ehr', family: 'seed', template, bypassed, queries: 3, path: minimal, minimal, minimiseQueries: 0, bestScore: 0, proposed: 2, discarded: 0, restarts: 0, errors: 0 });
    const meta = { guard: 'g', mode: 'decision', strategy: 'mcts', budget: 10, seed: 1 };
    const s = summariseSearch(meta, [srow('a', true, ['leetspeak']), srow('b', true, ['translate-de']), srow('c', false, [])], { leetspeak: 'encoded', 'translate-de': 'natural' });
    expect(s.bypassByReading?.natural).toMatchObject({ k: 1, n: 3 });
    expect(s.bypassByReading?.encoded).toMatchObject({ k: 1, n: 3 });
    expect(renderSearchSummary(s)).toContain('natural (a reader takes it as it is) 33.3%');
  });
});
