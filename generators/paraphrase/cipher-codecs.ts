/**
 * Codecs of the cipher and alternative-alphabet operators (the kinds of garak's
 * `Inject*` encoding probes and buffs, PyRIT's converters, promptfoo's encoding strategies):
 * for each, the encoder an operator uses and the reader `canonicalText` uses to undo it.
 * Libraries where one exists (rfc4648 for base32/base16, ascii85, base2048, quoted-printable;
 * Ecoji in `ecoji.ts`, written here from its standard);
 * the letter tables (Morse, Braille, NATO, Cyrillic/Greek/Runic letter ciphers) are this
 * project's own. A reader only decodes what is marked or unambiguous (a marker such as
 * `hex:` or `[atbash]`, a Braille run, hyphen-joined NATO words, 8-bit groups), and only
 * keeps a decoding that is printable text. All pure.
 */
import { base16, base32 } from 'rfc4648';
import ascii85 from 'ascii85';
import { decode as b2048Decode, encode as b2048Encode } from 'base2048';
import quotedPrintableCodec from 'quoted-printable';
import { IPA_RE, readIpa } from './ipa.js';
import { ECOJI_CLASS, decodeEcoji, encodeEcoji } from './ecoji.js';

// The quote around a payload may have been re-written by a later format operator: doubled (CSV), single (log lines), escaped (JSON, YAML) or an entity (XML).
const Q = `(?:\\\\?"{1,2}|'|&quot;)`;
/** Plain text a decoded payload may be: letters, digits, punctuation, spaces, symbols, format characters and marks. */
const PRINTABLE_RE = /^[\p{L}\p{N}\p{P}\p{Zs}\p{S}\p{Cf}\p{M}\n\r\t\u0008\u001b]+$/u;
const printable = (s: string): boolean => s.length > 0 && PRINTABLE_RE.test(s) && !s.includes('\uFFFD');
const utf8 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

/** Shift letters A-Z/a-z by `k` places (Caesar); other characters kept. */
export function caesar(text: string, k: number): string {
  const s = ((k % 26) + 26) % 26;
  return text.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + s) % 26) + base);
  });
}

/** Atbash: A↔Z, B↔Y ... (its own inverse). */
export function atbash(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(base + 25 - (c.charCodeAt(0) - base));
  });
}

/** Vigenère with a letter key: each letter shifted by the key letter under it (letters only advance the key). `sign` -1 decodes. */
export function vigenere(text: string, key: string, sign: 1 | -1 = 1): string {
  const ks = key.toUpperCase().replace(/[^A-Z]/g, '');
  if (ks === '') return text;
  let i = 0;
  return text.replace(/[A-Za-z]/g, (c) => caesar(c, sign * ((ks.charCodeAt(i++ % ks.length) ?? 65) - 65)));
}

