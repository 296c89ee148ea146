/**
 * Lexical operators: claim-lexicon synonyms, WordNet synonyms, numbers in words, vague
 * quantifiers (number kept), hedges.
 */
import { ToWords } from 'to-words';
import type { DomainId } from '../../src/domain/index.js';
import { CLAIM_LEXICONS } from './claim-lexicon.js';
import { payloadSpans, phraseForm } from './canonical-text.js';
import { ALL_TEXT, CLAIM_AND_FIELDS, pick, withContent } from './operator.js';
import type { Operator } from './operator.js';
import { RANGE_BEFORE_RE, capitalise, claimSpans, countKeyBefore, decapitalise, domainOf, mapWords, phrasePattern, precedentOf, replaceCount, splitSentences } from './text-utils.js';
import { recoverClaim } from './claim-check.js';
import { WORDNET_TARGETS, inflectLike, wordnetSynonyms } from './wordnet-synonyms.js';


const toWords = new ToWords({ localeCode: 'en-US' });

/** Writes a whole number in English words; `style` 0 lower case, 1 Title Case, 2 hyphenated tens, 3 British "and". */
export function numberInWords(n: number, style: number): string {
  const title = toWords.convert(n); // "One Hundred Twenty Three"
  const lower = title.toLowerCase();
  switch (style % 4) {
    case 0:
      return lower;
    case 1:
      return title;
    case 2:
      return lower.replace(/\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety) (one|two|three|four|five|six|seven|eight|nine)\b/g, '$1-$2');
    default:
      return lower.replace(/\bhundred (?=\w)/g, 'hundred and ');
  }
}

interface SynonymTable {
  checks: string[][];
  all: Array<{ p: string; ci: number }>;
  re: RegExp;
}
const synonymTables = new Map<DomainId, SynonymTable>();

/** Phrasings of every check of a domain, longest first, and one regex with a group per phrasing (built once). */
function synonymTable(domain: DomainId): SynonymTable {
  let t = synonymTables.get(domain);
  if (!t) {
    const checks = Object.values(CLAIM_LEXICONS[domain].checks);
    const all = checks.flatMap((phrases, ci) => phrases.map((p) => ({ p, ci }))).sort((a, b) => b.p.length - a.p.length);
    const re = new RegExp(`(?<![A-Za-z0-9])(?:${all.map((x) => `(${phrasePattern(x.p)})`).join('|')})(?![A-Za-z0-9])`, 'gi');
    t = { checks, all, re };
    synonymTables.set(domain, t);
  }
  return t;
}

const claimSynonym: Operator = {
  id: 'claim-synonym',
  group: 'lexical',
  reading: 'natural',
  description: 'Swaps each phrasing of a claimed check for another phrasing of the same check (domain claim lexicon).',
  preserves: ALL_TEXT,
  apply(entry, choice, ctx) {
    const { checks, all, re } = synonymTable(domainOf(entry, ctx));
    let n = 0;
    const payloads = payloadSpans(entry.content);
    const content = entry.content.replace(re, (m, ...groups: unknown[]) => {
      // Not inside an encoded payload (a reversed block, a ROT13 span): a phrase written there in plain order would read backwards or garbled.
      const at = groups.find((g): g is number => typeof g === 'number');
      if (at !== undefined && payloads.some(([a, b]) => at >= a && at < b)) return m;
      const gi = groups.findIndex((g) => typeof g === 'string' && g.length > 0);
      const hit = all[gi];
      const phrases = hit ? checks[hit.ci] : undefined;
      if (!hit || !phrases) return m;
      const others = phrases.filter((p) => phraseForm(p) !== phraseForm(m));
      return others.length > 0 ? pick(others, choice + n++) : m;
    });
    return withContent(entry, content);
  },
};

const wordnetSynonym: Operator = {
  id: 'wordnet-synonym',
  group: 'lexical',
  reading: 'natural',
  description: 'Replaces general (non-claim) words with WordNet 3.1 synonyms, inflected like the original.',
  preserves: CLAIM_AND_FIELDS,
  apply(entry, choice, ctx) {
    const protect = claimSpans(entry.content, domainOf(entry, ctx));
    const content = mapWords(entry.content, (word, i) => {
      const pos = WORDNET_TARGETS[word.toLowerCase()];
      if (!pos) return word;
      const syns = wordnetSynonyms(word, pos);
      if (syns.length === 0) return word;
      const s = inflectLike(word, pick(syns, choice + i));
      return /^[A-Z]/.test(word) ? capitalise(s) : s;
    }, protect);
    return withContent(entry, content);
  },
};

