/**
 * Counts written in French, Portuguese, Italian or Russian words ("quinze", "sessantadue",
 * "пятнадцать", transliterated "pyatnadtsat"), read back as digits. The word tables are built
 * once from the `to-words` package (its fr-FR, pt-BR, it-IT and ru-RU locales, 2..999), so
 * the spellings are that library's, folded (lower case, no diacritics, hyphens as spaces).
 */
import { ToWords } from 'to-words';
import anyAscii from 'any-ascii';
import { fold } from './numerals.js';

/** Spanish and German are in the table too, so that the longest phrase of any language wins ("ciento setenta" over Portuguese "setenta", "vinte e três" over Spanish "tres"). */
const LOCALES = ['es-ES', 'de-DE', 'fr-FR', 'pt-BR', 'it-IT', 'ru-RU'] as const;
const MAX = 999;
/** Longest number phrase, in words, of the tables ("quatre vingt dix neuf" has 4; "cento e noventa e nove" 5). */
const MAX_WORDS = 6;

/** Folded, space-separated form of a number phrase or a text. */
const norm = (s: string): string => fold(s).replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/** Number phrase → value, over every locale, plus the Latin transliteration of the Cyrillic ones. */
const TABLE: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  for (const localeCode of LOCALES) {
    const tw = new ToWords({ localeCode });
    for (let n = 2; n <= MAX; n++) {
      const w = norm(tw.convert(n));
      if (!m.has(w)) m.set(w, n);
      if (/\p{Script=Cyrillic}/u.test(w)) {
        const latin = norm(anyAscii(w));
        if (!m.has(latin)) m.set(latin, n);
      }
      // French and Italian also write "vingt-et-un" / "trentuno" forms; the conjunction-free variant is common in notes.
      const noConj = w.replace(/ (?:et|e|y|i) /g, ' ');
      if (noConj !== w && !m.has(noConj)) m.set(noConj, n);
    }
  }
  return m;
})();

/** Words for a thousand: a number phrase next to one is part of a larger number, left to that language's reader. */
const THOUSANDS: ReadonlySet<string> = new Set(['mil', 'mille', 'mila', 'tausend', 'thousand', 'тысяча', 'тысячи', 'тысяч', 'tysiacha', 'tysiachi', 'tysiach']);

/** One-word numbers of up to 5 letters that are also ordinary words ("neuf" new, "sei" you are, "sept", "cent", "dez"): read only before a run noun. */
const SHORT = 5;

/**
 * Replaces French, Portuguese, Italian and Russian number words (2..999) in a lower-case,
 * folded text by digits. A one-word number of 5 letters or fewer is read only when one of
 * the next three words is in `nounsAfter` (run nouns), so "neuf" (new) or "sei" (you are)
 * stay words elsewhere; a one-word number in `leaveSingle` (English number words, read later) is
 * left as it is. Pure.
 * @example intlWordsToDigits('comme lors des quinze executions precedentes') // 'comme lors des 15 executions precedentes'
 */
export function intlWordsToDigits(text: string, nounsAfter: ReadonlySet<string> = new Set(), leaveSingle: ReadonlySet<string> = new Set()): string {
  const parts = text.split(/([^a-z\p{Script=Cyrillic}]+)/u); // words (Latin or Cyrillic letters) at even indexes
  const out: string[] = [];
  let i = 0;
  while (i < parts.length) {
    let matched = 0;
    let value = 0;
    // Longest phrase first: words i, i+2, ... joined by single spaces (only spaces or hyphens between them).
    for (let k = MAX_WORDS; k >= 1; k--) {
      const words: string[] = [];
      let ok = true;
      for (let j = 0; j < k; j++) {
        const w = parts[i + 2 * j];
        const sep = parts[i + 2 * j - 1];
        if (w === undefined || w === '' || (j > 0 && !/^[ \t-]+$/.test(sep ?? ''))) {
          ok = false;
          break;
        }
        words.push(w);
      }
      if (!ok) continue;
      const v = TABLE.get(words.join(' '));
      if (v === undefined) continue;
      if (k === 1 && leaveSingle.has(words[0] ?? '')) continue;
      // Next to a word for a thousand, the language's own reader takes the whole number ("mil ciento cuatro" = 1104): left as written.
      if (THOUSANDS.has(parts[i - 2] ?? '') || THOUSANDS.has(parts[i + 2 * k] ?? '')) {
        matched = -k;
        break;
      }
      if (k === 1 && (words[0] ?? '').length <= SHORT) {
        const next = [parts[i + 2], parts[i + 4], parts[i + 6]].map((w) => w ?? '');
        if (!next.some((w) => nounsAfter.has(w))) continue;
      }
      matched = k;
      value = v;
      break;
    }
    if (matched < 0) {
      // The phrase and its separators as written.
      for (let j = 0; j < -2 * matched; j++) if (i + j < parts.length) out.push(parts[i + j] ?? '');
      i += -2 * matched;
      continue;
    }
    if (matched === 0) {
      out.push(parts[i] ?? '');
      if (i + 1 < parts.length) out.push(parts[i + 1] ?? '');
      i += 2;
      continue;
    }
    out.push(String(value));
    const after = i + 2 * matched - 1;
    if (after < parts.length) out.push(parts[after] ?? '');
    i += 2 * matched;
  }
  return out.join('');
}
