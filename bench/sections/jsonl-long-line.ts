/**
 * Reading one very long JSONL line costs about what reading the same bytes as short lines
 * costs (the reader is linear in the line's length; it used to be quadratic, so a 50 MB line
 * took minutes). Both inputs are read by `readJsonlStream` from memory in 64 KiB chunks, as a
 * file stream delivers them; the row is the ratio of the two medians, measured in the same run.
 */
import { readJsonlStream, validateMemoryEntry } from '../../src/corpus/jsonl.js';
import { ratioOf, status, type BenchContext, type BenchSection } from '../lib.js';
import { summarize } from '../summary.js';

const CHUNK = 64 * 1024;

/** The bound: one long line costs at most this many times the same bytes as short lines. */
const MAX_RATIO = 3;

async function* chunks(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
}

async function timeRead(bytes: Buffer, runs: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = await readJsonlStream(chunks(bytes), 'bench.jsonl', validateMemoryEntry);
    out.push(performance.now() - t0);
    if (r.issues.length > 0) throw new Error(`bench input did not parse: ${r.issues[0]?.message ?? ''}`);
  }
  return out;
}

async function run(ctx: BenchContext): Promise<void> {
  const mb = ctx.quick ? 5 : 50;
  const runs = ctx.quick ? 3 : 5;
  ctx.log(`JSONL: one ${mb} MB line against ${mb} MB of 1 KB lines, ${runs} reads each`);
  const long = Buffer.from(`${JSON.stringify({ id: 'long', content: 'a'.repeat(mb * 1024 * 1024) })}\n`, 'utf8');
  const line = `${JSON.stringify({ id: 'x', content: 'a'.repeat(1000) })}\n`;
  const short = Buffer.from(line.repeat(Math.ceil(long.length / line.length)), 'utf8');
  const shortMs = summarize(await timeRead(short, runs), 'ms');
  const longMs = summarize(await timeRead(long, runs), 'ms');
  const ratio = ratioOf(longMs, shortMs);
  ctx.row({
    id: 'jsonl.long-line',
    figure: `read one ${mb} MB JSONL line / the same bytes as 1 KB lines (readJsonlStream, 64 KiB chunks)`,
    value: ratio,
    budget: `<= ${MAX_RATIO}×`,
    status: status(ratio.median <= MAX_RATIO),
    note: `one line ${longMs.median.toFixed(0)} ms, short lines ${shortMs.median.toFixed(0)} ms (medians)`,
  });
}

export const jsonlLongLine: BenchSection = { id: 'jsonl-long-line', title: 'one 50 MB JSONL line read in linear time (ratio to short lines)', run };