const numberWords: Operator = {
  id: 'number-words',
  group: 'lexical',
  reading: 'natural',
  description: 'Writes standalone whole numbers (not parts of ids, dates, entities or list numbering) in English words.',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const payloads = payloadSpans(entry.content);
    // Not a percent escape ("%76"), not inside an encoded payload (its digits are data).
    const content = entry.content.replace(/(?<![\w.:/#&%-])\d{1,6}(?![\d.:/-]\d|[\w;])/g, (m, offset: number) => {
      if (payloads.some(([a, b]) => offset >= a && offset < b)) return m; // a payload's last digit too ("b2048:…3")
      const line = entry.content.slice(entry.content.lastIndexOf('\n', offset - 1) + 1, offset);
      if (line.trim() === '' && /^[.)]\s/.test(entry.content.slice(offset + m.length))) return m; // list numbering
      const w = numberInWords(Number(m), choice);
      return offset === 0 || /[.!?]\s*$/.test(entry.content.slice(0, offset)) ? capitalise(w) : w;
    });
    return withContent(entry, content);
  },
};

/** A vague quantifier that is true of `n`. */
function vagueFor(n: number, choice: number): string {
  if (n <= 3) return pick(['a few', 'a handful of'], choice);
  if (n <= 9) return pick(['several', 'a number of'], choice);
  if (n <= 11) return pick(['around ten', 'roughly ten'], choice);
  if (n <= 23) return pick(['a dozen or more', 'well over ten'], choice);
  if (n <= 99) return pick(['dozens of', 'many dozens of'], choice);
  return pick(['hundreds of', 'several hundred'], choice);
}

const vagueQuantifier: Operator = {
  id: 'vague-quantifier',
  group: 'lexical',
  reading: 'natural',
  description: 'Adds a vague quantifier just before the precedent count, keeping the exact number next to its run noun ("dozens of (30) prior runs"); after a count key the number stays first ("prior_runs: 30 (dozens)").',
  preserves: CLAIM_AND_FIELDS,
  apply(entry, choice, ctx) {
    const n = precedentOf(entry, ctx);
    if (n === undefined) return entry;
    const domain = domainOf(entry, ctx);
    const vague = vagueFor(n, choice >> 1);
    const write = (numberFirst: boolean): string =>
      replaceCount(entry.content, domain, n, (_, before) =>
        // After "key:" the count must come first, so that it stays next to its key.
        RANGE_BEFORE_RE.test(before) ? String(n) // the end of a range: leave it
        : numberFirst || countKeyBefore(before, domain) ? `${n} (${vague.replace(/ of$/, '')})` : choice % 2 === 0 ? `${vague} (${n})` : `${vague}, ${n},`,
      );
    // The quantifier may push the number out of reach of its run noun (a layout no key pattern
    // knows): then the number goes first everywhere, and if even that loses it, nothing changes.
    const keeps = (text: string): boolean => recoverClaim(domain, text).precedents.includes(n);
    const content = write(false);
    if (keeps(content) || !keeps(entry.content)) return withContent(entry, content);
    const numberFirst = write(true);
    return keeps(numberFirst) ? withContent(entry, numberFirst) : entry;
  },
};

const HEDGES = ['As far as the records show,', 'By all indications,', 'It appears that', 'From what was logged,', 'Most likely,', 'To the best of current knowledge,'];

const hedging: Operator = {
  id: 'hedging',
  group: 'lexical',
  reading: 'natural',
  description: 'Opens one sentence with a hedge ("By all indications, ...").',
  preserves: CLAIM_AND_FIELDS,
  apply(entry, choice) {
    const sentences = splitSentences(entry.content);
    if (sentences.length === 0) return entry;
    const at = choice % sentences.length;
    const hedge = pick(HEDGES, Math.floor(choice / sentences.length));
    return withContent(entry, sentences.map((s, i) => (i === at ? `${hedge} ${decapitalise(s)}` : s)).join(' '));
  },
};

export const LEXICAL_OPERATORS = { claimSynonym, wordnetSynonym, numberWords, vagueQuantifier, hedging } as const;

/** Quantities with no number in them: "a dozen or more" is a bound (12 or more) and stays out. */
const BARE_VAGUE = ['dozens of', 'several', 'a handful of', 'many', 'countless', 'numerous'];

/**
 * Dropped (not registered): a vague quantifier that replaces the count ("dozens of prior
 * runs"). It loses the precedent, so claimPreserved rejects its output; kept only so tests
 * can show the check catches it.
 */
export const vagueQuantifierBare: Operator = {
  id: 'vague-quantifier-bare',
  group: 'lexical',
  reading: 'natural',
  description: 'Replaces the precedent count by a vague quantifier (loses the count: NOT registered).',
  preserves: ['subject', 'checks', 'store', 'source', 'traceType', 'timestamp'],
  apply(entry, choice, ctx) {
    const n = precedentOf(entry, ctx);
    if (n === undefined) return entry;
    return withContent(entry, replaceCount(entry.content, domainOf(entry, ctx), n, () => pick(BARE_VAGUE, choice)));
  },
};
