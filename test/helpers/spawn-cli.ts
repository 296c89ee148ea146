/**
 * Runs the CLI as its own process (`node --import tsx src/cli/main.ts <args>`), for the tests that
 * are about the process: its exit code, what reaches its real stdout and stderr, signals, two
 * runs at once. Each spawn costs about 1–2 s of start-up on a loaded two-core machine, so a test
 * that is only about a command's output calls it in-process instead (`runCli` in
 * `test/helpers/run-cli.ts`).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The checkout the tests run in (the CLI's working folder unless `cwd` says otherwise). */
export const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Exit code (`null` when a signal ended it), and everything the process wrote to each stream, as text. */
/** tsx's `--import` entry (its package `.` export, `dist/loader.mjs`) as a file URL, found from the checkout. */
const TSX = pathToFileURL(path.join(path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('tsx/package.json')), 'dist', 'loader.mjs')).href;

export interface SpawnedCli {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns the CLI with `args` and waits for it to close. `env` replaces the environment when
 * given (the caller spreads `process.env` itself); `cwd` defaults to `ROOT`; `uid` and `gid` run
 * it as another user (root only). Rejects only when the process cannot be started.
 */
export function spawnCli(args: readonly string[], o: { env?: NodeJS.ProcessEnv; cwd?: string; uid?: number; gid?: number } = {}): Promise<SpawnedCli> {
  return new Promise((resolve, reject) => {
    // tsx as the checkout resolves it, so a `cwd` outside the checkout (without node_modules) works too.
    const child = spawn(process.execPath, ['--import', TSX, path.join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: o.cwd ?? ROOT,
      ...(o.env ? { env: o.env } : {}),
      ...(o.uid !== undefined ? { uid: o.uid } : {}),
      ...(o.gid !== undefined ? { gid: o.gid } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
