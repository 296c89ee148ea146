/**
 * Ctrl-C in a fuzz run (README, exit codes): the run stops after the current batch, writes the
 * partial report, and exits 130 whatever the partial results, saying what had failed before the
 * stop. The signal is real: the fixture guard sends SIGINT to its own process on its 60th check (inside the first cell, which settles early),
 * after the forged cell has already failed (no timing involved).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitVerdict } from '../../src/cli/exit-verdict.js';
import { gate } from '../../src/report/gate.js';
import { cell, handReport } from '../report/fixture.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

describe('exitVerdict of an interrupted run', () => {
  const failing = handReport([cell('ehr', 'benign', 0, 400), cell('ehr', 'seed', 3, 400)]);
  const clean = handReport([cell('ehr', 'benign', 0, 400), cell('ehr', 'seed', 0, 400)]);
  it('is 130 whether invariants had failed, held, or a gate had passed; the lines keep what was found', () => {
    const v = exitVerdict(failing, gate(failing, {}), { thresholds: {}, reportDir: 'reports/run', interrupted: true });
    expect(v.code).toBe(130);
    expect(v.lines[0]).toBe('interrupted (Ctrl-C) after 800 cases: the report covers the cases run so far (reports/run/report.md); before the stop the partial run would exit 1:');
    expect(v.lines).toContain('  no gate set: the exit code follows the invariants; invariants failed in 1 of 2 cells (ehr/seed).');
    expect(v.lines.at(-1)).toMatch(/^exit 130: interrupted/);
    expect(v.lines.filter((l) => /^exit \d/.test(l))).toHaveLength(1);
    expect(exitVerdict(clean, gate(clean, {}), { thresholds: {}, interrupted: true }).code).toBe(130);
    const gated = exitVerdict(failing, gate(failing, { maxBypass: 0.5 }), { thresholds: { maxBypass: 0.5 }, interrupted: true });
    expect(gated.code).toBe(130);
    expect(gated.lines[0]).toContain('before the stop nothing had failed');
    // Not interrupted: unchanged.
    expect(exitVerdict(failing, gate(failing, {}), { thresholds: {} }).code).toBe(1);
  });
});

describe('fuzz stopped by SIGINT', () => {
  it('exits 130 after invariants failed, writes the partial report and prints why', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'farma-sigint-')), 'report');
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'fuzz', '--guard', path.join(ROOT, 'test/fixtures/guards/ctrl-c-guard.mjs'), '--domain', 'ehr,rap', '--family', 'naive', '--runs', '1000000', '--no-real', '--no-corpus', '--no-html', '--out', out, '--seed', '1'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CTRL_C_AFTER: '60' }, timeout: 240_000 },
    );
    expect(r.stderr).toContain('stopping after the current batch');
    expect(r.status).toBe(130);
    expect(r.stdout).toMatch(/\ninterrupted \(Ctrl-C\) after \d+ cases, in ehr\/naive: .*before the stop the partial run would exit 1:/);
    expect(r.stdout).toMatch(/\nexit 130: interrupted/);
    expect(existsSync(path.join(out, 'report.md'))).toBe(true);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { cells: Array<{ domain: string; interrupted: boolean; violations: number; runs: number }> };
    expect(report.cells.map((c) => c.domain)).toEqual(['ehr']);
    expect(report.cells[0]).toMatchObject({ interrupted: true });
    expect(report.cells[0]!.violations).toBeGreaterThan(0);
    expect(report.cells[0]!.runs).toBeLessThan(1_000_000);
  }, 240_000);
});
