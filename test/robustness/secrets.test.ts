/**
 * Robustness: no API key reaches any output. A real `fuzz` CLI run gets planted
 * marker values in OPENAI_API_KEY and in another secret-looking variable; the markers must
 * appear in none of report.json, report.md, the corpus files, stdout or stderr.
 * A second run uses a guard module that copies the key into its verdict reasons: the engine
 * must redact it before anything is written.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

function fuzz(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return cli(['fuzz', ...args], env);
}

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file under `dir`, as text. */
function allText(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...allText(p));
    else out.push([p, readFileSync(p, 'utf8')]);
  }
  return out;
}

function leaks(markers: string[], outputs: Array<[string, string]>): string[] {
  const found: string[] = [];
  for (const [where, text] of outputs) for (const m of markers) if (text.includes(m)) found.push(`${m.slice(0, 12)}… in ${where}`);
  return found;
}

async function plantedRun(guard: string): Promise<{ leaks: string[]; files: number; code: number | null; stderr: string }> {
  const tmp = mkdtempSync(join(tmpdir(), 'farma-secrets-'));
  const key = `sk-marker-${randomBytes(12).toString('hex')}`;
  const token = `tok-marker-${randomBytes(12).toString('hex')}`;
  const env = { ...process.env, OPENAI_API_KEY: key, FARMA_TEST_SERVICE_TOKEN: token, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
  const guardSpec = guard === 'leaky' ? join(tmp, 'leaky-guard.mjs') : guard;
  if (guard === 'leaky') {
    writeFileSync(
      guardSpec,
      "export const guard = { id: 'leaky', mode: 'sync', check: () => ({ decision: 'admit', trace: [], reasons: [`key ${process.env.OPENAI_API_KEY} token ${process.env.FARMA_TEST_SERVICE_TOKEN}`], elapsedUs: 0 }) };\n",
    );
  }
  // --no-real: the real sets and their leave-one-source-out recalibration add ~10 s and say nothing about redaction.
  const r = await fuzz(['--guard', guardSpec, '--runs', '15', '--domain', 'ehr', '--family', 'naive,benign', '--no-real', '--seed', '7', '--corpus', join(tmp, 'corpus'), '--out', join(tmp, 'out')], env);
  const outputs: Array<[string, string]> = [['stdout', r.stdout], ['stderr', r.stderr], ...allText(join(tmp, 'out')), ...allText(join(tmp, 'corpus'))];
  return { leaks: leaks([key, token], outputs), files: outputs.length - 2, code: r.code, stderr: r.stderr };
}

describe('planted secrets never reach reports, corpora or logs', () => {
  it('a fuzz run with a planted OPENAI_API_KEY and service token writes neither', async () => {
    const r = await plantedRun('none');
    expect(r.code, r.stderr).toBe(1); // guard `none` fails: findings are written to the corpus too
    expect(r.files).toBeGreaterThanOrEqual(3); // report.json, report.md, corpus
    expect(r.leaks).toEqual([]);
  }, 30_000);

  // runFuzz passes every verdict, the corpus records, the report and the console text
  // through redactSecrets (src/llm/config.ts).
  it('a guard that echoes the key in its reasons: the engine redacts it everywhere', async () => {
    const r = await plantedRun('leaky');
    expect(r.files).toBeGreaterThanOrEqual(3);
    expect(r.leaks).toEqual([]);
  }, 30_000);
});

/**
 * A guard that puts the key where a value-only redaction misses it: signal names
 * and layer names are object keys; the deciding layer, trace reasons, a thrown error's message,
 * a guard-declared error and stderr quotes of a crashing exec guard are all guard text.
 * Every output of fuzz (console, report.md/json/html, JUnit, corpus), check, replay and fpr
 * must be free of it.
 */
describe('a guard that echoes OPENAI_API_KEY in keys, layer names, reasons and errors', () => {
  const ECHO_GUARD = `
const k = process.env.OPENAI_API_KEY;
let n = 0;
export const guard = {
  id: 'echo-keys',
  mode: 'async',
  async check(entry) {
    n += 1;
    if (n % 7 === 3) throw new Error('upstream said: bad key ' + k);
    if (n % 7 === 5) return { decision: 'error', error: { kind: 'unavailable', message: 'quota for ' + k }, trace: [], reasons: [] };
    const layer = 'L-' + k;
    const decision = entry.source === 'AGENT' || entry.source === 'SYSTEM' || entry.source === 'TOOL' ? 'reject' : 'admit';
    return {
      decision,
      layer,
      trace: [{ layer, outcome: decision === 'reject' ? 'reject' : 'pass', value: 0.9, reasons: ['layer saw ' + k] }],
      signals: { [k]: 1, ['s-' + k]: 0.5, s1: 0 },
      score: 0.9,
      reasons: ['echo ' + k, Buffer.from(k).toString('base64')],
      elapsedUs: 1,
    };
  },
};
`;

  it('no output of fuzz, check, replay or fpr quotes it', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'farma-secrets-keys-'));
    const key = `sk-marker-${randomBytes(12).toString('hex')}`;
    const b64 = Buffer.from(key).toString('base64').replace(/=+$/, '');
    const env = { ...process.env, OPENAI_API_KEY: key, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    const guard = join(tmp, 'echo-keys.mjs');
    writeFileSync(guard, ECHO_GUARD);
    const corpus = join(tmp, 'corpus');
    const out = join(tmp, 'out');
    const f = await fuzz(['--guard', guard, '--runs', '20', '--domain', 'ehr', '--family', 'naive,benign', '--seed', '5', '--corpus', corpus, '--out', out, '--junit', join(tmp, 'junit.xml')], env);
    expect(f.code, f.stderr).toBe(1);
    const input = join(tmp, 'entries.jsonl');
    writeFileSync(input, [1, 2, 3, 4, 5, 6, 7].map((i) => JSON.stringify({ id: `e${i}`, content: `entry ${i}`, source: 'AGENT' })).join('\n') + '\n');
    const c = await cli(['check', '--guard', guard, '--input', input], env);
    expect(c.stdout).toMatch(/"decision":"reject"/);
    expect(c.stdout).toContain('[redacted]');
    const ids = readFileSync(join(corpus, 'echo-keys.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids.length).toBeGreaterThan(0);
    const r = await cli(['replay', '--guard', guard, '--corpus', corpus], env);
    const r1 = await cli(['replay', '--guard', guard, '--corpus', corpus, '--id', ids[0]!], env);
    expect(r1.stdout).toMatch(/replay --guard/);
    // Without leave-one-source-out and matched estimates (rates only, no guard text): 24 calibrations fewer.
    const fp = await cli(['fpr', '--guard', guard, '--runs', '20', '--domain', 'ehr', '--seed', '2', '--out', join(tmp, 'fpr'), '-q', '--no-loso', '--no-matched'], env);
    expect(fp.code, fp.stderr).toBe(0);
    const outputs: Array<[string, string]> = [
      ['fuzz stdout', f.stdout], ['fuzz stderr', f.stderr], ['check stdout', c.stdout], ['check stderr', c.stderr],
      ['replay stdout', r.stdout], ['replay stderr', r.stderr], ['replay --id stdout', r1.stdout], ['fpr stdout', fp.stdout], ['fpr stderr', fp.stderr],
      ...allText(out), ...allText(corpus), ...allText(join(tmp, 'fpr')), [join(tmp, 'junit.xml'), readFileSync(join(tmp, 'junit.xml'), 'utf8')],
    ];
    expect(outputs.some(([w]) => w.endsWith('report.html'))).toBe(true);
    expect(leaks([key, b64], outputs)).toEqual([]);
    // The key was really echoed, as a key too: the redacted names are there.
    const report = readFileSync(join(out, 'report.json'), 'utf8');
    expect(report).toContain('L-[redacted]');
    expect(report).toContain('"s-[redacted]"');
  }, 120_000);

  it('an exec guard that quotes the key on stderr before it crashes: the stderr quote is redacted', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'farma-secrets-stderr-'));
    const key = `sk-marker-${randomBytes(12).toString('hex')}`;
    const env = { ...process.env, OPENAI_API_KEY: key };
    const script = join(tmp, 'crash.mjs');
    writeFileSync(script, "process.stdin.once('data', () => { process.stderr.write('fatal: key ' + process.env.OPENAI_API_KEY + ' refused\\n'); process.exit(3); });\n");
    const input = join(tmp, 'one.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: 'a', content: 'x', source: 'AGENT' })}\n`);
    const c = await cli(['check', '--guard', `exec:${process.execPath} ${script}`, '--input', input, '--timeout', '20000'], env);
    expect(c.stdout).toMatch(/"decision":"error"/);
    expect(c.stdout).toMatch(/\[redacted\]/);
    expect(leaks([key], [['stdout', c.stdout], ['stderr', c.stderr]])).toEqual([]);
  }, 60_000);
});
