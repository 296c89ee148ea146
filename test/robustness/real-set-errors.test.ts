/**
 * Robustness: guard errors on the real benign sets are shown beside their FPR, as
 * in the generated cells, and no realism gap is ever computed from errored rows.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { realismGap } from '../../src/metrics/realism-gap.js';
import type { ReportData } from '../../src/report/model.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');


afterEach(() => vi.restoreAllMocks());

describe('realismGap', () => {
  it('leaves errored rows out of both sides', () => {
    // real: 5 rejected of 10 judged (10 more errored) = 50%; generated 0%
    expect(realismGap({ rejected: 0, n: 20, errors: 0 }, { rejected: 5, n: 20, errors: 10 })).toBeCloseTo(0.5, 12);
    expect(realismGap({ rejected: 2, n: 100, errors: 50 }, { rejected: 1, n: 25, errors: 0 })).toBeCloseTo(0, 12);
  });

  it('is undefined when every row of a side errored (never 0)', () => {
    expect(realismGap({ rejected: 0, n: 20, errors: 0 }, { rejected: 0, n: 35, errors: 35 })).toBeUndefined();
    expect(realismGap({ rejected: 0, n: 20, errors: 20 }, { rejected: 3, n: 35, errors: 0 })).toBeUndefined();
  });

  it('refuses impossible tallies', () => {
    expect(() => realismGap({ rejected: 3, n: 2, errors: 0 }, { rejected: 0, n: 1, errors: 0 })).toThrow(RangeError);
  });
});

describe('a guard that errors on every real trace', () => {
  it('stdout and report.md show the error counts of each real set, and no realism gap', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'farma-real-errors-'));
    const guard = path.join(ROOT, 'test/fixtures/guards/throwing-guard.mjs');
    const r = await runCli(['fuzz', '--guard', guard, '--family', 'benign', '--domain', 'ehr', '--runs', '10', '--seed', '3', '--out', out, '--no-corpus', '--no-html', '-q']);
    // The guard throws on every call, generated and real: nothing was judged, exit 4 (guard).
    expect(r.code).toBe(4);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ReportData;
    expect(report.fpr.real.length).toBeGreaterThan(0);
    for (const s of report.fpr.real) {
      expect(s.errors).toBe(s.fpr.n);
      expect(r.stdout).toMatch(new RegExp(`${s.name}\\s+0/${s.fpr.n}\\s+FPR .*errors ${s.fpr.n}/${s.fpr.n} 100\\.0%`));
    }
    expect(report.fpr.realismGap).toBeUndefined();
    expect(r.stdout).toMatch(/realism gap not computed/);
    expect(r.stdout).not.toMatch(/realism gap \|FPR/);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/\| set \| kind \| FPR \[95% CI\] \| n \| errors \|/);
    for (const s of report.fpr.real) expect(md).toContain(`| ${s.name} | real (${s.source}) | ${'0.0%'}`);
    for (const s of report.fpr.real) expect(md).toMatch(new RegExp(`\\| ${s.name} \\|[^\\n]*\\| ${s.fpr.n} \\| ${s.fpr.n} \\|`));
    expect(md).toMatch(/Realism gap not computed/);
    expect(md).not.toMatch(/Realism gap \|FPR/);
  }, 60_000);
});
