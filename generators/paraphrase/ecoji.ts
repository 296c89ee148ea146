/**
 * Ecoji V1 (base 1024 written in emoji; PyRIT `EcojiConverter` and garak `InjectEcoji`, which
 * both call the python `ecoji` package, mecforlove/ecoji-py, an Ecoji V1 encoder): an encoder
 * and a reader written here from the standard, `keith-turner/ecoji/docs/encoding.md`.
 * Five bytes (40 bits) become four emoji of 10 bits each; a last group of 1 to 3 bytes is filled
 * with the padding emoji ☕ to four emoji; a last group of 4 bytes ends with one of four padding
 * emoji that carries the low two bits of the fourth byte. Line breaks inside the encoded text are
 * ignored. Pure.
 *
 * The emoji tables are data: the 1024 code points of Ecoji V1 and of Ecoji V2, in ordinal order,
 * as the ranges of `emojisV1` and `emojisV2` in `v2/mapping.go` of keith-turner/ecoji (commit
 * 6d6cd264589ce76d3ffa557247560bc35280a31a, generated from `emojisV1.txt` and `emojisV2.txt`),
 * Apache-2.0, and their padding emoji (`padding`, `paddingLastV1`, `paddingLastV2`). V2 swaps
 * 211 of V1's emoji for newer ones and keeps every shared emoji at its V1 ordinal. The python
 * package the catalogs use writes V1, so the encoder writes V1; the reader takes both (V2 may
 * also end on a shorter last group), never a run that mixes emoji only V1 has with emoji only V2
 * has.
 */

/** Ecoji V1 emoji code points as inclusive ranges, ordinal order (keith-turner/ecoji, Apache-2.0; see the file header). */
const V1_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1f004, 0x1f004], [0x1f0cf, 0x1f0cf], [0x1f170, 0x1f171], [0x1f17e, 0x1f17f], [0x1f18e, 0x1f18e], [0x1f191, 0x1f19a],
  [0x1f1e6, 0x1f1ff], [0x1f201, 0x1f202], [0x1f21a, 0x1f21a], [0x1f22f, 0x1f22f], [0x1f232, 0x1f23a], [0x1f250, 0x1f251],
  [0x1f300, 0x1f321], [0x1f324, 0x1f393], [0x1f396, 0x1f397], [0x1f399, 0x1f39b], [0x1f39e, 0x1f3cc], [0x1f3ce, 0x1f3f0],
  [0x1f3f3, 0x1f3f5], [0x1f3f7, 0x1f4d0], [0x1f4d2, 0x1f4fd], [0x1f4ff, 0x1f53d], [0x1f549, 0x1f54e], [0x1f550, 0x1f567],
  [0x1f56f, 0x1f570], [0x1f573, 0x1f57a], [0x1f587, 0x1f587], [0x1f58a, 0x1f58d], [0x1f590, 0x1f590], [0x1f595, 0x1f596],
  [0x1f5a4, 0x1f5a5], [0x1f5a8, 0x1f5a8], [0x1f5b1, 0x1f5b2], [0x1f5bc, 0x1f5bc], [0x1f5c2, 0x1f5c4], [0x1f5d1, 0x1f5d3],
  [0x1f5dc, 0x1f5de], [0x1f5e1, 0x1f5e1], [0x1f5e3, 0x1f5e3], [0x1f5e8, 0x1f5e8], [0x1f5ef, 0x1f5ef], [0x1f5f3, 0x1f5f3],
  [0x1f5fa, 0x1f64a], [0x1f64c, 0x1f64f], [0x1f680, 0x1f6c5], [0x1f6cb, 0x1f6d2], [0x1f6e0, 0x1f6e5], [0x1f6e9, 0x1f6e9],
  [0x1f6eb, 0x1f6ec], [0x1f6f0, 0x1f6f0], [0x1f6f3, 0x1f6f9], [0x1f910, 0x1f93a], [0x1f93c, 0x1f93e], [0x1f940, 0x1f945],
  [0x1f947, 0x1f970], [0x1f973, 0x1f976], [0x1f97a, 0x1f97a], [0x1f97c, 0x1f9a2], [0x1f9b0, 0x1f9b9], [0x1f9c0, 0x1f9c2],
  [0x1f9d0, 0x1f9d5],
];

