/**
 * Robustness: no API key reaches any output. A real `fuzz` CLI run gets planted
 * marker values in OPENAI_API_KEY and in another secret-looking variable; the markers must
 * appear in none of report.json, report.md, the corpus files, stdout or stderr.
 * A second run uses a guard module that copies the key into its verdict reasons: the engine
 * must redact it before anything is written. Only the first is a process of its own; the other
 * commands are called in-process (`runCli`, with the variables set for the call), since what
 * they write, not the process, is the subject.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, leaks, type Output } from '../helpers/leaks.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnCli } from '../helpers/spawn-cli.js';

async function plantedRun(guard: string, how: 'process' | 'in-process'): Promise<{ leaks: string[]; files: number; code: number | null; stderr: string }> {
  const tmp = mkdtempSync(join(tmpdir(), 'farma-secrets-'));
  const key = `sk-marker-${randomBytes(12).toString('hex')}`;
  const token = `tok-marker-${randomBytes(12).toString('hex')}`;
  const vars = { OPENAI_API_KEY: key, FARMA_TEST_SERVICE_TOKEN: token, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
  const guardSpec = guard === 'leaky' ? join(tmp, 'leaky-guard.mjs') : guard;
  if (guard === 'leaky') {
    writeFileSync(
      guardSpec,
      "export const guard = { id: 'leaky', mode: 'sync', check: () => ({ decision: 'admit', trace: [], reasons: [`key ${process.env.OPENAI_API_KEY} token ${process.env.FARMA_TEST_SERVICE_TOKEN}`], elapsedUs: 0 }) };\n",
    );
  }
  // --no-real: the real sets and their leave-one-source-out recalibration add ~10 s and say nothing about redaction.
  const args = ['fuzz', '--guard', guardSpec, '--runs', '15', '--domain', 'ehr', '--family', 'naive,benign', '--no-real', '--seed', '7', '--corpus', join(tmp, 'corpus'), '--out', join(tmp, 'out')];
  // The run with guard `none` is a real process (its own stdout and stderr); the leaky guard's run,
  // which is about the engine's redaction of guard text, is called in-process (no start-up).
  const r = how === 'process' ? await spawnCli(args, { env: { ...process.env, ...vars } }) : await runCli(args, { env: vars });
  const outputs: Output[] = [['stdout', r.stdout], ['stderr', r.stderr], ...filesUnder(join(tmp, 'out')), ...filesUnder(join(tmp, 'corpus'))];
  return { leaks: leaks({ OPENAI_API_KEY: key, FARMA_TEST_SERVICE_TOKEN: token }, outputs), files: outputs.length - 2, code: r.code, stderr: r.stderr };
}

describe('planted secrets never reach reports, corpora or logs', () => {
  it('a fuzz run with a planted OPENAI_API_KEY and service token writes neither', async () => {
    const r = await plantedRun('none', 'process');
    expect(r.code, r.stderr).toBe(1); // guard `none` fails: findings are written to the corpus too
    expect(r.files).toBeGreaterThanOrEqual(3); // report.json, report.md, corpus
    expect(r.leaks).toEqual([]);
  }, 30_000);

  // runFuzz passes every verdict, the corpus records, the report and the console text
  // through redactSecrets (src/llm/config.ts).
  it('a guard that echoes the key in its reasons: the engine redacts it everywhere', async () => {
    const r = await plantedRun('leaky', 'in-process');
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
    // In-process (the commands' output and files are the subject, not the process): no start-up per command.
    const env = { OPENAI_API_KEY: key, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    const guard = join(tmp, 'echo-keys.mjs');
    writeFileSync(guard, ECHO_GUARD);
    const corpus = join(tmp, 'corpus');
    const out = join(tmp, 'out');
    const f = await runCli(['fuzz', '--guard', guard, '--runs', '20', '--domain', 'ehr', '--family', 'naive,benign', '--seed', '5', '--corpus', corpus, '--out', out, '--junit', join(tmp, 'junit.xml')], { env });
    expect(f.code, f.stderr).toBe(1);
    const input = join(tmp, 'entries.jsonl');
    writeFileSync(input, [1, 2, 3, 4, 5, 6, 7].map((i) => JSON.stringify({ id: `e${i}`, content: `entry ${i}`, source: 'AGENT' })).join('\n') + '\n');
    const c = await runCli(['check', '--guard', guard, '--input', input], { env });
    expect(c.stdout).toMatch(/"decision":"reject"/);
    expect(c.stdout).toContain('[redacted]');
    const ids = readFileSync(join(corpus, 'echo-keys.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids.length).toBeGreaterThan(0);
    const r = await runCli(['replay', '--guard', guard, '--corpus', corpus], { env });
    const r1 = await runCli(['replay', '--guard', guard, '--corpus', corpus, '--id', ids[0]!], { env });
    expect(r1.stdout).toMatch(/replay --guard/);
    // Without leave-one-source-out and matched estimates (rates only, no guard text): 24 calibrations fewer.
    const fp = await runCli(['fpr', '--guard', guard, '--runs', '20', '--domain', 'ehr', '--seed', '2', '--out', join(tmp, 'fpr'), '-q', '--no-loso', '--no-matched'], { env });
    expect(fp.code, fp.stderr).toBe(0);
    const outputs: Output[] = [
      ['fuzz stdout', f.stdout], ['fuzz stderr', f.stderr], ['check stdout', c.stdout], ['check stderr', c.stderr],
      ['replay stdout', r.stdout], ['replay stderr', r.stderr], ['replay --id stdout', r1.stdout], ['fpr stdout', fp.stdout], ['fpr stderr', fp.stderr],
      ...filesUnder(out), ...filesUnder(corpus), ...filesUnder(join(tmp, 'fpr')), [join(tmp, 'junit.xml'), readFileSync(join(tmp, 'junit.xml'), 'utf8')],
    ];
    expect(outputs.some(([w]) => w.endsWith('report.html'))).toBe(true);
    expect(leaks({ OPENAI_API_KEY: key, 'OPENAI_API_KEY in base64': b64 }, outputs)).toEqual([]);
    // The key was really echoed, as a key too: the redacted names are there.
    const report = readFileSync(join(out, 'report.json'), 'utf8');
    expect(report).toContain('L-[redacted]');
    expect(report).toContain('"s-[redacted]"');
  }, 120_000);

  it('an exec guard that quotes the key on stderr before it crashes: the stderr quote is redacted', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'farma-secrets-stderr-'));
    const key = `sk-marker-${randomBytes(12).toString('hex')}`;
    const env = { OPENAI_API_KEY: key };
    const script = join(tmp, 'crash.mjs');
    writeFileSync(script, "process.stdin.once('data', () => { process.stderr.write('fatal: key ' + process.env.OPENAI_API_KEY + ' refused\\n'); process.exit(3); });\n");
    const input = join(tmp, 'one.jsonl');
    writeFileSync(input, `${JSON.stringify({ id: 'a', content: 'x', source: 'AGENT' })}\n`);
    // In-process `check`; the exec guard is still a process of its own, whose stderr is quoted.
    const c = await runCli(['check', '--guard', `exec:${process.execPath} ${script}`, '--input', input, '--timeout', '20000'], { env });
    expect(c.stdout).toMatch(/"decision":"error"/);
    expect(c.stdout).toMatch(/\[redacted\]/);
    expect(leaks({ OPENAI_API_KEY: key }, [['stdout', c.stdout], ['stderr', c.stderr]])).toEqual([]);
  }, 60_000);
});
