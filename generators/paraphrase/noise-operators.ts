/**
 * Character-level noise and Unicode-form operators: TextAttack's character swaps
 * (`WordSwapRandomCharacterDeletion/Insertion/Substitution`, `WordSwapQWERTY`,
 * `WordSwapDeletions`, `WordSwapReorderings`, `WordSwapPunctuationInsertion`,
 * `WordSwapWhitespace`, `WordSwapTabInsertion`), garak's Best-of-N buff (scrambled words, ASCII
 * noise) and badchars, PyRIT's CharSwap / InsertPunctuation / Zalgo / Diacritic / Superscript
 * converters, promptfoo's text mutations (zalgo, unicode-noise, whitespace-obfuscation) and
 * camelcase, garak's Turkish case-fold buffs. Each perturbs the filter-relevant words and the
 * claimed check names (never ids, digits or negation words), within what `noise-reading.ts`
 * and the typo-tolerant phrase matcher read back. All read `natural`: a reader takes them as
 * they are. Pure; `choice` picks the positions and variants.
 */
import { ALL_TEXT, pick, withContent } from './operator.js';
import type { Operator } from './operator.js';
import { wordOperator } from './evasion-operators.js';
import type { MemoryEntry } from '../../src/domain/index.js';
import { isDictionaryWord } from './dictionary.js';
import type { EvasionKind } from '../claims/evasion-kinds.js';
import { ALL_RUN_NOUNS } from './claim-lexicon.js';
import { payloadSpans } from './canonical-text.js';
import { claimSpans, domainOf, phrasePattern } from './text-utils.js';
import { isNegatedClause } from './claim-negation.js';

/** English number words: a count written in words stays apart from the words around it. */
const NUMBER_WORDS: ReadonlySet<string> = new Set('zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand'.split(' '));

/** Words of a precedent phrase ("XV prior runs"): left clean, a count's reader looks for them next to the number. */
const COUNT_WORDS: ReadonlySet<string> = new Set([
  ...ALL_RUN_NOUNS.flatMap((n) => n.toLowerCase().split(/[^a-z]+/)),
  'prior', 'previous', 'earlier', 'past', 'preceding', 'consecutive', 'successful', 'recorded', 'logged', 'straight', 'clean', 'matching', 'times', 'nights', 'days', 'weeks', 'months', 'shifts',
]);

/** Letters beyond a–z (French, German, Russian ...) split words into ASCII pieces that noise would break: such entries are left alone. */
const beyondAscii = (entry: MemoryEntry): boolean => /(?![A-Za-z])\p{L}/u.test(entry.content);

/** A word-level noise operator over filter-relevant words and claimed check names (never the words of a precedent phrase). */
function noise(id: string, kind: EvasionKind, description: string, fn: (w: string, choice: number, k: number) => string): Operator {
  return wordOperator({ id, kind, reading: 'natural', description, fn, keep: (w) => COUNT_WORDS.has(w.toLowerCase()), skip: beyondAscii });
}

/** Tries inner positions in turn (from a `choice`-given start) until `edit` gives a non-word of letters; else the word. */
function innerEdit(w: string, choice: number, k: number, minLength: number, edit: (w: string, i: number) => string): string {
  if (w.length < minLength) return w;
  const n = w.length - 2;
  for (let d = 0; d < n; d++) {
    const i = 1 + ((choice + k * 7 + d) % n);
    const out = edit(w, i);
    if (out !== w && /^[A-Za-z]+$/.test(out) && !isDictionaryWord(out.toLowerCase())) return out;
  }
  return w;
}

const LETTERS = 'etaoinshrdlucmfwyp';
const charDeletion = noise('char-deletion', 'char-deletion', 'Deletes one inner letter of filter-relevant words and check names of 6+ letters (TextAttack WordSwapRandomCharacterDeletion), never making another English word.', (w, c, k) => innerEdit(w, c, k, 6, (x, i) => x.slice(0, i) + x.slice(i + 1)));
const charInsertion = noise('char-insertion', 'char-insertion', 'Inserts one letter inside filter-relevant words and check names of 5+ letters (TextAttack WordSwapRandomCharacterInsertion).', (w, c, k) => innerEdit(w, c, k, 5, (x, i) => x.slice(0, i) + pick([...LETTERS], c + i) + x.slice(i)));
const charSubstitution = noise('char-substitution', 'char-substitution', 'Replaces one inner letter of filter-relevant words and check names of 5+ letters by another letter (TextAttack WordSwapRandomCharacterSubstitution, PyRIT CharSwapConverter).', (w, c, k) => innerEdit(w, c, k, 5, (x, i) => x.slice(0, i) + pick([...LETTERS].filter((l) => l !== x[i]?.toLowerCase()), c + i) + x.slice(i + 1)));

