/**
 * `--out` at a dangling symbolic link (or below one, or at a link loop) is a usage
 * error found before the run (exit 2, naming the flag and where the link points), never an
 * internal error after the run (exit 5 from `mkdir`). A link to a real directory still works.
 */
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { writableDir } from '../../src/cli/context.js';
import { UsageError } from '../../src/domain/errors.js';

function links(): { dangling: string; below: string; loop: string; good: string; target: string } {
  const tmp = mkdtempSync(path.join(tmpdir(), 'farma-out-link-'));
  const dangling = path.join(tmp, 'dangling');
  symlinkSync(path.join(tmp, 'missing', 'dir'), dangling);
  const loop = path.join(tmp, 'loop');
  symlinkSync(loop, loop);
  const target = path.join(tmp, 'real');
  mkdirSync(target);
  const good = path.join(tmp, 'good');
  symlinkSync(target, good);
  return { dangling, below: path.join(dangling, 'sub'), loop, good, target };
}

describe('--out at a dangling symbolic link (22.13)', () => {
  it('writableDir refuses a dangling link, a path below one and a loop, naming the flag', () => {
    const l = links();
    for (const p of [l.dangling, l.below, l.loop]) {
      let err: unknown;
      try {
        writableDir('--out', p);
      } catch (e) {
        err = e;
      }
      expect(err, p).toBeInstanceOf(UsageError);
      expect((err as Error).message).toMatch(/^--out .*symbolic link/);
    }
    expect(writableDir('--out', l.good)).toBe(path.resolve(l.good));
  });

  it('fuzz --out <dangling link> exits 2 before the run', async () => {
    const l = links();
    const r = await runCli(['fuzz', '--guard', 'keyword', '--runs', '3', '--domain', 'ehr', '--family', 'seed', '--no-real', '--no-corpus', '-q', '--out', l.dangling]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--out .*dangling.*symbolic link to .*missing/);
    expect(r.stderr).not.toMatch(/internal error/);
  });

  it('fpr --out <dangling link> exits 2', async () => {
    const l = links();
    const r = await runCli(['fpr', '--guard', 'keyword', '--runs', '3', '--domain', 'ehr', '--no-real', '-q', '--out', l.dangling]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/symbolic link/);
  });

  it('fuzz --out <link to a directory> writes the report there', async () => {
    const l = links();
    const r = await runCli(['fuzz', '--guard', 'keyword', '--runs', '3', '--domain', 'ehr', '--family', 'benign', '--no-real', '--no-corpus', '-q', '--out', l.good]);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(l.target)).toContain('report.json');
  });
});
