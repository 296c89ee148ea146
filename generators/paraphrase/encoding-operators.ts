/**
 * Encoding operators: homoglyphs (Unicode confusables), zero-width characters, mixed case,
 * leetspeak, full-width forms, HTML entities. They touch the words a keyword or phrase filter
 * looks for (or, when none occurs, every other longer word), never subject keys or digits.
 * `canonicalText` undoes each of them, so the claim survives.
 */
import { alphabetMap, remove as removeConfusables } from 'confusables';
import { ALL_TEXT, pick, withContent } from './operator.js';
import type { Operator } from './operator.js';
import { mapWords } from './text-utils.js';
import { fromRoman } from '../claims/numerals.js';
import { payloadSpans, rot13 } from './canonical-text.js';
import { subjectOf } from './text-utils.js';

/**
 * Words that keyword filters and phrase-density signals look for (paper §IV-A, §IV-D, §IV-E
 * s3): blocked verbs and decision-log vocabulary. Our own list, lower case.
 */
export const TARGET_WORDS: ReadonlySet<string> = new Set([
  'skip', 'skipped', 'bypass', 'bypassed', 'ignore', 'ignored', 'disable', 'override', 'unnecessary', 'redundant', 'omit',
  'established', 'pattern', 'standard', 'processing', 'validated', 'validation', 'verified', 'verification', 'upstream',
  'consistent', 'precedent', 'decision', 'log', 'summary', 'prior', 'direct', 'import', 'history', 'anomalies', 'complete',
  'reliable', 'confirmed', 'previously', 'already', 'cleared', 'trusted',
]);

/** Calls `fn` on target words; when the text has none, on every other word of 4+ letters. */
function mapTargets(text: string, choice: number, fn: (word: string, ordinal: number) => string): string {
  let any = false;
  mapWords(text, (w) => {
    if (TARGET_WORDS.has(w.toLowerCase())) any = true;
    return w;
  });
  let k = 0;
  return mapWords(text, (w, i) => {
    if (/^[MDCLXVI]+$/.test(w) && fromRoman(w) !== undefined) return w; // a count written by count-roman: its letters are its value
    const hit = any ? TARGET_WORDS.has(w.toLowerCase()) : w.length >= 4 && i % 2 === choice % 2;
    return hit ? fn(w, k++) : w;
  });
}

const preferred = (c: string): number => {
  const cp = c.codePointAt(0) ?? 0;
  if (cp >= 0x0400 && cp <= 0x04ff) return 0; // Cyrillic
  if (cp >= 0x0370 && cp <= 0x03ff) return 1; // Greek
  if (cp <= 0xffff) return 2;
  return 3;
};

/** Per ASCII letter, confusables that `confusables.remove` maps back to that letter, best first. */
const HOMOGLYPHS: ReadonlyMap<string, readonly string[]> = new Map(
  [...alphabetMap.entries()]
    .filter(([k]) => /^[A-Za-z]$/.test(k))
    .map(([k, list]) => {
      const ok = list
        .filter((c) => [...c].length === 1 && c.normalize('NFKC') === c && removeConfusables(c) === k && !/^[A-Za-z0-9]$/.test(c))
        .sort((a, b) => preferred(a) - preferred(b) || (a.codePointAt(0) ?? 0) - (b.codePointAt(0) ?? 0));
      return [k, ok] as const;
    })
    .filter(([, ok]) => ok.length > 0),
);

const homoglyph: Operator = {
  kinds: ['homoglyph'],
  id: 'homoglyph',
  group: 'encoding',
  reading: 'natural',
  description: 'Replaces letters of filter-relevant words with Unicode confusables (confusables package).',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const every = 1 + (choice % 3);
    const variant = Math.floor(choice / 3) % 4;
    const content = mapTargets(entry.content, choice, (w) =>
      [...w]
        .map((c, i) => {
          const list = HOMOGLYPHS.get(c);
          return list && i % every === 0 ? (list[variant % list.length] ?? c) : c;
        })
        .join(''),
    );
    return withContent(entry, content);
  },
};

const ZW = ['\u200B', '\u200C', '\u200D', '\u2060'];

