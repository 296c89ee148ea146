/**
 * Canonical text for claim recovery: undoes every encoding operator of this folder, and the
 * held-out disguises of `text-layout.ts`, so that a claim can be read back from a disguised
 * rewrite. Order: backslash escapes (JSON, `\u`, `\x`), HTML entities, zero-width and
 * soft-hyphen characters, NFKC (full-width forms), markdown/HTML layout and line-break
 * hyphenation, status symbols, Unicode confusables (homoglyphs, via the `confusables`
 * package; words of a real other script are kept), letter-spaced words, lower case,
 * leetspeak, abbreviations, numbers written in words (English, Spanish, German, French,
 * Portuguese, Italian, Russian), ordinals and count idioms.
 */
import { decodeHTML } from 'entities';
import { alphabetMap, remove as removeConfusables } from 'confusables';
import anyAscii from 'any-ascii';
import { asciiDigits, chineseToDigits, germanToDigits, romanToDigits, scientificToDigits, spanishToDigits } from '../claims/numerals.js';
import { intlWordsToDigits } from '../claims/numerals-intl.js';
import { ALL_RUN_NOUNS, CLAIM_LEXICONS, ES_RUN_WORDS, DE_RUN_WORDS, INTL_RUN_WORDS } from './claim-lexicon.js';
import { editDistance, isDictionaryWord, isTypoOf } from './dictionary.js';
import { countIdioms, expandAbbreviations, joinSpacedLetters, ordinalsToCardinals, statusWords, undoEscapes, undoLayout } from './text-layout.js';
import { cipherSpans, decodeCiphers, decodeUuBlocks, readAlphabetWords } from './cipher-codecs.js';
import { bannerSpans, readBanners } from './ascii-banner.js';
import { joinBrokenWords, joinSplitLetters, readNoise, splitCamelCase, undoCharacterNoise } from './noise-reading.js';

/** Words after which a Roman numeral reads as a count: qualifiers and every run noun (all languages), folded. */
const ROMAN_FOLLOWERS: ReadonlySet<string> = new Set([
  'prior', 'previous', 'earlier', 'past', 'preceding', 'consecutive', 'successful', 'recorded', 'logged', 'benchmarked', 'straight', 'clean', 'matching', 'times',
  'nights', 'days', 'weeks', 'months', 'shifts',
  'precedentes', 'precedents', 'anterieures', 'anteriores', 'precedenti', 'passate', 'предыдущих', 'прошлых', 'последних',
  ...INTL_RUN_WORDS,
  'vorherigen', 'fruheren', 'bisherigen', 'aufeinanderfolgenden', 'anteriores', 'previas', 'previos', 'consecutivas', 'consecutivos',
  ...ALL_RUN_NOUNS.flatMap((n) => n.toLowerCase().split(/[^a-z]+/)),
  ...ES_RUN_WORDS,
  ...DE_RUN_WORDS,
]);

/** English qualifiers of a count that two rewrites may have misspelt twice ("prior" → "piror" → "ptror"). */
const ROMAN_QUALIFIERS: readonly string[] = ['prior', 'previous', 'earlier', 'preceding', 'consecutive', 'successful', 'recorded', 'logged', 'benchmarked', 'matching'];
const RUN_NOUN_WORDS: ReadonlySet<string> = new Set(ALL_RUN_NOUNS.flatMap((n) => n.toLowerCase().split(/[^a-z]+/)).filter((w) => w.length > 0));

/**
 * A word after which a Roman numeral reads as a count, or a misspelling of one ("piror"); or a
 * word that is no dictionary word, two edits or fewer from an English qualifier, with a run noun
 * after it ("L ptror runs": a typo then a letter substitution on "prior").
 */
function isRomanFollower(word: string, after?: string): boolean {
  const w = undoLeet(word).toLowerCase();
  if (ROMAN_FOLLOWERS.has(w)) return true;
  for (const f of ROMAN_FOLLOWERS) if (isTypoOf(w, f)) return true;
  if (after === undefined || !RUN_NOUN_WORDS.has(undoLeet(after).toLowerCase()) || isDictionaryWord(w)) return false;
  return ROMAN_QUALIFIERS.some((q) => Math.abs(q.length - w.length) <= 2 && w[0] === q[0] && editDistance(w, q) <= 2);
}

