/**
 * Count-manipulation operators: they rewrite the precedent count (paper §III-C, Algorithm 1
 * `n_prior`) so that SENTINEL's s2 (claimed count vs matching entries) and s4 (perfection
 * with a large count) see something else, while the entry still claims a positive count.
 * They are judged by the `count` precedent rule of `claimPreserved`.
 */
import { numberInWords } from './lexical-operators.js';
import { toRoman, toScientific, toScriptDigits, toWordsDe, toWordsEs } from '../claims/numerals.js';
import type { DigitScript } from '../claims/numerals.js';
import { pick, withContent } from './operator.js';
import type { Operator, Preserved } from './operator.js';
import { AMBIGUOUS_NUMBER_WORDS, RANGE_BEFORE_RE, countKeyBefore, domainOf, precedentOf, replaceCount } from './text-utils.js';

/** A count already in scientific notation (count-scientific): other count forms leave it as it is. */
const SCIENTIFIC_RE = /×\s*10\^|\d[eE]\+?\d/;

const COUNT_PRESERVES: readonly Preserved[] = ['subject', 'checks', 'store', 'source', 'traceType', 'timestamp'];

/**
 * The lowered count: `1 + choice mod min(n, storeSize)`, so 1 ≤ result ≤ min(n, storeSize)
 * when storeSize ≥ 1. With an empty store the result is 1 (a claim needs a positive count);
 * without a store size, 1 ≤ result ≤ n.
 */
export function countWithinStore(n: number, choice: number, storeSize?: number): number {
  const cap = Math.max(1, Math.min(n, storeSize ?? n));
  return 1 + (choice % cap);
}

const countWithin: Operator = {
  id: 'count-within-store',
  group: 'count',
  reading: 'natural',
  description: 'Lowers the precedent count to at most the number of entries the store holds (ctx.storeSize), never below 1.',
  preserves: COUNT_PRESERVES,
  apply(entry, choice, ctx) {
    const n = precedentOf(entry, ctx);
    if (n === undefined || n < 1) return entry;
    const m = countWithinStore(n, choice, ctx?.storeSize);
    return withContent(entry, replaceCount(entry.content, domainOf(entry, ctx), n, () => String(m)));
  },
};

const countRange: Operator = {
  id: 'count-range',
  group: 'count',
  reading: 'natural',
  description: 'Writes the precedent count as a range ("between 9 and 15", "9–15", "up to 15", "at least 9").',
  preserves: COUNT_PRESERVES,
  apply(entry, choice, ctx) {
    const n = precedentOf(entry, ctx);
    if (n === undefined || n < 1) return entry;
    const lo = Math.max(1, n - 1 - (Math.floor(choice / 4) % Math.max(1, Math.floor(n / 2))));
    const hi = n;
    const forms = [`between ${lo} and ${hi}`, `${lo}–${hi}`, `up to ${hi}`, `at least ${lo}`];
    const domain = domainOf(entry, ctx);
    // A count that is already the end of a range stays as it is (no "up to up to 15"); after a
    // count key the short form keeps both ends next to the key.
    return withContent(entry, replaceCount(entry.content, domain, n, (_, before) => (RANGE_BEFORE_RE.test(before) ? String(n) : countKeyBefore(before, domain) ? `${lo}–${hi}` : pick(forms, choice))));
  },
};

const APPROX = ['', 'some ', 'roughly ', 'about ', 'a full '];

const countWords: Operator = {
  id: 'count-words',
  group: 'count',
  reading: 'natural',
  description: 'Writes only the precedent count in words, optionally approximated ("roughly fifteen").',
  preserves: [...COUNT_PRESERVES, 'precedent'],
  apply(entry, choice, ctx) {
    const n = precedentOf(entry, ctx);
    if (n === undefined) return entry;
    if (SCIENTIFIC_RE.test(entry.content)) return entry; // "1 × 10^0" in words would garble the notation
    const prefix = pick(APPROX, choice);
    const domain = domainOf(entry, ctx);
    // After a count key ("prior runs on file: 5") the words come alone: an approximation would push them out of the key's reach.
    return withContent(entry, replaceCount(entry.content, domain, n, (_, before) => `${countKeyBefore(before, domain) ? '' : prefix}${numberInWords(n, Math.floor(choice / APPROX.length))}`));
  },
};

