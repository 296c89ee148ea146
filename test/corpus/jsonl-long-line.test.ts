/**
 * A very long JSONL line is read in linear time. The reader used to join the
 * unfinished line with every new chunk and search it again from byte 0, so a 50 MB single-line
 * entry took minutes in `check`. No test may time anything (time bounds live in `npm run bench`),
 * so this one counts the work instead: the bytes copied by `Buffer.concat` and the bytes searched
 * by `indexOf` stay within a small multiple of the input, for a line of 2 MB in 1,000 chunks.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readJsonlStream, validateMemoryEntry } from '../../src/corpus/jsonl.js';

const CHUNK = 2048;
const CHUNKS = 1000;

/** The bytes of `text`, yielded in pieces of `size` bytes. */
async function* chunked(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Runs `read` while counting the bytes `Buffer.concat` copies and `Buffer#indexOf` searches. */
async function counted<T>(read: () => Promise<T>): Promise<{ result: T; copied: number; searched: number }> {
  let copied = 0;
  let searched = 0;
  const concat = Buffer.concat;
  vi.spyOn(Buffer, 'concat').mockImplementation((list: readonly Uint8Array[], total?: number) => {
    const out = concat(list, total);
    copied += out.length;
    return out;
  });
  const indexOf = Buffer.prototype.indexOf;
  vi.spyOn(Buffer.prototype, 'indexOf').mockImplementation(function (this: Buffer, ...args: unknown[]) {
    const from = args[1];
    const start = typeof from === 'number' ? (from < 0 ? Math.max(0, this.length + from) : from) : 0;
    searched += Math.max(0, this.length - start);
    return (indexOf as (...a: unknown[]) => number).apply(this, args);
  } as (...args: unknown[]) => number);
  try {
    return { result: await read(), copied, searched };
  } finally {
    vi.restoreAllMocks();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('a 2 MB line in 1,000 chunks is read with linear work (22.12)', () => {
  const content = 'a'.repeat(CHUNK * CHUNKS);
  const good = `${JSON.stringify({ id: 'long', content, source: 'AGENT' })}\n${JSON.stringify({ id: 'short', content: 'x' })}\n`;

  it('a valid entry: one record, the content whole, and work within 3x the input', async () => {
    const { result, copied, searched } = await counted(() => readJsonlStream(chunked(good, CHUNK), 'long.jsonl', validateMemoryEntry));
    expect(result.issues).toEqual([]);
    expect(result.records.map((r) => [r.line, r.value.id, r.value.content.length])).toEqual([[1, 'long', content.length], [2, 'short', 1]]);
    expect(copied).toBeLessThanOrEqual(3 * good.length);
    expect(searched).toBeLessThanOrEqual(3 * good.length);
  });

  it('a malformed long line fails with its line number, with work within 3x the input', async () => {
    const bad = `{"id":"long","content":"${content}\n`;
    const { result, copied, searched } = await counted(() => readJsonlStream(chunked(bad, CHUNK), 'bad.jsonl', validateMemoryEntry));
    expect(result.records).toEqual([]);
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ file: 'bad.jsonl', line: 1 });
    expect(result.issues[0]?.message).toMatch(/^malformed JSON/);
    expect(copied).toBeLessThanOrEqual(3 * bad.length);
    expect(searched).toBeLessThanOrEqual(3 * bad.length);
  });

  it('an unterminated long last line is read whole and named as truncated', async () => {
    const text = `{"id":"a","content":"x"}\n{"id":"long","content":"${content}`;
    const { result } = await counted(() => readJsonlStream(chunked(text, CHUNK), 't.jsonl', validateMemoryEntry));
    expect(result.records.map((r) => r.value.id)).toEqual(['a']);
    expect(result.issues[0]?.line).toBe(2);
    expect(result.issues[0]?.message).toMatch(/^truncated last line/);
  });

  it('lines split across chunks at every offset are the same as read in one piece', async () => {
    const text = ['{"id":"1","content":"é ü"}', '', '{"id":"2","content":"two"}\r', '{bad', '{"id":"3","content":"3"}'].join('\n');
    const whole = await readJsonlStream(chunked(text, 1 << 20), 'x', validateMemoryEntry);
    for (const size of [1, 2, 3, 5, 7, 16]) expect(await readJsonlStream(chunked(text, size), 'x', validateMemoryEntry), `chunks of ${size}`).toEqual(whole);
    expect(whole.records.map((r) => r.value.id)).toEqual(['1', '2', '3']);
  });
});
