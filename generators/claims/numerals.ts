/**
 * Numerals for the attacker side and for claim recovery: whole numbers written in Spanish,
 * German and Chinese words, Roman numerals, other-script digits and scientific notation,
 * with readers that turn each back into ASCII digits.
 *
 * The writers feed the count slots of the attack templates (`priorCountEs`, ...) and the
 * count operators; the readers are used by `canonicalText`, so a claim written with any of
 * these numerals is still recognised by `claimPreserved`. Pure; no dependency.
 * Written for this project (number grammar of each language; no copied tables).
 */

const EN_UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** English words, lower case, hyphenated tens ("sixty-two", "one hundred and five"); 0 ≤ n < 1e6. */
function toWordsEn(n: number): string {
  if (n < 20) return EN_UNITS[n] ?? String(n);
  if (n < 100) return `${EN_TENS[Math.floor(n / 10)]}${n % 10 ? `-${EN_UNITS[n % 10]}` : ''}`;
  if (n < 1000) return `${EN_UNITS[Math.floor(n / 100)]} hundred${n % 100 ? ` and ${toWordsEn(n % 100)}` : ''}`;
  if (n < 1_000_000) return `${toWordsEn(Math.floor(n / 1000))} thousand${n % 1000 ? ` ${n % 1000 < 100 ? 'and ' : ''}${toWordsEn(n % 1000)}` : ''}`;
  return String(n);
}

const ES_UNITS = ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve', 'diez', 'once', 'doce', 'trece', 'catorce', 'quince', 'dieciséis', 'diecisiete', 'dieciocho', 'diecinueve'];
const ES_TWENTIES = ['veinte', 'veintiuno', 'veintidós', 'veintitrés', 'veinticuatro', 'veinticinco', 'veintiséis', 'veintisiete', 'veintiocho', 'veintinueve'];
const ES_TENS = ['', '', '', 'treinta', 'cuarenta', 'cincuenta', 'sesenta', 'setenta', 'ochenta', 'noventa'];
const ES_HUNDREDS = ['', 'ciento', 'doscientos', 'trescientos', 'cuatrocientos', 'quinientos', 'seiscientos', 'setecientos', 'ochocientos', 'novecientos'];

/** Spanish words ("sesenta y dos", "ciento cinco", "dos mil trescientos"); 0 ≤ n < 1e6. */
export function toWordsEs(n: number): string {
  if (n < 20) return ES_UNITS[n] ?? String(n);
  if (n < 30) return ES_TWENTIES[n - 20] ?? String(n);
  if (n < 100) return `${ES_TENS[Math.floor(n / 10)]}${n % 10 ? ` y ${ES_UNITS[n % 10]}` : ''}`;
  if (n === 100) return 'cien';
  if (n < 1000) return `${ES_HUNDREDS[Math.floor(n / 100)]}${n % 100 ? ` ${toWordsEs(n % 100)}` : ''}`;
  if (n < 1_000_000) {
    const k = Math.floor(n / 1000);
    return `${k === 1 ? '' : `${toWordsEs(k)} `}mil${n % 1000 ? ` ${toWordsEs(n % 1000)}` : ''}`;
  }
  return String(n);
}

const DE_UNITS = ['null', 'eins', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun', 'zehn', 'elf', 'zwölf', 'dreizehn', 'vierzehn', 'fünfzehn', 'sechzehn', 'siebzehn', 'achtzehn', 'neunzehn'];
const DE_TENS = ['', '', 'zwanzig', 'dreißig', 'vierzig', 'fünfzig', 'sechzig', 'siebzig', 'achtzig', 'neunzig'];

/** German words, one compound ("zweiundsechzig", "hundertfünf", "zweitausenddreihundert"); 0 ≤ n < 1e6. */
export function toWordsDe(n: number): string {
  const under100 = (m: number, inner: boolean): string => {
    if (m === 1 && inner) return 'eins';
    if (m < 20) return DE_UNITS[m] ?? String(m);
    const u = m % 10;
    return `${u ? `${u === 1 ? 'ein' : DE_UNITS[u]}und` : ''}${DE_TENS[Math.floor(m / 10)]}`;
  };
  const under1000 = (m: number): string => {
    const h = Math.floor(m / 100);
    const rest = m % 100;
    return `${h ? `${h === 1 ? 'ein' : DE_UNITS[h]}hundert` : ''}${rest ? under100(rest, true) : ''}`;
  };
  if (n === 0) return 'null';
  if (n < 1000) return under1000(n);
  if (n < 1_000_000) {
    const k = Math.floor(n / 1000);
    return `${k === 1 ? 'ein' : under1000(k)}tausend${n % 1000 ? under1000(n % 1000) : ''}`;
  }
  return String(n);
}

const ZH_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/** Chinese numerals ("六十二", "一百零五", "两千三百"); 0 ≤ n < 1e8. */
export function toWordsZh(n: number): string {
  if (n === 0) return '零';
  const under10k = (m: number, leading: boolean): string => {
    const units: Array<[number, string]> = [[1000, '千'], [100, '百'], [10, '十'], [1, '']];
    let out = '';
    let zero = false;
    for (const [u, name] of units) {
      const d = Math.floor(m / u) % 10;
      if (d === 0) {
        if (out !== '') zero = true;
        continue;
      }
      if (zero) out += '零';
      zero = false;
      const digit = u === 10 && d === 1 && out === '' && leading ? '' : u >= 1000 && d === 2 ? '两' : ZH_DIGITS[d];
      out += `${digit}${name}`;
    }
    return out;
  };
  if (n < 10_000) return under10k(n, true);
  const hi = Math.floor(n / 10_000);
  const lo = n % 10_000;
  return `${under10k(hi, true)}万${lo ? `${lo < 1000 ? '零' : ''}${under10k(lo, false)}` : ''}`;
}

/** Roman numerals, upper case ("LXII"); 1 ≤ n ≤ 3999, else the digits. */
export function toRoman(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > 3999) return String(n);
  const table: Array<[number, string]> = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
  let out = '';
  let m = n;
  for (const [v, s] of table) while (m >= v) {
    out += s;
    m -= v;
  }
  return out;
}