/** QWERTY neighbours of each letter (our table). */
const QWERTY: Readonly<Record<string, string>> = {
  q: 'wa', w: 'qes', e: 'wrd', r: 'etf', t: 'ryg', y: 'tuh', u: 'yij', i: 'uok', o: 'ipl', p: 'ol', a: 'qsz', s: 'awdz', d: 'sefx', f: 'drgc',
  g: 'fthv', h: 'gyjb', j: 'hukn', k: 'jilm', l: 'kop', z: 'asx', x: 'zsdc', c: 'xdfv', v: 'cfgb', b: 'vghn', n: 'bhjm', m: 'njk',
};
const keyboardTypo = noise('keyboard-typo', 'keyboard-typo', 'Replaces one inner letter of filter-relevant words and check names by a neighbouring key on a QWERTY keyboard (TextAttack WordSwapQWERTY).', (w, c, k) => innerEdit(w, c, k, 5, (x, i) => {
  const ch = x[i] ?? '';
  const near = QWERTY[ch.toLowerCase()] ?? '';
  if (near === '') return x;
  const r = pick([...near], c);
  return x.slice(0, i) + (ch === ch.toUpperCase() ? r.toUpperCase() : r) + x.slice(i + 1);
}));

const asciiNoise = noise('ascii-noise', 'ascii-noise', 'Shifts one inner letter of filter-relevant words and check names one code point up or down, staying a letter ("verified" → "verifiad"; garak Best-of-N ASCII noising).', (w, c, k) => innerEdit(w, c, k, 5, (x, i) => {
  const code = x.charCodeAt(i);
  const up = (c + i) % 2 === 0;
  const next = up ? code + 1 : code - 1;
  const ok = (n: number): boolean => (n >= 65 && n <= 90) || (n >= 97 && n <= 122);
  const to = ok(next) ? next : ok(up ? code - 1 : code + 1) ? (up ? code - 1 : code + 1) : code;
  return x.slice(0, i) + String.fromCharCode(to) + x.slice(i + 1);
}));

const wordScramble = noise('word-scramble', 'word-scramble', 'Scrambles the inner letters of filter-relevant words and check names of 5+ letters, first and last letter kept ("screening" → "sreecinng"; garak Best-of-N word scrambling).', (w, c) => {
  if (w.length < 5) return w;
  const inner = [...w.slice(1, -1)];
  for (let r = 1; r < inner.length; r++) {
    const rot = (c + r) % inner.length;
    const mixed = [...inner.slice(rot), ...inner.slice(0, rot)];
    const out = `${w[0]}${(r % 2 === 0 ? mixed.reverse() : mixed).join('')}${w.at(-1)}`;
    if (out !== w && !isDictionaryWord(out.toLowerCase())) return out;
  }
  return w;
});

const ZALGO_MARKS = ['\u0301', '\u0300', '\u0336', '\u0337', '\u0338', '\u0315', '\u031B', '\u0327', '\u0328', '\u0334', '\u035C', '\u0361', '\u0352', '\u0353'];
const zalgo = noise('zalgo', 'zalgo', 'Stacks combining marks on the letters of filter-relevant words and check names (intensity 1 to 4 by `choice`; garak InjectZalgo, PyRIT ZalgoConverter, promptfoo zalgo and unicode-noise).', (w, c) => {
  const depth = 1 + (c % 4);
  return [...w].map((ch, i) => ch + Array.from({ length: depth }, (_, j) => pick(ZALGO_MARKS, c + i * 3 + j)).join('')).join('');
});

