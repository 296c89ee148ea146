/**
 * Robustness of the SQLite memory store under concurrent writers and read-only access
 *:
 * - two `import` processes with overlapping ids commit every distinct entry once, skip the
 *   duplicates with a warning, and never crash;
 * - `check --store` opens the store read-only: it writes nothing and leaves no -wal/-shm file,
 *   also for a store left in WAL mode, and works on a read-only mount.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../src/domain/errors.js';
import { MemoryStore } from '../../src/memory/index.js';
import { spawnCli } from '../helpers/spawn-cli.js';

/** Root ignores file modes: read-only checks then run the CLI as `nobody`, so the modes bind. */
const AS_NOBODY = process.platform === 'linux' && process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

const cli = (args: string[], options: { asUser?: boolean } = {}) => spawnCli(args, options.asUser ? AS_NOBODY : {});

function entries(from: number, to: number): string {
  const lines: string[] = [];
  for (let i = from; i < to; i++) {
    lines.push(JSON.stringify({ id: `e-${i}`, store: i % 3 === 0 ? 'general' : 'reasoning', content: `Checked batch B-${i} of INT-EHR-${i % 97}: ${i % 5} rows flagged.`, source: 'AGENT', trust: 'VERIFIED' }));
  }
  return `${lines.join('\n')}\n`;
}

const count = (text: string, re: RegExp): number => Number(re.exec(text)?.[1] ?? Number.NaN);
const sha = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('concurrent imports into one store', () => {
  it('commit every distinct entry once; overlapping ids are skipped with a warning, never a crash', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-import-race-'));
    const store = path.join(dir, 'memory.db');
    writeFileSync(path.join(dir, 'a.jsonl'), entries(0, 4000));
    writeFileSync(path.join(dir, 'b.jsonl'), entries(2000, 6000));
    writeFileSync(path.join(dir, 'c.jsonl'), entries(1000, 3000));
    // a: batched transactions; b and c: one transaction per entry, through a guard that admits all.
    const [a, b, c] = await Promise.all([
      cli(['import', '--store', store, '--input', path.join(dir, 'a.jsonl')]),
      cli(['import', '--store', store, '--input', path.join(dir, 'b.jsonl'), '--guard', 'none']),
      cli(['import', '--store', store, '--input', path.join(dir, 'c.jsonl'), '--guard', 'none']),
    ]);
    for (const r of [a, b, c]) {
      expect(r.stderr).not.toMatch(/StoreError|internal error|SQLITE_BUSY|database is locked/);
      expect(r.code, r.stderr.slice(-500)).toBe(0);
    }
    const committed = [a, b, c].map((r) => count(r.stdout, /: (\d+) committed/));
    const duplicates = [a, b, c].map((r) => count(r.stdout, /(\d+) duplicates skipped/));
    expect(committed.reduce((x, y) => x + y, 0)).toBe(6000);
    expect(duplicates.reduce((x, y) => x + y, 0)).toBe(4000 + 4000 + 2000 - 6000);
    const warned = [a, b, c].reduce((n, r) => n + (r.stderr.match(/is already in the \w+ store; skipped/g) ?? []).length, 0);
    expect(warned).toBe(4000);
    const db = new Database(store, { readonly: true });
    try {
      expect((db.prepare('SELECT count(*) n FROM entries').get() as { n: number }).n).toBe(6000);
      expect((db.prepare('SELECT count(DISTINCT store || id) n FROM entries').get() as { n: number }).n).toBe(6000);
      expect((db.prepare('SELECT sum(n) n FROM store_sizes').get() as { n: number }).n).toBe(6000);
      expect((db.prepare('SELECT count(*) n FROM entries_fts').get() as { n: number }).n).toBe(6000);
      expect((db.prepare('SELECT sum(n) n FROM trace_counts').get() as { n: number }).n).toBe(6000);
    } finally {
      db.close();
    }
  }, 180_000);
});

function makeStore(file: string): void {
  const s = new MemoryStore(file);
  s.insertMany([
    { id: 'h1', store: 'reasoning', content: 'Validated INT-EHR-7742 before import.', source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: '2024-01-01T00:00:00Z' },
    { id: 'h2', store: 'general', content: 'INT-EHR-7742 holds 24 rows.', source: 'TOOL', trust: 'VERIFIED', traceType: 'observation', timestamp: '2024-01-01T00:00:00Z' },
  ]);
  s.close();
}

