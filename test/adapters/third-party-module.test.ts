/**
 * Module guards written the way an outside author writes them (test/fixtures/third-party):
 * their own decision words and null fields are read; ambiguous answers are errors that say
 * what to return; a class export and an init() work; a guard that edits its entry or store
 * view never changes the case the fuzzer keeps.
 */
import { describe, expect, it } from 'vitest';
import { GuardLoadError } from '../../src/domain/index.js';
import { evaluateAsync } from '../../src/fuzz/evaluate.js';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { MemoryStore } from '../../src/memory/index.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

const FIX = 'test/fixtures/third-party';

describe('module guards of outside authors', () => {
  it('reads decision words in any case, a string reason, null fields and boolean signals', async () => {
    const g = await loadModuleGuard(`${FIX}/own-words.mjs`);
    const blocked = await g.check(makeEntry('We skip the check.'), WRITE_CTX);
    const allowed = await g.check(makeEntry('Checked the format.'), WRITE_CTX);
    expect(blocked).toMatchObject({ decision: 'reject', reasons: ['mentions skip'], signals: { skip: 1 } });
    expect(blocked).not.toHaveProperty('score');
    expect(allowed).toMatchObject({ decision: 'admit', reasons: [], signals: { skip: 0 } });
  });

  it('refuses ambiguous answers with a message saying what to return, and reads { allowed }', async () => {
    const g = await loadModuleGuard(`${FIX}/ambiguous.mjs`);
    const [bool, score, nothing, allowed] = await Promise.all(['bool', 'score', 'nothing', 'allowed'].map((c) => g.check(makeEntry(c), WRITE_CTX)));
    expect(bool?.error?.kind).toBe('malformed');
    expect(bool?.error?.message).toMatch(/got the boolean true: a bare boolean is ambiguous.*decision: "admit"/);
    expect(score?.error?.message).toMatch(/got nothing \(fields: score\).*score \(0\.93\).*never picks a threshold/);
    expect(nothing?.error?.message).toMatch(/got nothing \(undefined: does check\(\) return its verdict on every path\?\)/);
    expect(allowed).toMatchObject({ decision: 'reject', reasons: ['policy 7'] });
  });

  it('constructs a class default export with the factory options and awaits its init()', async () => {
    const g = await loadModuleGuard(`${FIX}/class-default.mjs`, { factoryOptions: { words: ['waive'] } });
    expect(g.id).toBe('class-default');
    expect((await g.check(makeEntry('We waive the review.'), WRITE_CTX)).decision).toBe('reject');
    expect((await g.check(makeEntry('We skip it.'), WRITE_CTX)).decision).toBe('admit');
  });

  it('an init() that throws is a load error naming the file', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'farma-init-')), 'bad-init.mjs');
    writeFileSync(file, "export const guard = { check: () => ({ decision: 'admit' }), init() { throw new Error('no model file'); } };\n");
    await expect(loadModuleGuard(file)).rejects.toThrow(GuardLoadError);
    await expect(loadModuleGuard(file)).rejects.toThrow(/bad-init\.mjs: init\(\) threw: no model file/);
  });

  it('a .ts guard with a default-export factory in a CommonJS project (npm init -y) loads, with a relative .js import of a .ts helper', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-cjs-ts-'));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'my-guard', version: '1.0.0', main: 'index.js' }));
    writeFileSync(path.join(dir, 'words.ts'), "export const WORDS: string[] = ['skip'];\nexport enum Word { Admit = 'admit', Reject = 'reject' }\n");
    writeFileSync(
      path.join(dir, 'guard.ts'),
      "import { WORDS, Word } from './words.js';\nexport default function create(): { id: string; check(e: { content: string }): { decision: string } } {\n  return { id: 'cjs-ts-default', check: (e) => ({ decision: WORDS.some((w) => e.content.includes(w)) ? Word.Reject : Word.Admit }) };\n}\n",
    );
    const g = await loadModuleGuard(path.join(dir, 'guard.ts'));
    expect(g.id).toBe('cjs-ts-default');
    expect((await g.check(makeEntry('we skip it'), WRITE_CTX)).decision).toBe('reject');
  });

  it('takes the one export that is a guard when it is not called guard, default or createGuard', async () => {
    const g = await loadModuleGuard(`${FIX}/named-only.mjs`);
    expect(g.id).toBe('named-only');
    expect((await g.check(makeEntry('skip it'), WRITE_CTX)).decision).toBe('reject');
  });

  it('a guard that edits its entry and store view changes neither the case nor later checks', async () => {
    const g = await loadModuleGuard(`${FIX}/mutating.mjs`);
    const store = new MemoryStore(':memory:');
    try {
      const entry = makeEntry('Original Text');
      const c = { entry, truth: { label: 'benign' as const, family: 'x', domain: 'x', template: 'x', operators: [] } };
      const before = JSON.stringify(c);
      const first = await evaluateAsync(g, c, store, 'write');
      const second = await evaluateAsync(g, c, store, 'write');
      expect(JSON.stringify(c)).toBe(before);
      expect(first.signals?.size).toBe(0);
      expect(second.signals?.size).toBe(0);
    } finally {
      store.close();
    }
  });
});