/** Flattens a text to one line with no sentence break, so sentence-level operators keep a payload whole (as the ROT13 operator does). */
export function oneLine(text: string): string {
  // Straight quotes become ’: a later format may re-quote the payload with either kind, and the reader looks for the closing one.
  return text.replace(/\s*\n\s*/g, ' / ').replace(/([.!?]|(?<!&(?:amp;)?#?[0-9A-Za-z]+);)\s+/g, '$1/').replace(/["']/g, '’');
}

// ---- Morse (ITU letters, digits and common punctuation; our table) ----
const MORSE: Readonly<Record<string, string>> = {
  a: '.-', b: '-...', c: '-.-.', d: '-..', e: '.', f: '..-.', g: '--.', h: '....', i: '..', j: '.---', k: '-.-', l: '.-..', m: '--',
  n: '-.', o: '---', p: '.--.', q: '--.-', r: '.-.', s: '...', t: '-', u: '..-', v: '...-', w: '.--', x: '-..-', y: '-.--', z: '--..',
  '0': '-----', '1': '.----', '2': '..---', '3': '...--', '4': '....-', '5': '.....', '6': '-....', '7': '--...', '8': '---..', '9': '----.',
  '.': '.-.-.-', ',': '--..--', '?': '..--..', ':': '---...', ';': '-.-.-.', '-': '-....-', '(': '-.--.', ')': '-.--.-', "'": '.----.', '=': '-...-', '+': '.-.-.', '_': '..--.-', '/': '-..-.', '@': '.--.-.', '"': '.-..-.', '&': '.-...', '!': '-.-.--', '$': '...-..-',
};
const MORSE_BACK: ReadonlyMap<string, string> = new Map(Object.entries(MORSE).map(([k, v]) => [v, k]));

/** Text in Morse: letters separated by spaces, words by ` / `; a symbol with no code parts words, other characters with no code (letters of other scripts) are dropped. */
export function toMorse(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\s\p{L}\p{N}.,?:;()'=+_/@"&!$-]/gu, ' ') // a symbol with no code ("<" of a tag) still parts the words around it
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => [...w].map((c) => MORSE[c]).filter((x): x is string => x !== undefined).join(' '))
    .filter((w) => w !== '')
    .join(' / ');
}
function fromMorse(code: string): string {
  return code
    .trim()
    .split(/\s*\/\s*/)
    .map((w) => w.split(/\s+/).map((l) => MORSE_BACK.get(l) ?? '').join(''))
    .join(' ');
}

// ---- Braille (grade-1 letters, a number sign before digits, a capital sign; our table) ----
const BRAILLE_LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const BRAILLE_CELLS = [0x01, 0x03, 0x09, 0x19, 0x11, 0x0b, 0x1b, 0x13, 0x0a, 0x1a, 0x05, 0x07, 0x0d, 0x1d, 0x15, 0x0f, 0x1f, 0x17, 0x0e, 0x1e, 0x25, 0x27, 0x3a, 0x2d, 0x3d, 0x35];
const BRAILLE_PUNCT: Readonly<Record<string, number>> = { '.': 0x32, ',': 0x02, ';': 0x06, ':': 0x12, '!': 0x16, '?': 0x26, "'": 0x04, '-': 0x24, '/': 0x0c };
const cell = (bits: number): string => String.fromCharCode(0x2800 + bits);
const CAPS = cell(0x20);
const NUM = cell(0x3c);
const BRAILLE_OF: ReadonlyMap<string, string> = new Map([...BRAILLE_LETTERS].map((c, i) => [c, cell(BRAILLE_CELLS[i] ?? 0)]));
const BRAILLE_BACK: ReadonlyMap<string, string> = new Map([...BRAILLE_OF].map(([k, v]) => [v, k]));
const PUNCT_BACK: ReadonlyMap<string, string> = new Map(Object.entries(BRAILLE_PUNCT).map(([k, v]) => [cell(v), k]));

/** Text in Unicode Braille (U+2800 block): capitals after ⠠, digit runs after ⠼ (a–j for 1–0); characters with no cell are kept. */
export function toBraille(text: string): string {
  let out = '';
  let inNumber = false;
  for (const c of text) {
    if (/[0-9]/.test(c)) {
      if (!inNumber) out += NUM;
      inNumber = true;
      out += BRAILLE_OF.get(BRAILLE_LETTERS[(Number(c) + 9) % 10] ?? 'j') ?? '';
      continue;
    }
    inNumber = false;
    const lower = c.toLowerCase();
    const b = BRAILLE_OF.get(lower);
    if (b !== undefined) out += (c !== lower ? CAPS : '') + b;
    else if (BRAILLE_PUNCT[c] !== undefined) out += cell(BRAILLE_PUNCT[c]);
    else out += c;
  }
  return out;
}
function fromBraille(run: string): string {
  let out = '';
  let caps = false;
  let num = false;
  for (const c of run) {
    if (c === CAPS) { caps = true; continue; }
    if (c === NUM) { num = true; continue; }
    const l = BRAILLE_BACK.get(c);
    if (l !== undefined && num && l <= 'j') { out += String((BRAILLE_LETTERS.indexOf(l) + 1) % 10); continue; }
    num = false;
    if (l !== undefined) out += caps ? l.toUpperCase() : l;
    else out += PUNCT_BACK.get(c) ?? (c === '\u2800' ? ' ' : c);
    caps = false;
  }
  return out;
}

// ---- NATO phonetic alphabet ----
const NATO = ['Alfa', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliett', 'Kilo', 'Lima', 'Mike', 'November', 'Oscar', 'Papa', 'Quebec', 'Romeo', 'Sierra', 'Tango', 'Uniform', 'Victor', 'Whiskey', 'Xray', 'Yankee', 'Zulu'];
const NATO_BACK: ReadonlyMap<string, string> = new Map([...NATO.map((w, i) => [w.toLowerCase(), BRAILLE_LETTERS[i] ?? ''] as const), ['alpha', 'a'], ['juliet', 'j'], ['whisky', 'w']]);
const NATO_WORD = `(?:${[...NATO_BACK.keys()].join('|')})`;
/** Two or more code words joined by hyphens: one spelled word. */
const NATO_RUN_RE = new RegExp(`(?<![\\p{L}\\p{N}-])${NATO_WORD}(?:-${NATO_WORD})+(?![\\p{L}\\p{N}]|-\\p{L})`, 'giu');

/** A word spelled in NATO code words joined by hyphens ("skip" → "Sierra-Kilo-India-Papa"); letters only, others dropped. */
export function toNato(word: string): string {
  return [...word.toLowerCase()].map((c) => NATO[BRAILLE_LETTERS.indexOf(c)]).filter((x): x is string => x !== undefined).join('-');
}

// ---- Letter ciphers into other alphabets (our tables: one letter of the script per Latin letter) ----
/** Latin a–z → a letter of another alphabet, one to one (our tables), so a reader that knows the table can read the word back. */
const ALPHABET_TABLES = {
  cyrillic: [...'абцдефгхийклмнопярстувшжыз'],
  greek: [...'αβϛδεφγηιϳκλμνοπϙρστυϝωχψζ'],
  runic: [...'ᚨᛒᚳᛞᛖᚠᚷᚺᛁᛃᚲᛚᛗᚾᛟᛈᛩᚱᛊᛏᚢᚡᚹᛪᛦᛉ'],
} as const satisfies Record<string, readonly string[]>;
export type AlphabetId = keyof typeof ALPHABET_TABLES;
/** A word written letter for letter in another alphabet (lower case). */
export function toAlphabet(word: string, id: AlphabetId): string {
  const t: readonly string[] = ALPHABET_TABLES[id];
  return [...word.toLowerCase()].map((c) => t[BRAILLE_LETTERS.indexOf(c)] ?? c).join('');
}
/** The Latin letters of a word written with a letter table of `ALPHABETS`, or undefined when a letter is not in one table. */
function fromAlphabet(word: string): string | undefined {
  const w = word.replace(/ς/g, 'σ'); // a lower-cased capital sigma at a word's end
  for (const t of Object.values(ALPHABET_TABLES) as ReadonlyArray<readonly string[]>) {
    if ([...w].every((c) => t.includes(c))) return [...w].map((c) => BRAILLE_LETTERS[t.indexOf(c)] ?? '').join('');
  }
  return undefined;
}
/** Words (runs of letters) of a letter-cipher script, for `readAlphabetWords`. */
const SCRIPT_WORD_RE = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Runic}]{2,}/gu;

/**
 * Words written with one of the letter tables (`toAlphabet`) read back as Latin when the result
 * is a word `known` accepts; in a text with two or more words of 5+ letters of that script that read as no
 * known word, at least a third as many as its Latin words (a Russian or Greek text), no word of the script is read back.
 * A word `ownWord` accepts (lower case, as written: a Russian word of the claim lexicons, "запусках") is a word of the
 * script's own language: it counts as such and is never read back, even when its letters spell a known Latin word
 * (its transliteration, "zapuskakh").
 */
export function readAlphabetWords(text: string, known: (w: string) => boolean, ownWord: (w: string) => boolean = () => false): string {
  if (!/[\u0370-\u04FF\u16A0-\u16FF]/.test(text)) return text;
  const words = text.match(SCRIPT_WORD_RE) ?? [];
  // A script with two or more words that read as no known word is the text's own language (a Russian note): left as written.
  const native = new Set<string>();
  const latinWords = (text.match(/\p{Script=Latin}{2,}/gu) ?? []).length;
  for (const sc of ['Cyrillic', 'Greek'] as const) {
    const re = new RegExp(`\\p{Script=${sc}}`, 'u');
    const own = words.filter((w) => re.test(w) && [...w].length >= 5).filter((w) => {
      const latin = fromAlphabet(w.toLowerCase());
      return latin === undefined || !known(latin) || ownWord(w.toLowerCase());
    });
    // ... and it is a good share of the text's words: a few encoded words among Latin ones (an Italian note) are no Russian text.
    if (own.length >= 2 && own.length * 3 >= latinWords) native.add(sc);
  }
  return text.replace(SCRIPT_WORD_RE, (w) => {
    if ((native.has('Cyrillic') && /\p{Script=Cyrillic}/u.test(w)) || (native.has('Greek') && /\p{Script=Greek}/u.test(w))) return w;
    const latin = fromAlphabet(w.toLowerCase());
    if (latin === undefined || ownWord(w.toLowerCase())) return w;
    return /\p{Script=Runic}/u.test(w) || (latin.length >= 4 && known(latin)) ? latin : w;
  });
}

// ---- Enclosed-letter emoji (circled, squared, negative; regional indicators) ----
const ENCLOSED_BASES = [0x1f150, 0x1f170, 0x1f1e6, 0x24b6, 0x1f130] as const;
/** A letter as an enclosed-letter emoji: negative circled 🅐, negative squared 🅰, regional indicator 🇦, circled Ⓐ, squared 🄰. */
export function toEnclosed(c: string, style: number): string {
  const i = BRAILLE_LETTERS.indexOf(c.toLowerCase());
  if (i < 0) return c;
  const base = ENCLOSED_BASES[style % ENCLOSED_BASES.length] ?? 0x24b6;
  return String.fromCodePoint(base + i);
}
/** Enclosed letters with no NFKC decomposition (negative circled, negative squared, regional indicators) read as letters; a zero-width joiner between regional indicators is dropped. */
function readEnclosed(text: string): string {
  return text.replace(/[\u{1F150}-\u{1F169}\u{1F170}-\u{1F189}\u{1F1E6}-\u{1F1FF}]/gu, (c) => {
    const cp = c.codePointAt(0) ?? 0;
    const base = cp >= 0x1f1e6 ? 0x1f1e6 : cp >= 0x1f170 ? 0x1f170 : 0x1f150;
    return BRAILLE_LETTERS[cp - base] ?? c;
  });
}

// ---- Invisible carriers: variation selectors, sneaky bits ----
/** UTF-8 bytes as variation selectors after a visible carrier (bytes 0–15 → U+FE00–FE0F, 16–255 → U+E0100–E01EF). */
export function toVariationSelectors(text: string, carrier: string): string {
  return carrier + [...Buffer.from(text, 'utf8')].map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16)).join('');
}
const VS_RUN_RE = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]{4,}/gu;
/** UTF-8 bytes as invisible bits: U+2062 (invisible times) for 0, U+2064 (invisible plus) for 1. */
export function toSneakyBits(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => b.toString(2).padStart(8, '0').replace(/0/g, '\u2062').replace(/1/g, '\u2064')).join('');
}
const BITS_RUN_RE = /[\u2062\u2064]{16,}/g;

