/**
 * The console's query lines: one per phase that asked anything, and a note when the cells'
 * phase times add up to more than the cells took (cells side by side, or worker threads), so
 * nobody reads 46.8 s of case time as 46.8 s of waiting.
 */
import { describe, expect, it } from 'vitest';
import { queryLines, queryMarkdownRows } from '../../src/report/queries.js';
import type { QueryReport } from '../../src/report/model.js';
import { emptyPhaseTallies } from '../../src/fuzz/query-meter.js';

function report(phaseMs: Partial<QueryReport['phaseMs']>, cellsMs: number | undefined): QueryReport {
  const byPhase = emptyPhaseTallies();
  byPhase.cases = { queries: 1200, cacheHits: 0 };
  byPhase.shrink = { queries: 63, cacheHits: 100 };
  byPhase.recheck = { queries: 72, cacheHits: 0 };
  return {
    cache: true,
    total: { queries: 1335, cacheHits: 100 },
    byPhase,
    phaseMs: { cases: 0, shrink: 0, recheck: 0, attack: 0, real: 0, loso: 0, ...phaseMs },
    ...(cellsMs !== undefined ? { cellsMs } : {}),
    perCell: [],
  };
}

describe('queryLines', () => {
  it('notes that the phase times add up each cell\'s own when they pass the cells\' wall time', () => {
    const lines = queryLines(report({ cases: 11_300, shrink: 800, recheck: 2_600 }, 5_000));
    expect(lines).toContain('  (cases, shrinking and re-checks add up each cell\'s own time: the cells ran side by side, 14.7 s of cell time in 5.0 s)');
    expect(queryMarkdownRows(report({ cases: 11_300, shrink: 800, recheck: 2_600 }, 5_000))[1]).toMatch(/re-checks 72 queries · 2\.6 s; \(cases, shrinking and re-checks add up each cell's own time/);
  });

  it('says nothing more when the cells ran one at a time (phase times within the wall time)', () => {
    const lines = queryLines(report({ cases: 27_000, shrink: 1_400, recheck: 1_500 }, 30_000));
    expect(lines.some((l) => l.includes('side by side'))).toBe(false);
    expect(lines).toHaveLength(4);
    expect(queryLines(report({ cases: 27_000 }, undefined)).some((l) => l.includes('side by side'))).toBe(false);
  });
});
