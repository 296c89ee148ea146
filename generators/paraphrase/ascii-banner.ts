/**
 * FIGlet banners (PyRIT AsciiArtConverter draws text as multi-line ASCII art): a word drawn in
 * the FIGlet "Banner" font (`figlet` package, FIGfont spec; glyphs of `#` at full width, no
 * smushing), and the reader that takes such a block of rows back to its word. The reader cuts
 * the rows at the columns blank in every row, and looks each piece up among the glyphs of the
 * same font rendered one by one (lower-case letters and digits: each is one piece, and no two
 * are alike). Pure.
 */
import figlet from 'figlet';

const FONT = 'Banner';
const GLYPH_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** Rows of `text` drawn in the font at full width, trailing blanks cut, blank rows dropped. */
function draw(text: string): string[] {
  return figlet.textSync(text, { font: FONT, horizontalLayout: 'full', verticalLayout: 'full' }).split('\n').map((r) => r.trimEnd());
}

/** Rows of the font's glyphs, blank first and last rows dropped (the rows a banner keeps). */
const GLYPH_ROWS = (rows: string[]): string[] => rows.slice(1, -1);

/** The pieces (column runs with ink) of rows padded to one width: where each starts and ends, and the blank gap before it. */
function pieces(rows: readonly string[]): { pad: string[]; runs: Array<{ start: number; end: number; gap: number }> } {
  const w = Math.max(...rows.map((r) => r.length));
  const pad = rows.map((r) => r.padEnd(w));
  const runs: Array<{ start: number; end: number; gap: number }> = [];
  let x = 0;
  let gap = 0;
  while (x < w) {
    if (pad.every((r) => r[x] === ' ')) {
      gap++;
      x++;
      continue;
    }
    const start = x;
    while (x < w && !pad.every((r) => r[x] === ' ')) x++;
    runs.push({ start, end: x, gap });
    gap = 0;
  }
  return { pad, runs };
}

/** The rows between two columns, joined: a glyph's key. */
const keyOf = (pad: readonly string[], start: number, end: number): string => pad.map((r) => r.slice(start, end)).join('\n');

/** A glyph's inked extent (first to last column with ink; a glyph may have blank columns inside, "7"). */
function glyphKey(rows: readonly string[]): string {
  const { pad, runs } = pieces(rows);
  return keyOf(pad, runs[0]?.start ?? 0, runs.at(-1)?.end ?? 0);
}

/** Rows of ink of every glyph of the Banner font (its eight rows less the blank first and last; `bannerOf`'s test checks it). */
const HEIGHT = 6;

/** Each glyph's key → its character, and each glyph's rows of ink; drawn on first use (figlet loads the font then). */
let GLYPH_TABLE: { byKey: ReadonlyMap<string, string>; rows: ReadonlyArray<readonly [string, readonly string[]]> } | undefined;
function glyphs(): NonNullable<typeof GLYPH_TABLE> {
  if (GLYPH_TABLE === undefined) {
    const rows = [...GLYPH_CHARS].map((c) => [c, glyphKey(GLYPH_ROWS(draw(c))).split('\n')] as const);
    GLYPH_TABLE = { byKey: new Map(rows.map(([c, r]) => [r.join('\n'), c])), rows };
  }
  return GLYPH_TABLE;
}

/**
 * `word` (letters and digits, lower-cased) drawn as banner rows joined by line breaks.
 * @example bannerOf('ok') // six rows of '#' and blanks
 */
export function bannerOf(word: string): string {
  return GLYPH_ROWS(draw(word.toLowerCase())).join('\n');
}

/** A block of banner rows: HEIGHT lines of `#` and blanks, each with a `#`. */
const BLOCK_RE = new RegExp(`(?:^|\\n)((?:[ ]*#[ #]*(?:\\n|$)){${HEIGHT}})`, 'g');

/** The word a block of banner rows draws, or undefined when its pieces are no glyphs of the font (one glyph may span up to three pieces). */
function readBlock(rows: readonly string[]): string | undefined {
  const { pad, runs } = pieces(rows);
  let out = '';
  for (let i = 0; i < runs.length; ) {
    let hit: string | undefined;
    let k = 1;
    for (; k <= 3 && i + k <= runs.length; k++) {
      hit = glyphs().byKey.get(keyOf(pad, runs[i]?.start ?? 0, runs[i + k - 1]?.end ?? 0));
      if (hit !== undefined) break;
    }
    if (hit === undefined) return undefined;
    out += (out.length > 0 && (runs[i]?.gap ?? 0) > 3 ? ' ' : '') + hit;
    i += k;
  }
  return out.length > 0 ? out : undefined;
}

/** A block of banner rows with the blanks and line breaks around it: one span, so sentence and line operators keep it whole and in place. */
const SPAN_RE = new RegExp(`(?:^|[ \\t]*\\n)(?:[ ]*#[ #]*\\n){${HEIGHT - 1}}[ ]*#[ #]*(?:\\n[ \\t]*|$)`, 'g');

/** Character spans of the banner blocks of a text (line breaks around each included). */
export function bannerSpans(text: string): Array<[number, number]> {
  if (!text.includes('#')) return [];
  return [...text.matchAll(SPAN_RE)].map((m) => [m.index, m.index + m[0].length] as [number, number]);
}

/** Banner blocks replaced by the words they draw (spaces around them, the line breaks around the block gone). */
export function readBanners(text: string): string {
  if (!text.includes('#')) return text;
  // A JSON string holds the rows with escaped line breaks.
  const t = /\\n[ ]*#/.test(text) ? text.replace(/\\n(?=[ ]*#[ #]*(?:\\n|"|$))/g, '\n').replace(/(?<=#[ #]*)\\n/g, '\n') : text;
  return readFlatBanners(t).replace(BLOCK_RE, (m: string, block: string) => {
    const word = readBlock(block.replace(/\n$/, '').split('\n'));
    return word === undefined ? m : ` ${word} `;
  });
}

/** HEIGHT rows flattened into one line, " / " between them (as `rot13-payload` writes a multi-line text), blanks at the rows' ends lost. */
const FLAT_RE = new RegExp(`(?:^|(?<= / ))(#[ #]*#|#)((?: / (?:#[ #]*#|#)){${HEIGHT - 1}})(?= / |$)`, 'g');

/**
 * Rows whose blanks at both ends were cut: each row gets back the blanks the first glyph has
 * before its ink on that row, tried for every glyph, and the first that reads the whole block wins.
 */
function readTrimmedRows(rows: readonly string[]): string | undefined {
  for (const [c, g] of glyphs().rows) {
    const lead = g.map((r) => r.length - r.trimStart().length);
    if (lead.some((n, i) => (g[i] ?? '').trim() === '' || n < 0)) continue;
    const word = readBlock(rows.map((r, i) => ' '.repeat(lead[i] ?? 0) + r));
    if (word?.startsWith(c)) return word;
  }
  return undefined;
}

/** Flattened banner blocks (`FLAT_RE`) replaced by the words they draw. */
function readFlatBanners(text: string): string {
  if (!text.includes('# / ') && !text.includes('# /')) return text;
  return text.replace(FLAT_RE, (m: string, first: string, rest: string) => {
    const word = readTrimmedRows([first, ...rest.split(' / ').slice(1)]);
    return word === undefined ? m : word;
  });
}