// ---- Pig Latin ----
/** A word in Pig Latin: a leading consonant cluster moved to the end plus "ay"; a word that starts with a vowel gets "way". */
export function toPigLatin(word: string): string {
  const m = /^([^aeiouAEIOU]*)(.*)$/.exec(word);
  const head = m?.[1] ?? '';
  const rest = m?.[2] ?? '';
  if (head === '') return `${word}way`;
  if (rest === '') return `${word}ay`;
  return `${rest}${head}ay`;
}
/** English function words (not in WordNet's index), for reading Pig Latin back. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  'the a an and or nor but so for to of in on at by with from as is was were be been are am it its this that these those can could will would shall should may might must not no if than then there here which who whom what when where why how we i he she they them our their his her has have had do did does all each every into onto upon per via'.split(' '),
);
/**
 * Function words of the other languages the translation operators write (Spanish, French,
 * Portuguese, Italian, German; our list, diacritics folded): articles, prepositions,
 * conjunctions, pronouns and auxiliaries that start with a vowel, the ones Pig Latin writes with
 * "way" and a reader could take for an English word with its "w" moved ("ont" / "wont").
 */
const FOREIGN_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  [
    'a', 'al', 'algo', 'antes', 'aqui', 'asi', 'aun', 'e', 'el', 'ella', 'ellos', 'en', 'entre', 'era', 'es', 'esa', 'ese', 'eso', 'esta', 'este', 'esto', 'estan', 'estaba', 'ha', 'han', 'o', 'otra', 'otro', 'u', 'un', 'una', 'uno', 'y', 'ya',
    'au', 'aux', 'avec', 'avait', 'avant', 'ainsi', 'alors', 'apres', 'aussi', 'autre', 'elle', 'elles', 'est', 'et', 'etait', 'ete', 'etre', 'eu', 'il', 'ils', 'on', 'ont', 'ou', 'une',
    'ao', 'aos', 'as', 'ate', 'isso', 'isto', 'os', 'outra', 'outro', 'um', 'uma', 'foi', 'em',
    'ad', 'agli', 'ai', 'alla', 'alle', 'allo', 'anche', 'ancora', 'essere', 'gli', 'i', 'il', 'in', 'io', 'ogni', 'altri', 'altro',
    'auf', 'aus', 'als', 'also', 'am', 'an', 'auch', 'ein', 'eine', 'einem', 'einen', 'einer', 'eines', 'er', 'es', 'im', 'ist', 'ihr', 'ihre', 'oder', 'ob', 'ohne', 'um', 'und', 'unter', 'uber',
  ].map((w) => w.normalize('NFD').replace(/\p{M}+/gu, '')),
);
/** One Pig Latin token read back: the longest moved consonant cluster whose word is known (function words first), else the token's body. */
function fromPigLatin(token: string, known: (w: string) => boolean): string {
  const lower = token.toLowerCase();
  const bare = lower.slice(0, -3); // "ontway": "ont" + "way", or "wont" with its "w" moved; a function word of any language wins
  if (/^[aeiou]/.test(lower) && lower.endsWith('way') && (FUNCTION_WORDS.has(bare) || FOREIGN_FUNCTION_WORDS.has(bare) || known(bare))) return token.slice(0, -3);
  if (!lower.endsWith('ay') || lower.length < 3) return token;
  const body = token.slice(0, -2);
  if (!/[aeiou]/i.test(body)) return body; // a word with no vowel only got "ay"
  const candidates: string[] = [];
  for (let k = 1; k <= Math.min(5, body.length - 1); k++) {
    const cluster = body.slice(-k);
    if (/[aeiou]/i.test(cluster)) break;
    candidates.push(cluster + body.slice(0, -k));
  }
  const ok = (c: string): boolean => FUNCTION_WORDS.has(c.toLowerCase()) || known(c.toLowerCase());
  const found = candidates.find((c) => FUNCTION_WORDS.has(c.toLowerCase())) ?? [...candidates].reverse().find(ok);
  if (found !== undefined) return found;
  // No reading is a known word: a word that starts with a vowel only got "way" ("ejecucionesway"), else one consonant moved.
  if (/^[aeiou]/.test(lower) && lower.endsWith('way')) return token.slice(0, -3);
  return candidates[0] ?? body;
}