const zeroWidth: Operator = {
  kinds: ['zero-width'],
  id: 'zero-width',
  group: 'encoding',
  reading: 'natural',
  description: 'Inserts zero-width characters inside filter-relevant words.',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const zw = pick(ZW, choice);
    const every = 1 + (Math.floor(choice / ZW.length) % 3);
    const content = mapTargets(entry.content, choice, (w) =>
      [...w].map((c, i) => (i > 0 && i % every === 0 ? `${zw}${c}` : c)).join(''),
    );
    return withContent(entry, content);
  },
};

const mixedCase: Operator = {
  kinds: ['mixed-case'],
  id: 'mixed-case',
  group: 'encoding',
  reading: 'natural',
  description: 'Writes words in mixed case (alternating, inverted or every third letter up).',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const mode = choice % 3;
    // Upper-case Roman numerals are counts ("LXII prior runs"): their case is their meaning.
    const content = mapWords(entry.content, (w) =>
      /^[MDCLXVI]+$/.test(w) && fromRoman(w) !== undefined ? w : [...w]
        .map((c, i) => {
          const up = mode === 0 ? i % 2 === 0 : mode === 1 ? c === c.toLowerCase() : i % 3 === 1;
          return up ? c.toUpperCase() : c.toLowerCase();
        })
        .join(''),
    );
    return withContent(entry, content);
  },
};

const LEET: ReadonlyArray<readonly [string, string]> = [
  ['a', '4'],
  ['e', '3'],
  ['i', '1'],
  ['o', '0'],
  ['s', '5'],
  ['t', '7'],
];

const leetspeak: Operator = {
  kinds: ['leetspeak'],
  id: 'leetspeak',
  group: 'encoding',
  reading: 'encoded',
  description: 'Writes blocked and decision-log words in leetspeak (a→4, e→3, i→1, o→0, s→5, t→7; subset chosen by `choice`), keeping the last letter and at least two letters per word.',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const mask = (choice % 63) + 1; // non-empty subset of LEET
    const content = mapTargets(entry.content, choice, (w) => {
      const out = [...w].map((c, i) => {
        if (i === w.length - 1) return c; // keep the last letter, so the word never reads as a code like HL7
        const hit = LEET.findIndex(([l], i) => (mask >> i) & 1 && l === c.toLowerCase());
        return hit >= 0 ? (LEET[hit]?.[1] ?? c) : c;
      });
      const letters = out.filter((c) => /[A-Za-z]/.test(c)).length;
      return letters >= 2 && out.join('') !== w ? out.join('') : w;
    });
    return withContent(entry, content);
  },
};

const toFullWidth = (s: string): string =>
  [...s].map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('');

const fullWidth: Operator = {
  kinds: ['full-width'],
  id: 'full-width',
  group: 'encoding',
  reading: 'natural',
  description: 'Writes filter-relevant words (or, for odd `choice`, every plain word) in full-width forms (U+FF01–FF5E).',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const content = choice % 2 === 0 ? mapTargets(entry.content, choice >> 1, toFullWidth) : mapWords(entry.content, toFullWidth);
    return withContent(entry, content);
  },
};

const ENTITY_STYLES: ReadonlyArray<(c: string) => string> = [
  (c) => `&#${c.charCodeAt(0)};`,
  (c) => `&#x${c.charCodeAt(0).toString(16)};`,
  (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`,
  (c) => `&amp;#${c.charCodeAt(0)};`, // double-encoded
];

const htmlEntities: Operator = {
  kinds: ['html-entities'],
  id: 'html-entities',
  group: 'encoding',
  reading: 'encoded',
  description: 'Writes letters of filter-relevant words as HTML numeric character references (decimal, hex, or double-encoded).',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const style = pick(ENTITY_STYLES, choice);
    const every = 1 + (Math.floor(choice / ENTITY_STYLES.length) % 2);
    const content = mapTargets(entry.content, choice, (w) => [...w].map((c, i) => (i % every === 0 ? style(c) : c)).join(''));
    return withContent(entry, content);
  },
};

