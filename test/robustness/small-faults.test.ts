/**
 * The smaller faults:
 * - lone surrogates are stored escaped (the SQLite file stays valid UTF-8);
 * - a corpus line repeated is replayed once, with a warning;
 * - `--benign` with an empty file is an input error, not a silently empty row;
 * - invalid UTF-8 input warns with file:line;
 * - a JSON array gets "this file is a JSON array; JSONL expected";
 * - JSONL is streamed (any size; here the streaming reader on a stream of awkward chunks);
 * - `replay --id` prints a replay command that keeps a non-default `--corpus`;
 * - `replay` against a guard that answers error exits 4 (no green replay gate on a dead guard).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { readJsonl, readJsonlStream, validateMemoryEntry } from '../../src/corpus/jsonl.js';
import { appendRegressions, regressionFile } from '../../src/corpus/regressions.js';
import { MemoryStore } from '../../src/memory/index.js';
import { sampleRecord } from '../corpus/regression-fixture.js';

const ROOT_DIR = path.resolve(import.meta.dirname, '../..');

const dir = mkdtempSync(path.join(tmpdir(), 'farma-small-'));

afterEach(() => vi.restoreAllMocks());

describe('lone surrogates in the store', () => {
  it('are stored escaped, so every byte in the file is valid UTF-8', () => {
    const file = path.join(dir, 'surrogates.db');
    const s = new MemoryStore(file);
    const content = 'Decision: \uD800 verified; tail \uDC00 end; pair \uD83D\uDE00 kept';
    s.insert({ id: 'lone-\uDBFF', store: 'reasoning', content, source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: 't' });
    expect(s.get('reasoning', 'lone-\uDBFF')?.content).toBe('Decision: \\uD800 verified; tail \\uDC00 end; pair \uD83D\uDE00 kept');
    s.close();
    const db = new Database(file, { readonly: true });
    const rows = db.prepare('SELECT CAST(id AS BLOB) id, CAST(content AS BLOB) content FROM entries').all() as Array<{ id: Buffer; content: Buffer }>;
    db.close();
    const strict = new TextDecoder('utf-8', { fatal: true });
    for (const r of rows) {
      expect(() => strict.decode(r.id)).not.toThrow();
      expect(() => strict.decode(r.content)).not.toThrow();
    }
    expect(strict.decode(rows[0]!.id)).toBe('lone-\\uDBFF');
  });
});

describe('replay', () => {
  it('a repeated corpus line is replayed once, with a warning; replay --id keeps --corpus', async () => {
    const corpus = path.join(dir, 'corpus');
    const file = regressionFile(corpus, 'sentinel');
    await appendRegressions(file, [sampleRecord('INT-EHR-1'), sampleRecord('INT-EHR-2')]);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(file, `${[...lines, lines[0]].join('\n')}\n`);
    const r = await runCli(['replay', '--guard', 'sentinel', '--corpus', corpus]);
    expect(r.stdout).toMatch(/\n2 records from /);
    expect(r.stderr).toMatch(new RegExp(`sentinel\\.jsonl:3: record \\w+ repeats line 1; replayed once`));
    const id = (JSON.parse(lines[0]!) as { id: string }).id;
    const one = await runCli(['replay', '--guard', 'sentinel', '--corpus', corpus, '--id', id]);
    expect(one.stdout).toMatch(new RegExp(`replay --guard sentinel --id ${id} --corpus ${corpus.replace(/[/\\\\.]/g, '\\$&')}`));
  }, 30_000);

  it('a guard that answers error on a record fails the replay (exit 4), the reason on the record line', async () => {
    const corpus = path.join(dir, 'corpus-dead');
    const guard = path.join(ROOT_DIR, 'test/fixtures/guards/throwing-guard.mjs');
    await appendRegressions(regressionFile(corpus, 'fixture-throwing'), [{ ...sampleRecord('INT-EHR-3'), guard: 'fixture-throwing' }]);
    const r = await runCli(['replay', '--guard', guard, '--corpus', corpus]);
    expect(r.stdout).toMatch(/\n1 record from .*: 0 open, 0 now passing, 0 fixed, 0 regressed, 0 flaky, 1 error /);
    expect(r.stdout).toMatch(/→ error \(threw: [^)]*async boom/);
    expect(r.stderr).toMatch(/the guard answered error on 1 record of 1 .*regression status is unknown/);
    expect(r.code).toBe(4);
  }, 30_000);
});

describe('replay and a config file', () => {
  it('notes that it read no config file when one is in the folder and --guard was not given', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'farma-replay-config-'));
    writeFileSync(path.join(folder, 'farma-fuzz.config.mjs'), "export default { guard: 'keyword' };\n");
    const corpus = path.join(folder, 'corpus');
    await appendRegressions(regressionFile(corpus, 'sentinel'), [sampleRecord('INT-EHR-4')]);
    const plain = await spawnCli(['replay', '--corpus', corpus], { cwd: folder });
    expect(plain.stderr).toContain('note: replay reads no config file (farma-fuzz.config.mjs is here): it replays the corpus of sentinel; pass --guard');
    const named = await spawnCli(['replay', '--guard', 'sentinel', '--corpus', corpus], { cwd: folder });
    expect(named.stderr).not.toContain('reads no config file');
  }, 60_000);
});

describe('input files', () => {
  it('--benign with lines but no usable entry (CSV) is an input error naming the bad lines, before the run', async () => {
    const f = path.join(dir, 'export.csv');
    writeFileSync(f, 'id,content\n1,hello\n');
    for (const cmd of [['fpr', '--guard', 'sentinel', '-n', '5', '--no-real', '--no-loso', '--no-matched', '-d', 'ehr'], ['fuzz', '--runs', '1', '--no-corpus', '--no-real', '-q', '--out', path.join(dir, 'o2')]]) {
      const r = await runCli([...cmd, '--benign', f]);
      expect(r.code, cmd[0]).toBe(3);
      expect(r.stderr).toContain('--benign: no line of the file is a usable memory entry (2 bad lines)');
      expect(r.stderr).toMatch(/export\.csv:1: this looks like CSV \(a header of comma-separated names\); JSONL expected.*malformed JSON/);
    }
  }, 60_000);

  it('--benign with an empty or blank file is an input error (exit 3), before the run', async () => {
    for (const [name, text] of [['empty.jsonl', ''], ['blank.jsonl', '\n  \n\t\n']] as const) {
      const f = path.join(dir, name);
      writeFileSync(f, text);
      const r = await runCli(['fuzz', '--benign', f, '--runs', '1', '--no-corpus', '--no-real', '-q', '--out', path.join(dir, 'o')]);
      expect(r.code, name).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`${name}: --benign: the file holds no entries`));
      expect(r.stdout).not.toMatch(/cases in/);
    }
  });

  it('invalid UTF-8 warns with file:line, and the line is still read', async () => {
    const f = path.join(dir, 'latin1.jsonl');
    writeFileSync(f, Buffer.concat([Buffer.from('{"id":"a","content":"ok"}\n{"id":"b","content":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    const sync = readJsonl(f, validateMemoryEntry);
    expect(sync.records.map((r) => r.value.content)).toEqual(['ok', 'caf\uFFFD']);
    expect(sync.warnings).toEqual([{ file: f, line: 2, message: expect.stringMatching(/not valid UTF-8/) }]);
    const r = await runCli(['check', '--input', f]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`latin1\\.jsonl:2: not valid UTF-8`));
  });

  it('a JSON array, on one line or pretty-printed, is named as such', () => {
    const one = path.join(dir, 'array.jsonl');
    writeFileSync(one, '[{"id":"a","content":"x"},{"id":"b","content":"y"}]\n');
    expect(readJsonl(one, validateMemoryEntry).issues[0]?.message).toMatch(/^this file is a JSON array; JSONL expected/);
    const pretty = path.join(dir, 'pretty.json');
    writeFileSync(pretty, '[\n  {"id": "a", "content": "x"}\n]\n');
    expect(readJsonl(pretty, validateMemoryEntry).issues[0]?.message).toMatch(/^this file is a JSON array; JSONL expected/);
  });

  it('the streaming reader gives what the whole-file reader gives, over chunks that split lines and characters', async () => {
    const text = '\uFEFF{"id":"1","content":"é ü 中文 😀"}\r\n\n{bad\n{"id":"2","content":"two"}\n[1,2]\n{"id":"3","content":"no newline"}';
    const bytes = Buffer.from(text, 'utf8');
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 3) chunks.push(bytes.subarray(i, i + 3)); // cuts through multi-byte characters
    const streamed = await readJsonlStream(Readable.from(chunks), 'mem.jsonl', validateMemoryEntry);
    const wholeFile = path.join(dir, 'whole.jsonl');
    writeFileSync(wholeFile, bytes);
    const whole = readJsonl(wholeFile, validateMemoryEntry);
    expect(streamed.records).toEqual(whole.records);
    expect(streamed.records.map((r) => [r.line, r.value.content])).toEqual([[1, 'é ü 中文 😀'], [4, 'two'], [6, 'no newline']]);
    expect(streamed.issues.map((i) => i.line)).toEqual([3, 5]);
    expect(streamed.warnings).toBeUndefined();
  });

  it('the streaming reader holds one line at a time: 200,000 lines from a generator', async () => {
    async function* lines(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 200_000; i += 1000) {
        let s = '';
        for (let j = i; j < i + 1000; j++) s += `{"n":${j}}\n`;
        yield Buffer.from(s);
      }
    }
    let sum = 0;
    const r = await readJsonlStream(lines(), 'gen', (v) => {
      sum += (v as { n: number }).n;
      return { ok: false, message: 'not kept' }; // keep nothing: only lines pass through
    });
    expect(sum).toBe((199_999 * 200_000) / 2);
    expect(r.issues).toHaveLength(200_000);
  });
});
