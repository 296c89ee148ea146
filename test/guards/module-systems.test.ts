/**
 * Module guards in any project: every guard file extension loads in an
 * ES-module project and in a CommonJS one (the default of `npm init -y`), or fails with a
 * message that says what to rename. The installed CLI runs the same loader
 * (test/package/install.test.ts runs a few through `npx farma-fuzz`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledBuild } from '../helpers/compiled.js';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { EMPTY_STORE } from './../../src/domain/index.js';
import type { MemoryEntry } from '../../src/domain/index.js';

const root = mkdtempSync(path.join(tmpdir(), 'ff-modsys-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ESM_BODY = (id: string): string =>
  `export const guard = { id: '${id}', check: (e) => ({ decision: e.content.includes('skip') ? 'reject' : 'admit', trace: [], reasons: [], elapsedUs: 0 }) };\n`;
const TS_BODY = (id: string): string =>
  `interface E { content: string }\nexport const guard = { id: '${id}', check: (e: E) => ({ decision: e.content.includes('skip') ? 'reject' : 'admit', trace: [], reasons: [], elapsedUs: 0 }) };\n`;
const CJS_BODY = (id: string): string =>
  `const guard = { id: '${id}', check: (e) => ({ decision: e.content.includes('skip') ? 'reject' : 'admit', trace: [], reasons: [], elapsedUs: 0 }) };\nmodule.exports = { guard };\n`;
const CJS_FACTORY = (id: string): string =>
  `module.exports = { createGuard: () => ({ id: '${id}', check: () => ({ decision: 'reject', trace: [], reasons: [], elapsedUs: 0 }) }) };\n`;

function project(type: 'module' | 'commonjs'): string {
  const dir = path.join(root, type);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `p-${type}`, version: '1.0.0', type }));
  const files: Record<string, string> = {
    'g.ts': TS_BODY('ts'),
    'g.mts': TS_BODY('mts'),
    'g.cts': TS_BODY('cts'),
    'g.mjs': ESM_BODY('mjs'),
    'g.cjs': CJS_BODY('cjs'),
    'factory.cjs': CJS_FACTORY('cjs-factory'),
    // .js follows the project's "type"; the file matching it, and the one against it.
    'g-esm.js': ESM_BODY('esm-js'),
    'g-cjs.js': CJS_BODY('cjs-js'),
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const entry: MemoryEntry = { id: 'e1', store: 'reasoning', content: 'skip the check', source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: '2026-01-01T00:00:00.000Z' };

describe.each(['module', 'commonjs'] as const)('a %s project', (type) => {
  const dir = project(type);
  const loads = ['g.ts', 'g.mts', 'g.cts', 'g.mjs', 'g.cjs', 'factory.cjs', 'g-esm.js', ...(type === 'commonjs' ? ['g-cjs.js'] : [])];
  it.each(loads)('loads %s and runs its check', async (file) => {
    const guard = await loadModuleGuard(file, { cwd: dir });
    const v = await guard.check(entry, { phase: 'write', store: EMPTY_STORE });
    expect(v.decision).toBe('reject');
    expect(guard.id).toBe(file === 'factory.cjs' ? 'cjs-factory' : file === 'g-esm.js' ? 'esm-js' : file === 'g-cjs.js' ? 'cjs-js' : file.slice(2));
  });
});

// Plain Node, as the installed CLI runs: the compiled loader in a child process per project.
describe('the compiled loader under plain node', () => {
  let build: ReturnType<typeof compiledBuild>;
  beforeAll(() => {
    build = compiledBuild();
  }, 120_000);
  afterAll(() => build?.dispose());

  function loadPlain(dir: string, file: string): { ok: boolean; text: string } {
    const loader = pathToFileURL(path.join(build.dist, 'src', 'guards', 'adapters', 'module-guard.js')).href;
    const script = `const { loadModuleGuard } = await import(${JSON.stringify(loader)});
try {
  const g = await loadModuleGuard(${JSON.stringify(file)});
  const v = await g.check(${JSON.stringify(entry)}, { phase: 'write', store: { size: () => 0, countByKey: () => 0, countByTraceType: () => 0, search: () => [] } });
  console.log('OK ' + g.id + ' ' + v.decision);
} catch (e) { console.log('FAIL ' + e.message); }`;
    // A script file, not `node -e`: eval code gets `module` and `require` as globals.
    const runner = path.join(root, 'load-guard.mjs');
    writeFileSync(runner, script);
    const r = spawnSync(process.execPath, [runner], { cwd: dir, encoding: 'utf8' });
    return { ok: r.stdout.startsWith('OK '), text: `${r.stdout}${r.stderr}` };
  }

  it.each(['module', 'commonjs'] as const)('every guard file loads in a %s project (or says what to rename)', (type) => {
    const dir = path.join(root, type);
    for (const file of ['g.ts', 'g.mts', 'g.cts', 'g.mjs', 'g.cjs', 'factory.cjs', 'g-esm.js']) {
      const r = loadPlain(dir, file);
      expect(r.ok, `${type}/${file}: ${r.text}`).toBe(true);
      expect(r.text).toMatch(/ reject\n/);
    }
    const cjsJs = loadPlain(dir, 'g-cjs.js');
    if (type === 'commonjs') expect(cjsJs.ok, cjsJs.text).toBe(true);
    else expect(cjsJs.text).toContain('g-cjs.js is CommonJS (module.exports / require) but ' + path.join(dir, 'package.json') + ' makes .js files ES modules ("type": "module"): rename it to g-cjs.cjs');
  });
});
