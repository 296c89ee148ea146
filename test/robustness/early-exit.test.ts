/**
 * Guard or config code that ends the process before the command has finished
 * (process.exit(0), process.reallyExit(0), process.exitCode = 0 then nothing to wait on, an
 * exception thrown from a timer) must never give exit 0, nor a code that reads as a finding
 * (1): it is a guard error, exit 4, and stderr says what happened. Each case starts the real CLI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
// tsx by path: the config cases run in a folder outside the package.
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const GUARD = path.join(ROOT, 'test/fixtures/guards/exit-guard.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'farma-early-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const input = path.join(dir, 'entries.jsonl');
writeFileSync(input, `${Array.from({ length: 40 }, (_, i) => JSON.stringify({ id: `e${i}`, content: `Checked the lab results for patient ${i} and filed the note.` })).join('\n')}\n`);

function cli(args: string[], env: Record<string, string> = {}, cwd = ROOT) {
  const r = spawnSync(process.execPath, ['--import', TSX, path.join(ROOT, 'src/cli/main.ts'), ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

const fuzzArgs = (out: string) => ['fuzz', '--guard', GUARD, '--domain', 'ehr', '--family', 'seed,benign', '--runs', '30', '--no-real', '--no-corpus', '--no-html', '-q', '--seed', '1', '--out', path.join(dir, out), '--junit', path.join(dir, `${out}.xml`)];

describe('a guard that ends the process mid-run', () => {
  it('fuzz: process.exit(0) on the 6th check exits 4 and says so', () => {
    const r = cli(fuzzArgs('exit0'));
    expect(r.stderr).toMatch(/guard or config code ended the process \(process\.exit\(0\)\) before fuzz had finished; counted as a guard error/);
    expect(r.code).toBe(4);
  });

  it('check: process.exit(0) exits 4 (not 0 with a few verdicts)', () => {
    const r = cli(['check', '--guard', GUARD, '--input', input]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('before check had finished');
  });

  it('import: process.exit(0) exits 4 (not 0 with a few entries committed)', () => {
    const r = cli(['import', '--guard', GUARD, '--input', input, '--store', path.join(dir, 'import.db')]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('before import had finished');
  });

  it('process.exit(1) is a guard error too, not a property failure', () => {
    const r = cli(['check', '--guard', GUARD, '--input', input], { EXIT_CODE: '1' });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('(process.exit(1))');
  });

  it('process.reallyExit(0), which skips the exit event, exits 4', () => {
    const r = cli(['check', '--guard', GUARD, '--input', input], { EXIT_HOW: 'really-exit' });
    expect(r.code).toBe(4);
  });

  it('an exception thrown from a guard timer exits 4 and names it, not 1', () => {
    const r = cli(['check', '--guard', GUARD, '--input', input], { EXIT_HOW: 'timer-throw' });
    expect(r.stderr).toContain('thrown from a guard timer');
    expect(r.stderr).toMatch(/uncaught exception/);
    expect(r.code).toBe(4);
  });
});

describe('a guard that never finishes closing', () => {
  it('close() never settles and leaves a timer: the run ends with its own code (0 here) and says why', () => {
    const r = cli(['fuzz', '--guard', path.join(ROOT, 'test/fixtures/guards/close-hang-guard.mjs'), '--domain', 'ehr', '--family', 'benign', '--runs', '5', '--no-real', '--no-corpus', '--no-html', '-q', '--seed', '1', '--out', path.join(dir, 'close-hang')]);
    expect(r.stderr).toContain('did not finish closing within 5 s');
    expect(r.stderr).toContain('guard code left something running');
    expect(r.stdout).toContain('exit 0: decided by invariants pass.');
    expect(r.code).toBe(0);
  });
});

describe('a config file that ends the process', () => {
  const withConfig = (text: string) => {
    const cfgDir = mkdtempSync(path.join(dir, 'cfg-'));
    const cfg = path.join(cfgDir, 'farma-fuzz.config.mjs');
    writeFileSync(cfg, text);
    return cli(['fuzz', '--config', cfg, '--domain', 'ehr', '--family', 'benign', '--runs', '5', '--no-real', '--no-corpus', '--no-html', '-q', '--out', path.join(cfgDir, 'out')], {}, cfgDir);
  };

  it('a getter that calls process.exit(0) exits 4 and says so', () => {
    const r = withConfig('export default { get runs() { process.exit(0); } };\n');
    expect(r.stderr).toContain('before fuzz had finished');
    expect(r.code).toBe(4);
  });

  it('process.exitCode = 0 and an export that never settles: exit 4, not the config\'s 0', () => {
    const r = withConfig('process.exitCode = 0;\nexport default await new Promise(() => {});\n');
    expect(r.stderr).toContain('never completed');
    expect(r.code).toBe(4);
  });
});
