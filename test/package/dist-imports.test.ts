/**
 * package.json's dependencies against what the shipped code loads: runs
 * `scripts/dist-imports.mjs` (es-module-lexer over dist/ and bin/) on the compiled tree.
 * dist/ is compiled afresh into a temporary folder, so a stale build cannot hide a change.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OPTIONAL_PACKAGES } from '../../src/domain/optional-package.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const out = mkdtempSync(path.join(tmpdir(), 'ff-dist-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('npm run dist-imports', () => {
  it('finds every runtime dependency loaded by dist/ and bin/, no dev-only tool, and the optional peers loaded only by import()', () => {
    const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(out, 'dist')], { cwd: ROOT, encoding: 'utf8' });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'dist-imports.mjs'), '--json', '--dist', path.join(out, 'dist')], { cwd: ROOT, encoding: 'utf8' });
    const report = JSON.parse(r.stdout) as { packages: Record<string, { how: string[] }>; problems: string[] };
    expect(report.problems).toEqual([]);
    expect(r.status).toBe(0);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    for (const dev of ['recheck', 'playwright-core', 'tinybench']) {
      expect(pkg.dependencies[dev], dev).toBeUndefined();
      expect(report.packages[dev], dev).toBeUndefined();
    }
    for (const p of Object.keys(OPTIONAL_PACKAGES)) expect(report.packages[p]?.how, p).toEqual(['dynamic']);
  });

  it("names the optional peers with package.json's ranges", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> };
    expect(Object.fromEntries(Object.keys(pkg.peerDependencies).map((p) => [p, `${p}@${pkg.peerDependencies[p]}`]))).toEqual(OPTIONAL_PACKAGES);
    for (const p of Object.keys(OPTIONAL_PACKAGES)) expect(pkg.peerDependenciesMeta[p]?.optional, p).toBe(true);
  });
});
