/**
 * SIGTERM (what `timeout`, `docker stop` and CI cancellation send) and SIGHUP
 * (a closed terminal) stop a fuzz run as Ctrl-C does: the partial report and corpus are written,
 * the exit code is 128 + the signal's number (143, 129), and every process an exec guard started
 * is ended, its whole process group included (a helper that ignores SIGTERM too). The signals are
 * real and sent by the fixture guards themselves on their Nth check: no timing involved.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(path.join(tmpdir(), 'farma-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fuzz(guard: string, name: string, env: Record<string, string>, extra: string[] = []) {
  const out = path.join(dir, name);
  const corpus = path.join(dir, `${name}-corpus`);
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'fuzz', '--guard', guard, '--domain', 'ehr,rap', '--family', 'seed,benign', '--runs', '1000000', '--no-real', '--corpus', corpus, '--no-html', '-q', '--out', out, '--seed', '1', ...extra],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 240_000 },
  );
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, out, corpus };
}

/** True while `pid` is a live process (a zombie waiting for its parent counts as ended). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function expectPartialRun(r: ReturnType<typeof fuzz>, code: number, name: string) {
  expect(r.stderr).toContain(`${name}: stopping after the current batch`);
  expect(r.code).toBe(code);
  expect(r.stdout).toMatch(new RegExp(`\\ninterrupted \\(${name}\\) after \\d+ cases?`));
  expect(r.stdout).toMatch(new RegExp(`\\nexit ${code}: interrupted`));
  expect(existsSync(path.join(r.out, 'report.md'))).toBe(true);
  const report = JSON.parse(readFileSync(path.join(r.out, 'report.json'), 'utf8')) as { cells: Array<{ interrupted: boolean; violations: number }> };
  expect(report.cells.some((c) => c.interrupted)).toBe(true);
  // The forged cell had failed before the stop: its minimal counterexamples are in the corpus.
  const files = existsSync(r.corpus) ? readdirSync(r.corpus).filter((f) => f.endsWith('.jsonl')) : [];
  expect(files).toHaveLength(1);
  const corpusFiles = readFileSync(path.join(r.corpus, files[0]!), 'utf8');
  expect(corpusFiles.trim().split('\n').length).toBeGreaterThan(0);
  expect(corpusFiles).toContain('"status":"open"');
}

describe('fuzz stopped by a signal other than SIGINT', () => {
  it('SIGTERM (module guard): exit 143, partial report and corpus written', () => {
    const r = fuzz(path.join(ROOT, 'test/fixtures/guards/ctrl-c-guard.mjs'), 'term', { CTRL_C_AFTER: '200', CTRL_C_SIGNAL: 'SIGTERM' });
    expectPartialRun(r, 143, 'SIGTERM');
  }, 240_000);

  it('SIGHUP (module guard): exit 129, partial report and corpus written', () => {
    const r = fuzz(path.join(ROOT, 'test/fixtures/guards/ctrl-c-guard.mjs'), 'hup', { CTRL_C_AFTER: '200', CTRL_C_SIGNAL: 'SIGHUP' });
    expectPartialRun(r, 129, 'SIGHUP');
  }, 240_000);

  it('SIGTERM (exec guard): exit 143, partial report written, and the guard\'s helper that ignores SIGTERM is ended too', () => {
    const pidfile = path.join(dir, 'helpers.pid');
    const r = fuzz(`exec:${process.execPath} ${path.join(ROOT, 'test/fixtures/guards/signal-exec-guard.mjs')}`, 'exec-term', { SIGNAL_AFTER: '30', HELPER_PIDFILE: pidfile }, ['--concurrency', '1']);
    expectPartialRun(r, 143, 'SIGTERM');
    const helpers = readFileSync(pidfile, 'utf8').trim().split('\n').map(Number);
    expect(helpers.length).toBeGreaterThan(0);
    for (const pid of helpers) expect(alive(pid), `helper ${pid} still running`).toBe(false);
  }, 240_000);
});

describe('a signal while the outputs are written', () => {
  it('SIGTERM after the run: the HTML, JUnit and closing lines are still written, then exit 143', async () => {
    // The step summary is a named pipe: farma-fuzz blocks opening it until the test reads it, so
    // the signal is sent exactly while the outputs are being written (Linux /proc; no timing involved).
    const fifo = path.join(dir, 'summary.fifo');
    execFileSync('mkfifo', [fifo]);
    const out = path.join(dir, 'late');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'fuzz', '--guard', 'keyword', '-d', 'ehr', '-f', 'benign', '-n', '5', '--no-real', '--no-corpus', '-q', '--seed', '1', '--out', out, '--junit', path.join(out, 'junit.xml')], { cwd: ROOT, env: { ...process.env, GITHUB_STEP_SUMMARY: fifo }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    // Wait (polling, no time bound) until farma-fuzz's main thread is blocked opening the pipe,
    // send the signal, then let it write.
    const wchan = () => {
      try {
        return readFileSync(`/proc/${child.pid}/wchan`, 'utf8');
      } catch {
        return '';
      }
    };
    while (wchan() !== 'wait_for_partner') await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGTERM');
    const summary = await new Promise<string>((resolve) => {
      const rs = createReadStream(fifo, { encoding: 'utf8' });
      let text = '';
      rs.on('data', (c) => (text += String(c)));
      rs.on('close', () => resolve(text));
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toContain('SIGTERM: the run is over; writing its outputs first');
    expect(code).toBe(143);
    expect(summary).toContain('farma-fuzz');
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
    expect(readFileSync(path.join(out, 'junit.xml'), 'utf8')).toContain('<testsuites');
    expect(stdout).toMatch(/\nexit 0: /);
  }, 240_000);
});