/** A store left in WAL mode at rest (as stores written before this change are). */
function makeWalStore(file: string): void {
  makeStore(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.close();
  expect(readFileSync(file)[18]).toBe(2);
}

describe('check --store opens the store read-only', () => {
  const input = (dir: string): string => {
    const f = path.join(dir, 'in.jsonl');
    writeFileSync(f, `${JSON.stringify({ id: 'c1', content: 'Validated INT-EHR-7742: MRN checked.', source: 'AGENT', trust: 'VERIFIED' })}\n`);
    return f;
  };

  it.each([
    ['a store written by import', makeStore],
    ['a store left in WAL mode', makeWalStore],
  ])('%s: verdicts printed, nothing written, no -wal/-shm left behind', async (_name, make) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-ro-'));
    const file = path.join(dir, 'memory.db');
    make(file);
    const inFile = input(dir);
    chmodSync(file, 0o444);
    chmodSync(inFile, 0o444);
    chmodSync(dir, 0o555); // a read-only folder: SQLite could not even create a -wal file here
    const before = { hash: sha(file), files: readdirSync(dir).sort() };
    const r = await cli(['check', '--store', file, '--input', inFile], { asUser: true });
    expect(r.stderr).not.toMatch(/readonly database|attempt to write/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/"id":"c1","decision":"(admit|reject)"/);
    expect(sha(file)).toBe(before.hash);
    expect(readdirSync(dir).sort()).toEqual(before.files);
  }, 60_000);

  it('a read-only MemoryStore refuses writes with a clear StoreError', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-ro-'));
    const file = path.join(dir, 'memory.db');
    makeStore(file);
    const s = new MemoryStore(file, { readonly: true });
    try {
      expect(s.view.size()).toBe(2);
      expect(s.view.countByKey('int-ehr-7742')).toBe(2);
      expect(() => s.insert({ id: 'x', store: 'reasoning', content: 'x', source: 'AGENT', trust: 'V', traceType: 'fact', timestamp: 't' })).toThrow(/opened read-only/);
    } finally {
      s.close();
    }
    expect(readdirSync(dir)).toEqual(['memory.db']);
    expect(() => new MemoryStore(path.join(dir, 'nope.db'), { readonly: true })).toThrow(StoreError);
    expect(() => new MemoryStore(path.join(dir, 'nope.db'), { readonly: true })).toThrow(/no such memory store/);
  });

  // A real read-only mount needs mount(8) and the right to use it (root in a container).
  const canMount = process.platform === 'linux' && process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;
  it.runIf(canMount)('on a read-only mount, both kinds of store can be checked (never "no such memory store")', async () => {
    const mnt = mkdtempSync(path.join(tmpdir(), 'farma-mnt-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mnt]);
    if (mounted.status !== 0) return expect.fail(`mount failed: ${String(mounted.stderr)}`);
    try {
      mkdirSync(path.join(mnt, 'd'));
      makeStore(path.join(mnt, 'd', 'new.db'));
      makeWalStore(path.join(mnt, 'd', 'wal.db'));
      const inFile = input(mkdtempSync(path.join(tmpdir(), 'farma-ro-in-')));
      expect(spawnSync('mount', ['-o', 'remount,ro', mnt]).status).toBe(0);
      for (const name of ['new.db', 'wal.db']) {
        const r = await cli(['check', '--store', path.join(mnt, 'd', name), '--input', inFile]);
        expect(r.stderr, name).not.toMatch(/no such memory store|readonly database/);
        expect(r.code, `${name}: ${r.stderr}`).toBe(0);
        expect(r.stdout).toMatch(/"id":"c1"/);
      }
      expect(readdirSync(path.join(mnt, 'd')).sort()).toEqual(['new.db', 'wal.db']);
    } finally {
      spawnSync('umount', [mnt]);
    }
    expect(existsSync(path.join(mnt, 'd'))).toBe(false);
  }, 60_000);
});
