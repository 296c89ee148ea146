/**
 * English words in the International Phonetic Alphabet (PyRIT IPAConverter): the words an
 * operator rewrites (filter-relevant words and the claim lexicons' English words) with their
 * ARPAbet pronunciations from the CMU Pronouncing Dictionary (`cmu-pronouncing-dictionary`,
 * ISC), restricted to those words in `templates/lexicons/ipa-words.json`
 * (`npx tsx scripts/ipa-words.ts` writes it; a test checks it is current), and the ARPAbet to
 * IPA table (General American, our table). A word is written between slashes, as phonemic
 * transcriptions are ("skipped" → /ˈskɪpt/); the reader maps a transcription back to its word
 * through the same restricted dictionary. Pure.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TemplateError } from '../../src/domain/index.js';
import { LEXICON_DIR } from './claim-lexicon.js';

/** ARPAbet phonemes (stress digits removed) to IPA; AH and ER unstressed are ə and ɚ. */
const ARPABET_IPA: Readonly<Record<string, string>> = {
  AA: 'ɑ', AE: 'æ', AH: 'ʌ', AO: 'ɔ', AW: 'aʊ', AY: 'aɪ', EH: 'ɛ', ER: 'ɝ', EY: 'eɪ', IH: 'ɪ', IY: 'i', OW: 'oʊ', OY: 'ɔɪ', UH: 'ʊ', UW: 'u',
  B: 'b', CH: 'tʃ', D: 'd', DH: 'ð', F: 'f', G: 'ɡ', HH: 'h', JH: 'dʒ', K: 'k', L: 'l', M: 'm', N: 'n', NG: 'ŋ', P: 'p', R: 'ɹ', S: 's', SH: 'ʃ', T: 't', TH: 'θ', V: 'v', W: 'w', Y: 'j', Z: 'z', ZH: 'ʒ',
};

/** Consonant clusters that may open an English syllable (ARPAbet), besides any single consonant. */
const ONSETS: ReadonlySet<string> = new Set([
  ...['P', 'B', 'T', 'D', 'K', 'G', 'F', 'TH', 'SH'].flatMap((c) => [`${c} R`, `${c} L`]).filter((x) => !['T L', 'D L', 'TH L', 'SH L'].includes(x)),
  ...['P', 'T', 'K', 'M', 'N', 'L', 'W', 'F'].map((c) => `S ${c}`),
  'S P R', 'S T R', 'S K R', 'S P L', 'S K W',
  ...['T', 'D', 'K', 'G', 'TH', 'S', 'HH'].map((c) => `${c} W`),
  ...['P', 'B', 'K', 'F', 'V', 'M', 'HH', 'N'].map((c) => `${c} Y`),
]);

/**
 * A pronunciation in IPA. A stressed syllable of a word of two syllables or more gets its mark
 * (ˈ primary, ˌ secondary) before its onset: the longest run of the consonants before its vowel
 * that may open an English syllable (all of them at the start of the word).
 * @throws RangeError naming a token that is no ARPAbet phoneme.
 */
export function arpabetToIpa(arpabet: string): string {
  const phones = arpabet.trim().split(/\s+/).map((p) => {
    const m = /^([A-Z]+)([012])?$/.exec(p);
    if (!m || ARPABET_IPA[m[1] ?? ''] === undefined) throw new RangeError(`arpabetToIpa: "${p}" is no ARPAbet phoneme`);
    return { base: m[1] ?? '', stress: m[2] };
  });
  const vowels = phones.filter((p) => p.stress !== undefined).length;
  const marks = new Map<number, string>();
  phones.forEach((p, i) => {
    if (vowels < 2 || (p.stress !== '1' && p.stress !== '2')) return;
    let j = i;
    while (j > 0 && phones[j - 1]?.stress === undefined) j--;
    let at = j; // the whole cluster at the start of the word
    if (j > 0) {
      at = i - Math.min(1, i - j);
      for (let k = j; k < i - 1; k++) if (ONSETS.has(phones.slice(k, i).map((x) => x.base).join(' '))) { at = k; break; }
    }
    marks.set(at, p.stress === '1' ? 'ˈ' : 'ˌ');
  });
  return phones
    .map((p, i) => {
      let ipa = ARPABET_IPA[p.base] ?? '';
      if (p.stress === '0' && p.base === 'AH') ipa = 'ə';
      if (p.stress === '0' && p.base === 'ER') ipa = 'ɚ';
      return (marks.get(i) ?? '') + ipa;
    })
    .join('');
}

let table: { ipa: ReadonlyMap<string, string>; words: ReadonlyMap<string, string> } | undefined;

/** The restricted dictionary: word → IPA, and IPA without stress marks → word. */
function ipaTable(): NonNullable<typeof table> {
  if (table) return table;
  const file = path.join(LEXICON_DIR, 'ipa-words.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new TemplateError(`${file}: cannot read the IPA word list`, { cause: err });
  }
  const words = (raw as { words?: unknown }).words;
  if (typeof words !== 'object' || words === null) throw new TemplateError(`${file}: "words" must map words to ARPAbet pronunciations`);
  const ipa = new Map<string, string>();
  const back = new Map<string, string>();
  for (const [w, arpa] of Object.entries(words)) {
    if (typeof arpa !== 'string') throw new TemplateError(`${file}: words.${w} must be an ARPAbet string`);
    const form = arpabetToIpa(arpa);
    ipa.set(w, form);
    const bare = form.replace(/[ˈˌ]/g, '');
    if (!back.has(bare)) back.set(bare, w);
  }
  table = { ipa, words: back };
  return table;
}

/** A word as `/IPA/`, or undefined when the restricted dictionary does not have it. */
export function toIpa(word: string): string | undefined {
  const form = ipaTable().ipa.get(word.toLowerCase());
  return form === undefined ? undefined : `/${form}/`;
}

/** IPA letters of `ARPABET_IPA` and the stress marks. */
const IPA_CHARS = 'a-zæɑɔəɚɛɝɪʊʌŋθðʃʒɹɡˈˌ';
/** A transcription between slashes, not inside a path (a slash before it only where a flattened sentence break put one: "runs.//ˈskɪpt/"); the reader keeps only those the restricted dictionary has. */
export const IPA_RE = new RegExp(`(?<!\\w)(?<![^\\s.!?;:]\\/)\\/([${IPA_CHARS}]{2,})\\/(?![\\w/])`, 'gu');

/** Transcriptions between slashes read back as the words they transcribe; an unknown one stays as written. */
export function readIpa(text: string): string {
  if (!text.includes('/')) return text;
  return text.replace(IPA_RE, (m, body: string) => ipaTable().words.get(body.replace(/[ˈˌ]/g, '')) ?? m);
}
