/**
 * A fresh compiled build of the package for tests that must run plain Node (no tsx, no
 * vitest transform): `tsc -p tsconfig.build.json` into `.tmp/build-<pid>/dist`, inside the
 * checkout so that bare imports (tsx, fast-check, …) resolve from its node_modules.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Builds the package into a new folder and returns `{ dist, dispose }`. */
export function compiledBuild(): { dist: string; dispose: () => void } {
  const base = path.join(ROOT, '.tmp', `build-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(base, { recursive: true });
  const dist = path.join(base, 'dist');
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', dist], { cwd: ROOT, stdio: 'pipe' });
  return { dist, dispose: () => rmSync(base, { recursive: true, force: true }) };
}