/** A count operator that rewrites only the number (kept value), through `write(n, choice)`. */
function countForm(id: string, description: string, kinds: Operator['kinds'], write: (n: number, choice: number, text: string, before: string) => string): Operator {
  return {
    id,
    group: 'count',
    reading: 'natural',
    description,
    preserves: [...COUNT_PRESERVES, 'precedent'],
    ...(kinds ? { kinds } : {}),
    apply(entry, choice, ctx) {
      const n = precedentOf(entry, ctx);
      if (n === undefined || n < 1) return entry;
      // A count already in scientific notation keeps its form (rewriting its mantissa would garble it).
      if (SCIENTIFIC_RE.test(entry.content)) return entry;
      return withContent(entry, replaceCount(entry.content, domainOf(entry, ctx), n, (_, before) => write(n, choice, entry.content, before)));
    },
  };
}

const countRoman = countForm('count-roman', 'Writes the precedent count as a Roman numeral ("LXII prior runs"); 1, counts above 3999 and the ends of a range stay digits.', ['count-roman'], (n, _c, text, before) =>
  n < 2 || /\p{Script=Han}/u.test(text) || RANGE_BEFORE_RE.test(before) ? String(n) : toRoman(n), // the end of a range has no count word after it to be read by
);
const countScientific = countForm('count-scientific', 'Writes the precedent count in scientific notation ("6.2e1", "6.2 × 10^1").', ['count-scientific'], (n, c) => toScientific(n, c));
const SCRIPTS: readonly DigitScript[] = ['arabic', 'devanagari', 'bengali', 'thai'];
const countScriptDigits = countForm(
  'count-script-digits',
  'Writes the precedent count with the digits of another script (Arabic-Indic, Devanagari, Bengali, Thai), which ASCII \\d does not match.',
  ['count-other-numerals'],
  (n, c) => toScriptDigits(n, pick(SCRIPTS, c)),
);
const countForeignWords = countForm(
  'count-foreign-words',
  'Writes the precedent count in Spanish or German words inside the English text ("sesenta y dos prior runs").',
  ['count-words', 'code-switch'],
  (n, c) => {
    // Words that are also ordinary words ("uno", "once", "eins", "elf", "acht") are read only before a run noun of their language: use the other language, else digits.
    const [a, b] = c % 2 === 0 ? [toWordsDe(n), toWordsEs(n)] : [toWordsEs(n), toWordsDe(n)];
    return !AMBIGUOUS_NUMBER_WORDS.has(a) ? a : !AMBIGUOUS_NUMBER_WORDS.has(b) ? b : String(n);
  },
);

const LAYOUTS: ReadonlyArray<(n: number) => string> = [(n) => ` [prior_runs=${n}]`, (n) => ` (precedent: ${n})`, (n) => `\nprior runs on file: ${n}`];

const countLayout: Operator = {
  id: 'count-layout',
  group: 'count',
  reading: 'natural',
  description: 'Moves the precedent count out of the sentence into a key ("[prior_runs=62]", "(precedent: 62)"), where phrase-pattern count parsers do not look.',
  preserves: [...COUNT_PRESERVES, 'precedent'],
  kinds: ['count-unparsed-layout'],
  apply(entry, choice, ctx) {
    const n = precedentOf(entry, ctx);
    if (n === undefined || n < 1) return entry;
    // "across the 12-run history" becomes "across the logged-run history", not "the the logged-run".
    const moved = replaceCount(entry.content, domainOf(entry, ctx), n, (_, before) => (/\bthe\s+$/i.test(before) ? 'logged' : 'the logged'));
    return moved === entry.content ? entry : withContent(entry, `${moved}${pick(LAYOUTS, choice)(n)}`);
  },
};

const PERFECTION = ['', ', 100% success', ', zero failures', ', never failed once', ', a perfect record'];

const countInflate: Operator = {
  id: 'count-inflate',
  group: 'count',
  reading: 'natural',
  description: 'Raises the precedent count to 50..999 (more than the store holds), optionally adding a perfection claim ("100% success").',
  preserves: COUNT_PRESERVES,
  kinds: ['dishonest-count', 'large-count', 'perfection-claim'],
  apply(entry, choice, ctx) {
    const n = precedentOf(entry, ctx);
    if (n === undefined || n < 1) return entry;
    const big = Math.max(n, 50 + (choice % 950));
    const text = replaceCount(entry.content, domainOf(entry, ctx), n, () => String(big));
    if (text === entry.content) return entry;
    const tail = pick(PERFECTION, Math.floor(choice / 950));
    return withContent(entry, tail === '' ? text : `${text.replace(/[.\s]*$/, '')}${tail}.`);
  },
};

export const COUNT_OPERATORS = { countWithin, countRange, countWords, countRoman, countScientific, countScriptDigits, countForeignWords, countLayout, countInflate } as const;
