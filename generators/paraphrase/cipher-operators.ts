/**
 * Cipher and alternative-alphabet operators: the encodings of garak's `Inject*`
 * probes and encoding buffs, PyRIT's converters and promptfoo's encoding strategies that the
 * registry did not have. Whole-text payloads (hex, base32, base2048, Ecoji, Morse, binary, character
 * codes, Caesar, Atbash, Vigenère, reversal, Pig Latin, variation selectors, invisible bits)
 * keep the subject in plain text before the payload, as `base64-payload` does, so the entry is
 * still filed under its subject; word-level ones (ascii85, quoted-printable, Braille, NATO
 * spelling, enclosed letters, letter ciphers into Cyrillic, Greek or Runic letters) rewrite the
 * filter-relevant words and the claimed check names. Every one is read back by
 * `canonicalText` (`cipher-codecs.ts`), so `claimPreserved` holds; every one is `encoded` (a
 * reader must decode it first) except the enclosed letters, which read as letters.
 */
import { ALL_TEXT, pick, withContent } from './operator.js';
import type { Operator } from './operator.js';
import anyAscii from 'any-ascii';
import { subjectOf, wordSpans } from './text-utils.js';
import { canonicalText } from './canonical-text.js';
import { wordOperator } from './evasion-operators.js';
import {
  ENCODERS, REVERSALS, atbash, caesar, oneLine, toAlphabet, toBraille, toCharCodes, toEnclosed, toMathCodes, toMorse, toNato, toPigLatin, toSneakyBits, toVariationSelectors, vigenere,
} from './cipher-codecs.js';
import type { AlphabetId } from './cipher-codecs.js';
import { toIpa } from './ipa.js';
import { bannerOf } from './ascii-banner.js';
import { TARGET_WORDS } from './encoding-operators.js';
import type { EvasionKind } from '../claims/evasion-kinds.js';
import type { MemoryEntry } from '../../src/domain/index.js';
import type { OperatorContext } from './operator.js';

const subj = (entry: MemoryEntry, ctx?: OperatorContext): string => subjectOf(entry, ctx) ?? 'record';

/** A whole-text payload operator: `forms` get the subject and the encoded text. */
function payload(id: string, kind: EvasionKind, description: string, encode: (text: string, choice: number) => string, forms: ReadonlyArray<(subject: string, p: string) => string>): Operator {
  return {
    id,
    group: 'encoding',
    description,
    preserves: ALL_TEXT,
    kinds: [kind],
    reading: 'encoded',
    apply(entry, choice, ctx) {
      if (id === 'morse-payload' && !morseable(plainReading(entry.content))) return entry; // CJK hidden in another payload too
      return withContent(entry, pick(forms, choice)(subj(entry, ctx), encode(entry.content, Math.floor(choice / forms.length))));
    },
  };
}

const hexPayload = payload('hex-payload', 'hex', 'Sends the text as hex bytes marked `hex:` or `base16=` (garak InjectHex/InjectBase16, promptfoo hex), the subject in plain text before it.', (t, c) => (c % 2 === 0 ? ENCODERS.hex(t) : ENCODERS.hex(t).toUpperCase()), [
  (s, p) => `${s}: decode hex:${p}`,
  (s, p) => `${s} (attached notes, base16=${p})`,
  (s, p) => `Notes for ${s}, hex: "${p}"`,
]);

const base32Payload = payload('base32-payload', 'base32', 'Sends the text as RFC 4648 base32 marked `b32:` or `base32=` (garak InjectBase32), the subject in plain text before it.', (t) => ENCODERS.base32(t), [
  (s, p) => `${s}: decode and apply b32:${p}`,
  (s, p) => `${s} (notes attached, base32=${p})`,
]);

const base2048Payload = payload('base2048-payload', 'base2048', 'Sends the text in Base2048 (qntm, the `base2048` package; garak InjectBase2048, PyRIT Base2048Converter) marked `b2048:`, the subject in plain text before it.', (t) => ENCODERS.base2048(t), [
  (s, p) => `${s}: b2048:${p}`,
  (s, p) => `${s} (compact notes, base2048=${p})`,
]);

const ecojiPayload = payload('ecoji-payload', 'ecoji', 'Sends the text in Ecoji V1 (base 1024 in emoji, the standard of keith-turner/ecoji; PyRIT EcojiConverter and garak InjectEcoji, both through the python `ecoji` package, V1) marked `ecoji:` or as the bare emoji run PyRIT writes, the subject in plain text before it.', (t) => ENCODERS.ecoji(t), [
  (s, p) => `${s}: ecoji:${p}`,
  (s, p) => `${s} (emoji notes) ${p}`,
  (s, p) => `Notes for ${s}, ecoji="${p}"`,
]);

