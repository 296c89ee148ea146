/**
 * Crash-safe file writes and cross-process file locks for corpus files.
 * - {@link writeFileAtomic}: temp file + fsync + rename (npm `write-file-atomic`), so a
 *   reader sees either the old file or the new one, never half of one.
 * - {@link withFileLock}: an advisory lock shared by every farma-fuzz process (npm
 *   `proper-lockfile`, a `<file>.lock` directory with mtime heartbeats and stale takeover),
 *   so two processes that read-modify-write the same corpus never lose a record.
 */
import { accessSync, appendFileSync, constants, lstatSync, mkdirSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import writeFileAtomicImpl from 'write-file-atomic';
import { CorpusError, errorMessage } from '../domain/index.js';

function reason(err: unknown): string {
  return errorMessage(err);
}

/**
 * What an output path names, before anything is written to it:
 * - `missing`: nothing there yet (written by temp file + rename);
 * - `file`: a regular file, `path` its real path when `file` is a symlink (the target is
 *   replaced, the link stays a link);
 * - `special`: a FIFO or a device (`/dev/null`, `/dev/stdout`, a shell's `>(cmd)`), written in
 *   place: a rename would replace it with a regular file;
 * - `refused`, with the reason: a dangling symlink, a directory, a socket, a read-only file.
 */
export type OutputTarget = { kind: 'missing' | 'file' | 'special'; path: string } | { kind: 'refused'; reason: string };

/** True when the file's permission bits allow nobody to write it, or this process may not (root ignores the bits, so both are checked). */
function readOnly(path: string, st: Stats): boolean {
  if ((st.mode & 0o222) === 0) return true;
  try {
    accessSync(path, constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/** Classifies `file` as an output target (see {@link OutputTarget}). Never throws. */
export function outputTarget(file: string): OutputTarget {
  let st: Stats | undefined;
  try {
    st = lstatSync(file, { throwIfNoEntry: false });
  } catch (err) {
    return { kind: 'refused', reason: `cannot be inspected (${reason(err)})` };
  }
  if (st === undefined) return { kind: 'missing', path: file };
  let real = file;
  if (st.isSymbolicLink()) {
    try {
      st = statSync(file);
    } catch {
      let to = '?';
      try {
        to = resolve(dirname(file), readlinkSync(file));
      } catch {
        // unreadable link: named as '?'
      }
      return { kind: 'refused', reason: `is a symbolic link to ${to}, which does not exist (create the target, or give another path)` };
    }
    try {
      real = realpathSync(file);
    } catch {
      // A /proc magic link (/dev/fd/N of a pipe) has no path to resolve to: opened as given.
      real = file;
    }
  }
  if (st.isDirectory()) return { kind: 'refused', reason: 'is a directory, give a file name' };
  if (st.isSocket()) return { kind: 'refused', reason: 'is a socket; give a file, a named pipe or a device' };
  if (st.isFile()) return readOnly(real, st) ? { kind: 'refused', reason: 'is read-only (farma-fuzz never replaces a file it may not write)' } : { kind: 'file', path: real };
  return { kind: 'special', path: real };
}

/**
 * Replaces `file` with `data` atomically (UTF-8 for strings), creating parent folders.
 * The temp file lives next to the target (`<file>.<hash>`) and is renamed over it after an
 * fsync; if the process dies first, the target is untouched and only the temp file remains.
 * A target that is not a regular file is never renamed over: a FIFO or a device
 * is written in place (a FIFO waits for its reader, as a shell's `>` does); a symlink's target is
 * written, the link kept; a dangling symlink, a directory, a socket or a read-only file is refused.
 *
 * @throws CorpusError naming the file when the target is refused, or the write or rename fails.
 * @example
 * await writeFileAtomic('corpora/regressions/sentinel.jsonl', lines.join('\n') + '\n');
 */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  const target = outputTarget(file);
  if (target.kind === 'refused') throw new CorpusError(`${file}: ${target.reason}`);
  try {
    if (target.kind === 'special') {
      await writeFile(target.path, data, typeof data === 'string' ? { encoding: 'utf8' } : {});
      return;
    }
    if (target.kind === 'missing') mkdirSync(dirname(file), { recursive: true });
    await writeFileAtomicImpl(target.path, data, { encoding: 'utf8' });
  } catch (err) {
    throw new CorpusError(`${file}: atomic write failed: ${reason(err)}`, { cause: err });
  }
}

export interface FileLockOptions {
  /**
   * A lock whose heartbeat is older than this (ms) is considered left by a dead process and
   * is taken over. Default 10,000 ms (proper-lockfile's default); minimum 2,000 ms.
   */
  staleMs?: number;
  /** How long to keep retrying a held lock before giving up (ms). Default 30,000 ms. */
  waitMs?: number;
}

/**
 * Runs `fn` while holding the cross-process lock of `file`. The file (and its folder) is
 * created empty if missing, since the lock is keyed on the file's real path. The lock is
 * released when `fn` settles, whether it returns or throws.
 *
 * @returns what `fn` returns.
 * @throws CorpusError naming the file when the lock cannot be taken within `waitMs`, or
 *   when it was compromised (taken over as stale) while `fn` ran; errors from `fn` pass through.
 * @example
 * await withFileLock(file, async () => { const old = read(file); await writeFileAtomic(file, merge(old)); });
 */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const staleMs = Math.max(2_000, options.staleMs ?? 10_000);
  const waitMs = Math.max(0, options.waitMs ?? 30_000);
  // A corpus is a regular JSONL file: a FIFO or a device would block or swallow the append below.
  const target = outputTarget(file);
  if (target.kind === 'special') throw new CorpusError(`${file}: not a regular file (a named pipe or a device); a corpus is a JSONL file`);
  if (target.kind === 'refused') throw new CorpusError(`${file}: ${target.reason}`);
  try {
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, '');
  } catch (err) {
    throw new CorpusError(`${file}: cannot create the file to lock it: ${reason(err)}`, { cause: err });
  }
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(file, {
      stale: staleMs,
      retries: { retries: Math.ceil(waitMs / 50), factor: 1, minTimeout: 25, maxTimeout: 75, randomize: true },
      onCompromised: (err) => {
        compromised = err;
      },
    });
  } catch (err) {
    throw new CorpusError(`${file}: cannot take the corpus lock: ${reason(err)}`, { cause: err });
  }
  let result: T;
  try {
    result = await fn();
  } finally {
    try {
      await release();
    } catch (err) {
      // Releasing a compromised lock fails; that case is reported below.
      if (compromised === undefined) compromised = err instanceof Error ? err : new Error(String(err));
    }
  }
  if (compromised !== undefined) {
    throw new CorpusError(`${file}: the corpus lock was lost while writing: ${compromised.message}`, { cause: compromised });
  }
  return result;
}
