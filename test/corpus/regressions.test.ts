import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { caseId } from '../../src/corpus/case-id.js';
import {
  appendRegressions,
  loadRegressionDir,
  loadRegressions,
  regressionFile,
  updateStatus,
  validateRegressionRecord,
} from '../../src/corpus/regressions.js';
import { sampleCase, sampleRecord } from './regression-fixture.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const fresh = (): string => mkdtempSync(join(tmpdir(), 'farma-reg-'));

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: join(here, '../..'), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('regressionFile', () => {
  it('keeps safe guard ids and sanitises others without collisions', () => {
    expect(regressionFile('/c', 'sentinel')).toBe(join('/c', 'sentinel.jsonl'));
    const a = regressionFile('/c', 'http://h/a b');
    const b = regressionFile('/c', 'http://h/a_b');
    expect(a).toMatch(/^\/c\/http_h_a_b-[0-9a-f]{8}\.jsonl$/);
    expect(a).not.toBe(b);
    expect(regressionFile('/c', '../../etc/passwd')).toMatch(/^\/c\/etc_passwd-[0-9a-f]{8}\.jsonl$/);
    expect(regressionFile('/c', '')).toMatch(/^\/c\/guard-[0-9a-f]{8}\.jsonl$/);
  });
});

describe('regression corpus', () => {
  it('records get the case id, and a missing file loads as empty', () => {
    const r = sampleRecord('INT-EHR-1');
    expect(r.id).toBe(caseId(sampleCase('INT-EHR-1')));
    expect(validateRegressionRecord(JSON.parse(JSON.stringify(r))).ok).toBe(true);
    expect(loadRegressions(join(fresh(), 'none.jsonl'))).toEqual({ records: [], issues: [] });
  });

  it('appends, dedupes by id and round-trips', async () => {
    const file = join(fresh(), 'sub', 'sentinel.jsonl');
    const a = sampleRecord('A-1');
    const b = sampleRecord('B-2');
    expect(await appendRegressions(file, [a, b, a])).toEqual({ added: 2, duplicates: 1, issues: [] });
    expect(await appendRegressions(file, [b, sampleRecord('C-3')])).toEqual({ added: 1, duplicates: 1, issues: [] });
    const { records, issues } = loadRegressions(file);
    expect(issues).toEqual([]);
    expect(records.map((r) => r.value)).toEqual([a, b, sampleRecord('C-3')]);
  });

  it('keeps corrupt lines verbatim, reports them, and never loses records', async () => {
    const file = join(fresh(), 'g.jsonl');
    const a = sampleRecord('A-1');
    writeFileSync(file, `${JSON.stringify(a)}\n{"id": "half\n{"id":"x"}\n`);
    const res = await appendRegressions(file, [sampleRecord('B-2')]);
    expect(res.added).toBe(1);
    expect(res.issues.map((i) => i.line)).toEqual([2, 3]);
    expect(res.issues[1]?.message).toMatch(/"guard"/);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('{"id": "half\n');
    expect(text).toContain('{"id":"x"}\n');
    const { records } = loadRegressions(file);
    expect(records.map((r) => r.value.id)).toEqual([a.id, sampleRecord('B-2').id]);
  });

  it('loads every corpus of a folder, skipping lock and temp files', async () => {
    const dir = fresh();
    expect(loadRegressionDir(join(dir, 'absent'))).toEqual({ records: [], issues: [] });
    await appendRegressions(regressionFile(dir, 'sentinel'), [sampleRecord('A-1')]);
    await appendRegressions(regressionFile(dir, 'keyword'), [sampleRecord('B-2'), sampleRecord('C-3')]);
    writeFileSync(join(dir, 'keyword.jsonl.123abc'), 'partial temp file');
    writeFileSync(join(dir, 'broken.jsonl'), 'not json\n');
    const { records, issues } = loadRegressionDir(dir);
    expect(records.map((r) => [r.file, r.line])).toEqual([
      [join(dir, 'keyword.jsonl'), 1],
      [join(dir, 'keyword.jsonl'), 2],
      [join(dir, 'sentinel.jsonl'), 1],
    ]);
    expect(issues).toEqual([{ file: join(dir, 'broken.jsonl'), line: 1, message: expect.stringMatching(/malformed/) }]);
  });

  it('updates a status atomically and leaves other lines alone', async () => {
    const file = join(fresh(), 'g.jsonl');
    const a = sampleRecord('A-1');
    const b = sampleRecord('B-2');
    await appendRegressions(file, [a, b]);
    expect(await updateStatus(file, a.id, 'fixed')).toEqual({ updated: 1 });
    expect(await updateStatus(file, a.id, 'fixed')).toEqual({ updated: 0 });
    expect(await updateStatus(file, 'nope', 'fixed')).toEqual({ updated: 0 });
    const { records } = loadRegressions(file);
    expect(records.map((r) => [r.value.id, r.value.status])).toEqual([
      [a.id, 'fixed'],
      [b.id, 'open'],
    ]);
  });

  it('a temp file left by a crashed writer does not corrupt the corpus', async () => {
    const dir = fresh();
    const file = join(dir, 'g.jsonl');
    await appendRegressions(file, [sampleRecord('A-1')]);
    const before = readFileSync(file, 'utf8');
    // A real crash: the child is SIGKILLed right after write-file-atomic creates its temp file.
    const { code } = await run([join(here, 'crash-worker.ts'), file]);
    expect(code).not.toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const leftovers = readdirSync(dir).filter((n) => n.startsWith('g.jsonl.') && n !== 'g.jsonl.lock');
    expect(leftovers.length).toBe(1);
    // The stale lock of the killed child is taken over, and the corpus still grows.
    const res = await appendRegressions(file, [sampleRecord('B-2')], { staleMs: 2_000 });
    expect(res).toEqual({ added: 1, duplicates: 0, issues: [] });
    expect(loadRegressions(file).records).toHaveLength(2);
  });

  it('two processes appending 50 records each to one file keep all 100', async () => {
    const file = join(fresh(), 'race.jsonl');
    const worker = join(here, 'append-worker.ts');
    const [p, q] = await Promise.all([run([worker, file, 'p', '50']), run([worker, file, 'q', '50'])]);
    expect(p.stderr).toBe('');
    expect(q.stderr).toBe('');
    expect([p.code, q.code]).toEqual([0, 0]);
    const { records, issues } = loadRegressions(file);
    expect(issues).toEqual([]);
    const ids = new Set(records.map((r) => r.value.id));
    expect(ids.size).toBe(100);
    for (let i = 0; i < 50; i += 1) {
      expect(ids.has(sampleRecord(`p-${i}`).id)).toBe(true);
      expect(ids.has(sampleRecord(`q-${i}`).id)).toBe(true);
    }
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
