/**
 * Characters HTML and SVG cannot carry, and a byte-order mark where a joined file
 * puts it.
 * - A guard's signal name (and reason, and layer) with NUL and other C0/C1 controls reached
 *   report.html's inline SVG as is: report.html is now free of every such character (each is
 *   shown as U+FFFD), whatever text brought it.
 * - Two exports joined with `cat` put the second file's BOM at the start of a line in the middle,
 *   which made that line malformed JSON: the BOM is removed and the line read, with a warning
 *   naming the line.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonlText, readJsonlStream, validateMemoryEntry } from '../../src/corpus/jsonl.js';
import { htmlSafe } from '../../src/report/xml-text.js';
import { runCli } from '../helpers/run-cli.js';

// NUL, other C0 controls, DEL, C1 controls, a lone surrogate, U+FFFF.
const BAD = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

describe('report.html carries no NUL or control character (22.16)', () => {
  it('htmlSafe replaces each with U+FFFD and keeps the rest', () => {
    expect(htmlSafe('a\u0000b\u0007c\u0085d\uD800e\uFFFFf\tg\nh😀')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\tg\nh😀');
  });

  it('a guard whose signal, layer and reasons hold NUL and controls: report.html and its SVG are clean', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-nul-'));
    const guard = path.join(dir, 'nul-guard.mjs');
    writeFileSync(
      guard,
      [
        'export const guard = {',
        "  id: 'nul-guard', mode: 'sync',",
        '  check: (e) => {',
        '    const n = e.content.length;',
        '    const score = (n % 10) / 10;',
        "    return { decision: score > 0.4 ? 'reject' : 'admit', layer: 'L\\u0000x', signals: { 's\\u0000nul': n % 2, 'bell\\u0007\\u0085': n % 3 === 0 ? 1 : 0 }, score, reasons: ['why\\u0000\\u001b[31m'], trace: [], elapsedUs: 1 };",
        '  },',
        '};',
      ].join('\n'),
    );
    const out = path.join(dir, 'out');
    const r = await runCli(['fuzz', '--guard', guard, '--runs', '30', '--domain', 'ehr', '--family', 'benign,naive', '--no-real', '--no-corpus', '--seed', '2', '--out', out, '-q']);
    expect(r.code, r.stderr).toBe(1);
    const html = readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).toContain('s\uFFFDnul');
    const m = BAD.exec(html);
    expect(m && JSON.stringify(html.slice(Math.max(0, m.index - 40), m.index + 10))).toBeNull();
  }, 120_000);
});

describe('a BOM at the start of a line in the middle of a file (22.16)', () => {
  const a = `\uFEFF${JSON.stringify({ id: 'a1', content: 'first file' })}\n`;
  const b = `\uFEFF${JSON.stringify({ id: 'b1', content: 'second file' })}\n${JSON.stringify({ id: 'b2', content: 'more' })}\n`;

  it('parseJsonlText reads the line and warns, naming it', () => {
    const r = parseJsonlText(a + b, 'joined.jsonl', validateMemoryEntry);
    expect(r.issues).toEqual([]);
    expect(r.records.map((x) => x.value.id)).toEqual(['a1', 'b1', 'b2']);
    expect(r.warnings).toEqual([{ file: 'joined.jsonl', line: 2, message: expect.stringMatching(/byte-order mark .*removed/) }]);
  });

  it('the streaming reader does the same', async () => {
    async function* one(): AsyncGenerator<Buffer> {
      yield Buffer.from(a + b, 'utf8');
    }
    const r = await readJsonlStream(one(), 'joined.jsonl', validateMemoryEntry);
    expect(r.issues).toEqual([]);
    expect(r.records.map((x) => x.value.id)).toEqual(['a1', 'b1', 'b2']);
    expect(r.warnings?.map((w) => w.line)).toEqual([2]);
  });

  it('check --input on two exports joined with cat answers every line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-bom-'));
    const f = path.join(dir, 'joined.jsonl');
    writeFileSync(f, a + b);
    const r = await runCli(['check', '--guard', 'keyword', '--input', f]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['a1', 'b1', 'b2']);
    expect(r.stderr).toMatch(/joined\.jsonl:2: .*byte-order mark/);
  });
});
