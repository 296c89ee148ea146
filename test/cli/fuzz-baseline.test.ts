/**
 * `fuzz --baseline <report.json>`: a missing baseline fails before the campaign; a baseline of
 * another configuration is refused in the console line and in report.html's section, and
 * compared with --allow-config-diff. Three small campaigns: full tier (vitest.config.ts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-baseline-'));
afterEach(() => vi.restoreAllMocks());

describe('fuzz --baseline', () => {
  const common = ['fuzz', '--domain', 'ehr', '--family', 'seed,benign', '--runs', '30', '--seed', '1', '--no-real', '--no-corpus', '-q'];
  const outA = path.join(dir, 'base-a');

  it('fails before the campaign on a missing baseline (exit 3), and --allow-config-diff needs --baseline (exit 2)', async () => {
    const missing = await runCli([...common, '--out', path.join(dir, 'never'), '--baseline', path.join(dir, 'none.json')]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/--baseline: no such file or folder/);
    const lone = await runCli([...common, '--out', path.join(dir, 'never'), '--allow-config-diff']);
    expect(lone.code).toBe(2);
    expect(lone.stderr).toMatch(/--allow-config-diff needs --baseline/);
  });

  it('refuses a baseline of another configuration in the console and report.html, and compares with --allow-config-diff', async () => {
    expect((await runCli([...common, '--out', outA])).code).toBe(1);
    const refused = await runCli([...common, '--guard-option', 'tauGuard=0.25', '--out', path.join(dir, 'base-b'), '--baseline', outA]);
    expect(refused.code).toBe(1); // the invariants decide, as without --baseline
    expect(refused.stdout).toMatch(/baseline .*base-a[/\\]report\.json: not compared, the configurations differ \(guardConfigHash: .* in the baseline, .* in this run; guardOptions\.tauGuard: \(absent\) in the baseline, 0\.25 in this run\)/);
    const refusedHtml = readFileSync(path.join(dir, 'base-b', 'report.html'), 'utf8');
    expect(refusedHtml).toContain('<h2 id="baseline">');
    expect(refusedHtml).toContain('Not compared: the baseline');
    const allowed = await runCli([...common, '--guard-option', 'tauGuard=0.25', '--out', path.join(dir, 'base-c'), '--baseline', path.join(outA, 'report.json'), '--allow-config-diff']);
    expect(allowed.stdout).toMatch(/baseline .*: (not significantly worse in any|significantly worse in \d+) of 2 rates tested, better in \d+ \(Fisher's exact test, Holm-adjusted p < 0\.05\); counterexamples \d+ new, \d+ fixed, \d+ still open; configurations differ/);
    const html = readFileSync(path.join(dir, 'base-c', 'report.html'), 'utf8');
    expect(html).toContain('<a href="#baseline">Compared with the baseline</a>');
    expect(html).toMatch(/<th>baseline \(k\/n\)<\/th><th>this run \(k\/n\)<\/th>/);
    expect(html).toMatch(/data-label="cell">ehr\/seed</);
    const json = await runCli([...common, '--guard-option', 'tauGuard=0.25', '--out', path.join(dir, 'base-d'), '--baseline', outA, '--allow-config-diff', '--json']);
    const doc = JSON.parse(json.stdout) as { baseline?: { file: string; comparison?: { rates: unknown[]; configDifferences: Array<{ key: string }> } } };
    expect(doc.baseline?.comparison?.rates).toHaveLength(2);
    expect(doc.baseline?.comparison?.configDifferences.map((d) => d.key)).toEqual(['guardConfigHash', 'guardOptions.tauGuard']);
  });
});
