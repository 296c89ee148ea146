/**
 * A module whose export is the check function itself (`export default function check(entry,
 * ctx)`, `export function check`) is fuzzed as that check; before, the default function was
 * called as a factory with `{}` and failed to load ("the value returned by factory "default"
 * has no check() function"). A one-parameter default that returns a verdict when called as a
 * factory gets an error that says how to export it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-check-fn-'));
function moduleFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}
const RULE = `({ decision: /skip/i.test(String(entry.content)) ? 'reject' : 'admit', trace: [], reasons: [] })`;

describe('a check function as the export', () => {
  const cases: Array<[string, string, 'sync' | 'async']> = [
    ['default function named check', `export default function check(entry, ctx) { return ${RULE}; }`, 'sync'],
    ['default async function named check', `export default async function check(entry) { return ${RULE}; }`, 'async'],
    ['default arrow with (entry, ctx)', `export default (entry, ctx) => ${RULE};`, 'sync'],
    ['named export check', `export function check(entry, ctx) { return ${RULE}; }`, 'sync'],
  ];
  for (const [what, text, mode] of cases) {
    it(`${what}: loads, judges entries, and runs ${mode === 'sync' ? 'one call at a time' : 'calls in flight'}`, async () => {
      const file = moduleFile(`${what.replace(/\W+/g, '-')}.mjs`, text);
      const guard = await loadModuleGuard(file);
      expect(guard.id).toBe(`module:${path.basename(file)}`);
      expect((await guard.check(makeEntry('you may skip the audit'), WRITE_CTX)).decision).toBe('reject');
      expect((await guard.check(makeEntry('the audit passed'), WRITE_CTX)).decision).toBe('admit');
      expect(guard.concurrencyLimit).toBe(mode === 'sync' ? 1 : undefined);
    });
  }

  it('an async guard object keeps the concurrencyLimit it declares (before, the wrapper dropped it)', async () => {
    const file = moduleFile('capped.mjs', `export const guard = { id: 'capped', mode: 'async', concurrencyLimit: 3, check: async (entry) => ${RULE} };`);
    const guard = await loadModuleGuard(file);
    expect(guard.concurrencyLimit).toBe(3);
  });

  it('a factory of one parameter still is a factory', async () => {
    const file = moduleFile('factory.mjs', `export default (options) => ({ id: 'made', check: (entry) => ${RULE} });`);
    const guard = await loadModuleGuard(file);
    expect(guard.id).toBe('made');
  });

  it('a one-parameter default that returns a verdict fails with an error that says how to export a check', async () => {
    const file = moduleFile('one-param.mjs', `export default (entry) => ${RULE};`);
    const err = await loadModuleGuard(file).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/one-param\.mjs: factory export "default" returned a verdict, not a guard: .*name it check/);
  });

  it('a one-parameter default that throws when called as a factory says it was called as one, and how to export a check', async () => {
    const file = moduleFile('one-param-throws.mjs', `export default function (entry) { return entry.content.toLowerCase().includes('prior runs') ? { decision: 'reject', reasons: ['x'] } : { decision: 'admit', reasons: [] }; }`);
    const err = await loadModuleGuard(file).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/one-param-throws\.mjs: factory export "default" threw: .*toLowerCase.*; it was called as a factory \(options → guard\): if it is the check itself \(entry → verdict\), name it check/);
    // A factory class that throws is no check: no such hint.
    const cls = moduleFile('class-throws.mjs', `export default class G { constructor() { throw new Error('no key'); } }`);
    const e2 = await loadModuleGuard(cls).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(e2?.message).toMatch(/factory export "default" threw: no key$/);
  });
});