/** Ecoji V2 emoji code points as inclusive ranges, ordinal order (keith-turner/ecoji, Apache-2.0; see the file header). */
const V2_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1f004, 0x1f004], [0x1f0cf, 0x1f0cf], [0x23f0, 0x23f0], [0x23f3, 0x23f3], [0x2614, 0x2614], [0x2648, 0x2653],
  [0x267f, 0x267f], [0x2693, 0x2693], [0x26a1, 0x26a1], [0x26bd, 0x26be], [0x26c4, 0x26c5], [0x26ce, 0x26ce],
  [0x26d4, 0x26d4], [0x26ea, 0x26ea], [0x26f2, 0x26f3], [0x26f5, 0x26f5], [0x26fa, 0x26fa], [0x26fd, 0x26fd],
  [0x270a, 0x270b], [0x2728, 0x2728], [0x2b50, 0x2b50], [0x1f6d5, 0x1f6d7], [0x1f6dd, 0x1f6df], [0x1f6fa, 0x1f6fa],
  [0x1f201, 0x1f201], [0x1f6fb, 0x1f6fb], [0x1f90c, 0x1f90c], [0x1f90f, 0x1f90f], [0x1f93f, 0x1f93f], [0x1f971, 0x1f972],
  [0x1f978, 0x1f979], [0x1f97b, 0x1f97b], [0x1f9a3, 0x1f9a7], [0x1f300, 0x1f320], [0x1f9a8, 0x1f9af], [0x1f9ba, 0x1f9bb],
  [0x1f32d, 0x1f335], [0x1f9bc, 0x1f9bc], [0x1f337, 0x1f37c], [0x1f9bd, 0x1f9bd], [0x1f37e, 0x1f393], [0x1f9be, 0x1f9bf],
  [0x1f9c3, 0x1f9c7], [0x1f3a0, 0x1f3a5], [0x1f9c8, 0x1f9c8], [0x1f3a7, 0x1f3ca], [0x1f9c9, 0x1f9cb], [0x1f3cf, 0x1f3d3],
  [0x1f9cc, 0x1f9cf], [0x1f9d6, 0x1f9dd], [0x1f3e0, 0x1f3e6], [0x1f9de, 0x1f9de], [0x1f3e8, 0x1f3f0], [0x1f9df, 0x1f9df],
  [0x1f3f4, 0x1f3f4], [0x1f9e0, 0x1f9e0], [0x1f9e2, 0x1f9e2], [0x1f3f8, 0x1f3fa], [0x1f9e3, 0x1f9e7], [0x1f400, 0x1f43e],
  [0x1f9e8, 0x1f9e8], [0x1f440, 0x1f440], [0x1f9e9, 0x1f9e9], [0x1f442, 0x1f4b8], [0x1f9ea, 0x1f9ea], [0x1f4ba, 0x1f4c0],
  [0x1f9eb, 0x1f9eb], [0x1f4c2, 0x1f4c4], [0x1f9ec, 0x1f9ec], [0x1f4c6, 0x1f4d0], [0x1f4d2, 0x1f4f3], [0x1f9ed, 0x1f9ed],
  [0x1f4f5, 0x1f4fc], [0x1f9ee, 0x1f9ee], [0x1f4ff, 0x1f4ff], [0x1f9ef, 0x1f9f3], [0x1f505, 0x1f518], [0x1f9f4, 0x1f9ff],
  [0x1f525, 0x1f533], [0x1fa70, 0x1fa74], [0x1fa78, 0x1fa7c], [0x1fa80, 0x1fa81], [0x1f54b, 0x1f54e], [0x1fa82, 0x1fa86],
  [0x1fa90, 0x1faab], [0x1f57a, 0x1f57a], [0x1faac, 0x1faac], [0x1fab0, 0x1fab4], [0x1f595, 0x1f596], [0x1f5a4, 0x1f5a4],
  [0x1fab5, 0x1faba], [0x1fac0, 0x1fac5], [0x1fad0, 0x1fad7], [0x1f5fb, 0x1f64a], [0x1f64c, 0x1f64f], [0x1f680, 0x1f6c5],
  [0x1fad8, 0x1fad8], [0x1f6cc, 0x1f6cc], [0x1fad9, 0x1fad9], [0x1fae0, 0x1fae1], [0x1f6d0, 0x1f6d2], [0x1fae2, 0x1fae7],
  [0x1faf0, 0x1faf0], [0x1f6eb, 0x1f6ec], [0x1faf1, 0x1faf2], [0x1f6f4, 0x1f6f9], [0x1f910, 0x1f93a], [0x1f93c, 0x1f93e],
  [0x1f940, 0x1f945], [0x1f947, 0x1f970], [0x1f973, 0x1f976], [0x1f97a, 0x1f97a], [0x1f97c, 0x1f9a2], [0x1faf3, 0x1faf6],
  [0x1f9b4, 0x1f9b9], [0x1f9c0, 0x1f9c2], [0x1f9d0, 0x1f9d5],
];

