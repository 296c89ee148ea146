/**
 * Messages a newcomer meets in the first hour, each telling them what to do: a decision typo
 * is named as one (not read as a weak guard), a guard module given without its extension
 * names the file that is there, and a run where every case timed out says that --timeout may
 * be too short, not only that the guard may be down.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseVerdict } from '../../src/domain/verdict-schema.js';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { exitVerdict } from '../../src/cli/exit-verdict.js';
import { gate } from '../../src/report/gate.js';
import { cell, handReport } from '../report/fixture.js';
import { runCli } from '../helpers/run-cli.js';

describe('newcomer messages', () => {
  it('a decision typo says which decision was meant', () => {
    const r = parseVerdict({ decision: 'rejcet', trace: [], reasons: [] });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/got string "rejcet" \(did you mean "reject"\?\)/);
  });

  it('--guard ./my-guard for my-guard.mjs names the file with its extension', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ff-ext-'));
    writeFileSync(path.join(dir, 'my-guard.mjs'), 'export default function check(entry, ctx) { return { decision: "admit", trace: [], reasons: [] }; }\n');
    const err = await loadModuleGuard('./my-guard', { cwd: dir }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/guard module not found: .*my-guard; did you mean --guard \.\/my-guard\.mjs \(the extension is needed\)\?/);
  });

  it('every case timed out: the closing line suggests a larger --timeout', () => {
    const timedOut = (c: ReturnType<typeof cell>) => ({ ...c, errorKinds: { timeout: c.errors } });
    const down = handReport([timedOut(cell('ehr', 'benign', 0, 10, 10)), timedOut(cell('ehr', 'seed', 0, 10, 10))]);
    const v = exitVerdict(down, gate(down, {}), { thresholds: {}, requireInvariants: false, reportDir: 'reports/run' });
    expect(v.code).toBe(4);
    expect(v.lines[0]).toMatch(/got an error verdict \(timeout\), none was judged: check that the guard starts and is reachable, or give it a larger --timeout/);
  });

  it('--benign given twice is an error naming both files (it used to measure only the last)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'two-benign-'));
    const a = path.join(dir, 'a.jsonl');
    const b = path.join(dir, 'b.jsonl');
    for (const f of [a, b]) writeFileSync(f, `${JSON.stringify({ id: 'x', content: 'Looked at the log.', source: 'AGENT' })}\n`);
    for (const command of ['fuzz', 'fpr']) {
      const r = await runCli([command, '--guard', 'keyword', '--benign', a, '--benign', b, '--no-real']);
      expect(r.code, command).toBe(2);
      expect(r.stderr, command).toContain(`--benign takes one file, and it was given twice (${a}, then ${b}): join the exports into one`);
    }
  });
});
