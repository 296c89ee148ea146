/**
 * Dead weight: knip finds no unused file, export, type or dependency in the project
 * (entry points in knip.json: the public API, the CLI, bench, scripts, tests and fixtures).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

it('knip reports nothing unused', () => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/knip/bin/knip.js'), '--no-progress', '--no-config-hints'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.stdout + r.stderr).toBe('');
  expect(r.status).toBe(0);
}, 300_000);