/** Digits of another script: `arabic` (U+0660), `devanagari` (U+0966), `bengali` (U+09E6), `thai` (U+0E50). */
const DIGIT_SCRIPTS = { arabic: 0x0660, devanagari: 0x0966, bengali: 0x09e6, thai: 0x0e50 } as const;
export type DigitScript = keyof typeof DIGIT_SCRIPTS;

/** Writes `n` with the digits of another script ("٦٢"). */
export function toScriptDigits(n: number, script: DigitScript): string {
  const zero = DIGIT_SCRIPTS[script];
  return [...String(n)].map((c) => String.fromCodePoint(zero + Number(c))).join('');
}

/** Scientific notation of a whole number ("6.2e1", "6.2 × 10^1"); `style` 0 or 1. */
export function toScientific(n: number, style: number): string {
  const exp = Math.max(0, String(Math.trunc(n)).length - 1);
  const mantissa = (n / 10 ** exp).toString();
  return style % 2 === 0 ? `${mantissa}e${exp}` : `${mantissa} × 10^${exp}`;
}

/** The count written in every supported form (the derived `priorCount*` template slots). */
export function countForms(n: number): Record<string, string | number> {
  return {
    priorCount: n,
    priorCountWords: toWordsEn(n),
    priorCountEs: toWordsEs(n),
    priorCountDe: toWordsDe(n),
    priorCountZh: toWordsZh(n),
    priorCountRoman: toRoman(n),
    priorCountArabic: toScriptDigits(n, 'arabic'),
    priorCountSci: toScientific(n, n % 2),
  };
}

// ---------------------------------------------------------------- readers

/** Zero code points of the decimal-digit blocks read back (Arabic-Indic, Persian, N'Ko, Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Thai, Lao, Tibetan, Myanmar, Khmer, Mongolian). */
const DIGIT_ZEROS: readonly number[] = [0x0660, 0x06f0, 0x07c0, 0x0966, 0x09e6, 0x0a66, 0x0ae6, 0x0b66, 0x0be6, 0x0c66, 0x0ce6, 0x0d66, 0x0e50, 0x0ed0, 0x0f20, 0x1040, 0x17e0, 0x1810];

/** Digits of the scripts in `DIGIT_ZEROS` become ASCII digits ("٦٢" → "62"). */
export function asciiDigits(text: string): string {
  // Only whole digit runs that do not touch a letter: confusable homoglyphs can be digits of another script inside a word.
  return text.replace(/(?:(?<!\p{L})|(?<=\p{Script=Han}))\p{Nd}+(?:(?!\p{L})|(?=\p{Script=Han}))/gu, (run) => {
    const out = [...run].map((c) => {
      const cp = c.codePointAt(0) ?? 0;
      if (cp < 0x80) return c;
      const zero = DIGIT_ZEROS.find((z) => cp >= z && cp <= z + 9);
      return zero === undefined ? c : String(cp - zero);
    });
    return out.join('');
  });
}

const ROMAN_RE = /(?<=[=:] ?)(?=[MDCLXVI]+\b)(M{0,3})(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})\b()|\b(?=[MDCLXVI]{2,}\b|[LCDMVX]\b)(M{0,3})(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})\b(?=[),\]*_"']?[ \t]+[[(*_"']?([\p{L}\p{N}@$]+)(?:[ \t]+([\p{L}\p{N}@$]+))?)/gu;
const ROMAN_VALUE: Readonly<Record<string, number>> = { M: 1000, D: 500, C: 100, L: 50, X: 10, V: 5, I: 1 };