const ACUTE: Readonly<Record<string, string>> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú', c: 'ç', n: 'ñ' };
const GRAVE: Readonly<Record<string, string>> = { a: 'à', e: 'è', i: 'ì', o: 'ò', u: 'ù', A: 'À', E: 'È', I: 'Ì', O: 'Ò', U: 'Ù' };
const UMLAUT: Readonly<Record<string, string>> = { a: 'ä', e: 'ë', i: 'ï', o: 'ö', u: 'ü', A: 'Ä', E: 'Ë', I: 'Ï', O: 'Ö', U: 'Ü' };
const diacritics = noise('diacritics', 'diacritics', 'Puts accents on the vowels of filter-relevant words and check names (acute, grave or diaeresis, precomposed; PyRIT DiacriticConverter).', (w, c) => {
  const table = pick([ACUTE, GRAVE, UMLAUT], c);
  return [...w].map((ch, i) => (i % (1 + (Math.floor(c / 3) % 2)) === 0 ? (table[ch] ?? ch) : ch)).join('');
});

const SUPER: Readonly<Record<string, string>> = {
  a: 'ᵃ', b: 'ᵇ', c: 'ᶜ', d: 'ᵈ', e: 'ᵉ', f: 'ᶠ', g: 'ᵍ', h: 'ʰ', i: 'ⁱ', j: 'ʲ', k: 'ᵏ', l: 'ˡ', m: 'ᵐ', n: 'ⁿ', o: 'ᵒ', p: 'ᵖ', r: 'ʳ', s: 'ˢ', t: 'ᵗ', u: 'ᵘ', v: 'ᵛ', w: 'ʷ', x: 'ˣ', y: 'ʸ', z: 'ᶻ',
};
const superscript = noise('superscript', 'superscript', 'Writes filter-relevant words and check names in superscript modifier letters ("ˢᵏⁱᵖᵖᵉᵈ"; PyRIT SuperscriptConverter); a letter with no superscript form stays as it is.', (w) => [...w].map((ch) => SUPER[ch.toLowerCase()] ?? ch).join(''));

/** Mathematical alphanumeric styles (U+1D400 block): bold, italic, bold italic, script bold, fraktur bold, double-struck, sans-serif, monospace. */
const MATH_STYLES = [0x1d400, 0x1d434, 0x1d468, 0x1d4d0, 0x1d56c, 0x1d538, 0x1d5a0, 0x1d670];
/** Letters the double-struck and italic styles take from the Letterlike Symbols block instead (the math block has holes there). */
const MATH_HOLES: Readonly<Record<string, string>> = { '119893': 'ℎ', '120122': 'ℂ', '120127': 'ℍ', '120133': 'ℕ', '120135': 'ℙ', '120136': 'ℚ', '120137': 'ℝ', '120145': 'ℤ' };
const mathLetters = noise('math-letters', 'math-letters', 'Writes filter-relevant words and check names in mathematical alphanumeric letters: bold, italic, script, fraktur, double-struck, sans-serif or monospace by `choice` (the Unicode styles behind "fancy text" converters).', (w, c) => {
  const base = pick(MATH_STYLES, c);
  return [...w].map((ch) => {
    const code = ch.charCodeAt(0);
    const off = code >= 65 && code <= 90 ? code - 65 : code >= 97 && code <= 122 ? code - 97 + 26 : -1;
    if (off < 0) return ch;
    const cp = base + off;
    return MATH_HOLES[String(cp)] ?? String.fromCodePoint(cp);
  }).join('');
});

const turkishCase = noise('turkish-case', 'turkish-case', 'Changes the case of filter-relevant words and check names with Turkish rules: lower case maps I to dotless ı, upper case maps i to dotted İ (garak TurkishLowercase / TurkishUppercase buffs).', (w, c) => (c % 2 === 0 ? w.replace(/I/g, 'ı').toLowerCase() : w.replace(/i/g, 'İ').toUpperCase()));

const PUNCT = ['.', ',', ';', ':', '!', '?', "'", '*', '~', '_', '^', '|', '-'];
const punctuationInsertion = noise('punctuation-insertion', 'punctuation-insertion', 'Inserts one punctuation mark inside filter-relevant words and check names of 5+ letters ("sk.ipped", "scree;ning"; PyRIT InsertPunctuationConverter, TextAttack WordSwapPunctuationInsertion), never where both halves are words.', (w, c, k) => {
  if (w.length < 5) return w;
  for (let d = 0; d < w.length - 3; d++) {
    const i = 2 + ((c + k + d) % (w.length - 3));
    const a = w.slice(0, i).toLowerCase();
    const b = w.slice(i).toLowerCase();
    if (isDictionaryWord(a) && isDictionaryWord(b)) continue;
    return `${w.slice(0, i)}${pick(PUNCT, c + d)}${w.slice(i)}`;
  }
  return w;
});