// ---- Reversal (FlipAttack modes) ----
const reverseChars = (s: string): string => [...s].reverse().join('');
const reverseWords = (s: string): string => s.split(/ +/).reverse().join(' ');
const reverseEachWord = (s: string): string => s.split(/ +/).map(reverseChars).join(' ');
/** The three reversal modes and their markers. */
export const REVERSALS = [
  { mark: 'reversed', fn: reverseChars },
  { mark: 'words-reversed', fn: reverseWords },
  { mark: 'letters-reversed', fn: reverseEachWord },
] as const;

// ---- Character codes ----
/** Code points as a list: decimal `charcodes: 73 78`, `String.fromCharCode(73, 78)`, or hex `[0x49, 0x4e]`. */
export function toCharCodes(text: string, style: number): string {
  const cps = [...text].map((c) => c.codePointAt(0) ?? 0);
  if (style % 3 === 0) return `charcodes: ${cps.join(' ')}`;
  if (style % 3 === 1) return `String.fromCharCode(${cps.join(', ')})`;
  return `chr[${cps.map((n) => `0x${n.toString(16)}`).join(', ')}]`;
}
const fromCodes = (codes: readonly number[]): string | undefined => {
  // Control codes below the tab are no text, except the backspace that a deletion-backspace pair writes.
  if (codes.some((n) => !Number.isInteger(n) || (n < 9 && n !== 8) || n > 0x10ffff)) return undefined;
  return String.fromCodePoint(...codes);
};

