/**
 * The versions every report and corpus record carries (DESIGN.md "Reproducibility"):
 * farma-fuzz and the packages that decide which cases are drawn and how they are stored.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../domain/package-root.js';

/**
 * The version of a package as this install resolves it: farma-fuzz itself, or a dependency
 * found the way Node finds it (`node_modules` of the package, then of every folder above,
 * which is where npm hoists dependencies in a consumer's project).
 */
function readVersion(pkg: string): string {
  const read = (file: string): string | undefined => {
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
    } catch {
      return undefined;
    }
  };
  if (pkg === 'farma-fuzz') return read(path.join(PACKAGE_ROOT, 'package.json')) ?? 'unknown';
  for (let dir = PACKAGE_ROOT; ; dir = path.dirname(dir)) {
    const v = read(path.join(dir, 'node_modules', pkg, 'package.json'));
    if (v !== undefined) return v;
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

/** Versions recorded in every report and corpus record. */
export function versions(): Record<string, string> {
  return {
    'farma-fuzz': readVersion('farma-fuzz'),
    'fast-check': readVersion('fast-check'),
    handlebars: readVersion('handlebars'),
    '@faker-js/faker': readVersion('@faker-js/faker'),
    'better-sqlite3': readVersion('better-sqlite3'),
    node: process.version,
  };
}
