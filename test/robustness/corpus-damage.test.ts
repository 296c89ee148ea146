/**
 * Robustness: corpus files survive damage.
 * - A corrupt line and a truncated last line each give an issue naming the file and line;
 *   every other record is kept, by the loader, by appends and by the `replay` command.
 * - Appends survive a kill at any moment: the writer is SIGKILLed mid-loop several times and
 *   the file always parses with no issue and never loses a record it had (temp file + rename).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appendRegressions, loadRegressions, regressionFile } from '../../src/corpus/regressions.js';
import { sampleRecord } from '../corpus/regression-fixture.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(here, '..', '..');
const fresh = (): string => mkdtempSync(join(tmpdir(), 'farma-damage-'));

function damagedCorpus(dir: string): { file: string; ids: string[] } {
  const file = regressionFile(dir, 'sentinel');
  const recs = ['a', 'b', 'c'].map(sampleRecord);
  const lines = [JSON.stringify(recs[0]), '{"id": "broken", "guard": ', JSON.stringify(recs[1]), JSON.stringify(recs[2]), JSON.stringify(sampleRecord('d')).slice(0, 57)];
  writeFileSync(file, lines.join('\n')); // no final newline: the last line is truncated
  return { file, ids: recs.map((r) => r.id) };
}

describe('damaged corpus files', () => {
  it('the loader names the corrupt line and the truncated last line, and keeps every other record', () => {
    const { file, ids } = damagedCorpus(fresh());
    const { records, issues } = loadRegressions(file);
    expect(records.map((r) => r.value.id)).toEqual(ids);
    expect(records.map((r) => r.line)).toEqual([1, 3, 4]);
    expect(issues.map((i) => i.line)).toEqual([2, 5]);
    expect(issues.every((i) => i.file === file)).toBe(true);
    expect(issues[1]?.message).toMatch(/truncated last line/);
  });

  it('an append to a damaged file keeps every line and reports the bad ones', async () => {
    const { file, ids } = damagedCorpus(fresh());
    const before = readFileSync(file, 'utf8').split('\n');
    const added = sampleRecord('e');
    const res = await appendRegressions(file, [added]);
    expect(res.added).toBe(1);
    expect(res.issues.map((i) => i.line)).toEqual([2, 5]);
    const after = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    for (const line of before) expect(after).toContain(line);
    const { records } = loadRegressions(file);
    expect(records.map((r) => r.value.id)).toEqual(expect.arrayContaining([...ids, added.id]));
  });

  it('`replay` warns with file:line for each bad line and replays the other records', () => {
    const dir = fresh();
    const { file } = damagedCorpus(dir);
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'replay', '--guard', 'sentinel', '--corpus', dir], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toContain(`${file}:2`);
    expect(r.stderr).toContain(`${file}:5`);
    expect(r.stdout).toMatch(/\b3 records\b/);
  }, 30_000);
});

describe('appends survive a kill in the middle', () => {
  it('SIGKILL at arbitrary moments never leaves a half-written or shorter corpus', async () => {
    const dir = fresh();
    const file = regressionFile(dir, 'sentinel');
    await appendRegressions(file, [sampleRecord('seed-record')]);
    let known = 1;
    for (let round = 0; round < 2; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'append-loop.ts'), file, `r${round}`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      // Kill after a varying number of completed appends, so the kill lands at different points of a write.
      const killAfter = 2 + round * 3;
      await new Promise<void>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', () => resolve());
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if ((out.match(/appended/g) ?? []).length >= killAfter) child.kill('SIGKILL');
        });
      });
      const { records, issues } = loadRegressions(file);
      expect(issues, JSON.stringify(issues)).toEqual([]);
      expect(records.length).toBeGreaterThanOrEqual(known + killAfter * 50);
      expect((records.length - 1) % 50).toBe(0);
      known = records.length;
    }
  }, 60_000);
});