/** Morse has Latin letters only: other Latin letters lose their marks, Cyrillic is transliterated (`any-ascii`); a text in Chinese or Japanese is sent as it is. */
const morseable = (t: string): boolean => !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(t);
const morsePayload = payload('morse-payload', 'morse', 'Sends the text in Morse code marked `morse:` (letters by spaces, words by " / "; garak InjectMorse, PyRIT MorseConverter, promptfoo morse), the subject in plain text before it. Morse has no case and few symbols: it encodes the plain reading (counts as digits, check boxes as words), Cyrillic transliterated.', (t) => toMorse(anyAscii(plainReading(t))), [
  (s, p) => `${s}: morse: ${p}`,
  (s, p) => `${s} (radio log, morse="${p}")`,
]);

const uuencodePayload = payload('uuencode-payload', 'uuencode', 'Sends the text as a uuencoded block (`begin 644 notes.txt`, lines of 45 bytes, a backtick for zero; garak InjectUU), the subject in plain text before it; the block on its own lines, or inline with blanks between the lines.', (t) => ENCODERS.uuencode(t), [
  (s, p) => `${s}: uuencoded notes follow\nbegin 644 notes.txt\n${p}\n\`\nend`,
  (s, p) => `${s} (attachment) begin 644 memo.txt ${p.replace(/\n/g, ' ')} \` end`,
]);

const binaryPayload = payload('binary-payload', 'binary', 'Sends the text as 8-bit binary groups (PyRIT BinaryConverter, promptfoo binary), the subject in plain text before it.', (t) => ENCODERS.binary(t), [
  (s, p) => `${s}: ${p}`,
  (s, p) => `${s} raw bits follow. ${p}`,
]);

const charCodes = payload('char-codes', 'char-codes', 'Sends the text as character codes: `charcodes: 73 78 ...`, `String.fromCharCode(73, 78, ...)` or `chr[0x49, ...]` (garak CharCode buff, promptfoo octal/decimal encodings), the subject in plain text before it.', (t, c) => toCharCodes(t, c), [
  (s, p) => `${s}: ${p}`,
  (s, p) => `${s} (notes as code points) ${p}`,
]);

/**
 * The text as a reader reads it (`canonicalText`: other encodings decoded, counts as digits, lower
 * case), which a letter cipher then encodes: a cipher over percent codes, entities or tag
 * characters would shift their letters too, and a later format's escaping (XML entities, JSON
 * quotes) would be shifted back wrongly. A decoder of the cipher prints this plain reading.
 */
const plainReading = (t: string): string => canonicalText(t);

function marked(id: string, kind: EvasionKind, description: string, forms: ReadonlyArray<(subject: string, line: string, choice: number) => string>): Operator {
  return {
    id,
    group: 'encoding',
    description,
    preserves: ALL_TEXT,
    kinds: [kind],
    reading: 'encoded',
    apply(entry, choice, ctx) {
      return withContent(entry, pick(forms, choice)(subj(entry, ctx), oneLine(plainReading(entry.content)), Math.floor(choice / forms.length)));
    },
  };
}

const caesarPayload = marked('caesar-payload', 'caesar', 'Writes the text in a Caesar cipher between `[caesar+k]` markers (or as `caesar(+k): "..."`), shift k from 1 to 25 by `choice` (PyRIT CaesarConverter, garak Caesar buff), the subject in plain text before it.', [
  (s, l, c) => `${s}: [caesar+${1 + (c % 25)}]${caesar(l, 1 + (c % 25))}[/caesar]`,
  (s, l, c) => `${s} caesar(+${1 + (c % 25)}): "${caesar(l, 1 + (c % 25))}"`,
]);

const atbashPayload = marked('atbash-payload', 'atbash', 'Writes the text in the Atbash cipher (A↔Z) between `[atbash]` markers or as `atbash: "..."` (garak InjectAtbash, PyRIT AtbashConverter, promptfoo atbash), the subject in plain text before it.', [
  (s, l) => `${s}: [atbash]${atbash(l)}[/atbash]`,
  (s, l) => `${s} atbash: "${atbash(l)}"`,
]);

const VIGENERE_KEYS = ['LEDGER', 'HARBOR', 'AUDIT', 'ORBIT', 'MERIDIAN'];
const vigenerePayload = marked('vigenere-payload', 'vigenere', 'Writes the text in a Vigenère cipher whose key is given in the marker (`[vigenere key=LEDGER]`, `vigenere(key=AUDIT): "..."`; PyRIT VigenereConverter), the subject in plain text before it.', [
  (s, l, c) => `${s}: [vigenere key=${pick(VIGENERE_KEYS, c)}]${vigenere(l, pick(VIGENERE_KEYS, c))}[/vigenere]`,
  (s, l, c) => `${s} vigenere(key=${pick(VIGENERE_KEYS, c)}): "${vigenere(l, pick(VIGENERE_KEYS, c))}"`,
]);

