/**
 * `fuzz` against a guard that never gives a verdict (an exec command that exits at once or
 * cannot start, an HTTP endpoint with nothing listening) exits 4 (guard), as the README's exit
 * code table says, not 1 as if the guard had broken an invariant: nothing was judged. Its errors
 * are guard errors (not crashes of an input, not flaky), and none is saved to the regression corpus.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-dead-guard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A loopback port that nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

const fuzz = (guard: string, out: string, extra: string[] = []) =>
  runCli(['fuzz', '--guard', guard, '-n', '2', '-d', 'ehr', '-f', 'benign,seed', '--no-corpus', '--no-real', '--no-html', '-q', '--seed', '1', '--timeout', '2000', '--out', path.join(dir, out), ...extra]);

describe('fuzz against a dead guard', () => {
  it('an exec guard whose command exits at once: exit 4, and the lines say no call was judged', async () => {
    const r = await fuzz(`exec:${process.execPath} -e "process.exit(0)"`, 'exits');
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/guard failure: every one of the 4 cases of exec:.* got an error verdict \(.+\), none was judged/);
    expect(r.stdout).toContain('exit 4: decided by guard FAIL (no invariant could be judged).');
    expect(r.stdout).not.toContain('finding: guard');
  });

  it('an exec guard whose command cannot start: exit 4, its errors are guard errors (no crash, no flaky), and the corpus stays empty', async () => {
    const corpus = path.join(dir, 'corpus-missing');
    const r = await runCli(['fuzz', '--guard', 'exec:/nonexistent/farma-guard', '-n', '3', '-d', 'ehr', '-f', 'seed', '--corpus', corpus, '--no-real', '--no-html', '--seed', '1', '--timeout', '2000', '--out', path.join(dir, 'missing')]);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/findings: 0 bypass, 0 false-positive, 0 flaky, 0 crash, [1-9]\d* guard-error/);
    expect(r.stdout).not.toContain('this input crashes the guard');
    expect(`${r.stdout}${r.stderr}`).toMatch(/corpus: nothing saved to .*: the guard answered error on every one of its 3 calls/);
    expect(existsSync(corpus)).toBe(false);
  });

  it('an HTTP guard with nothing listening: exit 4, also under a CI gate', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/verdict`;
    expect((await fuzz(url, 'http')).code).toBe(4);
    const gated = await fuzz(url, 'http-gated', ['--max-fpr', '0.5', '--max-bypass', '0.5']);
    expect(gated.code).toBe(4);
    expect(gated.stdout).toContain('exit 4: decided by guard FAIL (no invariant and no gate check could be judged).');
  });

  it('a guard that answers is still judged: a finding exits 1, not 4', async () => {
    const r = await fuzz('none', 'none');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('finding: guard none breaks its invariants');
  });
});
