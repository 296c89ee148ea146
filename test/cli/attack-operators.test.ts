/** `fuzz --attack-operators`: the attack's arms are the named operators only; an unknown id is a usage error (exit 2) listing the valid ones. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('fuzz --attack-operators', () => {
  it('exits 2 naming an unknown operator and the valid ones', async () => {
    const r = await runCli(['fuzz', '--family', 'adaptive', '--domain', 'ehr', '--no-real', '--no-corpus', '--attack-operators', 'typo,no-such-op']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--attack-operators: unknown operator no-such-op');
    expect(r.stderr).toContain('homoglyph');
  });

  it('suggests the closest operator id for a typo', async () => {
    const r = await runCli(['fuzz', '--family', 'adaptive', '--domain', 'ehr', '--no-real', '--no-corpus', '--attack-operators', 'homoglyf']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--attack-operators: unknown operator homoglyf (did you mean "homoglyph"?)');
  });

  it('attacks with the named operators only', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'farma-attack-ops-'));
    const r = await runCli(['fuzz', '--family', 'adaptive', '--domain', 'ehr', '--no-real', '--no-corpus', '--seed', '1', '--attack-bases', '40', '--attack-operators', 'typo,role-play', '--out', out]);
    expect([0, 1]).toContain(r.code);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { attack: { operators: Array<{ operator: string; queries: number }> } };
    const used = report.attack.operators.filter((o) => o.queries > 0).map((o) => o.operator).sort();
    expect(used.length).toBeGreaterThan(0);
    for (const op of used) expect(['role-play', 'typo']).toContain(op);
  }, 120_000);
});
