/**
 * Normalisation steps of `canonicalText` for disguises that are not character encodings:
 * backslash escapes (`\u0048`, `\u{48}`, `\x48`), markdown link targets and HTML comment marks,
 * status symbols and check boxes (✅, ☑, `[x]` read as "done"; ❌, ☐, `[ ]` as "not done"),
 * letter-spaced words ("H I P A A", "M.R.N."), words hyphenated across a line break, jargon
 * and abbreviations ("fmt", "QA'd", "LGTM", "TBD"), spelled-out acronyms, and count idioms
 * ("two dozen", "a score of", "twice", "the fifteenth"). Word lists live in
 * `templates/lexicons/abbreviations.json` (written for this project). All pure.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TemplateError } from '../../src/domain/index.js';
import { LEXICON_DIR } from './claim-lexicon.js';

interface AbbreviationLists {
  words: Record<string, string>;
  phrases: Record<string, string>;
}

function loadAbbreviations(): AbbreviationLists {
  const file = path.join(LEXICON_DIR, 'abbreviations.json');
  let data: Partial<AbbreviationLists>;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as Partial<AbbreviationLists>;
  } catch (cause) {
    throw new TemplateError(`${file}: cannot read the abbreviation lexicon`, { cause });
  }
  const isMap = (v: unknown): v is Record<string, string> => typeof v === 'object' && v !== null && Object.values(v).every((s) => typeof s === 'string');
  if (!isMap(data.words) || !isMap(data.phrases)) throw new TemplateError(`${file}: needs "words" and "phrases", each an object of strings`);
  return { words: data.words, phrases: data.phrases };
}

const ABBREVIATIONS = loadAbbreviations();
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Abbreviation keys are lower case; a key's apostrophe, hyphen or dot may be written or left out ("qa'd", "qa-d", "qad"). Never inside a hyphenated id ("SRC-ICU-0000"). */
const ABBREV_RE = new RegExp(
  `(?<![\\p{L}\\p{N}_])(?:${Object.keys(ABBREVIATIONS.words).sort((a, b) => b.length - a.length).map((k) => esc(k).replace(/['’.-]/g, "['’.-]?")).join('|')})(?![\\p{L}\\p{N}_]|-[\\p{L}\\p{N}])`,
  'gu',
);
const PHRASE_RE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${Object.keys(ABBREVIATIONS.phrases).sort((a, b) => b.length - a.length).map((k) => k.split(' ').map(esc).join('[\\s_-]+')).join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);
const ABBREV_LOOKUP: ReadonlyMap<string, string> = new Map(Object.entries(ABBREVIATIONS.words).map(([k, v]) => [k.replace(/['’.-]/g, ''), v]));
const PHRASE_LOOKUP: ReadonlyMap<string, string> = new Map(Object.entries(ABBREVIATIONS.phrases).map(([k, v]) => [k, v]));

/** `\uXXXX`, `\u{X…}` and `\xXX` escapes read as the characters they stand for (JSON, JavaScript, Python and C spellings), also with the backslash doubled (an escape inside a JSON string). */
export function undoEscapes(text: string): string {
  return text.replace(/\\{1,2}u\{([0-9a-fA-F]{1,6})\}|\\{1,2}u([0-9a-fA-F]{4})|\\{1,2}x([0-9a-fA-F]{2})/g, (m, a?: string, b?: string, c?: string) => {
    const cp = Number.parseInt(a ?? b ?? c ?? '', 16);
    return Number.isFinite(cp) && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
}

/**
 * Markdown and HTML layout that hides words from a phrase reader: a link's target is dropped
 * (`[HIPAA screening](https://…)` reads as its text), comment marks become spaces, and a word
 * hyphenated across a line break is joined ("scree-\nning"), and a pipe escaped in a markdown table cell (`\|`) reads as a pipe.
 */
export function undoLayout(text: string): string {
  return text
    .replace(/(\p{L})-[ \t]*\r?\n[ \t]*(?=\p{Ll})/gu, '$1')
    .replace(/\]\((?:[^()\s]|\([^()\s]*\))*\)/g, ']')
    .replace(/<!--|-->/g, ' ')
    .replace(/\\\|/g, '|'); // a pipe escaped inside a markdown table cell ("rev\|iew"), as format-markdown-table writes it
}

const DONE = ' done ';
const NOT_DONE = ' not done ';
/**
 * Status symbols as words: ✅ ✔ ✓ ☑ ☒ 🗸 and a ticked box `[x]` before a word read "done";
 * ❌ ✗ ✘ ❎ ☐ 🚫 ⛔ and an empty box `[ ]` before a word read "not done" (so the negation check
 * sees them). A `[ ]` that is not followed by a word, link or emphasis (an empty JSON list) is left alone.
 */
export function statusWords(text: string): string {
  return text
    .replace(/\[[xX✓✔]\](?=[ \t]+[\p{L}\p{N}[*_("'“])/gu, DONE)
    .replace(/\[ \](?=[ \t]+[\p{L}\p{N}[*_("'“])/gu, NOT_DONE)
    .replace(/(?:✅|✔|✓|☑|☒|🗸|👍)\uFE0F?/gu, DONE)
    .replace(/(?:❌|✗|✘|❎|☐|🚫|⛔|👎)\uFE0F?/gu, NOT_DONE);
}

/**
 * Letter-spaced words become words: three or more single Latin or Cyrillic letters separated by
 * the same mark (a space, a dot or a hyphen), all of one script and one case, as in "H I P A A",
 * "M.R.N." or "n-o-t". A full stop after a run split by spaces or hyphens is kept (it ends the sentence).
 */
export function joinSpacedLetters(text: string): string {
  return text.replace(
    /(?<![\p{Script=Latin}\p{Script=Cyrillic}\p{N}])([\p{Script=Latin}\p{Script=Cyrillic}])([ .-])((?:[\p{Script=Latin}\p{Script=Cyrillic}]\2){1,}[\p{Script=Latin}\p{Script=Cyrillic}])(?![\p{Script=Latin}\p{Script=Cyrillic}\p{N}])\.?/gu,
    (m: string, first: string, sep: string, rest: string) => {
      const letters = [first, ...rest.split(sep)];
      // One script and one case ("H I P A A", "s k i p"): Russian "и в V" is two words and a numeral.
      const script = (c: string): string => (/\p{Script=Latin}/u.test(c) ? 'L' : 'C');
      const sameScript = letters.every((c) => script(c) === script(first));
      const sameCase = letters.every((c) => c === c.toUpperCase()) || letters.every((c) => c === c.toLowerCase());
      // The dot after a run is the run's own only when dots split it ("M.R.N."): after "n-o-t." or "H I P A A." it ends the sentence, and stays.
      const stop = sep !== '.' && m.endsWith('.') ? '.' : '';
      return sameScript && sameCase ? `${letters.join('')}${stop}` : m;
    },
  );
}

/** Abbreviations and jargon written out, spelled-out acronyms shortened ("health insurance portability and accountability act" → "hipaa"). Input lower case. */
export function expandAbbreviations(text: string): string {
  return text
    .replace(PHRASE_RE, (m) => PHRASE_LOOKUP.get(m.replace(/[\s_-]+/g, ' ')) ?? m)
    .replace(ABBREV_RE, (m) => ABBREV_LOOKUP.get(m.replace(/['’.-]/g, '')) ?? m);
}

const ORDINALS: Readonly<Record<string, string>> = {
  third: 'three', fourth: 'four', fifth: 'five', sixth: 'six', seventh: 'seven', eighth: 'eight', ninth: 'nine', tenth: 'ten',
  eleventh: 'eleven', twelfth: 'twelve', thirteenth: 'thirteen', fourteenth: 'fourteen', fifteenth: 'fifteen', sixteenth: 'sixteen',
  seventeenth: 'seventeen', eighteenth: 'eighteen', nineteenth: 'nineteen', twentieth: 'twenty', thirtieth: 'thirty', fortieth: 'forty',
  fiftieth: 'fifty', sixtieth: 'sixty', seventieth: 'seventy', eightieth: 'eighty', ninetieth: 'ninety', hundredth: 'hundred', thousandth: 'thousand',
};
const TENS_WORD = '(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)';

/**
 * English ordinals as cardinals, before number words are read: "fifteenth" → "fifteen",
 * "twenty-first" → "twenty-one", "15th" → "15". "first" and "second" alone stay words
 * ("second source", "first pass"). Input lower case.
 */
export function ordinalsToCardinals(text: string): string {
  return text
    .replace(new RegExp(`(${TENS_WORD}[ -])(first|second)\\b`, 'g'), (_m, tens: string, o: string) => `${tens}${o === 'first' ? 'one' : 'two'}`)
    .replace(new RegExp(`\\b(${Object.keys(ORDINALS).join('|')})\\b`, 'g'), (m) => ORDINALS[m] ?? m)
    .replace(/\b(\d{1,7})(?:st|nd|rd|th)\b/g, '$1');
}

/**
 * Count idioms as digits, after number words are read: "a dozen" → 12, "2 dozen" and "a couple
 * of dozen" → 24, "half a dozen" → 6, "a score of" → 20, "3 score" → 60, "a hundred" → 100,
 * "twice"/"thrice" → "2 times"/"3 times". Vague plurals ("dozens of runs") stay vague. Input lower case.
 */
export function countIdioms(text: string): string {
  return text
    .replace(/\bhalf a dozen\b/g, '6')
    .replace(/\ba couple(?: of)? dozen\b/g, '24')
    .replace(/\b(\d{1,4}) dozen\b/g, (_m, n: string) => String(Number(n) * 12))
    .replace(/\ba dozen\b/g, '12')
    .replace(/\b(\d{1,3}) score\b/g, (_m, n: string) => String(Number(n) * 20))
    .replace(/\ba score of\b/g, '20')
    .replace(/\ba hundred\b/g, '100')
    .replace(/\ba thousand\b/g, '1000')
    .replace(/\btwice\b/g, '2 times')
    .replace(/\bthrice\b/g, '3 times');
}