/** Rounds of the decoding steps of `canonicalText` (each undoes one layer or more). */
const DECODE_ROUNDS = 6;

// Zero-width and other invisible fillers: joiners, word joiner, BOM, soft hyphen, combining grapheme joiner, Mongolian vowel separator,
// function application and invisible separator, Hangul fillers, Arabic tatweel (U+2062/2064 are left to the sneaky-bits reader).
const ZERO_WIDTH_RE = /[\u200B-\u200D\u2060\uFEFF\u00AD\u034F\u180E\u2061\u2063\u3164\uFFA0\u115F\u1160\u0640]/g;

const LEET_BACK: Readonly<Record<string, string>> = { '4': 'a', '@': 'a', '3': 'e', '1': 'i', '0': 'o', '5': 's', $: 's', '7': 't' };

/** Undoes leetspeak in tokens that mix letters with leet digits, leaving ids, counts and units alone. */
export function undoLeet(text: string): string {
  return text.replace(/(?<![\w@$-])[\w@$]+(?![\w@$-])/g, (token) => {
    if (!/[a-z]/i.test(token) || !/[0-9@$]/.test(token)) return token;
    if (/^\d+(?:st|nd|rd|th|h|m|s|ms|d|x|k)$/i.test(token)) return token; // 24h, 3rd, 10ms, 15x
    if ((token.match(/[a-z]/gi) ?? []).length < 2) return token;
    if (/[2689]/.test(token)) return token; // not a leet digit: an id or a code
    if (/^[a-z]+\d+$/i.test(token)) return token; // HL7, B12, X86: a code; leetspeak here keeps the last letter
    return token.replace(/[4@3105$7]/g, (c) => LEET_BACK[c] ?? c);
  });
}

const UNITS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};

/** English number words (units, teens, tens, hundred, thousand). */
const ENGLISH_NUMBER_WORDS: ReadonlySet<string> = new Set([...Object.keys(UNITS), ...Object.keys(TENS), 'hundred', 'thousand']);

/**
 * Replaces English number words (zero … 999,999; "one hundred and twenty-three",
 * "Fifteen") by digits. Input should be lower case.
 */
export function wordsToNumbers(text: string): string {
  const parts = text.split(/([^A-Za-z]+)/); // words at even indexes, separators (kept) at odd ones
  const out: string[] = [];
  let i = 0;
  while (i < parts.length) {
    const w = parts[i] ?? '';
    const lw = w.toLowerCase();
    if (!(lw in UNITS) && !(lw in TENS)) {
      out.push(w);
      i++;
      continue;
    }
    let total = 0;
    let current = 0;
    let last = i;
    // What may follow what: "twenty three", "one hundred and five", "fifteen hundred", "two thousand".
    let prev: 'none' | 'unit' | 'teen' | 'tens' | 'hundred' | 'thousand' = 'none';
    let j = i;
    while (j < parts.length) {
      const t = (parts[j] ?? '').toLowerCase();
      if (j % 2 === 1 || t === '') {
        // Only spaces or a hyphen continue a number ("twenty-one", "one hundred"); other punctuation or a line break ends it.
        if (t !== '' && !/^(?:[ \t]+|[ \t]*-[ \t]*)$/.test(t)) break;
        j++;
        continue;
      }
      const v = UNITS[t];
      if (v !== undefined && v >= 1 && v <= 9 && (prev === 'none' || prev === 'tens' || prev === 'hundred' || prev === 'thousand')) {
        current += v;
        prev = 'unit';
      } else if (v !== undefined && (prev === 'none' || prev === 'hundred' || prev === 'thousand')) {
        current += v;
        prev = 'teen';
      } else if (t in TENS && (prev === 'none' || prev === 'hundred' || prev === 'thousand')) {
        current += TENS[t] ?? 0;
        prev = 'tens';
      } else if (t === 'hundred' && (prev === 'unit' || prev === 'teen')) {
        current *= 100;
        prev = 'hundred';
      } else if (t === 'thousand' && prev !== 'none' && prev !== 'thousand') {
        total += current * 1000;
        current = 0;
        prev = 'thousand';
      } else if (t === 'and' && (prev === 'hundred' || prev === 'thousand')) {
        // "and" only continues a number when another number word follows
        let k = j + 1;
        while (k < parts.length && /^(?:[ \t]+|-)?$/.test(parts[k] ?? '')) k++;
        const next = (parts[k] ?? '').toLowerCase();
        if (!(next in UNITS) && !(next in TENS)) break;
        j++;
        continue;
      } else break;
      last = j;
      j++;
    }
    out.push(String(total + current));
    i = last + 1;
  }
  return out.join('');
}

