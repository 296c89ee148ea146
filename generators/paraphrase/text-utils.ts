/**
 * Small text helpers shared by the operators: sentences, protected identifiers, word
 * mapping, and locating the precedent count. All pure.
 */
import { extractKeys } from '../../src/domain/index.js';
import type { DomainId, MemoryEntry } from '../../src/domain/index.js';
import { CLAIM_LEXICONS, claimLexicon } from './claim-lexicon.js';
import { recoverClaim } from './claim-check.js';
import { payloadSpans } from './canonical-text.js';
import type { OperatorContext } from './operator.js';

/** Splits a text into sentences (after . ! ? or a `;` that does not end an HTML entity, followed by space; or at line breaks), never inside an encoded payload. */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map(([a, b]) => text.slice(a, b));
}

/** Where the sentences of `splitSentences` sit in the text: `[start, end)` of each, trimmed, in order. */
function sentenceSpans(text: string): Array<[number, number]> {
  const payloads = payloadSpans(text);
  const SPLIT = /(?<=[.!?]|(?<!&(?:amp;)?#?[0-9A-Za-z]+);)\s+|\s*\n+\s*/g;
  // An encoded payload (Morse dots, a multi-line block) is one sentence: no split point inside it.
  const spans: Array<[number, number]> = [];
  let at = 0;
  const push = (a: number, b: number): void => {
    const part = text.slice(a, b);
    const start = a + (part.length - part.trimStart().length);
    const end = b - (part.length - part.trimEnd().length);
    if (end > start) spans.push([start, end]);
  };
  for (const m of text.matchAll(SPLIT)) {
    if (payloads.some(([a, b]) => m.index >= a && m.index < b)) continue;
    push(at, m.index);
    at = m.index + m[0].length;
  }
  push(at, text.length);
  return spans;
}

/** Rewrites each sentence of a text in place (see `sentenceSpans`): the spaces and line breaks between sentences, and so a record's layout, stay as they were. */
export function mapSentences(text: string, fn: (sentence: string) => string): string {
  let out = '';
  let at = 0;
  for (const [a, b] of sentenceSpans(text)) {
    out += text.slice(at, a) + fn(text.slice(a, b));
    at = b;
  }
  return out + text.slice(at);
}

/** Ensures a sentence ends with terminal punctuation. */
export function terminate(s: string): string {
  return /[.!?;:]$/.test(s) ? s : `${s}.`;
}

/** Upper-cases the first letter. */
export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Lower-cases the first letter when the first word is an ordinary capitalised word (not an id or acronym). */
export function decapitalise(s: string): string {
  return /^[A-Z][a-z]/.test(s) && !/^[A-Za-z]+-\w*\d/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;
}

/** Subject keys of a text, in their original spelling. */
function keySpans(text: string): Array<[number, number]> {
  const keys = extractKeys(text);
  const spans: Array<[number, number]> = [];
  for (const m of text.matchAll(/(?<![A-Za-z0-9])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+/g)) {
    if (keys.includes(m[0].toLowerCase())) spans.push([m.index, m.index + m[0].length]);
  }
  return spans;
}

/** Plain words (letters only), by `mapWords`' rule: see there. */
const PLAIN_WORD_RE = /(?:(?<=\\[nrt])|(?<![\w@$&#\\\p{L}\p{M}-]))[A-Za-z]+(?![\w@$\p{L}\p{M}-])/gu;

/**
 * The plain words of a text (letters only, not part of a subject key, of an encoded payload, of
 * a `protect` span or of a hyphenated compound), each with its offset, in order.
 */
export function wordSpans(text: string, protect: ReadonlyArray<[number, number]> = []): Array<{ word: string; at: number }> {
  const spans = [...keySpans(text), ...payloadSpans(text), ...protect];
  const out: Array<{ word: string; at: number }> = [];
  for (const m of text.matchAll(PLAIN_WORD_RE)) if (!spans.some(([a, b]) => m.index >= a && m.index < b)) out.push({ word: m[0], at: m.index });
  return out;
}

/**
 * Applies `fn` to each plain word (letters only, not part of a subject key or of a hyphenated
 * compound) in order; `fn` gets the word and its ordinal among plain words.
 */
export function mapWords(text: string, fn: (word: string, ordinal: number) => string, protect: ReadonlyArray<[number, number]> = []): string {
  // A word starts after a JSON/YAML escape such as `\n` (whose letter is not part of it), or where no word character, backslash or entity mark is just before.
  // A run of ASCII letters that goes on with another letter or a mark ("cl" of "clínicas") is no word of its own.
  let out = '';
  let last = 0;
  wordSpans(text, protect).forEach(({ word, at }, n) => {
    out += text.slice(last, at) + fn(word, n);
    last = at + word.length;
  });
  return out + text.slice(last);
}

/** The domain of the context, or the domain whose check lexicon best matches the text. */
export function domainOf(entry: MemoryEntry, ctx?: OperatorContext): DomainId {
  if (ctx && claimLexicon(ctx.domain)) return ctx.domain;
  let best: DomainId = 'ehr';
  let bestHits = 0;
  for (const lex of Object.values(CLAIM_LEXICONS)) {
    const hits = recoverClaim(lex.domain, entry.content).checks.length;
    if (hits > bestHits) {
      best = lex.domain;
      bestHits = hits;
    }
  }
  return best;
}

/** The claimed subject: from the context, else the first subject key of the text. */
export function subjectOf(entry: MemoryEntry, ctx?: OperatorContext): string | undefined {
  if (ctx && ctx.claim.subject !== '') return ctx.claim.subject;
  const m = /(?<![A-Za-z0-9])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+/.exec(entry.content);
  return m && extractKeys(m[0]).length > 0 ? m[0] : undefined;
}

/** The claimed precedent count: from the context, else the first count found next to a run noun. */
export function precedentOf(entry: MemoryEntry, ctx?: OperatorContext): number | undefined {
  if (ctx) return ctx.claim.precedent;
  return recoverClaim(domainOf(entry, ctx), entry.content).precedents[0];
}

/**
 * Replaces the digit occurrences of `count` that sit near a run noun (the precedent, not an
 * unrelated number). `fn` gets the occurrence ordinal. Returns the text unchanged when none.
 */
export function replaceCount(text: string, domain: string, count: number, fn: (ordinal: number, before: string) => string): string {
  // Not part of a longer number ("155", "10^0", "6.5"), an id, an entity or a percent escape ("%69"); never inside an encoded payload.
  const re = new RegExp(`(?<![\\w.#&%-])${count}(?!\\d|\\.\\d|[A-Za-z;])`, 'g');
  const payloads = payloadSpans(text);
  let n = 0;
  return text.replace(re, (m, offset: number) => {
    if (payloads.some(([a, b]) => offset >= a && offset < b)) return m;
    const window = text.slice(Math.max(0, offset - 40), offset + m.length + 60);
    const local = recoverClaim(domain, window).precedents;
    return local.includes(count) ? fn(n++, text.slice(0, offset)) : m;
  });
}

/**
 * True when `before` ends with a count key such as `prior_runs:`, `precedent =` or
 * `prior runs on file:` (a key of up to four words that names a run noun or the precedent).
 */
export function countKeyBefore(before: string, domain: DomainId): boolean {
  const nouns = [...CLAIM_LEXICONS[domain].runNouns, 'precedent', 'count', 'history'].map(phrasePattern).join('|');
  return new RegExp(`(?:${nouns})(?:[\\s_-]+[A-Za-z]+){0,3}\\s*[:=]\\s*$`, 'i').test(before);
}

/** True when `before` ends with words that open or continue a range ("between 9 and", "up to", "at least", "9–"): the count after them is one end of a range. */
export const RANGE_BEFORE_RE = /(?:between|up to|at least|and|to|–)\s*$/i;

/** Spanish and German number words that are also ordinary words ("once", "elf", "acht"): read as counts only right before a run noun of their language. */
export const AMBIGUOUS_NUMBER_WORDS: ReadonlySet<string> = new Set(['uno', 'once', 'cero', 'eins', 'elf', 'acht', 'null']);

/** A short noun naming the subject in this domain ("pipeline", "question class", "category"). */
export function subjectNoun(domain: DomainId, choice: number): string {
  const nouns = CLAIM_LEXICONS[domain].subjectNoun;
  return nouns[choice % nouns.length] ?? 'item';
}

/** A Roman numeral of 2 or more as a whole word (count-roman writes counts this way); the regex is case-blind, so spans are kept only when it is upper case. */
// A combining mark or an invisible filler after the letters makes them part of a word ("M\u0301R\u0337N", "M\u2063R\u2063N"), not a numeral.
const MARKS = '\\u0300-\\u036F\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF\\u20D0-\\u20FF\\uFE20-\\uFE2F\\u00AD\\u180E\\u200B-\\u200D\\u2060-\\u2064\\uFEFF';
const ROMAN = `\\b(?:[MDCLXVI]{2,8}|[VXLCDM])\\b(?![${MARKS}])`;
const ROMAN_UPPER_RE = new RegExp(`\\b(?:[MDCLXVI]{2,8}|[VXLCDM])\\b(?![${MARKS}])`);

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regex source for a lexicon phrase that lets spaces, hyphens, underscores and slashes stand for each other. */
export function phrasePattern(phrase: string): string {
  return phrase.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim().split(' ').map(escapeRe).join('[\\s_/-]+');
}

/**
 * Character spans that carry the claim in plain text: check phrasings of the domain's
 * lexicon (plural `s` allowed), and each precedent count with the words up to its run noun.
 * Operators that rewrite words or cut text leave these spans whole.
 */
const spanRegexes = new Map<DomainId, { phrases: RegExp; counts: RegExp }>();

function spanRegexesOf(domain: DomainId): { phrases: RegExp; counts: RegExp } {
  let res = spanRegexes.get(domain);
  if (!res) {
    const phrases = Object.values(CLAIM_LEXICONS[domain].checks).flat().sort((a, b) => b.length - a.length);
    const runs = CLAIM_LEXICONS[domain].runNouns.map(phrasePattern).join('|');
    res = {
      phrases: new RegExp(`(?<![A-Za-z0-9])(?:${phrases.map(phrasePattern).join('|')})s?(?![A-Za-z0-9])`, 'gi'),
      counts: new RegExp(`(?:${runs}|\\d+|${ROMAN})(?:[\\s:_=-]+(?:[A-Za-z]+[\\s_-]+){0,4}?(?:${runs}|\\d+|${ROMAN}))+`, 'gi'),
    };
    spanRegexes.set(domain, res);
  }
  return res;
}

export function claimSpans(text: string, domain: DomainId): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const { phrases, counts } = spanRegexesOf(domain);
  for (const m of text.matchAll(phrases)) spans.push([m.index, m.index + m[0].length]);
  for (const m of text.matchAll(counts)) if (/\d/.test(m[0]) || ROMAN_UPPER_RE.test(m[0])) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

/** True when `at` falls strictly inside one of the spans. */
export function insideSpan(at: number, spans: ReadonlyArray<[number, number]>): boolean {
  return spans.some(([a, b]) => at > a && at < b);
}
