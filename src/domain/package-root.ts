/**
 * Where the farma-fuzz package itself lives, so bundled data (templates, lexicons, benign
 * corpora) is found the same way when the code runs from source (`src/…/*.ts` under tsx
 * or vitest) and from the compiled build (`dist/src/…/*.js` in an installed package).
 * Output never goes here: reports and corpora are written relative to `process.cwd()`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Walks up from `start` to the first folder that holds a `package.json`.
 * @throws Error when no folder up to the file-system root holds one (a broken install).
 */
function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`farma-fuzz: no package.json above ${start}; the package is installed incompletely`);
    dir = parent;
  }
}

/** Absolute path of the farma-fuzz package root (the folder of its `package.json`). */
export const PACKAGE_ROOT: string = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

/**
 * Absolute path of a file bundled with the package.
 * @example packagePath('templates', 'lexicons') // '<package>/templates/lexicons'
 */
export function packagePath(...parts: string[]): string {
  return path.join(PACKAGE_ROOT, ...parts);
}
