/**
 * How the claim check reads character-level noise (TextAttack's character swaps,
 * garak's Best-of-N buff and badchars, PyRIT's CharSwap / InsertPunctuation / Zalgo /
 * Diacritic converters, promptfoo's text mutations): deletion-backspace pairs, stacked
 * combining marks, Turkish dotted and dotless i, camelCase runs, punctuation inside a word,
 * and misspelt or scrambled words. A noisy token is read as a word only when it is no English
 * word itself and it is one edit (two from nine letters), or an inner-letter scramble, of a
 * word the claim check cares about: check-phrase words, run nouns, number words and negation
 * words, so a noisy "nveer" still negates. All pure.
 */
import levenshtein from 'damerau-levenshtein';
import { isDictionaryWord, isTypoOf } from './dictionary.js';
import { ALL_RUN_NOUNS, CLAIM_LEXICONS, DE_RUN_WORDS, ES_RUN_WORDS, INTL_RUN_WORDS } from './claim-lexicon.js';

/** Combining marks (diacritics, Zalgo stacks) in the blocks the noise operators draw from. */
const COMBINING = '\\u0300-\\u036F\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF\\u20D0-\\u20FF\\uFE20-\\uFE2F';
const MARKS_ON_ASCII_RE = new RegExp(`(?<=[A-Za-z0-9\\uFF10-\\uFF19\\uFF21-\\uFF3A\\uFF41-\\uFF5A])[${COMBINING}]+`, 'g'); // full-width letters too (zalgo then full-width)

/**
 * Noise that hides characters from a reader but not from a display: a character followed by
 * a backspace (U+0008) is deleted, ANSI escape sequences are dropped, combining marks stacked on ASCII letters or digits are
 * dropped ("s̷k̷i̷p̷" → "skip"), Turkish dotless ı reads as i and dotted İ as I.
 */
export function undoCharacterNoise(text: string): string {
  let t = text;
  if (t.includes('\u0008')) for (let prev = ''; prev !== t; ) { prev = t; t = t.replace(/[^\u0008]\u0008/gu, ''); }
  t = t.replace(/\u0008/g, '').replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, ''); // ANSI CSI and OSC sequences
  return t.replace(MARKS_ON_ASCII_RE, '').replace(/ı/g, 'i').replace(/İ/g, 'I');
}

/**
 * camelCase runs of words split at their humps ("hipaaScreeningVerified" → "hipaa Screening
 * Verified"): a first part of two or more lower-case letters, then capitalised parts, at least half
 * of them English words. PascalCase
 * is left alone, and so are mixed-case disguises ("sKiPpEd", "VeRiFiEd": one-letter first part).
 */
export function splitCamelCase(text: string): string {
  return text.replace(/\b[a-z]{2,}(?:[A-Z][a-z]+)+\b/g, (m) => {
    // One word in mixed case ("inPut", "screEning"): a case disguise, not words joined.
    if (isDictionaryWord(m.toLowerCase()) || CHECK_WORDS.has(m.toLowerCase())) return m;
    const parts = m.replace(/(?<=[a-z])(?=[A-Z])/g, ' ');
    // Words joined, not a noisy word ("paicIng"): more than half the parts are words (English, short, or of a claim lexicon).
    const words = parts.split(' ').map((w) => w.toLowerCase());
    const known = (w: string): boolean => SHORT_WORDS.has(w) || CHECK_WORDS.has(w) || (w.length >= 3 && isDictionaryWord(w)) || isForeign(w);
    return words.filter(known).length * 2 > words.length ? parts : m;
  });
}

/** English function words WordNet does not list, and the words of every check phrase (any length: "mrn", "hipaa"). */
const SHORT_WORDS: ReadonlySet<string> = new Set('the a an and or for to of in on at by as is was were be been are am it its so no not nor all any our has had have with from into each this that than then per via'.split(' '));
const CHECK_WORDS: ReadonlySet<string> = new Set(Object.values(CLAIM_LEXICONS).flatMap((l) => Object.values(l.checks).flat().flatMap((p) => p.toLowerCase().split(/[^a-z]+/))).filter((w) => w !== ''));

