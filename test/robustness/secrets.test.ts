/**
 * Robustness: no API key reaches any output (issue 7). A real `fuzz` CLI run gets planted
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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'fuzz', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const r = await fuzz(['--guard', guardSpec, '--runs', '15', '--domain', 'ehr', '--family', 'naive,benign', '--seed', '7', '--corpus', join(tmp, 'corpus'), '--out', join(tmp, 'out')], env);
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
