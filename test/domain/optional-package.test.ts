/**
 * Optional peer dependencies: a package that Node cannot find is told apart from
 * an error inside a package, and the hint names the install command.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { importOptional, missingPackageHint } from '../../src/domain/optional-package.js';

// A folder with no node_modules above it that holds openai or vega: Node's own resolution error.
const dir = mkdtempSync(path.join(tmpdir(), 'ff-optional-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const probe = (name: string, body: string): string => {
  const f = path.join(dir, name);
  writeFileSync(f, body);
  return pathToFileURL(f).href;
};

describe('importOptional', () => {
  it('gives the hint when Node cannot find the package', () => {
    // In a child process: vitest's own resolver would find the checkout's vega from any file.
    const url = probe('needs-vega.mjs', "export * from 'vega';\n");
    const helper = pathToFileURL(path.resolve(import.meta.dirname, '../../src/domain/optional-package.ts')).href;
    const script = `const { importOptional } = await import(${JSON.stringify(helper)}); console.log(JSON.stringify(await importOptional('vega', () => import(${JSON.stringify(url)}), "the HTML report's charts", ['vega', 'vega-lite'])));`;
    const child = spawnSync(process.execPath, ['--import', pathToFileURL(path.resolve(import.meta.dirname, '../../node_modules/tsx/dist/esm/index.mjs')).href, '--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({ ok: false, missing: 'vega', hint: `the HTML report's charts need the optional packages "vega" and "vega-lite", which are not installed (npm install -D vega@^6.4.0 vega-lite@6.4.0)` });
  });
  it('rethrows any other failure (a missing package of another name, an error inside the module)', async () => {
    const other = probe('needs-other.mjs', "export * from 'no-such-package-ff';\n");
    await expect(importOptional('openai', () => import(other), 'LLM features')).rejects.toMatchObject({ code: 'ERR_MODULE_NOT_FOUND' });
    const broken = probe('throws.mjs', "throw new Error('boom inside');\n");
    await expect(importOptional('openai', () => import(broken), 'LLM features')).rejects.toThrow('boom inside');
  });
  it('returns the module when it is there', async () => {
    const r = await importOptional('openai', () => import('openai'), 'LLM features');
    expect(r.ok && typeof r.module.default).toBe('function');
  });
  it('names one package in the singular', () => {
    expect(missingPackageHint('LLM features', ['openai'])).toBe('LLM features need the optional package "openai", which is not installed (npm install -D openai@^6.49.0)');
  });
});