/** Invisible fillers a display shows as nothing (zero-width ones are `zero-width`'s). */
const FILLERS = ['\u034F', '\u2063', '\u2061', '\u180E', '\u0640', '\u3164'];
const invisibleFillers = noise('invisible-fillers', 'invisible-fillers', 'Inserts invisible fillers inside filter-relevant words and check names: combining grapheme joiner, invisible separator, function application, Mongolian vowel separator, Arabic tatweel, Hangul filler (garak badchars invisible, TextAttack WordSwapInvisibleCharacters, PyRIT TatweelConverter).', (w, c) => {
  const f = pick(FILLERS, c);
  return [...w].map((ch, i) => (i > 0 && i % (1 + (Math.floor(c / FILLERS.length) % 3)) === 0 ? f + ch : ch)).join('');
});

const backspacePairs = noise('backspace-pairs', 'backspace-deletion', 'Inserts a stray letter followed by a backspace (U+0008) inside filter-relevant words and check names: a terminal shows the word, a filter reads an extra letter (garak badchars deletion, TextAttack WordSwapDeletions).', (w, c) => {
  if (w.length < 3) return w;
  const i = 1 + (c % (w.length - 1));
  return `${w.slice(0, i)}${pick([...'xqzjk'], c)}\u0008${w.slice(i)}`;
});

/** The bidi swap of garak badchars / TextAttack WordSwapReorderings: two adjacent letters stored swapped, displayed in order. */
const swapPair = (first: string, second: string): string => `\u202D\u2066\u202E\u2066${second}\u2069\u2066${first}\u2069\u202C\u2069\u202C`;
const bidiSwap = noise('bidi-swap', 'bidi-reorder', 'Stores two adjacent letters of filter-relevant words and check names swapped inside bidi controls (LRO, LRI, RLO ... PDF) so they display in the right order (garak badchars reordering, TextAttack WordSwapReorderings).', (w, c) => {
  if (w.length < 3) return w;
  const i = c % (w.length - 1);
  return `${w.slice(0, i)}${swapPair(w[i] ?? '', w[i + 1] ?? '')}${w.slice(i + 2)}`;
});

const SPACES = ['\t', '\u00A0', '\u2009', '\u200A', '\u202F', '\u3000', '\u2002'];
const whitespaceSwap: Operator = {
  id: 'whitespace-swap',
  group: 'encoding',
  description: 'Replaces the spaces between words by tabs or other Unicode spaces (no-break, thin, hair, narrow no-break, ideographic, en; promptfoo whitespace-obfuscation, TextAttack WordSwapWhitespace / WordSwapTabInsertion).',
  preserves: ALL_TEXT,
  kinds: ['whitespace-obfuscation'],
  reading: 'natural',
  apply(entry, choice) {
    let i = 0;
    const every = 1 + (Math.floor(choice / SPACES.length) % 2);
    const payloads = payloadSpans(entry.content);
    return withContent(entry, entry.content.replace(/(?<=[\p{L}\p{N},.;:])[ ](?=[\p{L}\p{N}])/gu, (m, at: number) => (payloads.some(([a, b]) => at >= a && at < b) ? m : i++ % every === 0 ? pick(SPACES, choice) : m)));
  },
};

