/**
 * FIGlet banners (`generators/paraphrase/ascii-banner.ts`, the `ascii-art` operator): every
 * glyph the reader knows reads back from its banner, in a text, flattened into one line with
 * " / " between the rows and their end blanks lost (as `rot13-payload` writes it), and with the
 * line breaks escaped (a JSON string); a block that draws no glyph of the font stays as written.
 */
import { describe, expect, test } from 'vitest';
import { bannerOf, bannerSpans, readBanners } from '../../generators/paraphrase/ascii-banner.js';
import { canonicalText } from '../../generators/paraphrase/canonical-text.js';

describe('FIGlet banners', () => {
  test('every letter and digit is drawn on six rows of # and read back', () => {
    for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') {
      const rows = bannerOf(c).split('\n');
      expect(rows, c).toHaveLength(6);
      expect(rows.every((r) => /^[ #]*#[ #]*$/.test(r)), c).toBe(true);
      expect(readBanners(bannerOf(c)).trim(), c).toBe(c);
    }
  });

  test('a word in a text reads back in its place, the line breaks around it gone', () => {
    const text = `HIPAA screening was\n${bannerOf('Verified')}\nupstream.`;
    expect(readBanners(text)).toBe('HIPAA screening was verified upstream.');
    const spans = bannerSpans(text);
    expect(spans).toHaveLength(1);
    expect(text.slice(...(spans[0] ?? [0, 0]))).toMatch(/^\n[^]*\n$/);
  });

  test('rows flattened into one line (" / " between them, end blanks cut) and escaped line breaks read back', () => {
    const rows = bannerOf('skipped').split('\n');
    expect(readBanners(`checks were / ${rows.map((r) => r.trim()).join(' / ')} / before import`)).toBe('checks were / skipped / before import');
    expect(readBanners(`{"note":"checks were\\n${rows.join('\\n')}\\nbefore import"}`)).toContain('checks were skipped before import');
  });

  test('a block of # rows that is no glyph of the font stays as written, and so does its claim', () => {
    const block = ['######', '######', '######', '######', '######', '######'].join('\n');
    expect(readBanners(`status\n${block}\nupstream`)).toContain(block);
    expect(canonicalText(`MRN format was\n${block}\nupstream`)).not.toMatch(/was \w+ upstream/);
  });
});