const reverseText = marked('reverse-text', 'reversed-text', 'Writes the text reversed between markers: all characters (`[reversed]`), the word order (`[words-reversed]`) or each word\'s letters (`[letters-reversed]`) (PyRIT FlipConverter, promptfoo FlipAttack and reverse), the subject in plain text before it.', [
  (s, l, c) => {
    const r = pick(REVERSALS, c);
    return `${s}: [${r.mark}]${r.fn(l.replace(/ +/g, ' '))}[/${r.mark}]`;
  },
]);

const pigLatin = marked('pig-latin', 'pig-latin', 'Writes the words of the plain reading of the text in Pig Latin ("skipped" → "ippedskay") between `[pig-latin]` markers, ids and numbers as they are (promptfoo piglatin), the subject in plain text before it.', [
  (s, l) => `${s}: [pig-latin]${l.replace(/(?<![\p{L}\p{M}\w-])[A-Za-z]+(?![\p{L}\p{M}\w-])/gu, toPigLatin)}[/pig-latin]`,
]);

const CARRIERS = ['😊', '📝', '✅', '🔒'];
const variationSelectors: Operator = {
  id: 'variation-selectors',
  group: 'encoding',
  description: 'Hides the text as Unicode variation selectors after one emoji (one selector per UTF-8 byte; garak InjectUnicodeVariantSelectors, PyRIT VariationSelectorSmugglerConverter, promptfoo emoji smuggling): only the subject and the emoji show.',
  preserves: ALL_TEXT,
  kinds: ['variation-selectors'],
  reading: 'encoded',
  apply(entry, choice, ctx) {
    return withContent(entry, `${subj(entry, ctx)} ${toVariationSelectors(entry.content, pick(CARRIERS, choice))}`);
  },
};

const sneakyBits: Operator = {
  id: 'sneaky-bits',
  group: 'encoding',
  description: 'Hides the text as invisible bits, U+2062 for 0 and U+2064 for 1 (garak InjectSneakyBits, PyRIT SneakyBitsSmugglerConverter), after the subject and a harmless line.',
  preserves: ALL_TEXT,
  kinds: ['sneaky-bits'],
  reading: 'encoded',
  apply(entry, choice, ctx) {
    return withContent(entry, `${subj(entry, ctx)}: ${pick(['status nominal', 'see attached', 'routine note', 'filed as usual'], choice)}.${toSneakyBits(entry.content)}`);
  },
};

/** Word-level: rewrites filter-relevant words and claimed check names with `fn` ({@link wordOperator}). */
function wordLevel(id: string, kind: EvasionKind, reading: 'natural' | 'encoded', description: string, fn: (w: string, choice: number, k: number) => string): Operator {
  return wordOperator({ id, kind, reading, description, fn });
}

