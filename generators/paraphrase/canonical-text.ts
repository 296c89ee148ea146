/**
 * Canonical text for claim recovery: undoes every encoding operator of this folder so that
 * a claim can be read back from a disguised rewrite. Order: JSON string escapes, HTML entities, zero-width and
 * soft-hyphen characters, NFKC (full-width forms), Unicode confusables (homoglyphs, via the
 * `confusables` package), lower case, leetspeak, numbers written in words.
 */
import { decodeHTML } from 'entities';
import { remove as removeConfusables } from 'confusables';

const ZERO_WIDTH_RE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

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

/**
 * Canonical form of a text: decoded, de-obfuscated, lower case, numbers as digits.
 * Pure; idempotent on its own output.
 */
export function canonicalText(text: string): string {
  // JSON string escapes (\n, \t, \") read as the characters they stand for.
  let t = text.replace(/\\[nrt]/g, ' ').replace(/\\"/g, '"');
  t = decodeHTML(decodeHTML(t));
  t = t.replace(ZERO_WIDTH_RE, '').normalize('NFKC');
  t = removeConfusables(t).normalize('NFKC');
  t = t.toLowerCase();
  t = undoLeet(t);
  t = wordsToNumbers(t);
  return t;
}

/**
 * Match form: canonical text with punctuation, hyphens, underscores and slashes turned into
 * single spaces and padded with one space each side, so that phrases match as whole words
 * with `includes(' ' + phrase + ' ')`.
 */
export function matchForm(text: string): string {
  return ` ${canonicalText(text).replace(/[^a-z0-9]+/g, ' ').trim()} `;
}

/** Match form of a lexicon phrase (no decoding needed). */
export function phraseForm(phrase: string): string {
  return phrase.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}