const base64Payload: Operator = {
  id: 'base64-payload',
  group: 'encoding',
  reading: 'encoded',
  description: 'Sends the text as a base64 payload marked `b64:` (or `base64=`), after the subject in plain text and a decode hint.',
  preserves: ALL_TEXT,
  kinds: ['base64'],
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx) ?? 'record';
    const payload = Buffer.from(entry.content, 'utf8').toString('base64');
    const forms = [`${subject}: decode and apply b64:${payload}`, `${subject} (notes attached, base64=${payload})`, `Attachment for ${subject}, b64: "${payload}"`];
    return withContent(entry, pick(forms, choice));
  },
};

const rot13Payload: Operator = {
  id: 'rot13-payload',
  group: 'encoding',
  reading: 'encoded',
  description: 'Writes the text in ROT13 between `[rot13]` markers (or as `rot13: "..."`), the subject in plain text before it.',
  preserves: ALL_TEXT,
  kinds: ['rot13'],
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx) ?? 'record';
    // One line with no sentence break, so later sentence-level operators keep the payload whole (the `;` that ends an HTML entity is no break).
    // A payload inside (Morse's ". ", a uuencoded line's quotes) is data: its sentence marks and quotes are left as they are.
    const flat = entry.content.replace(/\s*\n\s*/g, ' / ');
    const line = outsideSpans(flat, payloadSpans(flat), (part) => part.replace(/([.!?]|(?<!&(?:amp;)?#?[0-9A-Za-z]+);)\s+/g, '$1/').replace(/"/g, "'"));
    return withContent(entry, choice % 2 === 0 ? `${subject}: [rot13]${rot13(line)}[/rot13]` : `${subject} rot13: "${rot13(line)}"`);
  },
};

/** `fn` applied to the parts of `text` outside the spans (which may overlap), the spans kept as written. */
function outsideSpans(text: string, spans: ReadonlyArray<[number, number]>, fn: (part: string) => string): string {
  let out = '';
  let at = 0;
  for (const [a, b] of [...spans].sort((x, y) => x[0] - y[0])) {
    if (b <= at) continue;
    if (a > at) out += fn(text.slice(at, a));
    out += text.slice(Math.max(a, at), b);
    at = b;
  }
  return out + fn(text.slice(at));
}

const percentEncode = (w: string): string => [...w].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`).join('');

const urlEncoding: Operator = {
  id: 'url-encoding',
  group: 'encoding',
  reading: 'encoded',
  description: 'Percent-encodes the letters of filter-relevant words (every letter, or every other one).',
  preserves: ALL_TEXT,
  kinds: ['url-encoding'],
  apply(entry, choice) {
    const every = 1 + (choice % 2);
    return withContent(entry, mapTargets(entry.content, choice >> 1, (w) => [...w].map((c, i) => (i % every === 0 ? percentEncode(c) : c)).join('')));
  },
};

const unicodeTags: Operator = {
  id: 'unicode-tags',
  group: 'encoding',
  reading: 'encoded',
  description: 'Writes filter-relevant words in invisible Unicode tag characters (U+E0020-E007E), which a tokenizer may still read.',
  preserves: ALL_TEXT,
  kinds: ['unicode-tags'],
  apply(entry, choice) {
    // Tag characters mirror printable ASCII only: other words stay as they are.
    return withContent(entry, mapTargets(entry.content, choice, (w) => (/^[\x20-\x7E]+$/.test(w) ? [...w].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('') : w)));
  },
};

const bidiOverride: Operator = {
  id: 'bidi-override',
  group: 'encoding',
  reading: 'encoded',
  description: 'Stores filter-relevant words reversed inside a right-to-left override (U+202E ... U+202C), so they display in normal order.',
  preserves: ALL_TEXT,
  kinds: ['bidi-override'],
  apply(entry, choice) {
    return withContent(entry, mapTargets(entry.content, choice, (w) => `\u202E${[...w].reverse().join('')}\u202C`));
  },
};

export const ENCODING_OPERATORS = { homoglyph, zeroWidth, mixedCase, leetspeak, fullWidth, htmlEntities, base64Payload, rot13Payload, urlEncoding, unicodeTags, bidiOverride } as const;
