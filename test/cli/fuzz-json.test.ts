/**
 * `fuzz --json`: stdout is one JSON document (report.json plus the exit verdict and the report
 * folder) that a script can parse; the human summary and the closing lines go to stderr.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ff-fuzz-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fuzz --json', () => {
  it('prints report.json with exit and reportDir on stdout, the summary on stderr', async () => {
    const out = path.join(dir, 'run');
    const r = await runCli(['fuzz', '--guard', 'keyword', '-d', 'ehr', '-f', 'naive,benign', '-n', '10', '-s', '3', '--no-real', '--no-corpus', '--no-html', '-q', '--out', out, '--max-bypass', '0.05', '--json']);
    const doc = JSON.parse(r.stdout) as { cells: Array<{ family: string }>; exit: { code: number; lines: string[] }; reportDir: string; gate?: { pass: boolean } };
    expect(doc.exit.code).toBe(r.code);
    expect(r.code).toBe(1);
    expect(doc.exit.lines.at(-1)).toBe('exit 1: decided by gate FAIL.');
    expect(doc.gate?.pass).toBe(false);
    expect(doc.reportDir).toBe(out);
    expect(doc.cells.map((c) => c.family)).toEqual(['naive', 'benign']);
    const { exit: _e, reportDir: _d, ...report } = doc;
    expect(report).toEqual(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')));
    expect(r.stderr).toContain('exit 1: decided by gate FAIL.');
    expect(r.stderr).toMatch(/farma-fuzz · guard keyword · seed 3/);
  });
});