// ---- Letters as arithmetic (our form, after PyRIT's MathObfuscationConverter) ----
/**
 * A word with each character written as an arithmetic expression of small whole numbers whose
 * value is the character's code: `math{9*12+7,97+10,...}`, no blanks, so sentence, clause and
 * whitespace operators keep it whole. `style` picks among product-plus, sum and product-minus forms.
 */
export function toMathCodes(word: string, style: number): string {
  const exprs = [...word].map((c, i) => {
    const n = c.codePointAt(0) ?? 0;
    const a = 3 + ((style + i * 5) % 9); // a factor from 3 to 11
    const b = Math.floor(n / a);
    switch ((style + i) % 3) {
      case 0:
        return n - a * b === 0 ? `${a}*${b}` : `${a}*${b}+${n - a * b}`;
      case 1: {
        const h = Math.floor(n / 2) + (i % 7);
        return `${h}+${n - h}`;
      }
      default:
        return `${a}*${b + 1}-${a * (b + 1) - n}`;
    }
  });
  return `math{${exprs.join(',')}}`;
}
/** The value of `a*b+c`-style expressions (whole numbers, `*` before `+` and `-`), or undefined when it is not one. */
function evalArithmetic(expr: string): number | undefined {
  if (!/^\d{1,5}(?:[*+-]\d{1,5}){0,4}$/.test(expr)) return undefined;
  let total = 0;
  for (const m of expr.matchAll(/([+-]?)(\d+(?:\*\d+)*)/g)) {
    const term = (m[2] ?? '').split('*').reduce((acc, x) => acc * Number(x), 1);
    total += m[1] === '-' ? -term : term;
  }
  return total;
}
/** A word written by `toMathCodes`: the marker, then comma-separated expressions between braces. */
const MATH_RE = /\bmath\{(\d{1,5}(?:[*+-]\d{1,5}){0,4}(?:,\d{1,5}(?:[*+-]\d{1,5}){0,4})*)\}/gi;
/** The characters of a `math{...}` word, or undefined when an expression is not one or gives no printable character. */
function fromMathCodes(body: string): string | undefined {
  const codes = body.split(',').map(evalArithmetic);
  if (codes.some((n) => n === undefined || n < 32 || n > 0x10ffff)) return undefined;
  const s = String.fromCodePoint(...(codes as number[]));
  return printable(s) ? s : undefined;
}

// ---- uuencode (the Unix format; our implementation) ----
/** A 6-bit value as a uuencode character: 1–63 as U+0021–U+005F, 0 as a backtick (no blanks inside a line). */
const uuChar = (v: number): string => String.fromCharCode(v === 0 ? 0x60 : 0x20 + v);
/** Bytes as uuencoded lines of 45 bytes at most: a length character, then four characters per three bytes. */
function uuLines(bytes: Uint8Array): string[] {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 45) {
    const chunk = bytes.subarray(at, at + 45);
    let line = uuChar(chunk.length);
    for (let i = 0; i < chunk.length; i += 3) {
      const [a = 0, b = 0, c = 0] = [chunk[i], chunk[i + 1], chunk[i + 2]];
      line += uuChar(a >> 2) + uuChar(((a & 3) << 4) | (b >> 4)) + uuChar(((b & 15) << 2) | (c >> 6)) + uuChar(c & 63);
    }
    lines.push(line);
  }
  return lines;
}
/**
 * The bytes of uuencoded lines (blank-separated tokens; a token too short to be a line, such as
 * the "/" of a flattened text or the "> " of a quotation, is skipped), or undefined when a line's length does not match its
 * length character or a character is out of range. A zero-length line ends the data.
 */
function fromUuLines(body: string): Uint8Array | undefined {
  const out: number[] = [];
  // JSON's escaped line breaks part lines too (no data line holds a lower-case letter).
  for (const tok of body.replace(/\\[nrt]/g, ' ').split(/\s+/)) {
    // A data line has 5 characters or more, the zero-length line is one backtick: shorter tokens are line prefixes ("/", ">", "//", "-").
    if (tok.length < 5 && tok !== '`') continue;
    const val = (ch: string): number => (ch.charCodeAt(0) - 0x20) & 63;
    if ([...tok].some((ch) => ch < ' ' || ch > '`')) return undefined;
    const n = val(tok);
    if (n === 0) break;
    if (tok.length !== 1 + 4 * Math.ceil(n / 3)) return undefined;
    const bytes: number[] = [];
    for (let i = 1; i < tok.length; i += 4) {
      const [a, b, c, d] = [val(tok[i] ?? '`'), val(tok[i + 1] ?? '`'), val(tok[i + 2] ?? '`'), val(tok[i + 3] ?? '`')];
      bytes.push((a << 2) | (b >> 4), ((b & 15) << 4) | (c >> 2), ((c & 3) << 6) | d);
    }
    out.push(...bytes.slice(0, n));
  }
  return out.length > 0 ? Uint8Array.from(out) : undefined;
}