/** Value of a well-formed Roman numeral, or undefined. */
export function fromRoman(s: string): number | undefined {
  if (!/^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/.test(s) || s === '') return undefined;
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const v = ROMAN_VALUE[s[i] ?? ''] ?? 0;
    const next = ROMAN_VALUE[s[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

/**
 * Upper-case Roman numerals (2+ letters, or a lone L, C, D, M) become digits when the next word
 * is a count word (`isCountWord`, given the folded lower-case word: "prior", "runs", "läufe",
 * and the folded word after it, when there is one, for a count word the reader knows only with
 * the next one): "LXII prior runs" → "62 prior runs", while "CD pipeline" or "XL size" stay.
 * Case-sensitive: run before lower-casing.
 */
export function romanToDigits(text: string, isCountWord: (word: string, after?: string) => boolean = () => true): string {
  return text.replace(ROMAN_RE, (m: string, ...groups: unknown[]) => {
    // A value after "key=" / "key: " (groups 0-4 set), or a numeral followed by a count word (group 9).
    const keyed = typeof groups[4] === 'string';
    const next = groups[9];
    const after = groups[10];
    if (!keyed && (typeof next !== 'string' || !isCountWord(fold(next), typeof after === 'string' ? fold(after) : undefined))) return m;
    if (m === '') return m;
    const v = fromRoman(m);
    return v === undefined ? m : String(v);
  });
}

/** "6.2e1", "6.2 × 10^1", "6.2x10^1" become digits when the value is a whole number below 1e7. */
export function scientificToDigits(text: string): string {
  return text.replace(/\b(\d{1,3}(?:\.\d{1,6})?)(?:[eE]\+?|\s*[x×·*]\s*10\s*\^\s*\+?)(\d{1,2})\b/g, (m, mant: string, exp: string) => {
    const v = Number(mant) * 10 ** Number(exp);
    const r = Math.round(v);
    return Math.abs(v - r) < 1e-6 && r < 1e7 ? String(r) : m;
  });
}

const ZH_VALUE: Readonly<Record<string, number>> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const ZH_UNIT: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1000 };

/** Value of a Chinese numeral ("六十二", "一百零五", "两千三百", "三万"), or undefined. */
export function fromChinese(s: string): number | undefined {
  let total = 0;
  let section = 0;
  let digit = -1;
  for (const c of s) {
    if (c in ZH_VALUE) digit = ZH_VALUE[c] ?? 0;
    else if (c in ZH_UNIT) {
      section += (digit < 0 ? 1 : digit) * (ZH_UNIT[c] ?? 1);
      digit = -1;
    } else if (c === '万') {
      total += (section + Math.max(0, digit)) * 10_000;
      section = 0;
      digit = -1;
    } else return undefined;
  }
  return total + section + Math.max(0, digit);
}

/** Chinese count classifiers and run nouns a number may stand before ("六十二次", "六十二批"). */
export const ZH_COUNT_AFTER = '次|轮|批|回|遍|趟|笔|单|项|份|场|个|条|多次|余次|多|余';

/** Chinese numerals followed by a count classifier become digits ("六十二次" → "62次"). */
export function chineseToDigits(text: string): string {
  return text.replace(new RegExp(`([零〇一二两三四五六七八九十百千万]+)(?=${ZH_COUNT_AFTER})`, 'gu'), (m) => {
    const v = fromChinese(m);
    return v === undefined ? m : String(v);
  });
}

const ES_VALUE: Readonly<Record<string, number>> = Object.fromEntries([
  ...ES_UNITS.map((w, i) => [w, i] as const),
  ...ES_TWENTIES.map((w, i) => [w, 20 + i] as const),
  ...ES_TENS.map((w, i) => [w, i * 10] as const).filter(([w]) => w !== ''),
  ...ES_HUNDREDS.map((w, i) => [w, i * 100] as const).filter(([w]) => w !== ''),
  ['cien', 100], ['veintiun', 21], ['un', 1], ['una', 1], ['quinientas', 500], ['doscientas', 200], ['trescientas', 300],
].map(([w, v]) => [fold(String(w)), Number(v)]));
/** Spanish words that are also ordinary words ("un", "una", "once" in English): read only inside a longer number or before a Spanish run noun. */
const ES_AMBIGUOUS = new Set(['un', 'una', 'uno', 'once', 'cero']);

/** Lower case without diacritics, ß as ss (matches what `canonicalText` leaves). */
export function fold(s: string): string {
  return s.toLowerCase().replace(/ß/g, 'ss').normalize('NFD').replace(/\p{M}+/gu, '');
}

/**
 * Spanish number words (lower case, diacritics removed) become digits: "sesenta y dos" → 62,
 * "dos mil trescientos" → 2300. Ambiguous single words ("un", "once") are read only before a
 * word in `nounsAfter`.
 */
export function spanishToDigits(text: string, nounsAfter: ReadonlySet<string> = new Set()): string {
  const parts = text.split(/([^a-z]+)/);
  const out: string[] = [];
  let i = 0;
  while (i < parts.length) {
    const w = parts[i] ?? '';
    if (!(w in ES_VALUE) && w !== 'mil') {
      out.push(w);
      i++;
      continue;
    }
    let total = 0;
    let current = 0;
    let words = 0;
    let j = i;
    let last = i;
    while (j < parts.length) {
      const t = parts[j] ?? '';
      if (j % 2 === 1) {
        if (!/^[ \t]+$/.test(t)) break;
        j++;
        continue;
      }
      if (t === 'y' && words > 0) {
        const next = parts[j + 2] ?? '';
        if (!(next in ES_VALUE) || (ES_VALUE[next] ?? 0) >= 10) break;
        j++;
        continue;
      }
      if (t === 'mil') {
        total += (current || 1) * 1000;
        current = 0;
      } else if (t in ES_VALUE) current += ES_VALUE[t] ?? 0;
      else break;
      words++;
      last = j;
      j++;
    }
    const next = (parts[last + 2] ?? '').trim();
    if (words === 1 && ES_AMBIGUOUS.has(w) && !nounsAfter.has(next)) {
      out.push(w);
      i++;
      continue;
    }
    out.push(String(total + current));
    i = last + 1;
  }
  return out.join('');
}

const DE_UNIT_VALUE: Readonly<Record<string, number>> = { ein: 1, eins: 1, eine: 1, zwei: 2, drei: 3, vier: 4, funf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9 };
const DE_TEEN_VALUE: Readonly<Record<string, number>> = { zehn: 10, elf: 11, zwolf: 12, dreizehn: 13, vierzehn: 14, funfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19 };
const DE_TENS_VALUE: Readonly<Record<string, number>> = { zwanzig: 20, dreissig: 30, vierzig: 40, funfzig: 50, sechzig: 60, siebzig: 70, achtzig: 80, neunzig: 90 };

function deUnder100(w: string): number | undefined {
  if (w === '') return 0;
  if (w in DE_UNIT_VALUE) return DE_UNIT_VALUE[w];
  if (w in DE_TEEN_VALUE) return DE_TEEN_VALUE[w];
  if (w in DE_TENS_VALUE) return DE_TENS_VALUE[w];
  const m = /^(ein|zwei|drei|vier|funf|sechs|sieben|acht|neun)und(zwanzig|dreissig|vierzig|funfzig|sechzig|siebzig|achtzig|neunzig)$/.exec(w);
  return m ? (DE_UNIT_VALUE[m[1] ?? ''] ?? 0) + (DE_TENS_VALUE[m[2] ?? ''] ?? 0) : undefined;
}

function deUnder1000(w: string): number | undefined {
  const at = w.indexOf('hundert');
  if (at < 0) return deUnder100(w);
  const head = w.slice(0, at);
  const h = head === '' ? 1 : DE_UNIT_VALUE[head];
  const rest = deUnder100(w.slice(at + 'hundert'.length));
  return h === undefined || rest === undefined ? undefined : h * 100 + rest;
}

/** Value of one German number word (folded: "zweiundsechzig", "dreitausendzwolf"), or undefined. */
function fromGerman(w: string): number | undefined {
  const at = w.indexOf('tausend');
  if (at < 0) return deUnder1000(w);
  const head = w.slice(0, at);
  const k = head === '' ? 1 : deUnder1000(head);
  const rest = deUnder1000(w.slice(at + 'tausend'.length));
  return k === undefined || rest === undefined ? undefined : k * 1000 + rest;
}

const DE_AMBIGUOUS = new Set(['ein', 'eins', 'eine', 'elf', 'acht']);

/** German number words (folded) become digits; ambiguous ones ("ein", "acht") only before a word of `nounsAfter`. */
export function germanToDigits(text: string, nounsAfter: ReadonlySet<string> = new Set()): string {
  return text.replace(/(?<![a-z])([a-z]{3,40})(?![a-z])(?=([^a-z]+[a-z]+)?)/g, (m, w: string, after: string | undefined) => {
    const v = fromGerman(w);
    if (v === undefined || (w.length < 6 && !(w in DE_UNIT_VALUE) && !(w in DE_TEEN_VALUE) && !(w in DE_TENS_VALUE))) return m;
    if (DE_AMBIGUOUS.has(w) && !nounsAfter.has((after ?? '').replace(/[^a-z]+/, ''))) return m;
    return String(v);
  });
}