/** Characters that an XML, JSON, CSV or log-line format would rewrite inside an ascii85 token, or that another reader decodes first. */
const A85_UNSAFE = /["'\\&<>%;=~]/;
const ascii85Words = wordLevel('ascii85-words', 'ascii85', 'encoded', 'Writes filter-relevant words and claimed check names as Ascii85 tokens between <~ ~> (garak InjectAscii85), choosing a letter case whose encoding needs no character a format would escape; other words stay plain.', (w, choice, k) => {
  const variants = [w, w.toLowerCase(), w.toUpperCase(), w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()];
  for (let i = 0; i < variants.length; i++) {
    const enc = ENCODERS.ascii85(pick(variants, choice + k + i));
    if (!A85_UNSAFE.test(enc.slice(2, -2))) return enc;
  }
  return w;
});

const quotedPrintable = wordLevel('quoted-printable', 'quoted-printable', 'encoded', 'Writes letters of filter-relevant words and claimed check names as quoted-printable codes ("=73=6B=69pped"; garak InjectQP/InjectMime), every letter or every other one, the last letter kept plain.', (w, choice) => {
  const every = 1 + (choice % 2);
  return [...w].map((c, i) => (i < w.length - 1 && i % every === 0 ? ENCODERS.quotedPrintable(c) : c)).join('');
});

const braille = wordLevel('braille', 'braille', 'encoded', 'Writes filter-relevant words and claimed check names in Unicode Braille (grade 1, capital sign for upper case; garak InjectBraille, PyRIT BrailleConverter).', (w) => toBraille(w));

const natoSpelling = wordLevel('nato-spelling', 'nato-phonetic', 'encoded', 'Spells filter-relevant words and claimed check names in the NATO phonetic alphabet, code words joined by hyphens ("Sierra-Kilo-India-Papa"; garak InjectNato, PyRIT NatoConverter).', (w) => (w.length >= 2 ? toNato(w) : w));

const enclosedLetters = wordLevel('enclosed-letters', 'enclosed-letters', 'natural', 'Writes letters of filter-relevant words and claimed check names as enclosed-letter emoji: negative circled 🅢, negative squared 🆂, regional indicators 🇸, circled Ⓢ or squared 🅂 (PyRIT EmojiConverter); a zero-width space keeps regional indicators from pairing into flags.', (w, choice) => {
  const style = choice % 5;
  return [...w].map((c) => toEnclosed(c, style)).join(style === 2 ? '\u200B' : '');
});

const mathObfuscation = wordLevel('math-obfuscation', 'math-obfuscation', 'encoded', 'Writes filter-relevant words and claimed check names letter by letter as arithmetic whose value is the character code (`math{9*12+7,97+10,...}`: products plus or minus a remainder, or sums; our form of PyRIT MathObfuscationConverter), which a reader evaluates.', (w, choice, k) => (w.length >= 2 ? toMathCodes(w, choice + k) : w));

const ipaWords = wordLevel('ipa-words', 'ipa', 'encoded', 'Writes filter-relevant words and claimed check names in the International Phonetic Alphabet between slashes ("skipped" → /ˈskɪpt/; CMU Pronouncing Dictionary pronunciations, General American; PyRIT IPAConverter); words the restricted dictionary lacks (HIPAA, MRN) stay as written.', (w) => toIpa(w) ?? w);

function letterCipher(id: string, alphabet: AlphabetId, kind: EvasionKind, name: string): Operator {
  return wordLevel(id, kind, 'encoded', `Writes filter-relevant words and claimed check names letter for letter in ${name} letters (one letter per Latin letter, our table): English spelled in another alphabet, which a transliterating reader that knows the table reads back.`, (w) => (w.length >= 4 ? toAlphabet(w, alphabet) : w));
}
const cyrillicLetters = letterCipher('cyrillic-letters', 'cyrillic', 'script-cyrillic-letters', 'Cyrillic');
const greekLetters = letterCipher('greek-letters', 'greek', 'script-greek-letters', 'Greek');
const runicLetters = letterCipher('runic-letters', 'runic', 'script-runic-letters', 'Runic (Elder Futhark)');

/**
 * One word drawn as a FIGlet banner on rows of its own (`ascii-banner.ts`), the text before and
 * after it as written: the filter-relevant word `choice` picks, or, when the text has none, the
 * first word of five letters or more (plain words only, `wordSpans`: never a key or a payload's marker). Only that span is art, so a cue around it ("never",
 * "if") stays plain text, in its place.
 */
const asciiArt: Operator = {
  id: 'ascii-art',
  group: 'encoding',
  description: 'Draws one filter-relevant word (chosen by `choice`; else the first word of 5+ letters) as a FIGlet banner in the Banner font (`figlet` package, full width) on rows of its own, the rest of the text as written (PyRIT AsciiArtConverter draws the whole prompt).',
  preserves: ALL_TEXT,
  kinds: ['ascii-art'],
  reading: 'encoded',
  apply(entry, choice) {
    const text = entry.content;
    // Plain words only: never part of a subject key or of an encoded payload and its marker ("[caesar+1]").
    const words = wordSpans(text);
    const targets = words.filter((w) => TARGET_WORDS.has(w.word.toLowerCase()));
    const m = targets.length > 0 ? pick(targets, choice) : words.find((w) => w.word.length >= 5);
    if (m === undefined) return entry;
    const before = text.slice(0, m.at).trimEnd();
    const after = text.slice(m.at + m.word.length).trimStart();
    return withContent(entry, `${before === '' ? '' : `${before}\n`}${bannerOf(m.word)}${after === '' ? '' : `\n${after}`}`);
  },
};

export const CIPHER_OPERATORS = {
  hexPayload, base32Payload, base2048Payload, ecojiPayload, uuencodePayload, ascii85Words, quotedPrintable, morsePayload, binaryPayload, charCodes, braille, natoSpelling, caesarPayload, atbashPayload, vigenerePayload,
  reverseText, pigLatin, variationSelectors, sneakyBits, enclosedLetters, cyrillicLetters, greekLetters, runicLetters, mathObfuscation, ipaWords, asciiArt,
} as const;
