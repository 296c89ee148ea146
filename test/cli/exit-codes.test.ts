/**
 * The error tree carries a `code`, and the exit code tells usage (2), input (3),
 * guard (4) and internal (5) failures apart; 0 and 1 keep their meaning.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { EXIT, exitCodeOfError } from '../../src/cli/exit-codes.js';
import {
  CorpusError,
  EngineError,
  FarmaError,
  GuardLoadError,
  InputError,
  LlmError,
  StoreError,
  TemplateError,
  UsageError,
  errorCode,
  errorMessage,
} from '../../src/domain/errors.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(path.join(tmpdir(), 'farma-exit-'));


afterEach(() => vi.restoreAllMocks());

describe('the error tree', () => {
  it('every class carries its code; an explicit code wins', () => {
    expect(new UsageError('x').code).toBe('usage');
    expect(new InputError('x', { file: 'f', line: 3 }).code).toBe('input');
    expect(new InputError('x', { file: 'f', line: 3 }).message).toBe('f:3: x');
    expect(new TemplateError('x').code).toBe('input');
    expect(new StoreError('x').code).toBe('input');
    expect(new CorpusError('x').code).toBe('input');
    expect(new GuardLoadError('x').code).toBe('guard');
    expect(new GuardLoadError('x', { code: 'usage' }).code).toBe('usage');
    expect(new LlmError('x').code).toBe('llm');
    expect(new FarmaError('x').code).toBe('internal');
    expect(new EngineError('x').code).toBe('internal');
  });

  it('keeps the cause, and an EngineError takes the code of a tree cause', () => {
    const cause = new StoreError('disk full');
    const e = new EngineError('cell ehr/benign: evaluating a case threw', { cause });
    expect(e.cause).toBe(cause);
    expect(e.code).toBe('input');
    expect(new EngineError('x', { cause: new Error('plain') }).code).toBe('internal');
  });

  it('errorMessage and errorCode accept anything thrown', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('text')).toBe('text');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(null)).toBe('null');
    expect(errorMessage({ toString: () => { throw new Error('no'); } })).toBe('[object Object]');
    expect(errorCode(new Error('x'))).toBe('internal');
    expect(errorCode(new LlmError('x'))).toBe('llm');
  });

  it('maps codes to distinct exit codes', () => {
    expect(exitCodeOfError(new UsageError('x'))).toBe(2);
    expect(exitCodeOfError(new LlmError('x'))).toBe(2);
    expect(exitCodeOfError(new InputError('x'))).toBe(3);
    expect(exitCodeOfError(new GuardLoadError('x'))).toBe(4);
    expect(exitCodeOfError(new Error('x'))).toBe(5);
    expect(new Set([EXIT.ok, EXIT.failed, EXIT.usage, EXIT.input, EXIT.guard, EXIT.internal, EXIT.interrupted]).size).toBe(7);
  });

  it('src/fuzz throws only errors of the tree', () => {
    const folder = path.join(ROOT, 'src/fuzz');
    for (const name of readdirSync(folder).filter((n) => n.endsWith('.ts'))) {
      expect(readFileSync(path.join(folder, name), 'utf8'), name).not.toMatch(/new (Type|Range)?Error\(/);
    }
  });
});

describe('exit codes of the command line', () => {
  it('usage: 2 (an unknown flag value, an unknown guard id)', async () => {
    expect((await runCli(['fuzz', '--runs', 'zero'])).code).toBe(2);
    const r = await runCli(['check', '--guard', 'no-such-guard', '--input', path.join(ROOT, 'package.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown guard "no-such-guard"/);
  });

  it('input: 3 (check and import with a malformed line; a malformed config file)', async () => {
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify({ id: 'a', content: 'ok' })}\n{not json\n`);
    const c = await runCli(['check', '--input', bad]);
    expect(c.code).toBe(3);
    expect(c.stderr).toMatch(/bad\.jsonl:2: malformed JSON/);
    const i = await runCli(['import', '--store', path.join(dir, 'm.sqlite'), '--input', bad]);
    expect(i.code).toBe(3);
  });

  it('guard: 4 (a module that fails to import; check with error verdicts)', async () => {
    const broken = path.join(dir, 'broken-guard.mjs');
    writeFileSync(broken, 'throw new Error("cannot start");\n');
    const r = await runCli(['fuzz', '--guard', broken, '--runs', '1', '--no-corpus', '-q', '--no-real', '--out', path.join(dir, 'o')]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/GuardLoadError: .*failed to import: cannot start/);
  });

  it('--help documents the exit codes', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Exit codes:[\s\S]*2 +usage[\s\S]*3 +input[\s\S]*4 +guard[\s\S]*5 +internal[\s\S]*130 +interrupted/);
  });
});
