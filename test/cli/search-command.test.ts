/** `farma-fuzz search` as a command: flags in, search.md and search.json out, exit 0. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import type { SearchRow } from '../../src/report/adaptive.js';
import { registerSearchCommand } from '../../src/cli/commands/search.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-search-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('search command', () => {
  it('writes search.md and search.json with per-template rows', async () => {
    const program = new Command().exitOverride();
    let code: number | undefined;
    registerSearchCommand(program, (c) => (code = c));
    const out = path.join(dir, 'run');
    await program.parseAsync(['search', '--guard', 'keyword', '--domain', 'rap', '--start', 'naive', '--budget', '50', '--mode', 'score', '--out', out, '-q'], { from: 'user' });
    expect(code).toBe(0);
    const json = JSON.parse(readFileSync(path.join(out, 'search.json'), 'utf8')) as { search: { rows: SearchRow[]; budgetCurve: unknown[] } };
    expect(json.search.rows.length).toBeGreaterThan(0);
    expect(json.search.rows.every((r) => r.template.startsWith('rap/naive/'))).toBe(true);
    const md = readFileSync(path.join(out, 'search.md'), 'utf8');
    expect(md).toContain('| budget (queries) | bypass rate [Wilson 95%] |');
  });
});
