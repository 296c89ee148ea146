import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/domain/index.js';
import {
  DEFAULT_STORE,
  DEFAULT_TIMESTAMP,
  DEFAULT_TRUST,
  anyJson,
  parseJsonlText,
  readJsonl,
  validateMemoryEntry,
} from '../../src/corpus/jsonl.js';

const dir = mkdtempSync(join(tmpdir(), 'farma-jsonl-'));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text, 'utf8');
  return p;
}

describe('readJsonl', () => {
  it('keeps every good line around a corrupt middle line and names file and line', () => {
    const p = file('mid.jsonl', '{"n":1}\n{"n":2}\n{"n": 3,,}\n{"n":4}\n');
    const { records, issues } = readJsonl(p, anyJson);
    expect(records).toEqual([
      { line: 1, value: { n: 1 } },
      { line: 2, value: { n: 2 } },
      { line: 4, value: { n: 4 } },
    ]);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: p, line: 3 });
    expect(issues[0]?.message).toMatch(/malformed JSON/);
  });

  it('reports a truncated last line and keeps the rest', () => {
    const p = file('trunc.jsonl', '{"n":1}\n{"n":2}\n{"n":3, "te');
    const { records, issues } = readJsonl(p, anyJson);
    expect(records.map((r) => r.value)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(issues).toEqual([{ file: p, line: 3, message: expect.stringMatching(/truncated last line/) }]);
  });

  it('accepts a complete last line without a trailing newline', () => {
    const { records, issues } = parseJsonlText('{"n":1}\n{"n":2}', 'x', anyJson);
    expect(records.map((r) => r.line)).toEqual([1, 2]);
    expect(issues).toEqual([]);
  });

  it('handles a BOM, CRLF and blank lines, keeping true line numbers', () => {
    const p = file('bom.jsonl', '\uFEFF{"n":1}\r\n\r\n   \r\n{"n":2}\r\n{oops}\r\n{"n":3}\r\n');
    const { records, issues } = readJsonl(p, anyJson);
    expect(records).toEqual([
      { line: 1, value: { n: 1 } },
      { line: 4, value: { n: 2 } },
      { line: 6, value: { n: 3 } },
    ]);
    expect(issues.map((i) => i.line)).toEqual([5]);
  });

  it('reads a huge line', () => {
    const big = 'x'.repeat(5_000_000);
    const { records, issues } = parseJsonlText(`{"n":1}\n${JSON.stringify({ big })}\n{"n":3}\n`, 'big', anyJson);
    expect(issues).toEqual([]);
    expect(records).toHaveLength(3);
    expect((records[1]?.value as { big: string }).big.length).toBe(5_000_000);
  });

  it('turns validation failures and validator exceptions into issues', () => {
    const { records, issues } = parseJsonlText('1\n2\n3\n', 'v', (value, line) => {
      if (line === 3) throw new Error('boom');
      return value === 1 ? { ok: true, value } : { ok: false, message: 'not one' };
    });
    expect(records).toEqual([{ line: 1, value: 1 }]);
    expect(issues).toEqual([
      { file: 'v', line: 2, message: 'not one' },
      { file: 'v', line: 3, message: expect.stringMatching(/validator threw: boom/) },
    ]);
  });

  it('throws InputError naming the file when it cannot be read', () => {
    const missing = join(dir, 'nope.jsonl');
    expect(() => readJsonl(missing, anyJson)).toThrow(InputError);
    expect(() => readJsonl(missing, anyJson)).toThrow(/nope\.jsonl/);
    const sub = join(dir, 'a-dir');
    mkdirSync(sub);
    expect(() => readJsonl(sub, anyJson)).toThrow(InputError);
  });
});

describe('readJsonl on exports that are not JSONL of memory entries', () => {
  it('a CSV file is named as CSV on its header line; a JSONL line without content names the field that seems to hold the text', () => {
    const csv = readJsonl(file('export.csv', 'id,content,source\n1,hello world,AGENT\n'), validateMemoryEntry);
    expect(csv.issues[0]?.message).toMatch(/^this looks like CSV \(a header of comma-separated names\); JSONL expected/);
    expect(csv.issues[1]?.message).not.toMatch(/CSV/);
    // A JSON object line is never taken for a CSV header.
    expect(readJsonl(file('obj.jsonl', '{"id": 1, "content": "a, b"}\n'), validateMemoryEntry).issues).toEqual([]);
    const r = readJsonl(file('text-field.jsonl', '{"text":"hello"}\n{"id":"2","message":"m"}\n{"id":"3","content":null}\n'), validateMemoryEntry);
    expect(r.issues.map((i) => i.message)).toEqual([
      'field "id" must be a non-empty string, got nothing (missing); field "content" must be a string too, got nothing (missing) (the text seems to be in "text": rename that field "content")',
      'field "content" must be a string, got nothing (missing) (the text seems to be in "message": rename that field "content")',
      'field "content" must be a string, got null',
    ]);
  });
});

describe('validateMemoryEntry', () => {
  it('fills documented defaults and ignores unknown fields', () => {
    const r = validateMemoryEntry({ id: 'a1', content: 'hello', extra: 1 }, 1);
    expect(r).toEqual({
      ok: true,
      value: {
        id: 'a1',
        content: 'hello',
        store: DEFAULT_STORE,
        source: 'UNKNOWN',
        trust: DEFAULT_TRUST,
        traceType: 'decision_log',
        timestamp: DEFAULT_TIMESTAMP,
      },
    });
  });

  it('keeps given values and metadata', () => {
    const e = {
      id: 'g',
      content: 'c',
      store: 'general',
      source: 'TOOL',
      trust: 'VERIFIED',
      traceType: 'tool_output',
      timestamp: '2026-01-01T00:00:00.000Z',
      metadata: { k: 1 },
    };
    expect(validateMemoryEntry(e, 1)).toEqual({ ok: true, value: e });
  });

  it.each([
    [{ content: 'x' }, 'id'],
    [{ id: '', content: 'x' }, 'id'],
    [{ id: 'a' }, 'content'],
    [{ id: 'a', content: 'x', store: 'episodic' }, 'store'],
    [{ id: 'a', content: 'x', trust: 3 }, 'trust'],
    [{ id: 'a', content: 'x', source: ['AGENT'] }, 'source'],
    [{ id: 'a', content: 'x', metadata: 'm' }, 'metadata'],
  ])('names the bad field in %j', (value, field) => {
    const r = validateMemoryEntry(value, 7);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(`"${field}"`);
  });

  it('rejects non-objects', () => {
    expect(validateMemoryEntry([1], 1).ok).toBe(false);
    expect(validateMemoryEntry('s', 1).ok).toBe(false);
  });
});
