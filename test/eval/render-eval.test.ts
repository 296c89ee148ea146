import { describe, expect, it } from 'vitest';
import { wilson } from '../../src/metrics/index.js';
import { ablationFindings, bar, emptyOutcomeCounts, formatInterval, type AblationRow, type CellResult } from '../../src/eval/index.js';

function cell(successes: number, n = 50): CellResult {
  const counts = emptyOutcomeCounts();
  counts.success = successes;
  counts.resisted = n - successes;
  const w = { attempted: 23 * n, committed: 23 * n, rejected: 0, errors: 0 };
  return { defense: 'x', domain: 'ehr', cycles: 10, n, counts, asr: wilson(successes, n), benignWrites: w, forgedWrites: w, forgedSeenMean: 0 };
}
const row = (label: string, kind: AblationRow['kind'], successes: number): AblationRow => ({ id: label, label, kind, layers: [label], cell: cell(successes) });

describe('ablation findings', () => {
  it('credits the layer whose removal raises ASR and which works alone', () => {
    const rows = [row('all five layers', 'all', 0), row('L1 keyword alone', 'alone', 48), row('L5 Reasoning Guard alone', 'alone', 0), row('without L1 keyword', 'all-but-one', 0), row('without L5 Reasoning Guard', 'all-but-one', 49)];
    const text = ablationFindings(rows, cell(50)).join('\n');
    expect(text).toContain('Necessary (removing it raises ASR above the full pipeline\'s interval): L5 Reasoning Guard.');
    expect(text).toContain('Sufficient alone (ASR interval overlaps the full pipeline\'s): L5 Reasoning Guard.');
  });

  it('credits no layer when the full pipeline is no better than no defense', () => {
    const rows = [row('all five layers', 'all', 44), row('L5 Reasoning Guard alone', 'alone', 44)];
    const text = ablationFindings(rows, cell(45)).join('\n');
    expect(text).toContain('does not reduce ASR below the no-defense level');
    expect(text).not.toContain('Sufficient');
  });

  it('formats intervals and bars', () => {
    expect(formatInterval(wilson(0, 50))).toBe('0% [0, 7]');
    expect(bar(0.5, 10)).toBe('#####.....');
  });
});
