import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gate } from '../../src/report/gate.js';
import { renderStepSummary, writeStepSummary } from '../../src/report/step-summary.js';
import { cell, handReport, toyReport } from './fixture.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('writeStepSummary', () => {
  it('appends the summary when GITHUB_STEP_SUMMARY is set', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ff-summary-'));
    dirs.push(dir);
    const file = path.join(dir, 'summary.md');
    writeFileSync(file, 'earlier step\n');
    const r = handReport([cell('ehr', 'benign', 0, 20), cell('ehr', 'seed', 2, 20)]);
    expect(writeStepSummary(r, { GITHUB_STEP_SUMMARY: file }, gate(r, { maxFpr: 0.1 }))).toBe(file);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('earlier step\n### farma-fuzz · hand · seed 1')).toBe(true);
    expect(text).toContain('| ehr | seed | forgery-rejected | 20 | 10.0% [');
    expect(text).toContain('❌ maxFpr ehr/benign');
  });

  it('does nothing when the variable is unset or empty', () => {
    const r = handReport([cell('ehr', 'benign', 0, 20)]);
    expect(writeStepSummary(r, {})).toBeUndefined();
    expect(writeStepSummary(r, { GITHUB_STEP_SUMMARY: '' })).toBeUndefined();
  });

  it('fences entry text so it cannot break out, and shows replay commands', async () => {
    const r = await toyReport(42, 20);
    const cx = r.counterexamples[0]!;
    cx.case = { ...cx.case, entry: { ...cx.case.entry, content: 'x ``` <b>bold</b> ````' } };
    const text = renderStepSummary(r);
    expect(text).toContain('`````text\nx ``` <b>bold</b> ````\n`````');
    expect(text).toContain(cx.replay);
  });
});
