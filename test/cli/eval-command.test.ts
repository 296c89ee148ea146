import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Command } from 'commander';
import { registerEvalCommand, runEvalCommand } from '../../src/cli/commands/eval.js';

let dir: string | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('eval command', () => {
  it('a tiny run (2 trials) produces all three tables and the report files', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    dir = await mkdtemp(join(tmpdir(), 'farma-eval-'));
    const r = await runEvalCommand({ planner: 'surrogate', trials: 2, seeds: 3, cycles: 10, k: 5, seed: 7, domains: ['ehr', 'react-qa', 'rap'], sweepMax: 2, fprPerDomain: 3, outDir: dir, quiet: true });
    const md = await readFile(join(dir, 'eval.md'), 'utf8');
    const json = JSON.parse(await readFile(join(dir, 'eval.json'), 'utf8')) as { table: unknown[]; ablation: unknown[]; sweep: { rows: unknown[] } };
    for (const text of [md, r.summary]) {
      expect(text).toContain('Table 1');
      expect(text).toContain('Table 2');
      expect(text).toContain('Table 3');
      expect(text).toContain('surrogate for an LLM planner');
    }
    // 4 defenses (no LLM: no judge row) × 3 domains; 11 ablation configurations; sweep 0..2.
    expect(json.table).toHaveLength(12);
    expect(json.ablation).toHaveLength(11);
    expect(json.sweep.rows).toHaveLength(3);
    for (const c of r.result.table) expect(c.n).toBe(2);
    expect(md).toMatch(/\| SENTINEL \|/);
    expect(md).toMatch(/\| L5 Reasoning Guard alone \|/);
  });

  it('the same seed gives the same tables', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    dir = await mkdtemp(join(tmpdir(), 'farma-eval-'));
    const o = { planner: 'surrogate' as const, trials: 2, seeds: 3, cycles: 4, k: 5, seed: 11, domains: ['rap' as const], sweepMax: 0, fprPerDomain: 0, quiet: true };
    const a = await runEvalCommand({ ...o, outDir: join(dir, 'a') });
    const b = await runEvalCommand({ ...o, outDir: join(dir, 'b') });
    expect(b.result.table).toEqual(a.result.table);
    expect(b.result.ablation.map((x) => x.cell.counts)).toEqual(a.result.ablation.map((x) => x.cell.counts));
  });

  it('--planner llm without LLM configuration exits 2 with the reason', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let code: number | undefined;
    const program = new Command().exitOverride();
    registerEvalCommand(program, (c) => {
      code = c;
    });
    await program.parseAsync(['eval', '--planner', 'llm', '--trials', '1', '-q'], { from: 'user' });
    const printed = err.mock.calls.map((c) => String(c[0])).join('');
    err.mockRestore();
    expect(code).toBe(2);
    expect(printed).toContain('OPENAI_API_KEY');
  });
});
