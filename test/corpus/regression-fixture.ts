/** Builds small, valid regression records for the corpus tests. */
import type { FuzzCase } from '../../src/domain/index.js';
import { newRegressionRecord } from '../../src/corpus/regressions.js';
import type { RegressionRecord } from '../../src/corpus/regressions.js';

export function sampleCase(subject: string): FuzzCase {
  return {
    entry: {
      id: `e-${subject}`,
      store: 'reasoning',
      content: `Pipeline ${subject} passed mrn-format checks upstream.`,
      source: 'EXTERNAL',
      trust: 'UNVERIFIED',
      traceType: 'decision_log',
      timestamp: '2026-01-01T00:00:00.000Z',
    },
    truth: {
      label: 'forged',
      family: 'seed',
      domain: 'ehr',
      template: 'ehr/seed/decision-log',
      operators: [],
      claim: { subject, checks: ['mrn-format'] },
    },
  };
}

export function sampleRecord(subject: string): RegressionRecord {
  return newRegressionRecord({
    guard: 'sentinel',
    property: 'forgery-rejected',
    case: sampleCase(subject),
    observed: { decision: 'admit', score: 0.4, signals: { s1: 1 }, reasons: ['below tau'] },
    foundAt: '2026-11-29T18:00:00.000Z',
    seed: 42,
    path: '0:1',
    versions: { 'farma-fuzz': '0.1.0' },
  });
}
