/**
 * `fpr --max-fpr` is a gate with an exit code, judged on Wilson 95% upper bounds like fuzz's
 * (0 of 30 has an upper bound of 11.4%: it passes 0.2 and fails 0.05), and `--json` puts
 * fpr.json alone on stdout.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fprGate } from '../../src/report/gate.js';
import { interval } from '../../src/report/model.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ff-fpr-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = (out: string): string[] => ['fpr', '--guard', 'none', '-d', 'ehr', '-n', '30', '-s', '5', '--no-real', '--no-matched', '-q', '--out', path.join(dir, out)];

describe('fpr --max-fpr', () => {
  it('passes when every upper bound is within the limit, and says the gate decided', async () => {
    const r = await runCli([...base('pass'), '--max-fpr', '0.2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/maxFpr estimate: 0\.0% \[0\.0%, 11\.4%\] \(0\/30\), upper bound ≤ limit 20\.0%: pass/);
    expect(r.stdout).toContain('exit 0: decided by gate pass.');
  });
  it('fails (exit 1) when a small sample cannot bound the FPR below the limit', async () => {
    const r = await runCli([...base('fail'), '--max-fpr', '0.05']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/gate \(--max-fpr 0\.05\) failed: 1 of 1 check above the limit \(estimate\)\./);
    expect(r.stdout).toContain('exit 1: decided by gate FAIL.');
  });
  it('without a gate exits 0 and says so', async () => {
    const r = await runCli(base('none'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('no gate set (--max-fpr): exit 0 whatever the FPR.');
  });
  it('--json prints fpr.json (with the gate) alone on stdout, the closing lines on stderr', async () => {
    const r = await runCli([...base('json'), '--max-fpr', '0.05', '--json']);
    expect(r.code).toBe(1);
    const parsed = JSON.parse(r.stdout) as { estimate: { n: number }; gate: { pass: boolean; checks: unknown[] } };
    expect(parsed.estimate.n).toBe(30);
    expect(parsed.gate.pass).toBe(false);
    expect(r.stderr).toContain('exit 1: decided by gate FAIL.');
    const onDisk = JSON.parse(readFileSync(path.join(dir, 'json', 'fpr.json'), 'utf8')) as { estimate: unknown };
    expect(parsed.estimate).toEqual(onDisk.estimate);
  });
  it('rejects a rate outside [0,1], naming the flag', async () => {
    const r = await runCli([...base('bad'), '--max-fpr', '5%']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-fpr must be a rate in [0,1], got "5%"');
  });
});

describe('fprGate', () => {
  it('counts guard errors against the limit and checks each real set', () => {
    const g = fprGate({ estimate: interval(0, 1000), estimateErrors: 2, realGaps: [{ set: 'a', real: interval(0, 8), errors: 0 }] }, 0.01);
    expect(g.checks.map((c) => [c.name, c.observed.k, c.pass])).toEqual([
      ['maxFpr estimate', 2, true],
      ['maxFpr real a', 0, false],
    ]);
    expect(g.pass).toBe(false);
  });
});
