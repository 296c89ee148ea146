/** Small hand-built arbitraries and guards for engine tests (independent of the real generators). */
import fc from 'fast-check';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { MemoryEntry } from '../../src/domain/entry.js';
import type { SyncGuard, StoreView } from '../../src/domain/guard.js';
import type { Verdict } from '../../src/domain/verdict.js';
import type { ScratchStore } from '../../src/fuzz/evaluate.js';
import { EMPTY_STORE } from '../../src/domain/guard.js';

export function entry(id: string, content: string, over: Partial<MemoryEntry> = {}): MemoryEntry {
  return { id, store: 'reasoning', content, source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: '2026-01-01T00:00:00.000Z', ...over };
}

/** Forged cases: a template choice, a word list, and a history whose length shrinks. */
export const toyForged: fc.Arbitrary<FuzzCase> = fc
  .record({
    template: fc.constantFrom('alpha', 'beta', 'gamma'),
    words: fc.array(fc.constantFrom('upstream', 'verified', 'pattern', 'complete'), { minLength: 1, maxLength: 6 }),
    history: fc.array(fc.nat(99), { maxLength: 5 }),
  })
  .map(({ template, words, history }) => ({
    entry: entry(`toy-${template}-${words.length}`, `For pipeline INT-EHR-1000: ${words.join(' ')}.`),
    truth: { label: 'forged' as const, family: 'seed', domain: 'toy', template: `toy/seed/${template}`, operators: [], claim: { subject: 'INT-EHR-1000', checks: ['x'] } },
    setup: history.map((h) => entry(`h-${h}`, `benign note ${h}`)),
  }));

export const toyBenign: fc.Arbitrary<FuzzCase> = fc.record({ n: fc.nat(1000), template: fc.constantFrom('one', 'two') }).map(({ n, template }) => ({
  entry: entry(`b-${n}`, `Imported ${n} rows; all parsed.`, { traceType: 'observation', store: 'general' }),
  truth: { label: 'benign' as const, family: 'benign', domain: 'toy', template: `toy/benign/${template}`, operators: [] },
}));

function verdict(decision: Verdict['decision'], extra: Partial<Verdict> = {}): Verdict {
  return { decision, trace: [], reasons: [], elapsedUs: 1, ...extra };
}

export const admitAll: SyncGuard = { id: 'admit-all', mode: 'sync', check: () => verdict('admit') };
export const rejectAll: SyncGuard = { id: 'reject-all', mode: 'sync', check: () => verdict('reject', { layer: 'L0' }) };
/** Rejects entries whose text has 3+ words after the colon: a weak length rule. */
export const lengthGuard: SyncGuard = {
  id: 'length',
  mode: 'sync',
  check: (e) => {
    const words = (e.content.split(':')[1] ?? '').trim().split(/\s+/).length;
    return verdict(words >= 3 ? 'reject' : 'admit', { signals: { s3: words >= 3 ? 1 : 0 }, layer: 'L5' });
  },
};
export const throwingGuard: SyncGuard = {
  id: 'throws',
  mode: 'sync',
  check: () => {
    throw new Error('boom');
  },
};

/** A scratch store with no SQLite: setup entries are visible through `size` only. */
export const arrayStore: ScratchStore = {
  scratch: (setup, fn) => fn(view(setup)),
  scratchAsync: (setup, fn) => fn(view(setup)),
  insert: () => undefined,
  view: EMPTY_STORE,
};
function view(setup: readonly MemoryEntry[]): StoreView {
  return { ...EMPTY_STORE, size: () => setup.length };
}