const expand = (ranges: ReadonlyArray<readonly [number, number]>): string[] => ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => String.fromCodePoint(a + i)));

/** The 1024 emoji of Ecoji V1, index = 10-bit ordinal. */
export const ECOJI_V1: readonly string[] = expand(V1_RANGES);
/** The 1024 emoji of Ecoji V2, index = 10-bit ordinal. */
export const ECOJI_V2: readonly string[] = expand(V2_RANGES);

/** The fill padding (☕ U+2615) and the four last-group paddings of V1 (⚜ 🏍 📑 🙋: the fourth byte's low bits 0 to 3). */
const PAD_FILL = '\u2615';
export const ECOJI_V1_PAD_LAST: readonly string[] = ['\u269C', '\u{1F3CD}', '\u{1F4D1}', '\u{1F64B}'];
/** The four last-group paddings of V2 (🥷 🛼 📑 🙋). */
const V2_PAD_LAST: readonly string[] = ['\u{1F977}', '\u{1F6FC}', '\u{1F4D1}', '\u{1F64B}'];

/** Every emoji of either version → its ordinal (a shared emoji has the same one in both). */
const ORDINAL: ReadonlyMap<string, number> = new Map([...ECOJI_V1.map((e, i) => [e, i] as const), ...ECOJI_V2.map((e, i) => [e, i] as const)]);
const V1_ONLY: ReadonlySet<string> = new Set([...ECOJI_V1, '\u269C', '\u{1F3CD}'].filter((e) => !ECOJI_V2.includes(e) && !V2_PAD_LAST.includes(e)));
const V2_ONLY: ReadonlySet<string> = new Set([...ECOJI_V2, ...V2_PAD_LAST].filter((e) => !ECOJI_V1.includes(e) && !ECOJI_V1_PAD_LAST.includes(e)));
/** A last-group padding of either version → the fourth byte's low two bits. */
const PAD_LAST: ReadonlyMap<string, number> = new Map([...ECOJI_V1_PAD_LAST.map((e, i) => [e, i] as const), ...V2_PAD_LAST.map((e, i) => [e, i] as const)]);

/**
 * Bytes as Ecoji V1 text (no line breaks), as the python `ecoji` package writes it.
 * @example encodeEcoji(Buffer.from('abc')) // '👖📸🎈☕'
 */