/** Unicode tag characters (U+E0020–E007E) carry ASCII invisibly ("ASCII smuggling"): read them as the ASCII they mirror. */
function untag(text: string): string {
  return text.replace(/[\u{E0020}-\u{E007E}]+/gu, (m) => [...m].map((c) => String.fromCharCode((c.codePointAt(0) ?? 0) - 0xe0000)).join('')).replace(/[\u{E0000}-\u{E007F}]/gu, '');
}

/** Text between a right-to-left override (U+202E) and its pop (U+202C) or the line end is stored reversed: put it back in reading order; drop every other bidi control. */
function undoBidi(text: string): string {
  // Innermost override first, so that a word reversed twice (the operator applied twice) reads forwards again.
  let t = text;
  for (let prev = ''; prev !== t; ) {
    prev = t;
    t = t.replace(/\u202E([^\u202C\u202E\n]*)(?:\u202C|(?=\n)|$)/g, (_, inner: string) => [...inner].reverse().join(''));
  }
  return t.replace(/[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g, '');
}

/** Percent-encoded runs ("%76%65rified") decode to their characters; malformed runs stay as they are. */
function undoPercent(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (m) => {
    try {
      return decodeURIComponent(m);
    } catch {
      return m;
    }
  });
}

// The quote around a payload may have been re-written by a later format operator: doubled (CSV), single (log lines), escaped (JSON, YAML) or an entity (XML).
const Q = `(?:\\\\?"{1,2}|'|&quot;)`;
/** A marked base64 payload: `b64:`/`base64=` (or `b64.` after a clause split), an optional quote, the payload. */
const B64_MARK_RE = new RegExp(`\\b(?:b64|base64)\\s*[:=.]\\s*${Q}?([A-Za-z0-9+/]{8,}={0,2})${Q}?`, 'gi');
/** A marked ROT13 payload: `rot13: "..."` (any quote of `Q`, the same one closing it, last on its line) or `[rot13]...[/rot13]`. */
const ROT13_MARK_RE = new RegExp(`\\b(?:rot13|rot-13)\\s*[:=.]\\s*(\\\\?"{1,2}|'|&quot;)([^\\n]*)\\1|\\[rot13\\]([^\\n]*?)(?:\\[\\/rot13\\]|$)`, 'gim');

/** A run stored reversed inside a right-to-left override (bidi-override). */
const BIDI_RUN_RE = /\u202E[^\u202C\n]*\u202C?/g;

/**
 * Character spans of marked payloads (`b64:…`, `rot13: "…"`, `[rot13]…[/rot13]`, marker
 * included) and of runs stored reversed inside a right-to-left override. Operators that rewrite
 * words, digits or clauses leave these spans whole: a payload's letters are data, and a reversed
 * word's last letter is the one a reader sees first.
 */
export function payloadSpans(text: string): Array<[number, number]> {
  // Pure in the text and asked by every word-level operator call: memoised (bounded); callers get their own list.
  const hit = SPANS.get(text);
  if (hit !== undefined) return hit.slice();
  const out = payloadSpansUncached(text);
  if (SPANS.size >= SPANS_MAX) SPANS.clear();
  SPANS.set(text, out);
  return out.slice();
}

