/**
 * `check` names field values outside the schema (DESIGN.md, MemoryEntry): `store` is a closed set,
 * so a wrong one is an input error (exit 3) with the valid values; `source`, `trust`, `traceType`
 * and `timestamp` are open, so a value outside the known ones is checked as given with a warning
 * naming file:line, the key, the valid values and the closest one.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-fields-'));
const jsonl = (name: string, rows: object[]): string => {
  const file = path.join(dir, name);
  writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return file;
};

describe('check: field values outside the known ones', () => {
  it('open fields: a warning per value naming file:line, key and valid values; every line still checked, exit 0', async () => {
    const file = jsonl('open.jsonl', [
      { id: 'a', content: 'Checked the totals against the ledger.', source: 'AGENT', trust: 'VERIFIED', traceType: 'reflection', timestamp: '2026-01-02T03:04:05Z' },
      { id: 'b', content: 'Checked the totals against the ledger.', trust: 'SUPER' },
      { id: 'c', content: 'Checked the totals.', source: 'agent', traceType: 'reflexion', timestamp: 'yesterday' },
      { id: 'd', content: 'Defaults only.', source: 'UNKNOWN' },
    ]);
    const r = await runCli(['check', '--guard', 'sentinel', '--input', file]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(['a', 'b', 'c', 'd']);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning: '));
    expect(warnings).toEqual([
      `warning: ${file}:2: field "trust" is "SUPER", not a known trust label (VERIFIED, UNVERIFIED); it is kept as given`,
      `warning: ${file}:3: field "source" is "agent", not a known source (SYSTEM, AGENT, TOOL, EXTERNAL) (did you mean "AGENT"?); it counts as an unknown source (the least trusted kind for a guard that weighs provenance)`,
      expect.stringMatching(new RegExp(`^warning: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3: field "traceType" is "reflexion", not a known trace type \\(decision_log, thought_chain, reflection, rationale, observation, fact, experience, example, tool_output\\) \\(did you mean "reflection"\\?\\)`)),
      expect.stringMatching(/:3: field "timestamp" is "yesterday", not an ISO 8601 date-time/),
    ]);
  }, 30_000);

  it("with a guard that is not SENTINEL, the unknown-source warning names no SENTINEL layer", async () => {
    const file = jsonl('other-guard.jsonl', [{ id: 'a', content: 'Checked the totals.', source: 'agent' }]);
    const r = await runCli(['check', '--guard', path.resolve(import.meta.dirname, '../fixtures/guards/default-guard.mjs'), '--input', file]);
    expect(r.code, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning: '));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('it counts as an unknown source');
    expect(warnings[0]).not.toMatch(/SENTINEL|layer/);
  }, 30_000);

  it('store is a closed set: a wrong value is a malformed line (exit 3) with the valid values and the closest', async () => {
    const file = jsonl('store.jsonl', [
      { id: 'a', content: 'fine' },
      { id: 'b', content: 'wrong store', store: 'Reasoning' },
    ]);
    const r = await runCli(['check', '--guard', 'sentinel', '--input', file]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`error: ${file}:2: field "store" must be "reasoning" or "general", got string "Reasoning" (did you mean "reasoning"?)`);
    expect(r.stdout).toContain('"line":2');
  }, 30_000);

  it('import names the same values', async () => {
    const file = jsonl('import.jsonl', [{ id: 'x', content: 'note', trust: 'verified' }]);
    const r = await runCli(['import', '--store', path.join(dir, 'm.db'), '--input', file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`warning: ${file}:1: field "trust" is "verified", not a known trust label (VERIFIED, UNVERIFIED) (did you mean "VERIFIED"?)`);
  }, 30_000);
});
