/**
 * An output path that is not a regular file is never replaced by a rename.
 * - A named pipe, a character device (a private copy of /dev/null or /dev/full made with mknod,
 *   when the test may: never the system's own nodes), a symlink to either: written in place, and
 *   still the same kind of file afterwards.
 * - A symlink to a regular file: the target is replaced, the link stays a link.
 * - A dangling symlink, a directory, a read-only file: refused at start (`fuzz`, `merge-reports`
 *   exit 2 before running anything), and refused by the writer itself (never replaced).
 * - A corpus file that is a FIFO or a device: refused (CorpusError), never opened for append.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withFileLock, writeFileAtomic } from '../../src/corpus/atomic.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-special-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function mkfifo(name: string): string {
  const p = path.join(dir, name);
  execFileSync('mkfifo', [p]);
  return p;
}

/** A private character device node (same major/minor as /dev/null or /dev/full), or undefined when mknod is not allowed here. */
function mknod(name: string, minor: 3 | 7): string | undefined {
  const p = path.join(dir, name);
  try {
    execFileSync('mknod', [p, 'c', '1', String(minor)], { stdio: 'ignore' });
    return p;
  } catch {
    return undefined;
  }
}

/** Reads a FIFO to its end in a child process (`cat`), resolving with what was written. */
function drain(fifo: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const cat = spawn('cat', [fifo]);
    let out = '';
    cat.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    cat.on('error', reject);
    cat.on('close', () => resolve(out));
  });
}

describe('writeFileAtomic on targets that are not regular files', () => {
  it('a named pipe is written in place and stays a pipe', async () => {
    const fifo = mkfifo('out.fifo');
    const read = drain(fifo);
    await writeFileAtomic(fifo, 'hello pipe\n');
    expect(await read).toBe('hello pipe\n');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('a symlink to a pipe is written through and stays a symlink to a pipe', async () => {
    const fifo = mkfifo('target.fifo');
    const link = path.join(dir, 'link-to-fifo');
    symlinkSync(fifo, link);
    const read = drain(fifo);
    await writeFileAtomic(link, 'through the link\n');
    expect(await read).toBe('through the link\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('a character device (a private /dev/null) stays a device; a private /dev/full gives an error naming the file', async (ctx) => {
    const devNull = mknod('null', 3);
    const devFull = mknod('full', 7);
    if (devNull === undefined || devFull === undefined) return ctx.skip();
    await writeFileAtomic(devNull, 'discarded\n');
    expect(lstatSync(devNull).isCharacterDevice()).toBe(true);
    await expect(writeFileAtomic(devFull, 'no room\n')).rejects.toThrow(new RegExp(`${devFull}.*ENOSPC`));
    expect(lstatSync(devFull).isCharacterDevice()).toBe(true);
  });

  it('a symlink to a regular file: the file gets the content, the link stays a link', async () => {
    const target = path.join(dir, 'real.txt');
    writeFileSync(target, 'old\n');
    const link = path.join(dir, 'link-to-file');
    symlinkSync(target, link);
    await writeFileAtomic(link, 'new\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new\n');
  });

  it('a dangling symlink and a read-only file are refused, never replaced', async () => {
    const link = path.join(dir, 'dangling');
    symlinkSync(path.join(dir, 'nowhere', 'x.xml'), link);
    await expect(writeFileAtomic(link, 'x')).rejects.toThrow(/symbolic link to .*nowhere.*which does not exist/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const ro = path.join(dir, 'read-only.xml');
    writeFileSync(ro, 'keep me\n');
    chmodSync(ro, 0o444);
    await expect(writeFileAtomic(ro, 'x')).rejects.toThrow(/read-only/);
    expect(readFileSync(ro, 'utf8')).toBe('keep me\n');
  });

  it('a corpus file that is a pipe is refused before it is opened (no hang, no replacement)', async () => {
    const fifo = mkfifo('corpus.jsonl');
    await expect(withFileLock(fifo, () => 1)).rejects.toThrow(/not a regular file/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });
});

describe('output flags checked at start', () => {
  const fuzz = (extra: string[]) => runCli(['fuzz', '--guard', 'none', '-d', 'ehr', '-f', 'benign', '-n', '3', '--no-real', '--no-corpus', '-q', '--seed', '1', '--out', path.join(dir, `run-${extra.join('-').replace(/\W+/g, '_').slice(-40)}`), ...extra]);

  it('--junit at a dangling symlink: exit 2 naming the flag and the missing target, nothing run', async () => {
    const link = path.join(dir, 'junit-dangling');
    symlinkSync(path.join(dir, 'missing-dir', 'junit.xml'), link);
    const r = await fuzz(['--junit', link]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--junit .*junit-dangling: is a symbolic link to .*missing-dir.*which does not exist/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('--html at a read-only file: exit 2, the file untouched', async () => {
    const ro = path.join(dir, 'ro.html');
    writeFileSync(ro, 'mine\n');
    chmodSync(ro, 0o444);
    const r = await fuzz(['--html', ro]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--html .*ro\.html: is read-only/);
    expect(readFileSync(ro, 'utf8')).toBe('mine\n');
  });

  it('--junit or --html onto the run\'s own report.json or report.md, or onto each other: exit 2 before the run, nothing replaced', async () => {
    const out = path.join(dir, 'run-own-outputs');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'report.json'), 'earlier\n');
    const base = ['fuzz', '--guard', 'none', '-d', 'ehr', '-f', 'benign', '-n', '3', '--no-real', '--no-corpus', '-q', '--seed', '1', '--out', out];
    const j = await runCli([...base, '--junit', path.join(out, 'report.json')]);
    expect(j.code).toBe(2);
    expect(j.stderr).toMatch(/--junit .*report\.json: this is the report's own report\.json in --out, which the run writes too/);
    expect(readFileSync(path.join(out, 'report.json'), 'utf8')).toBe('earlier\n');
    const h = await runCli([...base, '--html', path.join(out, 'report.md')]);
    expect(h.code).toBe(2);
    expect(h.stderr).toMatch(/--html .*report\.md: this is the report's own report\.md in --out/);
    const both = await runCli([...base, '--html', path.join(dir, 'same.xml'), '--junit', path.join(dir, 'same.xml')]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--junit and --html name the same file/);
    // --html at the report's own report.html is the default, not a clash.
    expect((await runCli([...base, '--html', path.join(out, 'report.html')])).code).toBe(0);
  });

  it('--junit at a named pipe with a reader: the run writes the XML into the pipe, which stays a pipe', async () => {
    const fifo = mkfifo('junit.fifo');
    const read = drain(fifo);
    const r = await fuzz(['--junit', fifo]);
    expect(r.code).toBe(0);
    expect(await read).toMatch(/^<\?xml[\s\S]*<testsuites/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('--junit at a private /dev/null: exit 0 and the node is still a character device', async (ctx) => {
    const devNull = mknod('junit-null', 3);
    if (devNull === undefined) return ctx.skip();
    const r = await fuzz(['--junit', devNull]);
    expect(r.code).toBe(0);
    expect(statSync(devNull).isCharacterDevice()).toBe(true);
  });

  it('--corpus at a named pipe is refused at start (exit 2)', async () => {
    const fifo = mkfifo('corpus-dir.fifo');
    const r = await runCli(['fuzz', '--guard', 'none', '-d', 'ehr', '-f', 'benign', '-n', '3', '--no-real', '-q', '--seed', '1', '--corpus', fifo, '--out', path.join(dir, 'run-corpus-fifo')]);
    expect(r.code).toBe(2);
    mkdirSync(path.join(dir, 'unused'), { recursive: true });
  });
});
