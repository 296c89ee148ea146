/**
 * The IPA operator's restricted dictionary (`templates/lexicons/ipa-words.json`) is what
 * `scripts/ipa-words.ts` makes from the CMU Pronouncing Dictionary, the ARPAbet to IPA
 * conversion places stress marks before syllable onsets, and the reader maps transcriptions of
 * the listed words back (and leaves others as written).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ipaWordsJson } from '../../scripts/ipa-words.js';
import { arpabetToIpa, readIpa, toIpa } from '../../generators/paraphrase/ipa.js';
import { TARGET_WORDS } from '../../generators/paraphrase/encoding-operators.js';

describe('IPA words', () => {
  test('templates/lexicons/ipa-words.json is current (npx tsx scripts/ipa-words.ts rewrites it)', () => {
    expect(readFileSync(new URL('../../templates/lexicons/ipa-words.json', import.meta.url), 'utf8')).toBe(ipaWordsJson());
  });

  test('ARPAbet to IPA: unstressed schwa, r-coloured vowels, stress before the onset, none on one syllable', () => {
    expect(arpabetToIpa('S K IH1 P T')).toBe('skɪpt');
    expect(arpabetToIpa('S K R IY1 N IH0 NG')).toBe('ˈskɹinɪŋ');
    expect(arpabetToIpa('V EH1 R AH0 F AY2 D')).toBe('ˈvɛɹəˌfaɪd');
    expect(arpabetToIpa('P R AY1 ER0')).toBe('ˈpɹaɪɚ');
    expect(arpabetToIpa('AH1 P S T R IY2 M')).toBe('ˈʌpˌstɹim');
    expect(() => arpabetToIpa('S Q IH1')).toThrow(/"Q" is no ARPAbet phoneme/);
  });

  test('every filter word the dictionary has reads back from its transcription; unknown transcriptions stay', () => {
    let known = 0;
    for (const w of TARGET_WORDS) {
      const ipa = toIpa(w);
      if (ipa === undefined) continue;
      known++;
      expect(readIpa(`x ${ipa} y`), w).toBe(`x ${w} y`);
      expect(readIpa(`x ${ipa.replace(/[ˈˌ]/g, '')} y`), w).toBe(`x ${w} y`);
    }
    expect(known).toBeGreaterThan(TARGET_WORDS.size * 0.8);
    expect(readIpa('see /ˈzɔɹbəl/ and /usr/ here')).toBe('see /ˈzɔɹbəl/ and /usr/ here');
  });
});
