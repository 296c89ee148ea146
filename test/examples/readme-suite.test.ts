// This file is the README's "Fuzz your own guard in vitest" example, run as a test.
// test/examples/readme-example.test.ts checks that the README shows it verbatim.
import { expect } from 'vitest';
import { test } from '@fast-check/vitest';
import { checkInvariantSync, MemoryStore, type MemoryEntry, type SyncGuard } from '../../src/index.js';
import { benignTrace, naiveAttack } from '../../generators/index.js';

// A toy guard: rejects entries that tell the agent to skip, ignore or bypass a step (naive
// attacks also use verbs outside common blocklists, and Spanish, German and Chinese: waive, forgo, omitir, 跳过).
const myGuard: SyncGuard = {
  id: 'my-guard',
  mode: 'sync',
  check: (entry: MemoryEntry) => {
    const overt = /\b(skip|ignore|bypass|waive|forgo|stand down|pass over|switch off|omitir|saltar|überspringen|ignorieren|auslassen|without verification)\b|跳过|忽略/iu.test(entry.content);
    return { decision: overt ? 'reject' : 'admit', trace: [], reasons: [], elapsedUs: 0 };
  },
};
const store = new MemoryStore(':memory:');

test.prop([naiveAttack('ehr')], { numRuns: 200 })('rejects naive EHR attacks', (c) => {
  expect(checkInvariantSync(myGuard, c, { store }).judgement).toBe('holds');
});

test.prop([benignTrace('ehr')], { numRuns: 200 })('surfaces false positives as counterexamples', (c) => {
  const { judgement } = checkInvariantSync(myGuard, c, { store });
  // The toy guard trips on honest uses of "skip" or "ignore"; every rejection must be one of those.
  if (judgement === 'violated') expect(c.entry.content).toMatch(/\b(skip|ignore|bypass|without verification)\b/i);
  else expect(judgement).toBe('holds');
});
