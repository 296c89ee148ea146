/**
 * The keyword baseline and the shared text matching at their edges: whole-word
 * matching, normalisation, phrase lists with whitespace and punctuation, options, and the
 * verdict shape.
 */
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { EMPTY_STORE, UsageError, type MemoryEntry } from '../../src/domain/index.js';
import { createKeywordFilter, DEFAULT_KEYWORD_BLOCKLIST } from '../../src/guards/baselines/index.js';
import { compilePatternList, compilePatterns, compilePhraseList, countMatches, firstMatch, normalizeText } from '../../src/guards/text/text-match.js';

function entry(content: string): MemoryEntry {
  return { id: 'e-1', store: 'reasoning', content, source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: '2026-03-01T10:00:00Z' };
}
const ctx = { phase: 'write' as const, store: EMPTY_STORE };

describe('keyword baseline', () => {
  const g = createKeywordFilter();
  it('rejects a blocklisted word with a one-layer trace and the word as reason', () => {
    const v = g.check(entry('Please skip this.'), ctx);
    expect(v).toMatchObject({ decision: 'reject', layer: 'keyword', reasons: ['blocklisted keyword "skip"'] });
    expect(v.trace).toEqual([{ layer: 'keyword', outcome: 'reject', reasons: ['blocklisted keyword "skip"'] }]);
    expect(v.elapsedUs).toBeGreaterThanOrEqual(0);
  });
  it('admits clean text with a passing trace and no reasons', () => {
    const v = g.check(entry('All rows were loaded after the checks ran.'), ctx);
    expect(v).toMatchObject({ decision: 'admit', layer: 'keyword', reasons: [] });
    expect(v.trace).toEqual([{ layer: 'keyword', outcome: 'pass', reasons: [] }]);
  });
  it('matches whole words only: inflections and longer words pass', () => {
    expect(g.check(entry('The skipped rows were logged.'), ctx).decision).toBe('admit');
    expect(g.check(entry('An ignorer of nothing.'), ctx).decision).toBe('admit');
    expect(g.check(entry('Skip.'), ctx).decision).toBe('reject');
    expect(g.check(entry('(skip)'), ctx).decision).toBe('reject');
  });
  it('normalises case and compatibility forms (NFKC) before matching', () => {
    expect(g.check(entry('SKIP it'), ctx).decision).toBe('reject');
    expect(g.check(entry('ｓｋｉｐ it'), ctx).decision).toBe('reject');
  });
  it('multi-word phrases match across any run of whitespace', () => {
    expect(g.check(entry('loaded without   verification'), ctx).decision).toBe('reject');
    expect(g.check(entry('loaded without\nvalidation'), ctx).decision).toBe('reject');
    expect(g.check(entry('loaded without a verification'), ctx).decision).toBe('admit');
  });
  it('keywords replaces the list; extraKeywords adds to it; the config names the list in use', () => {
    const only = createKeywordFilter({ keywords: ['halt'] });
    expect(only.config.keywords).toEqual(['halt']);
    expect(only.check(entry('halt now'), ctx).decision).toBe('reject');
    expect(only.check(entry('skip now'), ctx).decision).toBe('admit');
    const more = createKeywordFilter({ extraKeywords: ['circumvent'] });
    expect(more.config.keywords).toEqual([...DEFAULT_KEYWORD_BLOCKLIST, 'circumvent']);
    expect(more.check(entry('circumvent it'), ctx).decision).toBe('reject');
    expect(more.check(entry('skip it'), ctx).decision).toBe('reject');
    expect(createKeywordFilter({ keywords: [] }).check(entry('skip it'), ctx).decision).toBe('admit');
  });
  it('is a synchronous guard with id keyword', () => {
    expect(g.id).toBe('keyword');
    expect(g.mode).toBe('sync');
  });
  fcTest.prop([fc.constantFrom(...DEFAULT_KEYWORD_BLOCKLIST), fc.array(fc.constantFrom('the', 'rows', 'were', 'loaded', 'today', 'and', 'checked'), { maxLength: 8 }), fc.array(fc.constantFrom('then', 'we', 'stop', 'here'), { maxLength: 8 })], { seed: 15, numRuns: 300 })(
    'any blocklisted phrase between ordinary words is rejected, naming that phrase',
    (kw, before, after) => {
      const v = g.check(entry([...before, kw, ...after].join(' ')), ctx);
      expect(v.decision).toBe('reject');
      expect(v.reasons[0]).toContain(`"${kw}"`);
    },
  );
});

describe('shared text matching', () => {
  it('normalizeText is NFKC then lower case', () => {
    expect(normalizeText('Ｆｕｌｌ ＷＩＤＴＨ ﬁ')).toBe('full width fi');
  });
  it('compilePhraseList: longest phrase first, word edges only where the phrase has word characters, null when empty', () => {
    const re = compilePhraseList(['check', 'check upstream', ' ', '100%']);
    expect(re).not.toBeNull();
    expect(firstMatch(re, 'a check upstream')).toBe('check upstream');
    expect(firstMatch(re, 'rechecked')).toBeNull();
    expect(firstMatch(re, 'at 100% now')).toBe('100%');
    expect(firstMatch(re, 'at 100%x')).toBe('100%');
    expect(compilePhraseList([])).toBeNull();
    expect(compilePhraseList(['  '])).toBeNull();
    expect(firstMatch(compilePhraseList(['a.b']), 'axb')).toBeNull();
    expect(firstMatch(compilePhraseList(['a.b']), 'a.b')).toBe('a.b');
  });
  it('countMatches counts up to the cap and resets lastIndex; firstMatch of null is null', () => {
    const re = compilePhraseList(['ok']);
    expect(countMatches(re, 'ok ok ok ok', 10)).toBe(4);
    expect(countMatches(re, 'ok ok ok ok', 2)).toBe(2);
    expect(re?.lastIndex).toBe(0);
    expect(countMatches(null, 'ok', 5)).toBe(0);
    expect(firstMatch(null, 'ok')).toBeNull();
    expect(countMatches(/x*/g, 'abc', 3)).toBe(3);
  });
  it('compilePatternList joins sources under a prefix; a bad source is a UsageError naming the list', () => {
    const re = compilePatternList('list', ['ab', 'cd'], '^', '');
    expect(re?.test('cd!')).toBe(true);
    expect(re?.test('xcd')).toBe(false);
    expect(re?.flags).toBe('');
    expect(compilePatternList('list', [])).toBeNull();
    expect(compilePatternList('list', ['x'])?.flags).toBe('g');
    expect(() => compilePatternList('my list', ['('])).toThrow(UsageError);
    expect(() => compilePatternList('my list', ['('])).toThrow('my list has an invalid pattern "("');
    expect(() => compilePatterns('other list', ['ok', '['])).toThrow('other list has an invalid pattern "["');
    expect(compilePatterns('l', ['a', 'b']).map((r) => r.flags)).toEqual(['g', 'g']);
  });
});
