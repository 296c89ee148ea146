/**
 * The realism-gap sentence of the console and the reports: pooled over several real sets, it
 * also names each user export's own gap (a pooled 0.6 pp hid an export's 5.7 pp, and the same
 * line meant the export alone under --no-real).
 */
import { describe, expect, it } from 'vitest';
import { realismGapLine } from '../../src/report/markdown.js';
import { interval } from '../../src/report/model.js';
import { cell, handReport } from './fixture.js';

const set = (name: string, source: string, k: number, n: number) => ({ name, source, fpr: interval(k, n), errors: 0, rejected: [] });

describe('realismGapLine', () => {
  const generated = [{ domain: 'ehr', fpr: interval(0, 100), errors: 0, byTraceType: {} }];
  it('pooled over bundled sets and an export: the pool and the export alone', () => {
    const r = handReport([cell('ehr', 'benign', 0, 100)], [set('react-fever', 'ReAct, MIT', 0, 90), set('team.jsonl', 'user export', 6, 10)]);
    r.fpr.generated = generated;
    r.fpr.realismGap = 0.06;
    expect(realismGapLine(r)).toBe('realism gap |FPR_generated − FPR_real| = 6.00 percentage points over 2 real sets pooled, team.jsonl alone: 60.00 pp');
  });
  it('one set: the figure is its own gap, with nothing added', () => {
    const r = handReport([cell('ehr', 'benign', 0, 100)], [set('team.jsonl', 'user export', 6, 10)]);
    r.fpr.generated = generated;
    r.fpr.realismGap = 0.6;
    expect(realismGapLine(r)).toBe('realism gap |FPR_generated − FPR_real| = 60.00 percentage points');
  });
});