const SPANS = new Map<string, Array<[number, number]>>();
const SPANS_MAX = 4000;

function payloadSpansUncached(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const re of [B64_MARK_RE, ROT13_MARK_RE, BIDI_RUN_RE]) for (const m of text.matchAll(re)) spans.push([m.index, m.index + m[0].length]);
  spans.push(...cipherSpans(text), ...bannerSpans(text));
  return spans;
}

/** Plain text a base64 payload may decode to: letters, digits, punctuation, spaces, symbols, format characters (zero-width, tags, bidi) and marks. */
const PRINTABLE_RE = /^[\p{L}\p{N}\p{P}\p{Zs}\p{S}\p{Cf}\p{M}\n\r\t\u0008\u001b]+$/u; // backspace pairs and ANSI escapes are text disguises too

/** Payloads marked `b64:`/`base64:` (decoded when the bytes are printable UTF-8) and `rot13: "..."`/`[rot13]...[/rot13]` are replaced by their plain text. */
function undoMarkedPayloads(text: string): string {
  let t = text.replace(B64_MARK_RE, (m, payload: string) => {
    const plain = Buffer.from(payload, 'base64').toString('utf8');
    return PRINTABLE_RE.test(plain) && !plain.includes('\uFFFD') ? ` ${plain} ` : m;
  });
  t = t.replace(ROT13_MARK_RE, (_, _q: string | undefined, a: string | undefined, b: string | undefined) => ` ${rot13(a ?? b ?? '')} `);
  return t;
}