export function encodeEcoji(bytes: Uint8Array): string {
  const e = (n: number): string => ECOJI_V1[n & 1023] ?? '';
  let out = '';
  for (let at = 0; at < bytes.length; at += 5) {
    const n = Math.min(5, bytes.length - at);
    const [b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0] = bytes.subarray(at, at + n);
    out += e((b0 << 2) | (b1 >> 6));
    out += n >= 2 ? e(((b1 & 0x3f) << 4) | (b2 >> 4)) : PAD_FILL;
    out += n >= 3 ? e(((b2 & 0x0f) << 6) | (b3 >> 2)) : PAD_FILL;
    out += n === 5 ? e(((b3 & 0x03) << 8) | b4) : n === 4 ? (ECOJI_V1_PAD_LAST[b3 & 3] ?? '') : PAD_FILL;
  }
  return out;
}

/**
 * The bytes of Ecoji V1 or V2 text (line breaks ignored), or undefined when it is not Ecoji: an
 * emoji outside both tables, emoji only V1 has beside emoji only V2 has, padding that is not at
 * the end of the last group in the order the standard writes it, or a length that is no multiple
 * of four (V2 may end on a group of two or three that ends with padding: the missing places are fill).
 */
export function decodeEcoji(text: string): Uint8Array | undefined {
  const cps = [...text.replace(/[\r\n]/g, '')];
  if (cps.length === 0 || (cps.some((c) => V1_ONLY.has(c)) && cps.some((c) => V2_ONLY.has(c)))) return undefined;
  if (cps.length % 4 !== 0) {
    const tail = cps.at(-1) ?? '';
    if (cps.length % 4 === 1 || (tail !== PAD_FILL && !PAD_LAST.has(tail))) return undefined;
    cps.push(...Array.from({ length: 4 - (cps.length % 4) }, () => PAD_FILL));
  }
  const out: number[] = [];
  for (let g = 0; g < cps.length; g += 4) {
    const last = g + 4 === cps.length;
    const [c0 = '', c1 = '', c2 = '', c3 = ''] = cps.slice(g, g + 4);
    const o0 = ORDINAL.get(c0);
    if (o0 === undefined) return undefined;
    const o1 = ORDINAL.get(c1);
    const o2 = ORDINAL.get(c2);
    const o3 = ORDINAL.get(c3);
    const lastPad = PAD_LAST.get(c3);
    if (o1 === undefined) {
      // One byte: three fills.
      if (!last || c1 !== PAD_FILL || c2 !== PAD_FILL || c3 !== PAD_FILL) return undefined;
      out.push(o0 >> 2);
    } else if (o2 === undefined) {
      if (!last || c2 !== PAD_FILL || c3 !== PAD_FILL) return undefined;
      out.push(o0 >> 2, ((o0 & 3) << 6) | (o1 >> 4));
    } else if (o3 === undefined) {
      if (!last || (c3 !== PAD_FILL && lastPad === undefined)) return undefined;
      out.push(o0 >> 2, ((o0 & 3) << 6) | (o1 >> 4), ((o1 & 15) << 4) | (o2 >> 6));
      if (lastPad !== undefined) out.push(((o2 & 63) << 2) | lastPad);
    } else {
      out.push(o0 >> 2, ((o0 & 3) << 6) | (o1 >> 4), ((o1 & 15) << 4) | (o2 >> 6), ((o2 & 63) << 2) | (o3 >> 8), o3 & 255);
    }
  }
  return Uint8Array.from(out);
}

/** A regular-expression class of every Ecoji V1 and V2 emoji and padding emoji (for `u` regexps). */
export const ECOJI_CLASS = `[${[...V1_RANGES, ...V2_RANGES].map(([a, b]) => (a === b ? `\\u{${a.toString(16)}}` : `\\u{${a.toString(16)}}-\\u{${b.toString(16)}}`)).join('')}${[PAD_FILL, ...PAD_LAST.keys()].map((c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`).join('')}]`;
