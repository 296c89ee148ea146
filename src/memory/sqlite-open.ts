/**
 * Opening SQLite files for the memory store.
 *
 * - Writers wait for each other: a busy timeout (default {@link DEFAULT_BUSY_TIMEOUT_MS}).
 * - A read-only open writes nothing and leaves no `-wal`/`-shm` file behind. A file whose
 *   header says WAL mode but that has no `-wal` beside it (no writer has it open) is opened
 *   `immutable`, which needs no side file at all: that is what makes a read-only folder or a
 *   read-only mount work. Stores written by this version are left in rollback-journal mode when
 *   their last writer closes, so plain read-only opens create nothing either.
 */
import { existsSync, openSync, readSync, closeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

// URI file names (for `?immutable=1`). better-sqlite3 reads this once, at its first open.
process.env.SQLITE_USE_URI ??= '1';

/** How long a writer waits for another process's write lock, in ms. */
export const DEFAULT_BUSY_TIMEOUT_MS = 10_000;

/** `true` when the file's header says WAL mode (bytes 18–19 of the SQLite header are 2). */
function isWalFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const header = Buffer.alloc(20);
    if (readSync(fd, header, 0, 20, 0) < 20) return false;
    return header.subarray(0, 16).toString('latin1') === 'SQLite format 3\u0000' && header[18] === 2 && header[19] === 2;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Opens `file` read-only, creating no file. Throws better-sqlite3's error (code
 * `SQLITE_CANTOPEN` when the file cannot be opened).
 */
export function openReadOnly(file: string, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS): Database.Database {
  if (isWalFile(file) && !existsSync(`${file}-wal`)) {
    const uri = `file:${encodeURI(path.resolve(file)).replace(/[?#]/g, encodeURIComponent)}?immutable=1`;
    try {
      return new Database(uri, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
    } catch {
      // URI names are off (another part of the process opened SQLite first): try a plain open.
    }
  }
  return new Database(file, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
}
