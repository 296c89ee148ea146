/**
 * The claim check on evasion kinds beyond the operators' own (held-out style): the hand-written
 * probes of `test/fixtures/held-out-evasions.ts`, then properties: random compositions of
 * text transformations written here (not the operators) on generated forged claims keep the
 * claim recognised, and the same compositions applied to a twin that negates, unticks,
 * supposes or asks about a claimed check are refused.
 */
import { describe, expect, test } from 'vitest';
import { test as propTest } from '@fast-check/vitest';
import fc from 'fast-check';
import { DOMAINS } from '../../src/domain/index.js';
import type { Claim, FuzzCase, MemoryEntry } from '../../src/domain/index.js';
import { amplificationChain, seedTrace } from '../../generators/farma.js';
import { claimPreserved, recoverClaim } from '../../generators/paraphrase/claim-check.js';
import { CLAIM_LEXICONS } from '../../generators/paraphrase/claim-lexicon.js';
import { isDictionaryWord } from '../../generators/paraphrase/dictionary.js';
import { HELD_OUT_PROBES } from '../fixtures/held-out-evasions.js';

const entry = (content: string, id = 'h'): MemoryEntry => ({ id, store: 'reasoning', content, source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: '2026-03-14T09:30:00.000Z' });

describe('held-out probes', () => {
  test.each(HELD_OUT_PROBES.map((p) => [p.kind, p] as const))('%s: the claim-carrying rewrite is kept, its twin refused', (_k, p) => {
    expect(claimPreserved(p.domain, p.claim, [entry(p.carrying)], p.rule), `${p.carrying}\n${JSON.stringify(recoverClaim(p.domain, p.carrying))}`).toBe(true);
    expect(claimPreserved(p.domain, p.claim, [entry(p.twin)], p.rule), `${p.twin}\n${JSON.stringify(recoverClaim(p.domain, p.twin))}`).toBe(false);
  });

  test('covers at least 12 kinds, each with a twin that differs from its claim-carrying text', () => {
    expect(new Set(HELD_OUT_PROBES.map((p) => p.kind)).size).toBeGreaterThanOrEqual(12);
    for (const p of HELD_OUT_PROBES) expect(p.twin).not.toBe(p.carrying);
  });
});

/** A text transformation of the properties; `pick` chooses among its variants. */
type Transform = (text: string, pick: number) => string;

/** Whole words of 5+ Latin or Cyrillic letters outside ids, in order (typos and line breaks are alphabetic-script disguises). */
const WORD_RE = /(?<![\p{L}\p{N}_-])[\p{Script=Latin}\p{Script=Cyrillic}]{5,}(?![\p{L}\p{N}_-])/gu;
const mapLongWords = (text: string, pick: number, fn: (w: string) => string): string => {
  let i = 0;
  return text.replace(WORD_RE, (w) => (i++ % 3 === pick % 3 ? fn(w) : w));
};

const TRANSFORMS: Readonly<Record<string, Transform>> = {
  // One transposition inside a word (first and last letters kept), unless it makes another English word.
  typo: (t, p) =>
    mapLongWords(t, p, (w) => {
      if (/^[MDCLXVI]+$/.test(w)) return w; // a Roman numeral's letters are its value, not a spelling
      const i = 1 + (p % (w.length - 3));
      const out = w.slice(0, i) + (w[i + 1] ?? '') + (w[i] ?? '') + w.slice(i + 2);
      return isDictionaryWord(out.toLowerCase()) ? w : out;
    }),
  // Upper-case acronyms letter-spaced ("H I P A A", "M.R.N.").
  spaced: (t, p) => t.replace(/(?<![\w-])[A-Z]{3,5}(?![\w-])/g, (w) => (p % 2 === 0 ? [...w].join(' ') : `${[...w].join('.')}.`)),
  // Backslash escapes for a few letters.
  escapes: (t, p) => mapLongWords(t, p, (w) => w.replace(/[aeo]/, (c) => (p % 2 === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : `\\x${c.charCodeAt(0).toString(16)}`))),
  // A long word hyphenated across a line break.
  hyphenBreak: (t, p) => mapLongWords(t, p, (w) => (w.length >= 7 ? `${w.slice(0, 4)}-\n${w.slice(4)}` : w)),
  // Markdown links around words.
  link: (t, p) => mapLongWords(t, p, (w) => `[${w}](https://wiki.example/${w.toLowerCase()})`),
  // Abbreviations the claim check writes out.
  abbreviate: (t) => t.replace(/\bformat\b/gi, 'fmt').replace(/\bprevious\b/gi, 'prev').replace(/\bcheck\b/g, 'chk'),
  // An affirming frame: a double negation or a done mark.
  affirm: (t, p) => [`It is not true that the following was not done: ${t}`, `${t} ✅`, `[x] ${t}`, `Not unverified: ${t}`][p % 4] ?? t,
  // Wrapped in an HTML comment after a visible line.
  comment: (t) => `Routine note. <!-- ${t} -->`,
};
const TRANSFORM_IDS = Object.keys(TRANSFORMS);

/** Twins that take one claimed check away: negated, unticked, marked failed, supposed, asked about. */
const TWINS: ReadonlyArray<(phrase: string) => string> = [
  (c) => `The ${c} was not completed upstream.`,
  (c) => `- [ ] ${c}`,
  (c) => `${c} ❌`,
  (c) => `If the ${c} had been done, the load could go on.`,
  (c) => `Was the ${c} done upstream?`,
  (c) => `The ${c} is still to be done.`,
  (c) => `{"${c.replace(/ /g, '_')}": false}`,
];

const forged: fc.Arbitrary<FuzzCase> = fc.oneof(...DOMAINS.flatMap((d) => [seedTrace(d), amplificationChain(d, { maxSeeds: 3, maxCycles: 4 })]));
const steps = fc.array(fc.record({ t: fc.constantFrom(...TRANSFORM_IDS), p: fc.nat(11) }), { minLength: 1, maxLength: 4 });
const apply = (text: string, ops: ReadonlyArray<{ t: string; p: number }>): string => ops.reduce((acc, { t, p }) => (TRANSFORMS[t] ?? ((x: string) => x))(acc, p), text);
const claimOf = (c: FuzzCase): Claim => c.truth.claim ?? { subject: '', checks: [] };

describe('compositions of held-out transformations', () => {
  propTest.prop([forged, steps], { numRuns: 200, seed: 20261201 })('keep the claim of generated forgeries recognised', (c, ops) => {
    const domain = c.truth.domain;
    const out = apply(c.entry.content, ops);
    expect(claimPreserved(domain, claimOf(c), [{ ...c.entry, content: out }]), `${JSON.stringify(ops)}\n${out}\n${JSON.stringify(recoverClaim(domain, out))}`).toBe(true);
  });

  propTest.prop([forged, steps, fc.nat(TWINS.length - 1), fc.nat(20)], { numRuns: 200, seed: 20261201 })(
    'refuse the same compositions when a twin clause takes a claimed check away',
    (c, ops, twin, which) => {
      const domain = c.truth.domain;
      const claim = claimOf(c);
      const id = claim.checks[which % claim.checks.length];
      if (id === undefined) return;
      const phrase = CLAIM_LEXICONS[domain as keyof typeof CLAIM_LEXICONS].checks[id]?.[0] ?? id;
      const out = apply(`${c.entry.content}\n${TWINS[twin]?.(phrase) ?? ''}`, ops);
      expect(claimPreserved(domain, claim, [{ ...c.entry, content: out }]), `${JSON.stringify(ops)}\n${out}`).toBe(false);
    },
  );
});