// ---- The markers and the reader ----
/** A payload marker then the payload, for the byte encodings. */
const HEX_RE = new RegExp(`\\b(?:hex|base16)\\s*[:=]\\s*${Q}?((?:[0-9A-Fa-f]{2}){4,}|(?:[0-9A-Fa-f]{2} ){3,}[0-9A-Fa-f]{2})${Q}?`, 'gi');
const B32_RE = new RegExp(`\\b(?:b32|base32)\\s*[:=]\\s*${Q}?([A-Za-z2-7]{8,}={0,6})${Q}?`, 'gi');
const B2048_RE = new RegExp(`\\b(?:b2048|base2048)\\s*[:=]\\s*${Q}?([\\p{L}\\p{N}]{2,})${Q}?`, 'giu');
/**
 * An Ecoji V1 run (`ecoji.ts`): four emoji or more, line breaks and emoji presentation selectors
 * (U+FE0F) between them, after an `ecoji:`/`ecoji=` marker (and its quote) or on its own. An
 * unmarked run is read only when it has eight emoji or more and decodes to words (`ECOJI_WORDS_RE`).
 */
const ECOJI_RE = new RegExp(`(\\becoji\\s*[:=]\\s*${Q}?)?((?:${ECOJI_CLASS}[\\r\\n\\uFE0F]*){4,})${Q}?`, 'giu');
/** Decoded text of an unmarked Ecoji run that reads as text: printable (`printable`) with a letter pair. */
const ECOJI_WORDS_RE = /\p{L}{2}/u;
/** The text of an Ecoji run, or undefined when it is not one (`decodeEcoji`) or, unmarked, does not read as words. */
function fromEcoji(run: string, marked: boolean): string | undefined {
  const cps = [...run.replace(/[\r\n\uFE0F]/g, '')];
  if (!marked && cps.length < 8) return undefined;
  const bytes = decodeEcoji(cps.join(''));
  const s = bytes === undefined ? undefined : tryDecode(() => utf8(bytes));
  return s !== undefined && (marked || ECOJI_WORDS_RE.test(s)) ? s : undefined;
}
const A85_RE = /<~([!-u]{2,}?)~>|&lt;~(.{2,}?)~&gt;/g;
const MORSE_RE = new RegExp(`\\bmorse\\s*[:=]\\s*${Q}?([.\\-]+(?:[ /]+[.\\-]+)+)${Q}?`, 'gi');
const BIN_RE = /(?<![01])(?:[01]{8}[ ]){3,}[01]{8}(?![01])/g;
const CHARCODES_RE = /\bcharcodes\s*[:=]\s*((?:\d{1,7}[ ,]+){2,}\d{1,7})|String\.fromCharCode\(\s*((?:\d{1,7}\s*,\s*)+\d{1,7})\s*\)|\bchr\[((?:0x[0-9a-f]{1,6}\s*,\s*)+0x[0-9a-f]{1,6})\]/gi;
const CAESAR_RE = new RegExp(`\\[caesar(?: shift=|\\s?\\+)(\\d{1,2})\\]([^\\n]*?)(?:\\[\\/caesar\\]|$)|\\bcaesar\\s*\\(\\s*\\+?(\\d{1,2})\\s*\\)\\s*:\\s*(\\\\?"{1,2}|'|&quot;)([^\\n]*?)\\4`, 'gim');
const ATBASH_RE = new RegExp(`\\[atbash\\]([^\\n]*?)(?:\\[\\/atbash\\]|$)|\\batbash\\s*:\\s*(\\\\?"{1,2}|'|&quot;)([^\\n]*?)\\2`, 'gim');
const VIGENERE_RE = new RegExp(`\\[vigenere key=([A-Za-z]{2,16})\\]([^\\n]*?)(?:\\[\\/vigenere\\]|$)|\\bvigenere\\s*\\(\\s*key\\s*=\\s*([A-Za-z]{2,16})\\s*\\)\\s*:\\s*(\\\\?"{1,2}|'|&quot;)([^\\n]*?)\\4`, 'gim');
/** A uuencoded block: `begin <mode> <name>`, the data lines (newlines, blanks, JSON's `\n`, " / " or a line prefix such as "> " between them; XML entities in them), a zero-length line, `end`. */
const UU_RE = /(?:\b|(?<=\\n))begin [0-7]{3} [\w.-]+((?:(?:\s|\\n)+(?:[!-`]|&(?:lt|gt|amp|quot|apos);)+)+?)(?:\s|\\n)+(?:\/\s+)?end\b/g;
const REVERSED_RE = /\[(reversed|words-reversed|letters-reversed)\]([^\n]*?)(?:\[\/\1\]|$)/gim;
const PIG_RE = /\[pig-latin\]([^\n]*?)(?:\[\/pig-latin\]|$)/gim;
/** Quoted-printable codes of letters (=41–5A, =61–7A) inside a word. */
const QP_RE = /(?:=(?:4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]))+(?=([A-Za-z])?)/g;

/** Character spans of the payloads this file's readers decode (marker included): operators that rewrite words, digits or clauses leave them whole. */
export function cipherSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  if (!ANY_CIPHER_RE.test(text)) return spans;
  for (const re of [HEX_RE, B32_RE, B2048_RE, ECOJI_RE, A85_RE, MORSE_RE, BIN_RE, CHARCODES_RE, MATH_RE, IPA_RE, CAESAR_RE, ATBASH_RE, VIGENERE_RE, REVERSED_RE, PIG_RE, VS_RUN_RE, BITS_RUN_RE, NATO_RUN_RE, BRAILLE_RUN_RE, QP_SPAN_RE, UU_RE]) {
    for (const m of text.matchAll(re)) spans.push([m.index, m.index + m[0].length]);
  }
  return spans;
}

/** Quoted-printable letter codes with the letters around them ("=76=65rified"): a word's codes are data, not counts. */
const QP_SPAN_RE = /[A-Za-z]*(?:=(?:4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A])){2,}[A-Za-z]*|[A-Za-z]*=(?:4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A])[A-Za-z]+/g;

/** A quick test: does the text hold anything `cipherSpans` looks for? */
const ANY_CIPHER_RE = new RegExp(
  `=[4-7][0-9A-F]|begin [0-7]{3} |${ECOJI_CLASS}{4}|(?:hex|base16|b32|base32|b2048|base2048|morse|charcodes|math\\{|fromCharCode|chr\\[|caesar|atbash|vigenere|reversed\\]|pig-latin)|<~|&lt;~|[01]{8} [01]{8}|[\\u2800-\\u28FF\\uFE00-\\uFE0F\\u2062\\u2064\\u{E0100}-\\u{E01EF}]|${NATO_WORD}-${NATO_WORD}|\\/[a-zæɑɔəɚɛɝɪʊʌŋθðʃʒɹɡˈˌ]{2,}\\/`,
  'iu',
);

/** Four Ecoji emoji in a row: the quick test before the Ecoji reader runs. */
const ANY_ECOJI_RE = new RegExp(`${ECOJI_CLASS}{4}`, 'u');

/** A run of Braille cells (and the spaces inside it). */
const BRAILLE_RUN_RE = /[\u2800-\u28FF](?:[\u2800-\u28FF ]*[\u2800-\u28FF])?/g;

const tryDecode = (fn: () => string): string | undefined => {
  try {
    const s = fn();
    return printable(s) ? s : undefined;
  } catch {
    return undefined;
  }
};
/** The payload as written, and as a format operator may have escaped it (JSON/YAML, XML, CSV). */
const unescapedForms = (p: string): string[] => [p, p.replace(/\\(["\\])/g, '$1'), p.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'), p.replace(/""/g, '"')];

/**
 * uuencoded blocks replaced by their plain text (spaces around it), as written or as a format
 * operator escaped them (JSON, XML, CSV). `canonicalText` calls it first in each decoding round:
 * the data lines hold `%`, `&`, `\\` and quotes that the percent, entity and escape readers would
 * otherwise rewrite.
 */
export function decodeUuBlocks(text: string): string {
  if (!text.includes('begin ')) return text;
  return text.replace(UU_RE, (m: string, body: string) => {
    for (const form of unescapedForms(body)) {
      const bytes = fromUuLines(form);
      const s = bytes === undefined ? undefined : tryDecode(() => utf8(bytes));
      if (s !== undefined) return ` ${s} `;
    }
    return m;
  });
}

/**
 * Decodes every payload of this file's encodings in a text, each replaced by its plain text
 * (spaces around it). `known` says whether a lower-case string is a word (for the Pig Latin and
 * letter-cipher readers). One pass; `canonicalText` repeats it with its other decoders.
 */
export function decodeCiphers(text: string, known: (w: string) => boolean): string {
  let t = text;
  const sub = (re: RegExp, fn: (m: string, ...g: Array<string | undefined>) => string | undefined): void => {
    t = t.replace(re, (m: string, ...rest: unknown[]) => fn(m, ...(rest.filter((x) => typeof x === 'string' || x === undefined) as Array<string | undefined>)) ?? m);
  };
  if (/[:=]/.test(t)) {
    sub(HEX_RE, (_m, p) => tryDecode(() => ` ${utf8(base16.parse((p ?? '').replace(/ /g, '').toUpperCase()))} `));
    sub(B32_RE, (_m, p) => tryDecode(() => ` ${utf8(base32.parse((p ?? '').toUpperCase()))} `));
    sub(B2048_RE, (_m, p) => tryDecode(() => ` ${utf8(b2048Decode(p ?? ''))} `));
    sub(MORSE_RE, (_m, p) => tryDecode(() => ` ${fromMorse(p ?? '')} `));
  }
  const ecoji = (): void => {
    if (ANY_ECOJI_RE.test(t)) sub(ECOJI_RE, (_m, mark, run) => { const s = fromEcoji(run ?? '', mark !== undefined); return s === undefined ? undefined : ` ${s} `; });
  };
  ecoji();
  t = decodeUuBlocks(t);
  if (/charcodes|fromCharCode|chr\[/i.test(t)) {
    sub(CHARCODES_RE, (_m, a, b, c) => {
      const codes = a !== undefined ? a.split(/[ ,]+/).map(Number) : b !== undefined ? b.split(/\s*,\s*/).map(Number) : (c ?? '').split(/\s*,\s*/).map((x) => Number.parseInt(x, 16));
      const s = fromCodes(codes);
      return s !== undefined && printable(s) ? ` ${s} ` : undefined;
    });
  }
  t = readIpa(t);
  if (/math\{/i.test(t)) sub(MATH_RE, (_m, body) => fromMathCodes(body ?? ''));
  if (t.includes('~')) {
    sub(A85_RE, (_m, a, b) => {
      for (const form of unescapedForms(a ?? b ?? '')) {
        const s = tryDecode(() => ascii85.decode(`<~${form}~>`).toString('utf8'));
        if (s !== undefined) return s;
      }
      return undefined;
    });
  }
  if (t.includes('[') || /\b(?:caesar|atbash|vigenere)\b/i.test(t)) {
    sub(CAESAR_RE, (_m, k1, a, k2, _q, b) => ` ${caesar(a ?? b ?? '', -Number(k1 ?? k2 ?? 0))} `);
    sub(ATBASH_RE, (_m, a, _q, b) => ` ${atbash(a ?? b ?? '')} `);
    sub(VIGENERE_RE, (_m, k1, a, k2, _q, b) => ` ${vigenere(a ?? b ?? '', k1 ?? k2 ?? '', -1)} `);
    sub(REVERSED_RE, (_m, mode, body) => ` ${(REVERSALS.find((r) => r.mark === (mode ?? '').toLowerCase())?.fn ?? ((s: string) => s))(body ?? '')} `);
    sub(PIG_RE, (_m, body) => ` ${(body ?? '').replace(/[A-Za-z]+/g, (w) => fromPigLatin(w, known))} `);
  }
  if (/[01]{8} [01]{8}/.test(t)) sub(BIN_RE, (m) => tryDecode(() => ` ${utf8(Uint8Array.from(m.trim().split(/ +/).map((b) => Number.parseInt(b, 2))))} `));
  if (/[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u.test(t)) {
    sub(VS_RUN_RE, (m) => tryDecode(() => ` ${utf8(Uint8Array.from([...m].map((c) => { const cp = c.codePointAt(0) ?? 0; return cp >= 0xe0100 ? cp - 0xe0100 + 16 : cp - 0xfe00; })))} `));
  }
  if (/[\u2062\u2064]/.test(t)) {
    sub(BITS_RUN_RE, (m) => (m.length % 8 !== 0 ? undefined : tryDecode(() => ` ${utf8(Uint8Array.from(m.match(/.{8}/gu)?.map((b) => Number.parseInt(b.replace(/\u2062/g, '0').replace(/\u2064/g, '1'), 2)) ?? []))} `)));
  }
  if (/[\u2800-\u28FF]/.test(t)) sub(BRAILLE_RUN_RE, (m) => fromBraille(m));
  t = decodeUuBlocks(t); // revealed by a decoder above (binary, char codes): read before the NATO and quoted-printable readers touch its "-" and "=4x"
  if (/-/.test(t)) sub(NATO_RUN_RE, (m) => m.split('-').map((w) => NATO_BACK.get(w.toLowerCase()) ?? '').join(''));
  // Two codes or more, or one right before a letter: "prior_runs=41" stays a count.
  if (/=[4-7][0-9A-F]/.test(t)) sub(QP_RE, (m, next) => (m.length >= 6 || next !== undefined ? quotedPrintableCodec.decode(m) : undefined));
  ecoji(); // revealed by a decoder above (binary, char codes, selectors, bits, another Ecoji run): read before its regional indicators and squared letters read as enclosed letters
  if (/[\u{1F150}-\u{1F1FF}]/u.test(t)) t = readEnclosed(t.replace(/(?<=[\u{1F1E6}-\u{1F1FF}])\u200B(?=[\u{1F1E6}-\u{1F1FF}])/gu, ''));
  return t;
}

/** Encoders the operators use, by name (bytes in, text out). */
export const ENCODERS = {
  hex: (s: string): string => base16.stringify(Buffer.from(s, 'utf8')).toLowerCase(),
  base32: (s: string): string => base32.stringify(Buffer.from(s, 'utf8')),
  base2048: (s: string): string => b2048Encode(Buffer.from(s, 'utf8')),
  ecoji: (s: string): string => encodeEcoji(Buffer.from(s, 'utf8')),
  ascii85: (s: string): string => ascii85.encode(s, { delimiter: true }).toString('latin1'),
  binary: (s: string): string => [...Buffer.from(s, 'utf8')].map((b) => b.toString(2).padStart(8, '0')).join(' '),
  uuencode: (s: string): string => uuLines(Buffer.from(s, 'utf8')).join('\n'),
  quotedPrintable: (s: string): string => [...Buffer.from(s, 'utf8')].map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
} as const;
