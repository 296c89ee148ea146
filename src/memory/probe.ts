/**
 * Tells whether a file is a farma-fuzz memory store before opening it for writing, so a
 * mistyped `--store` never adds our schema to someone else's SQLite database. The probe opens
 * the file read-only and creates nothing (see `sqlite-open.ts`).
 */
import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { openReadOnly } from './sqlite-open.js';

/**
 * `store`: a farma-fuzz memory store; `missing`: no file; `foreign`: another SQLite file or not
 * SQLite; `unreadable`: the file exists but SQLite cannot open it (no read permission, or a WAL
 * file whose side files cannot be created on a read-only mount while a writer has it open).
 */
export function probeStoreFile(file: string): 'store' | 'missing' | 'foreign' | 'unreadable' {
  let db: Database.Database | undefined;
  try {
    db = openReadOnly(file);
    const names = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name));
    // No table at all: a new file another writer is creating right now (or an empty one): ours to fill.
    return (names.has('meta') && names.has('entries')) || names.size === 0 ? 'store' : 'foreign';
  } catch (e) {
    if ((e as { code?: string }).code === 'SQLITE_CANTOPEN') return existsSync(file) ? 'unreadable' : 'missing';
    return 'foreign';
  } finally {
    db?.close();
  }
}