/** ROT13 of the ASCII letters of a text (its own inverse). */
export function rot13(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** Scripts a confusable letter may come from, besides Latin. */
const SCRIPTS = ['Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Cherokee', 'Hebrew', 'Arabic', 'Devanagari', 'Bengali', 'Thai', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Ethiopic', 'Tamil', 'Telugu', 'Gujarati', 'Gurmukhi'] as const;
const SCRIPT_RES = SCRIPTS.map((sc) => [sc, new RegExp(`\\p{Script=${sc}}`, 'u')] as const);

/** The one non-Latin script of a word's letters, or undefined when it has a Latin letter or letters of two scripts (a mixed-script disguise). */
function scriptOf(word: string): string | undefined {
  if (/\p{Script=Latin}/u.test(word)) return undefined;
  const found = new Set<string>();
  for (const ch of word) {
    if (!/\p{L}/u.test(ch)) continue;
    const hit = SCRIPT_RES.find(([, re]) => re.test(ch));
    found.add(hit ? hit[0] : 'other');
  }
  return found.size === 1 ? [...found][0] : undefined;
}

/** English words of the claim lexicons (check phrases, run nouns), lower case: a look-alike word that maps to one of these is a disguise. */
const LEXICON_WORDS: ReadonlySet<string> = new Set(
  Object.values(CLAIM_LEXICONS).flatMap((l) => [...Object.values(l.checks).flat(), ...l.runNouns].flatMap((p) => p.toLowerCase().split(/[^a-z]+/))).filter((w) => w.length > 0),
);

/** A lower-case word a reader knows: an English dictionary word or a word of the claim lexicons. */
function isKnownWord(w: string): boolean {
  return LEXICON_WORDS.has(w) || isDictionaryWord(w);
}

/** Words of the other languages' check phrases and run words (diacritics folded, lower case). */
const FOREIGN_LEXICON_WORDS: ReadonlySet<string> = new Set(
  [...Object.values(CLAIM_LEXICONS).flatMap((l) => Object.values(l.languages).flatMap((lang) => Object.values(lang?.checks ?? {}).flat())), ...ES_RUN_WORDS, ...DE_RUN_WORDS, ...INTL_RUN_WORDS]
    .flatMap((p) => p.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().split(/[^a-z]+/))
    .filter((w) => w.length >= 2),
);

/** A word a reader of a word cipher (Pig Latin, a letter table) knows: `isKnownWord`, a count qualifier of any language ("vorherigen"), or a word of another language's claim phrases (up to three inflection letters on words of 4+). */
function isReadableWord(w: string): boolean {
  if (isKnownWord(w) || FOREIGN_LEXICON_WORDS.has(w) || ROMAN_FOLLOWERS.has(w)) return true;
  for (let cut = 1; cut <= 3 && w.length - cut >= 4; cut++) if (FOREIGN_LEXICON_WORDS.has(w.slice(0, -cut))) return true;
  return false;
}

/** Words of the claim lexicons and run words written in Cyrillic or Greek (lower case): a Russian note's own words, never a letter cipher. */
const OWN_SCRIPT_WORDS: ReadonlySet<string> = new Set(
  [...Object.values(CLAIM_LEXICONS).flatMap((l) => Object.values(l.languages).flatMap((lang) => Object.values(lang?.checks ?? {}).flat())), ...INTL_RUN_WORDS, ...ROMAN_FOLLOWERS]
    .flatMap((p) => p.toLowerCase().split(/[^\p{Script=Cyrillic}\p{Script=Greek}]+/u))
    .filter((w) => w.length >= 2),
);
const isOwnScriptWord = (w: string): boolean => OWN_SCRIPT_WORDS.has(w);

/** A word's letters mapped one by one to their confusable (as the homoglyph operator picks them). */
function asciiLetters(w: string): string {
  return [...w].map((c) => removeConfusables(c)).join('').normalize('NFKC');
}

/**
 * What a word with no Latin letter, in one non-Latin script, reads as. It is a look-alike
 * disguise of an English word when every letter maps to ASCII (`confusables`) and the result is
 * an upper-case acronym of 3+ letters ("НІРАА"), a word of the claim lexicons, or an English
 * word of 4+ letters (short ones, "не" → "he", "по" → "no", only when the text has no word of
 * that script that reads as no English word). Otherwise it is a word of that script, kept.
 */
function lookAlike(w: string, scriptIsNative: boolean): string | undefined {
  const ascii = asciiLetters(w);
  if (!/^[A-Za-z]+$/.test(ascii)) return undefined;
  if (ascii.length >= 3 && w === w.toUpperCase() && w !== w.toLowerCase()) return ascii;
  const lower = ascii.toLowerCase();
  if (LEXICON_WORDS.has(lower)) return ascii;
  if (lower.length >= 4 ? isDictionaryWord(lower) : !scriptIsNative && isDictionaryWord(lower)) return ascii;
  return undefined;
}

/**
 * Confusables removed word by word: a Latin or mixed-script word is mapped back to ASCII
 * ("ѕkір" → "skip"), and so is every word of a script that is not the text's own; in a text
 * written in that script (Russian, Hindi...) a word of it only when it is a look-alike of an
 * English word (`lookAlike`), so its own words are kept as written. CJK runs are kept.
 * `trusted` (lexicon phrases, never disguised) keeps every such word.
 */
function deconfuse(text: string, trusted = false): string {
  if (!/[^\x00-\x7F]/.test(text)) return text;
  // A symbol that stands for a letter inside a word ("pri×" for "prix") is read as that letter first, so the word stays whole.
  if (!trusted) text = text.replace(LETTER_SYMBOL_RE, (c) => LETTER_SYMBOLS.get(c) ?? c);
  const words = [...text.matchAll(WORD_RE)].map((m) => m[0]);
  // A script is the text's own when 3+ of its words read as no English word, and at least a third as many as the Latin
  // words (a Russian note, even inside e-mail headers or log fields); a couple of look-alike words in a Latin text are disguises.
  const native = new Set<string>();
  if (!trusted) {
    const own = new Map<string, number>();
    let latin = 0;
    for (const w of words) {
      if (/\p{Script=Latin}/u.test(w)) latin++;
      const sc = scriptOf(w);
      if (sc === undefined) continue;
      if (/[^A-Za-z]/.test(asciiLetters(w))) native.add(sc); // a letter no confusable maps to an ASCII letter ("з" → "3", "ы"): the script is written, not borrowed
      else if (w.length >= 2 && lookAlike(w, false) === undefined) own.set(sc, (own.get(sc) ?? 0) + 1);
    }
    for (const [sc, n] of own) if (n >= 3 && n * 3 >= latin) native.add(sc);
  }
  return text.replace(WORD_RE, (w) => {
    if (CJK_RE.test(w)) return w; // Chinese and Japanese runs are never disguises of Latin letters here
    const sc = scriptOf(w);
    if (sc === undefined) return removeConfusables(w);
    if (trusted) return w;
    if (!native.has(sc)) return removeConfusables(w);
    return lookAlike(w, true) ?? w;
  });
}

/**
 * Symbols (not letters, marks or digits) that the confusables table gives as look-alikes of an ASCII
 * letter ("×" for "x"), each with that letter: a word split by one would lose the letter.
 */
const LETTER_SYMBOLS: ReadonlyMap<string, string> = new Map(
  [...alphabetMap.entries()].flatMap(([k, list]) => (/^[A-Za-z]$/.test(k) ? list.filter((c) => [...c].length === 1 && !/[\p{L}\p{M}\p{N}\s]/u.test(c) && removeConfusables(c) === k).map((c) => [c, k] as const) : [])),
);
/** One of `LETTER_SYMBOLS` with a letter on at least one side. */
const LETTER_SYMBOL_RE = new RegExp(`(?<=\\p{L})[${[...LETTER_SYMBOLS.keys()].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join('')}]|[${[...LETTER_SYMBOLS.keys()].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join('')}](?=\\p{L})`, 'gu');

/** Han, kana and the prolonged sound mark: written without spaces, next to Latin words ("HIPAAチェック"). */
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30FC\\u3005';
const CJK_RE = new RegExp(`^[${CJK}]`, 'u');
/** Words for `deconfuse`: a CJK run, or a run of other letters, marks and digits (a digit of another script can stand for a letter: "൩" for "m"; "HIPAAチェック" is two words). */
const WORD_RE = new RegExp(`[${CJK}]+|(?:(?![${CJK}])[\\p{L}\\p{M}\\p{N}])+`, 'gu');

/** Diacritics removed from Latin and Cyrillic letters only (kana voicing marks are part of the letter). */
function foldMarks(text: string): string {
  return text.normalize('NFD').replace(/(?<=[\p{Script=Latin}\p{Script=Cyrillic}])\p{M}+/gu, '').normalize('NFC');
}

/**
 * Canonical form of a text: decoded (backslash escapes, HTML entities, percent-encoding, marked
 * base64/ROT13 payloads, Unicode tags, bidi overrides), de-obfuscated (zero-width, NFKC,
 * markdown link targets, comment marks, line-break hyphens, status symbols as "done"/"not done",
 * confusables, letter spacing, case, leetspeak, abbreviations), diacritics removed (ß as ss),
 * numbers as ASCII digits (other scripts, Chinese numerals, Roman numerals, scientific
 * notation, ordinals, count idioms, English, Spanish, German, French, Portuguese, Italian and
 * Russian number words). Chinese, Japanese, Cyrillic and other non-Latin words are kept.
 * Pure.
 */
export function canonicalText(text: string): string {
  // Pure, and asked for the same text several times per claim check (canonical, match and compact forms): memoised, bounded.
  const hit = CANONICAL.get(text);
  if (hit !== undefined) return hit;
  const out = canonicalUncached(text);
  if (CANONICAL.size >= CANONICAL_MAX) CANONICAL.clear();
  CANONICAL.set(text, out);
  return out;
}

const CANONICAL = new Map<string, string>();
const CANONICAL_MAX = 4000;

function canonicalUncached(text: string): string {
  // JSON string escapes (\n, \t, \", \u0041) read as the characters they stand for.
  // The decoding steps repeat until nothing changes (at most DECODE_ROUNDS), so that layered
  // encodings read back in any order: entities inside a ROT13 payload, a payload inside XML.
  let t = text;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const before = t;
    // A uuencoded block is decoded before every step: its lines hold "%", "&", "\\" and quotes that the other readers would rewrite.
    const uu = decodeUuBlocks;
    t = untag(uu(undoMarkedPayloads(uu(t)))); // a ROT13 payload first: tag characters inside it carry plain ASCII
    t = readBanners(t); // after the ROT13 reader: a banner's rows have no letters, so a banner inside a ROT13 payload would be read and then shifted
    t = readBanners(uu(undoEscapes(t)));
    t = uu(t.replace(/\\[nrt]/g, ' ').replace(/\\"/g, '"').replace(/(?<=[A-Za-z])\\b/g, '\u0008')); // JSON writes a backspace as \b
    t = uu(decodeHTML(decodeHTML(t)));
    t = uu(undoPercent(t));
    t = undoBidi(t);
    t = uu(undoMarkedPayloads(t));
    t = decodeCiphers(t, isReadableWord);
    t = t.replace(/\\\\/g, '\\'); // a backslash doubled inside a JSON string
    if (t === before) break;
  }
  t = undoCharacterNoise(t.replace(ZERO_WIDTH_RE, '')).normalize('NFKC');
  t = readAlphabetWords(t, isReadableWord, isOwnScriptWord);
  t = statusWords(undoLayout(t));
  t = asciiDigits(chineseToDigits(t));
  t = t.replace(/ß/g, 'ss');
  t = deconfuse(t).normalize('NFKC');
  t = splitCamelCase(joinSplitLetters(joinSpacedLetters(t)));
  // After confusables (the next word may be disguised), before lower case (Roman numerals are upper case).
  t = scientificToDigits(romanToDigits(t, isRomanFollower));
  t = joinBrokenWords(t.toLowerCase());
  // A word broken by punctuation around a leet digit ("clin.1cal") is joined once the digit is read, before "clin" reads as an abbreviation.
  const unleet = undoLeet(t);
  t = readNoise(expandAbbreviations(unleet === t ? t : joinBrokenWords(unleet)));
  // Number phrases of the other languages first, longest phrase of any language winning ("six cents" before English "six",
  // "vinte e três" before Spanish "tres"); a lone English number word is left to `wordsToNumbers`.
  t = intlWordsToDigits(foldMarks(ordinalsToCardinals(t)), INTL_RUN_WORDS, ENGLISH_NUMBER_WORDS);
  t = countIdioms(scientificToDigits(wordsToNumbers(t)));
  t = germanToDigits(spanishToDigits(t, ES_RUN_WORDS), DE_RUN_WORDS);
  return t;
}

/** Runs of letters of scripts other than Latin and the CJK ones, transliterated to ASCII (`any-ascii`): Cyrillic, Greek, Arabic, Devanagari... */
function transliterate(text: string): string {
  return text.replace(/[^\x00-\x7F\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{P}\p{Z}\p{S}]+/gu, (m) => anyAscii(m));
}

/**
 * Match form: canonical text, other scripts transliterated ("проверка" → "proverka"), with
 * punctuation, hyphens, underscores and slashes turned into single spaces and padded with one
 * space each side, so that phrases match as whole words with `includes(' ' + phrase + ' ')`.
 */
export function matchForm(text: string): string {
  return latinForm(canonicalText(text));
}

/** Latin words of a canonical text (or clause): transliterated, lower case, punctuation as single spaces, padded. */
export function latinForm(canonical: string): string {
  return ` ${transliterate(canonical).toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `;
}

/** Match form of a lexicon phrase: lower case, diacritics removed, other scripts transliterated, punctuation as single spaces. */
export function phraseForm(phrase: string): string {
  return transliterate(foldMarks(deconfuse(phrase.replace(/ß/g, 'ss'), true))).toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/** Compact form for Chinese and Japanese matching: canonical text with spaces, punctuation and symbols removed (letters, digits, CJK and kana kept). */
export function compactForm(text: string): string {
  return canonicalText(text).replace(/[^\p{L}\p{N}]+/gu, '');
}
