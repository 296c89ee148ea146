/**
 * Every command against outside guards (test/fixtures/third-party), through `main`:
 * - a guard that only throws makes `fpr` and `search` exit 4 (guard) naming the error, as
 *   `fuzz` does, instead of a 0/n FPR row or "resists" for every start case;
 * - a guard that logs with console.log and edits its entries leaves `check`'s stdout JSONL
 *   and the corpus records as generated.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';

const FIX = path.resolve('test/fixtures/third-party');
const dir = mkdtempSync(path.join(tmpdir(), 'farma-third-party-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** Runs main with stdout and stderr captured. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  // vitest routes console output itself: what reaches console.error is counted as stderr.
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void (err += `${args.join(' ')}\n`));
  try {
    const code = await main(argv);
    return { code, out, err };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('commands against a guard that only throws', () => {
  const guard = path.join(FIX, 'always-throws.mjs');

  it('fpr exits 4 and quotes the error; nothing was judged', async () => {
    const r = await run(['fpr', '--guard', guard, '--runs', '5', '--domain', 'ehr', '--no-real', '--seed', '3', '--out', path.join(dir, 'fpr'), '-q']);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/every guard call of always-throws answered error, no entry was judged.*guard threw: model file missing/);
  });

  it('search exits 4: start cases that answered error are listed apart, never "resist"', async () => {
    const out = path.join(dir, 'search');
    const r = await run(['search', '--guard', guard, '--budget', '3', '--domain', 'ehr', '--start', 'naive', '--out', out, '-q']);
    expect(r.code).toBe(4);
    expect(r.out).toMatch(/bypassed 0\/0 start cases.*; 0 resist; \d+ answered error unmutated, not searched/);
    const json = JSON.parse(readFileSync(path.join(out, 'search.json'), 'utf8')) as { search: { rows: unknown[]; errored: Array<{ message: string }> } };
    expect(json.search.rows).toEqual([]);
    expect(json.search.errored.length).toBeGreaterThan(0);
    expect(json.search.errored[0]?.message).toBe('threw: guard threw: model file missing');
  });
});

describe('commands against a guard that logs and edits its entries', () => {
  const guard = path.join(FIX, 'mutating.mjs');

  it('check keeps stdout to one verdict per line; the guard\'s console.log goes to stderr', async () => {
    const input = path.join(dir, 'in.jsonl');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(input, `${JSON.stringify({ id: 'a', content: 'One' })}\n${JSON.stringify({ id: 'b', content: 'Two' })}\n`);
    const r = await run(['check', '--guard', guard, '--input', input]);
    expect(r.code).toBe(0);
    const lines = r.out.trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['a', 'b']);
    expect(r.err).toMatch(/checking a/);
  });

  it('fuzz writes corpus records whose entries are the generated ones, not the guard\'s edits', async () => {
    const corpus = path.join(dir, 'corpus');
    const r = await run(['fuzz', '--guard', guard, '--family', 'seed', '--domain', 'ehr', '--runs', '5', '--seed', '2', '--recheck', '1', '--corpus', corpus, '--no-real', '--out', path.join(dir, 'fuzz'), '-q']);
    expect(r.code).toBe(1);
    const records = readdirSync(corpus).flatMap((f) => readFileSync(path.join(corpus, f), 'utf8').trim().split('\n')).map((l) => JSON.parse(l) as { entry: { content: string; metadata?: unknown } });
    expect(records.length).toBeGreaterThan(0);
    for (const rec of records) {
      expect(rec.entry.content).not.toContain('[seen]');
      expect(rec.entry.metadata).not.toEqual({ touched: true });
    }
  });
});
