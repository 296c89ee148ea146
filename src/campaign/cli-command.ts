/**
 * How the commands farma-fuzz prints (replay, merge-reports) begin. Light on purpose: the CLI
 * imports it at start-up.
 */
import path from 'node:path';
import { PACKAGE_ROOT } from '../domain/package-root.js';

/**
 * How the user runs the CLI, for the commands it prints: `npm run cli --` inside the
 * farma-fuzz checkout, `npx farma-fuzz` in any other project. (Reports, corpora and every
 * relative path on the command line are relative to `process.cwd()`; the package folder
 * only supplies bundled data and is never written to.)
 */
export function cliCommand(): string {
  return path.resolve(process.cwd()) === PACKAGE_ROOT ? 'npm run cli --' : 'npx farma-fuzz';
}
