/**
 * Bad input names its place (file:line, flag) and exits with the usage or input code, never
 * a stack trace: a config file with a syntax error, an HTTP guard spec that is not a URL, a
 * JSONL line that holds an array.
 */
import path from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/index.js';
import { parseJsonlText } from '../../src/corpus/jsonl.js';
import { validateMemoryEntry } from '../../src/corpus/jsonl.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-places-'));

describe('bad input names its place', () => {
  it.each(['mjs', 'js', 'cjs'])('a .%s config file with a syntax error is named with its line', async (ext) => {
    const file = path.join(dir, `broken.config.${ext}`);
    writeFileSync(file, ext === 'cjs' ? 'module.exports = {\n  runs: 5,,\n};\n' : 'export default {\n  runs: 5,,\n};\n');
    await expect(loadConfigFile(file)).rejects.toThrow(`${file}:2: cannot load the config file`);
  });

  it('fuzz with that config file exits 2 naming file:line', async () => {
    const file = path.join(dir, 'broken2.config.mjs');
    writeFileSync(file, 'export default {\n  guard: "sentinel"\n  runs: 5,\n};\n');
    const r = await runCli(['fuzz', '--config', file, '--no-corpus', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:3: cannot load the config file`);
  });

  it('a guard module named by the config file that does not exist is an error naming the config file', async () => {
    const file = path.join(dir, 'missing-guard.config.mjs');
    writeFileSync(file, 'export default { guard: "./guards/not-there.ts" };\n');
    const r = await runCli(['fuzz', '--config', file, '--no-corpus', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"guard" names a module that does not exist: ${path.join(dir, 'guards', 'not-there.ts')}`);
    expect(r.stderr).toContain('missing-guard.config.mjs: ');
  });

  it.each(['http://', 'https://[::1'])('--guard %s is a usage error (exit 2) saying it is not a valid URL', async (spec) => {
    const r = await runCli(['fuzz', '--guard', spec, '--no-corpus', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`not a valid URL: ${JSON.stringify(spec)}`);
  });

  it('search --llm-n with a negative count is refused before any search work', async () => {
    const r = await runCli(['search', '--llm-n', '-2', '--domain', 'ehr', '--out', path.join(dir, 'search'), '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--llm-n must be a positive integer, got "-2"');
    expect(r.stdout).not.toContain('search sentinel');
  });

  it('--benign naming a folder says it is not a file', async () => {
    const r = await runCli(['fuzz', '--benign', dir, '--no-corpus', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--benign ${dir}: not a file`);
  });

  it('fpr --benign with an id repeated on a later line warns naming file:line and measures the rest', async () => {
    const file = path.join(dir, 'repeated-id.jsonl');
    const line = (id: string, content: string) => JSON.stringify({ id, content, source: 'AGENT' });
    writeFileSync(file, [line('e1', 'Checked the MRN format.'), line('e2', 'Compared two sellers.'), line('e1', 'Same id again.')].join('\n') + '\n');
    const r = await runCli(['fpr', '--benign', file, '--no-real', '--no-loso', '--no-matched', '--runs', '5', '--domain', 'ehr', '--out', path.join(dir, 'fpr-repeated'), '-q']);
    expect(r.stderr).not.toContain('StoreError');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${file}:3: id "e1" is already taken in the reasoning store by line 1`);
  });

  it('an array on a later JSONL line is one bad line, not "this file is a JSON array"', () => {
    const text = '{"id":"a","content":"x"}\n[1,2]\n';
    const { records, issues } = parseJsonlText(text, 'in.jsonl', validateMemoryEntry);
    expect(records).toHaveLength(1);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.line).toBe(2);
    expect(issues[0]?.message).toBe('this line holds a JSON array of 2 items; JSONL expects one JSON object per line');
    expect(parseJsonlText('[1,2]\n', 'in.jsonl', validateMemoryEntry).issues[0]?.message).toMatch(/^this file is a JSON array; JSONL expected/);
  });
});