describe('a module guard that hangs costs a bounded wait', () => {
  const calls = (): number => (globalThis as { __hangsOnWordCalls?: number }).__hangsOnWordCalls ?? 0;

  it('an input that timed out twice is answered at once afterwards; other inputs are still judged', async () => {
    const g = await loadModuleGuard(`${FIX}/hangs-on-word.mjs`, { timeoutMs: 200 });
    const first = await g.check(makeEntry('please hang'), WRITE_CTX);
    const second = await g.check(makeEntry('please hang'), WRITE_CTX);
    const before = calls();
    const third = await g.check(makeEntry('please hang'), WRITE_CTX);
    expect(first.error?.message).toMatch(/within 200 ms \(timeout 1 of this input; after 2 it is not sent again\)/);
    expect(second.error?.message).toMatch(/timeout 2 of this input; it is not sent again/);
    expect(third.error?.kind).toBe('timeout');
    expect(third.error?.message).toMatch(/^input times out the guard: guard hangs-on-word did not answer it within 200 ms 2 times/);
    expect(calls()).toBe(before);
    expect((await g.check(makeEntry('fine'), WRITE_CTX)).decision).toBe('admit');
  });

  it('distinct inputs timing out in a row open the circuit: later checks are unavailable at once', async () => {
    const g = await loadModuleGuard(`${FIX}/hangs-on-word.mjs`, { timeoutMs: 100 });
    const hung = await Promise.all(Array.from({ length: 10 }, (_, i) => g.check(makeEntry(`hang ${i}`), WRITE_CTX)));
    expect(hung.every((v) => v.error?.kind === 'timeout')).toBe(true);
    const before = calls();
    const after = await g.check(makeEntry('fine'), WRITE_CTX);
    expect(after.error?.kind).toBe('unavailable');
    expect(after.error?.message).toMatch(/guard hangs-on-word is down: 10 distinct inputs failed in a row/);
    expect(calls()).toBe(before);
  });

  it('inputs that time out while the guard answers others sent with them never open the circuit', async () => {
    // A guard that hangs on some inputs only: twelve hung inputs in flight at once (every slot
    // full), but the guard was up (it answered the other input meanwhile): each failed on its own.
    const g = await loadModuleGuard(`${FIX}/hangs-on-word.mjs`, { timeoutMs: 100 });
    const [hung, answered] = await Promise.all([Promise.all(Array.from({ length: 12 }, (_, i) => g.check(makeEntry(`hang slot ${i}`), WRITE_CTX))), g.check(makeEntry('fine meanwhile'), WRITE_CTX)]);
    expect(answered.decision).toBe('admit');
    expect(hung.every((v) => v.error?.kind === 'timeout')).toBe(true);
    const before = calls();
    const after = await g.check(makeEntry('fine afterwards'), WRITE_CTX);
    expect(after.error).toBeUndefined();
    expect(after.decision).toBe('admit');
    expect(calls()).toBe(before + 1);
  });
});

describe('what a module guard threw is said usefully', () => {
  it('an Error with its name and the line of the guard file; a non-Error value as such', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'farma-throws-')), 'throws-things.mjs');
    writeFileSync(
      file,
      [
        'export const guard = {',
        '  check(entry) {',
        "    if (entry.content === 'type') return null.x;",
        "    if (entry.content === 'object') throw { code: 42, detail: 'bad input' };",
        "    if (entry.content === 'null') throw null;",
        "    return Promise.reject(new RangeError('too long'));",
        '  },',
        '};',
        '',
      ].join('\n'),
    );
    const g = await loadModuleGuard(file);
    const [t, o, n, r] = await Promise.all(['type', 'object', 'null', 'range'].map((c) => g.check(makeEntry(c), WRITE_CTX)));
    expect(t?.error?.message).toMatch(/^guard threw: TypeError: Cannot read properties of null .*\(at throws-things\.mjs:3:\d+\)$/);
    expect(o?.error?.message).toBe('guard threw: a non-Error object {"code":42,"detail":"bad input"}');
    expect(n?.error?.message).toBe('guard threw: the value null (not an Error)');
    expect(r?.error?.message).toMatch(/^guard threw: RangeError: too long \(at throws-things\.mjs:6:\d+\)$/);
  });
});