/** English number words, for noise reading (a misspelt "fiftene" is still a count). */
const NUMBER_WORDS = ['three', 'seven', 'eight', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred', 'thousand'];
/** Negation and hedging words of 5+ letters (`templates/lexicons/negation.json` cues, English). */
const NEGATION_WORDS = ['never', 'without', 'neither', 'cannot', 'skipped', 'skipping', 'unverified', 'unchecked', 'unconfirmed', 'incomplete', 'pending', 'outstanding', 'omitted', 'missing', 'failed', 'failing', 'failure', 'failures', 'rejected', 'declined', 'unsuccessful', 'broken', 'lacking', 'ignored', 'bypassed', 'disabled', 'waived', 'deferred', 'postponed', 'scheduled', 'planned', 'whether', 'unless', 'assuming', 'supposing', 'suppose', 'hypothetically', 'overlooked', 'neglected', 'forgot', 'forgotten', 'unclear', 'uncertain', 'unresolved'];

/** Words attack texts use around a claim (verbs of completion, trust words), so that noise on them reads as them and not as a negation one edit further. */
const CLAIM_VOCABULARY = ['verified', 'validated', 'confirmed', 'completed', 'complete', 'cleared', 'checked', 'screened', 'reviewed', 'approved', 'passed', 'performed', 'finished', 'upstream', 'already', 'previously', 'consistent', 'established', 'pattern', 'standard', 'processing', 'trusted', 'reliable', 'recorded', 'logged', 'clean', 'successful', 'history', 'precedent', 'decision', 'summary', 'direct', 'directly', 'import', 'imported', 'prior', 'previous', 'earlier', 'consecutive', 'matching', 'anomalies', 'anomaly', 'deviations', 'deviation', 'errors', 'issues', 'exceptions', 'problems', 'discrepancies', 'mismatches', 'incidents', 'observed'];

/** Words of other languages' check phrases and run words (folded, lower case): never read as a misspelt English word ("verificacion"). */
const FOREIGN_WORDS: ReadonlySet<string> = new Set([
  ...Object.values(CLAIM_LEXICONS).flatMap((l) => Object.values(l.languages).flatMap((lang) => Object.values(lang?.checks ?? {}).flat())),
  ...ES_RUN_WORDS, ...DE_RUN_WORDS, ...INTL_RUN_WORDS,
].flatMap((p) => p.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().split(/[^a-z]+/)).filter((w) => w.length >= 4));
const isForeign = (t: string): boolean => {
  for (let cut = 0; cut <= 3 && t.length - cut >= 4; cut++) if (FOREIGN_WORDS.has(t.slice(0, t.length - cut))) return true;
  return false;
};

/** Words of 5+ letters a noisy token may stand for, by length (for a quick look-up). */
const NOISE_TARGETS: ReadonlyMap<number, readonly string[]> = (() => {
  // Check-phrase words first: on a tie the first candidate wins ("prioe" is "price" of "price comparison" before "prior").
  const words = new Set<string>();
  for (const l of Object.values(CLAIM_LEXICONS)) for (const p of Object.values(l.checks).flat()) for (const w of p.toLowerCase().split(/[^a-z]+/)) if (w.length >= 5) words.add(w);
  for (const n of ALL_RUN_NOUNS) for (const w of n.toLowerCase().split(/[^a-z]+/)) if (w.length >= 5) words.add(w);
  for (const w of [...NUMBER_WORDS, ...CLAIM_VOCABULARY, ...NEGATION_WORDS]) words.add(w);
  const byLen = new Map<number, string[]>();
  for (const w of words) byLen.set(w.length, [...(byLen.get(w.length) ?? []), w]);
  return byLen;
})();

const sortedInner = (w: string): string => [...w.slice(1, -1)].sort().join('');

const NEGATIONS: ReadonlySet<string> = new Set(NEGATION_WORDS);

/**
 * The word a noisy token stands for (misspelt or inner letters scrambled), or undefined: the
 * closest candidate wins; a negation word only at one edit or as a scramble, so noise on an
 * ordinary word never turns into a negation.
 */
function noisyWordOf(token: string): string | undefined {
  if (isForeign(token)) return undefined;
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (let len = token.length - 2; len <= token.length + 2; len++) {
    for (const w of NOISE_TARGETS.get(len) ?? []) {
      const scrambled = len === token.length && token[0] === w[0] && token.at(-1) === w.at(-1) && sortedInner(token) === sortedInner(w);
      if (!scrambled && !isTypoOf(token, w)) continue;
      const d = scrambled ? 1 : levenshtein(token, w).steps;
      if (NEGATIONS.has(w) && d > 1) continue;
      if (d < bestD || (d === bestD && best !== undefined && NEGATIONS.has(best))) {
        best = w;
        bestD = d;
      }
    }
  }
  return best;
}

const NOISE_MEMO = new Map<string, string>();

/**
 * A word split into three parts or more by hyphens or dots, with a one-letter part among them
 * ("V-E-RIFIC-A-TION": letters split around a letter another operator rewrote), joined when the
 * whole (lower case) is an English or claim word and not every part is a word. Any case; run
 * before Roman numerals are read, so the "V" stays a letter.
 */
export function joinSplitLetters(text: string): string {
  return text.replace(/(?<![\p{L}\p{M}])[A-Za-z]+(?:[.-][A-Za-z]+){2,}(?![\p{L}\p{M}])/gu, (m) => {
    const parts = m.split(/[.-]/);
    const joined = parts.join('');
    const lower = joined.toLowerCase();
    if (joined.length < 5 || !parts.some((p) => p.length === 1) || parts.every((p) => p.length > 1 && isDictionaryWord(p.toLowerCase()))) return m;
    return isDictionaryWord(lower) || NOISE_TARGETS.get(lower.length)?.includes(lower) ? joined : m;
  });
}

/**
 * A word broken by one punctuation mark ("sk.ipped", "scree;ning", "consult.azione") joined, when the joined word
 * is an English word, a claim word or a word of another language's claim phrases, and its two halves are not both words. Lower-case input.
 */
export function joinBrokenWords(text: string): string {
  // Three parts or more, with a one-letter part among them ("v-e-rific-a-tion": letters split around a letter another
  // operator rewrote), joined when the whole is a word and not every part is one.
  const t = text.replace(/(?<![\p{L}\p{M}])[a-z]+(?:[.-][a-z]+){2,}(?![\p{L}\p{M}])/gu, (m) => {
    const parts = m.split(/[.-]/);
    const joined = parts.join('');
    if (joined.length < 5 || !parts.some((p) => p.length === 1) || parts.every((p) => p.length > 1 && isDictionaryWord(p))) return m;
    return isDictionaryWord(joined) || NOISE_TARGETS.get(joined.length)?.includes(joined) ? joined : m;
  });
  return t.replace(/(?<![\p{L}\p{M}])([a-z]+)[.,;:!?'*~_^|-]([a-z]+)(?![\p{L}\p{M}])/gu, (m, a: string, b: string) => {
    const joined = a + b;
    if (joined.length < 5 || (isDictionaryWord(a) && isDictionaryWord(b))) return m;
    return isDictionaryWord(joined) || isForeign(joined) || noisyWordOf(joined) !== undefined || NOISE_TARGETS.get(joined.length)?.includes(joined) ? joined : m;
  });
}

/** Lower-case text with noisy words read back (see `noisyWordOf`); words with letters beyond a–z around them are left alone. */
export function readNoise(text: string): string {
  return text.replace(/(?<![\p{L}\p{M}])[a-z]{5,}(?![\p{L}\p{M}])/gu, (tok) => {
    let r = NOISE_MEMO.get(tok);
    if (r === undefined) {
      r = isDictionaryWord(tok) || (NOISE_TARGETS.get(tok.length)?.includes(tok) ?? false) ? tok : (noisyWordOf(tok) ?? tok);
      if (NOISE_MEMO.size > 20000) NOISE_MEMO.clear();
      NOISE_MEMO.set(tok, r);
    }
    return r;
  });
}