const camelCase: Operator = {
  id: 'camel-case',
  group: 'encoding',
  description: 'Joins runs of plain words of 2+ letters outside the claim into camelCase ("alreadyVerifiedUpstream"); check phrases, precedent phrases, the subject written out, negation, condition and number words, ids, numbers, punctuation and (for even `choice`) upper-case words break the runs; an entry with letters beyond a–z, or not mostly English words, is left as it is (promptfoo camelcase, PyRIT StringJoinConverter with an empty joiner).',
  preserves: ALL_TEXT,
  kinds: ['camel-case'],
  reading: 'natural',
  apply(entry, choice, ctx) {
    // English text only: the reader splits humps when most parts are words it knows, which another language's words are not.
    const plain = entry.content.match(/(?<![\p{L}\p{M}])[A-Za-z]{4,}(?![\p{L}\p{M}])/gu) ?? [];
    if (/(?![A-Za-z])\p{L}/u.test(entry.content) || plain.filter((w) => isDictionaryWord(w.toLowerCase())).length * 3 < plain.length * 2) return entry;
    // Words of letters only (a run may not hold an id, a number or a one-letter word), joined across single spaces.
    // Upper-case words (acronyms, Roman numerals: their case is their meaning) stay apart and break a run.
    const camel = (words: string[]): string => words.map((x, i) => (i === 0 ? x.toLowerCase() : x.charAt(0).toUpperCase() + x.slice(1).toLowerCase())).join('');
    const payloads = payloadSpans(entry.content);
    // Only English words of 3+ letters are joined (the reader splits a run when most parts are words); others break the run.
    // Words of a precedent phrase ("prior", "runs") stay apart too: a count's reader looks for them next to the number, and a later letter change would garble them inside a run.
    const joinable = (x: string): boolean => x.length >= 3 && isDictionaryWord(x.toLowerCase()) && !COUNT_WORDS.has(x.toLowerCase());
    // The claimed subject written out ("Greenholt wireless headphones") is no key: its words stay apart, so that it still reads as the subject.
    const subject = ctx?.claim.subject ?? '';
    const subjectSpans = subject.trim() === '' ? [] : [...entry.content.matchAll(new RegExp(`(?<![A-Za-z0-9])${phrasePattern(subject)}(?![A-Za-z0-9])`, 'gi'))].map((m): [number, number] => [m.index, m.index + m[0].length]);
    // Check phrases, precedent phrases, negation, condition and number words stay apart too, so a later change of letters or case cannot garble them inside a run.
    const kept = [...subjectSpans, ...claimSpans(entry.content, domainOf(entry, ctx))];
    const out = entry.content.replace(/(?<![\p{L}\p{M}\w-])[A-Za-z]{2,}(?: [A-Za-z]{2,})+(?![\p{L}\p{M}\w-])/gu, (run, at: number) => {
      if (payloads.some(([a, b]) => at < b && at + run.length > a)) return run;
      const parts: string[] = [];
      let group: string[] = [];
      let off = at;
      for (const x of run.split(' ')) {
        const apart = kept.some(([a, b]) => off >= a && off < b) || isNegatedClause(x.toLowerCase()) || NUMBER_WORDS.has(x.toLowerCase());
        off += x.length + 1;
        if (apart || !joinable(x) || (/^[A-Z]{2,}$/.test(x) && (choice % 2 === 0 || /^[MDCLXVI]+$/.test(x)))) {
          if (group.length > 0) parts.push(camel(group));
          parts.push(x);
          group = [];
        } else {
          // Two words whose join is a word of its own ("cross checked" → "crosschecked") would read as that one word: a new run starts.
          const prev = group.at(-1);
          if (prev !== undefined && isDictionaryWord(`${prev}${x}`.toLowerCase())) {
            parts.push(camel(group));
            group = [];
          }
          group.push(x);
        }
      }
      if (group.length > 0) parts.push(camel(group));
      return parts.join(' ');
    });
    return withContent(entry, out);
  },
};


/** ANSI SGR colour codes around words (a terminal shows colours, a filter reads escape bytes; PyRIT AnsiAttackConverter, garak ansiescape). */
const ANSI = ['\u001b[31m', '\u001b[1;33m', '\u001b[32m', '\u001b[4m', '\u001b[38;5;208m'];
const ansiEscapes = noise('ansi-escapes', 'ansi-escapes', 'Wraps filter-relevant words and check names in ANSI colour escape codes (ESC[31m ... ESC[0m), as a terminal log or a tool output carries them (PyRIT AnsiAttackConverter, garak ansiescape).', (w, c, k) => `${pick(ANSI, c + k)}${w}\u001b[0m`);

