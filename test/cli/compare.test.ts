/**
 * `farma-fuzz compare`: the refusal of different configurations (exit 2, each difference
 * named) and --allow-config-diff, exit 1 when B is significantly worse, --json, and exit 3
 * with the file (and line, or key) named for missing, malformed and foreign reports.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { cell, handReport } from '../report/fixture.js';
import type { ReportData } from '../../src/report/model.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-compare-'));
afterEach(() => vi.restoreAllMocks());

function write(name: string, r: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof r === 'string' ? r : JSON.stringify(r, null, 2));
  return file;
}

const v1 = handReport([cell('ehr', 'seed', 300, 1000), cell('ehr', 'benign', 2, 1000)]);
const better: ReportData = { ...structuredClone(v1), cells: [cell('ehr', 'seed', 100, 1000), cell('ehr', 'benign', 3, 1000)] };
const worse: ReportData = { ...structuredClone(v1), cells: [cell('ehr', 'seed', 300, 1000), cell('ehr', 'benign', 40, 1000)] };
const tuned: ReportData = structuredClone(better);
tuned.config.guardOptions = { tauGuard: 0.25 };
tuned.config.guardConfigHash = 'abc123';

describe('farma-fuzz compare', () => {
  it('exits 0 and prints the table when B is better', async () => {
    const r = await runCli(['compare', write('v1.json', v1), write('better.json', better)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\| ehr\/seed +\| bypass rate +\| 30\.0% \(300\/1000\) +\| 10\.0% \(100\/1000\) +\| −20\.0 pp +\| <0\.0001 +\| <0\.0001 +\| better +\|/);
    expect(r.stdout).toContain('B is not significantly worse than A in any of the 2 rates tested (better in 1).');
  });

  it('exits 1 when B is significantly worse in a rate, and its last line says what decided', async () => {
    const r = await runCli(['compare', write('v1.json', v1), write('worse.json', worse)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/ehr\/benign .*\| worse +\|/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('exit 1: decided by rates: B is significantly worse than A in ehr/benign FPR');
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('colours the verdicts and the exit line when FORCE_COLOR asks, as the other commands do', async () => {
    vi.stubEnv('FORCE_COLOR', '1');
    try {
      const r = await runCli(['compare', write('v1.json', v1), write('worse.json', worse)]);
      expect(r.stdout).toContain('\u001b[31mworse\u001b[39m');
      expect(r.stdout).toMatch(/\u001b\[1m\u001b\[31mexit 1: decided by rates/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('refuses different configurations with exit 2, naming each difference, and compares them with --allow-config-diff', async () => {
    const a = write('v1.json', v1);
    const b = write('tuned.json', tuned);
    const refused = await runCli(['compare', a, b]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('guardOptions.tauGuard: (absent) in A, 0.25 in B');
    expect(refused.stderr).toContain('guardConfigHash: none in A, abc123 in B');
    expect(refused.stderr).toContain('--allow-config-diff');
    const allowed = await runCli(['compare', a, b, '--allow-config-diff']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('configurations differ (allowed): guardConfigHash: none in A, abc123 in B; guardOptions.tauGuard: (absent) in A, 0.25 in B');
  });

  it('--json prints one JSON object with the rates, signatures, operators and differences', async () => {
    const r = await runCli(['compare', write('v1.json', v1), write('tuned.json', tuned), '--allow-config-diff', '--json']);
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout) as { rates: Array<{ name: string; change: string; p: number }>; configDifferences: unknown[]; counterexamples: Record<string, unknown[]>; alpha: number };
    expect(c.alpha).toBe(0.05);
    expect(c.rates.map((x) => [x.name, x.change])).toEqual([['ehr/seed', 'better'], ['ehr/benign', 'not significant']]);
    expect(c.configDifferences).toHaveLength(2);
    expect(Object.keys(c.counterexamples)).toEqual(['new', 'fixed', 'open']);
    expect((c as unknown as { exit: unknown }).exit).toEqual({ code: 0, deciding: 'rates', lines: ['exit 0: decided by rates: B is not significantly worse than A in any of the 2 rates tested'] });
  });

  it('takes a report folder for a report.json', async () => {
    const folder = path.join(dir, 'run-v1');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'report.json'), JSON.stringify(v1));
    const r = await runCli(['compare', folder, write('better.json', better)]);
    expect(r.code).toBe(0);
  });

  it.each([
    ['a missing file', () => path.join(dir, 'nope.json'), /nope\.json: report A: no such file or folder/],
    ['a folder without report.json', () => mkdtempSync(path.join(dir, 'empty-')), /report A: this folder holds no report\.json/],
    ['broken JSON, with its line and column', () => write('broken.json', '{\n  "tool": {"name": "farma-fuzz",\n  oops\n}'), /broken\.json: not valid JSON at line 3, column 3/],
    ['a JSON array', () => write('array.json', '[1,2]'), /array\.json: not a farma-fuzz report: expected a JSON object/],
    ['a shard blob', () => write('blob.json', { format: 'farma-fuzz-shard', shard: { index: 1, total: 2 }, outcome: {} }), /blob\.json: this is a shard blob .* merge-reports first/],
    ['another tool\'s JSON', () => write('other.json', { results: [] }), /other\.json: not a farma-fuzz report: no "tool"/],
    ['a report with a bad field, by key path', () => write('badkey.json', { ...v1, cells: [{ ...v1.cells[0], runs: 'many' }] }), /badkey\.json: not a readable farma-fuzz report: cells\[0\]\.runs: /],
    ['a cell that counts more violations than runs', () => write('over.json', { ...v1, cells: [{ ...v1.cells[0], violations: 999, runs: 20 }] }), /over\.json: not a readable farma-fuzz report: cells\[0\]\.violations: violations plus errors is larger than runs/],
    ['an interval with k above n', () => write('kn.json', { ...v1, cells: [{ ...v1.cells[0], violationRate: { rate: 2, low: 0, high: 1, k: 50, n: 10 } }] }), /kn\.json: .*cells\[0\]\.violationRate\.k: k is larger than n/],
  ])('exits 3 on %s', async (_what, file, message) => {
    const r = await runCli(['compare', file(), write('better.json', better)]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('merge-reports --baseline fails on a missing baseline before merging (exit 3); --allow-config-diff alone is a usage error', async () => {
    const empty = mkdtempSync(path.join(dir, 'shards-'));
    const missing = await runCli(['merge-reports', empty, '--baseline', path.join(dir, 'absent.json')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/absent\.json: --baseline: no such file or folder/);
    const lone = await runCli(['merge-reports', empty, '--allow-config-diff']);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toMatch(/--allow-config-diff needs --baseline/);
  });

  it('exits 1 when B has no result for a cell A has, naming it, and 0 with --allow-missing', async () => {
    const fewer: ReportData = { ...structuredClone(v1), cells: [cell('ehr', 'seed', 300, 1000)] };
    const a = write('v1.json', v1);
    const b = write('fewer.json', fewer);
    const r = await runCli(['compare', a, b]);
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe("exit 1: decided by coverage: B has no result for 1 of A's rates (ehr/benign FPR); run B on the same cells, or pass --allow-missing");
    const allowed = await runCli(['compare', a, b, '--allow-missing']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout.trimEnd().split('\n').at(-1)).toBe("exit 0: decided by rates: B is not significantly worse than A in any of the 1 rates tested (1 of A's rates have no result in B: --allow-missing)");
  });

  it('exits 1 when B answers error where A rejected, though B admits no more forged entries', async () => {
    const crashing: ReportData = { ...structuredClone(v1), cells: [cell('ehr', 'seed', 300, 1000, 700), cell('ehr', 'benign', 2, 1000)] };
    const r = await runCli(['compare', write('v1.json', v1), write('crashing.json', crashing)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\| ehr\/seed +\| error rate +\| 0\.0% \(0\/1000\) +\| 70\.0% \(700\/1000\) .*\| worse +\|/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('exit 1: decided by rates: B is significantly worse than A in ehr/seed bypass rate, ehr/seed error rate');
  });

  it('exits 2 on a bad --alpha', async () => {
    const r = await runCli(['compare', write('v1.json', v1), write('better.json', better), '--alpha', '2']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--alpha must be a significance level in \(0,1\), got "2"/);
  });

  it('documents its exit codes in --help', async () => {
    const r = await runCli(['compare', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Exit codes of compare:[\s\S]*1 {2}B is significantly worse/);
  });
});
