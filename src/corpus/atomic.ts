/**
 * Crash-safe file writes and cross-process file locks for corpus files.
 * - {@link writeFileAtomic}: temp file + fsync + rename (npm `write-file-atomic`), so a
 *   reader sees either the old file or the new one, never half of one.
 * - {@link withFileLock}: an advisory lock shared by every farma-fuzz process (npm
 *   `proper-lockfile`, a `<file>.lock` directory with mtime heartbeats and stale takeover),
 *   so two processes that read-modify-write the same corpus never lose a record.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';
import writeFileAtomicImpl from 'write-file-atomic';
import { CorpusError, errorMessage } from '../domain/index.js';

function reason(err: unknown): string {
  return errorMessage(err);
}

/**
 * Replaces `file` with `data` atomically (UTF-8 for strings), creating parent folders.
 * The temp file lives next to the target (`<file>.<hash>`) and is renamed over it after an
 * fsync; if the process dies first, the target is untouched and only the temp file remains.
 *
 * @throws CorpusError naming the file when the write or rename fails.
 * @example
 * await writeFileAtomic('corpora/regressions/sentinel.jsonl', lines.join('\n') + '\n');
 */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  try {
    mkdirSync(dirname(file), { recursive: true });
    await writeFileAtomicImpl(file, data, { encoding: 'utf8' });
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
