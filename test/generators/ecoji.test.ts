/**
 * The Ecoji V1 codec (`generators/paraphrase/ecoji.ts`) against published known answers, and
 * its reader inside `canonicalText`. Known answers from keith-turner/ecoji (Apache-2.0):
 * `test_scripts/data/phrase.plain` / `phrase.ev1` (commit 9d81e2566a20ce673bef7360405ae617e36e75d8),
 * `four_byte_1.ev1`, `four_byte_3.ev1` and `seven_byte.ev1` (their plain files are bytes, given
 * here in hex as the ordinals decode them), the sorted examples of `docs/encoding.md` and the
 * concatenation examples of its README; `hello` from the README of mecforlove/ecoji-py (the
 * python package PyRIT and garak call). V2 known answers: `phrase.ev2`, `four_byte_1.ev2`
 * (commit 7125c02eca1e3756178028a45f9ffad62c3fca0e) and `seven_byte.ev2` (a short last group).
 * Table spot checks: ordinals and code points from `keith-turner/ecoji/docs/emojis.md`.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { ECOJI_V1, ECOJI_V1_PAD_LAST, ECOJI_V2, decodeEcoji, encodeEcoji } from '../../generators/paraphrase/ecoji.js';
import { canonicalText } from '../../generators/paraphrase/canonical-text.js';

const text = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8'));
const hex = (bytes: Uint8Array | undefined): string | undefined => (bytes === undefined ? undefined : Buffer.from(bytes).toString('hex'));

describe('Ecoji V1 codec', () => {
  test('the table has 1024 distinct emoji, none of them a padding emoji, at the ordinals docs/emojis.md gives', () => {
    expect(ECOJI_V1.length).toBe(1024);
    expect(new Set(ECOJI_V1).size).toBe(1024);
    for (const p of ['\u2615', ...ECOJI_V1_PAD_LAST]) expect(ECOJI_V1).not.toContain(p);
    const spots: Array<[number, number]> = [[0, 0x1f004], [2, 0x1f170], [17, 0x1f1e6], [44, 0x1f202], [91, 0x1f321], [110, 0x1f336], [181, 0x1f37d], [254, 0x1f3cb], [256, 0x1f3ce], [302, 0x1f3ff], [366, 0x1f43f], [512, 0x1f4d2], [555, 0x1f4fd], [583, 0x1f51a], [619, 0x1f549], [659, 0x1f587], [688, 0x1f5fb], [842, 0x1f6cb], [860, 0x1f6f3], [1005, 0x1f9b0], [1008, 0x1f9b3], [1023, 0x1f9d5]];
    for (const [ordinal, cp] of spots) expect(ECOJI_V1[ordinal]?.codePointAt(0), `ordinal ${ordinal}`).toBe(cp);
  });

  test.each([
    ["Base64 is so 1999, isn't there something better?\n", '🏗📩🎦🐇🎛📘🔯🚜💞😽🆖🐊🎱🥁🚄🌱💞😭💮🇵💢🕥🐭🔸🍉🚲🦑🐶💢🕥🔮🔺🍉📸🐮🌼👦🚟🥴📑'],
    ['a', '👕☕☕☕'],
    ['ab', '👖📲☕☕'],
    ['abc', '👖📸🎈☕'],
    ['abcd', '👖📸🎦⚜'],
    ['ac', '👖🔃☕☕'],
    ['b', '👙☕☕☕'],
    ['ba', '👚📢☕☕'],
    ['6789', '🎥🤠📠🏍'],
    ['XY\n', '🐲👡🕟☕'],
    ['hello', '👲🔩🚗🌷'],
  ])('%j encodes to the published emoji and back', (plain, ev1) => {
    expect(encodeEcoji(Buffer.from(plain, 'utf8'))).toBe(ev1);
    expect(text(decodeEcoji(ev1))).toBe(plain);
  });

  test('binary known answers (four_byte_1, four_byte_3, seven_byte) decode to their bytes and encode back', () => {
    for (const [ev1, bytes] of [['🀄🆚🍈⚜', '00010200'], ['🀄🆚🍈📑', '00010202'], ['🎺🌓🏏📓🚥🌸☕☕', '3b44d40601ca47']] as const) {
      expect(hex(decodeEcoji(ev1))).toBe(bytes);
      expect(encodeEcoji(Buffer.from(bytes, 'hex'))).toBe(ev1);
    }
  });

  test('the V2 table has 1024 distinct emoji and keeps every emoji it shares with V1 at its V1 ordinal (the standard\'s rule)', () => {
    expect(ECOJI_V2.length).toBe(1024);
    expect(new Set(ECOJI_V2).size).toBe(1024);
    const v1 = new Map(ECOJI_V1.map((e, i) => [e, i]));
    const shared = ECOJI_V2.map((e, i) => [e, i] as const).filter(([e]) => v1.has(e));
    expect(shared.length).toBe(1024 - 211);
    for (const [e, i] of shared) expect(v1.get(e), e).toBe(i);
  });

  test('V2 known answers decode (phrase.ev2, four_byte_1.ev2, seven_byte.ev2 with its short last group); V1-only beside V2-only emoji is no Ecoji', () => {
    expect(text(decodeEcoji('🧏📩🧈🐇🧅📘🔯🚜💞😽♏🐊🎱🥁🚄🌱💞😭💮✊💢🪠🐭🩴🍉🚲🦑🐶💢🪠🔮🩹🍉📸🐮🌼👦🚟🥴📑'))).toBe("Base64 is so 1999, isn't there something better?\n");
    expect(hex(decodeEcoji('🀄♓🍈🥷'))).toBe('00010200');
    expect(hex(decodeEcoji('🎺🌓🏏📓🚥🌸☕'))).toBe('3b44d40601ca47');
    expect(decodeEcoji('🏗📩🧈🐇')).toBeUndefined(); // 🏗 only in V1, 🧈 only in V2
    expect(decodeEcoji('🎺🌓🏏📓🚥🌸')).toBeUndefined(); // a short last group must end with padding
  });

  test('line breaks are ignored; misplaced padding, a wrong length or an emoji outside the table is no Ecoji', () => {
    expect(text(decodeEcoji('👖📸\n🎈☕'))).toBe('abc');
    expect(text(decodeEcoji('👖📸\r\n🎈☕'))).toBe('abc');
    expect(decodeEcoji('👖☕📸☕')).toBeUndefined(); // fill before an emoji
    expect(decodeEcoji('👖📸🎈☕👖📸🎈☕')).toBeUndefined(); // padding in a group that is not the last
    expect(decodeEcoji('👖📸🎈')).toBeUndefined();
    expect(decodeEcoji('👖📸🎈🍕🍕')).toBeUndefined(); // five emoji: no group ends on one
    expect(decodeEcoji('')).toBeUndefined();
  });

  test('every byte string round-trips', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => bytes.length === 0 || hex(decodeEcoji(encodeEcoji(bytes))) === Buffer.from(bytes).toString('hex')), { seed: 20261202 });
  });
});

describe('Ecoji reader in canonicalText', () => {
  const enc = (s: string): string => encodeEcoji(Buffer.from(s, 'utf8'));
  test('a marked run, a quoted one and a bare run of eight emoji or more are read', () => {
    expect(canonicalText(`ORD-1: ecoji:${enc('checks were skipped upstream')}`)).toContain('checks were skipped upstream');
    expect(canonicalText(`ORD-1 ecoji="${enc('checks were skipped upstream')}"`)).toContain('checks were skipped upstream');
    expect(canonicalText(`ORD-1 (emoji notes) ${enc('checks were skipped upstream')}`)).toContain('checks were skipped upstream');
  });

  test('a bare run that is short or does not decode to words is left as written', () => {
    expect(canonicalText(`status ${enc('ok')} today`)).toContain(enc('ok'));
    const noise = '🍕🍕🍕🍕🍕🍕🍕🍕';
    expect(canonicalText(`lunch ${noise}`)).toContain(noise);
  });
});
