/**
 * Tells whether a file is a farma-fuzz memory store before opening it for writing, so a
 * mistyped `--store` never adds our schema to someone else's SQLite database.
 */
import Database from 'better-sqlite3';

/** `store`: a farma-fuzz memory store; `missing`: no file; `foreign`: another SQLite file or not SQLite. */
export function probeStoreFile(file: string): 'store' | 'missing' | 'foreign' {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const names = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name));
    return names.has('meta') && names.has('entries') ? 'store' : 'foreign';
  } catch (e) {
    return (e as { code?: string }).code === 'SQLITE_CANTOPEN' ? 'missing' : 'foreign';
  } finally {
    db?.close();
  }
}
