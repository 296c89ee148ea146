/**
 * A `--benign` export with many bad lines: the first few are warned one by one (as the report
 * lists them) and the rest in one line, so a big export does not flood the console; the count
 * of unread lines stays whole.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFuzz } from '../../src/campaign/fuzz.js';
import type { Progress } from '../../src/campaign/progress.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ff-benign-warn-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const quiet: Progress = { start: () => undefined, update: () => undefined, log: () => undefined, stop: () => undefined };

describe('warnings about a --benign export', () => {
  it('names the first 5 bad lines, then counts the rest in one line', async () => {
    const file = path.join(dir, 'team.jsonl');
    const bad = Array.from({ length: 12 }, (_, i) => `not json ${i}`);
    writeFileSync(file, [JSON.stringify({ id: 'ok-1', content: 'The lab result for the morning panel was filed.', source: 'AGENT' }), ...bad, JSON.stringify({ id: 'ok-2', content: 'Checked the refill request against the chart.', source: 'AGENT' })].join('\n') + '\n');
    const store = new MemoryStore(':memory:');
    const out = path.join(dir, 'run');
    let warnings: string[];
    try {
      const r = await runFuzz({ guardSpec: 'sentinel', guard: createGuard('sentinel'), store, domains: ['ehr'], families: ['benign'], runs: 5, seed: 3, phase: 'write', maxFailures: 1, outDir: out, benignFile: file, realData: false, attack: false, generatedAt: '2026-01-01T00:00:00.000Z' }, quiet);
      warnings = r.warnings;
    } finally {
      store.close();
    }
    const about = warnings.filter((w) => w.startsWith(file));
    expect(about.filter((w) => /^.*team\.jsonl:\d+: /.test(w))).toHaveLength(5);
    expect(about).toContain(`${file}: 7 more lines with an issue like those above, not shown one by one`);
    expect(about.some((w) => w.startsWith(`${file}: 12 lines of the export hold no measured entry`))).toBe(true);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { fpr: { real: Array<{ name: string; unread?: { lines: number; first: string[] } }> } };
    const row = report.fpr.real.find((s) => s.name === 'team.jsonl');
    expect(row?.unread?.lines).toBe(12);
    expect(row?.unread?.first).toHaveLength(5);
  });
});