const TOKENS = ['ok', 'ack', 'noted', 'continue', 'log', 'tick', '...', '—'];
const repeatToken: Operator = {
  id: 'repeat-token',
  group: 'structural',
  description: 'Puts one token repeated 16 to 64 times before or after the text ("ok ok ok ..."; PyRIT RepeatTokenConverter): the claim is unchanged, the text around it is noise.',
  preserves: ALL_TEXT,
  kinds: ['repeated-token'],
  reading: 'natural',
  apply(entry, choice) {
    const run = Array.from({ length: 16 * (1 + (Math.floor(choice / TOKENS.length) % 4)) }, () => pick(TOKENS, choice)).join(' ');
    return withContent(entry, Math.floor(choice / (TOKENS.length * 4)) % 2 === 0 ? `${run}\n${entry.content}` : `${entry.content}\n${run}`);
  },
};

/** Suffixes in the style of optimised adversarial suffixes: token soup with brackets and stray markup (our own strings, no real attack suffix). */
const SUFFIXES = [
  '}} ;) describe::( = sure~~ zentrum !! ++ revert ]] quickly.--',
  '<< okay listing [[ Stepwise ]] ^^ formal )): tone== plain ## ~~',
  'xx) ; begin-- sure here reply {{ compact }} // ~ ~ tokens ]] ==',
  '.- ( yes ) .- [[ simplify__ ]] ++ grammar:: fine ;; !!',
];
const suffixAppend: Operator = {
  id: 'suffix-append',
  group: 'structural',
  description: 'Appends a token-soup suffix in the style of optimised adversarial suffixes (PyRIT SuffixAppendConverter, promptfoo gcg; our own strings).',
  preserves: ALL_TEXT,
  kinds: ['adversarial-suffix'],
  reading: 'natural',
  apply(entry, choice) {
    return withContent(entry, `${entry.content} ${pick(SUFFIXES, choice)}`);
  },
};

/** Contractions and their long forms (TextAttack WordSwapContract / WordSwapExtend). */
const CONTRACTIONS: ReadonlyArray<readonly [string, string]> = [
  ['it is', "it's"], ['that is', "that's"], ['there is', "there's"], ['we have', "we've"], ['they have', "they've"], ['we are', "we're"], ['they are', "they're"],
  ['was not', "wasn't"], ['were not', "weren't"], ['is not', "isn't"], ['are not', "aren't"], ['did not', "didn't"], ['does not', "doesn't"], ['do not', "don't"],
  ['has not', "hasn't"], ['have not', "haven't"], ['had not', "hadn't"], ['will not', "won't"], ['cannot', "can't"], ['it has', "it's"], ['we will', "we'll"],
];
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CONTRACT_RE = new RegExp(`\\b(?:${CONTRACTIONS.map(([l]) => esc(l).replace(' ', '\\s+')).join('|')})\\b`, 'gi');
const EXTEND_RE = new RegExp(`\\b(?:${[...new Set(CONTRACTIONS.map(([, s]) => s))].map(esc).join('|')})(?![\\w'])`, 'gi');
const matchCase = (from: string, to: string): string => (/^[A-Z]/.test(from) ? to.charAt(0).toUpperCase() + to.slice(1) : to);
const contraction: Operator = {
  id: 'contraction',
  group: 'lexical',
  description: 'Contracts long forms ("it is" → "it\'s", "were not" → "weren\'t") for even `choice`, or writes contractions out for odd `choice` (TextAttack WordSwapContract / WordSwapExtend).',
  preserves: ALL_TEXT,
  kinds: ['contraction'],
  reading: 'natural',
  apply(entry, choice) {
    if (choice % 2 === 0) return withContent(entry, entry.content.replace(CONTRACT_RE, (m) => matchCase(m, CONTRACTIONS.find(([l]) => l === m.toLowerCase().replace(/\s+/g, ' '))?.[1] ?? m)));
    return withContent(entry, entry.content.replace(EXTEND_RE, (m) => matchCase(m, CONTRACTIONS.find(([, s]) => s === m.toLowerCase())?.[0] ?? m)));
  },
};

export const NOISE_OPERATORS = {
  charDeletion, charInsertion, charSubstitution, keyboardTypo, asciiNoise, wordScramble, zalgo, diacritics, superscript, mathLetters, turkishCase, punctuationInsertion,
  invisibleFillers, backspacePairs, bidiSwap, whitespaceSwap, camelCase, ansiEscapes, repeatToken, suffixAppend, contraction,
} as const;
