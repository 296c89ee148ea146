import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { StoreError } from '../../src/domain/index.js';
import type { MemoryEntry, StoreName, StoreView } from '../../src/domain/index.js';
import { MemoryStore } from '../../src/memory/index.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'validation', 'upstream', 'INT-EHR-7742', 'QC-GEO-0413', 'SKU-88-1207', 'runs', 'prior'];
const TRACES = ['decision_log', 'observation', 'fact', 'reflection'];

const entryArb = (prefix: string): fc.Arbitrary<MemoryEntry> =>
  fc
    .record({
      n: fc.nat({ max: 40 }),
      store: fc.constantFrom<StoreName>('reasoning', 'general'),
      words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }),
      traceType: fc.constantFrom(...TRACES),
      meta: fc.option(fc.record({ k: fc.nat() }), { nil: undefined }),
    })
    .map(({ n, store, words, traceType, meta }) => ({
      id: `${prefix}${n}`,
      store,
      content: words.join(' '),
      source: 'AGENT',
      trust: 'VERIFIED',
      traceType,
      timestamp: '2026-01-01T00:00:00.000Z',
      ...(meta ? { metadata: meta } : {}),
    }));

/** Entries unique by (store, id), as a store accepts them. */
const uniqueEntries = (prefix: string, max: number): fc.Arbitrary<MemoryEntry[]> =>
  fc.uniqueArray(entryArb(prefix), { maxLength: max, selector: (e) => `${e.store}/${e.id}` });

/** Every read a guard can make, over the query vocabulary. */
function reads(view: StoreView): unknown[] {
  const out: unknown[] = [view.size(), view.size('reasoning'), view.size('general')];
  for (const w of WORDS) {
    out.push(view.countByKey(w), view.countByKey(w.toUpperCase(), 'reasoning'), view.countByKey(w, 'general'));
    out.push(view.search(w, 3), view.search(`${w} validation prior`, 5, 'reasoning'), view.search(w, 2, 'general'));
    out.push(view.termMatches?.(`${w} runs`, 2), view.termMatches?.(w, 3, 'general'));
  }
  for (const t of TRACES) out.push(view.countByTraceType(t), view.countByTraceType(t, 'general'));
  return out;
}

describe('StoreOverlay (copy-on-write layer over the committed store)', () => {
  test.prop([uniqueEntries('c', 12), uniqueEntries('s', 10), uniqueEntries('w', 6)], { numRuns: 60 })(
    'answers every StoreView read exactly as the SQLite store with the same entries inserted',
    (committed, setup, writes) => {
      const store = new MemoryStore(':memory:');
      try {
        store.insertMany(committed);
        const ok = (e: MemoryEntry): boolean => store.get(e.store, e.id) === undefined;
        const s = setup.filter(ok);
        const w = writes.filter(ok);
        const layer = store.overlay(s);
        for (const e of w) layer.insert(e);
        const viaOverlay = reads(layer.view);
        const viaSqlite = store.scratch([...s, ...w], (view) => reads(view));
        expect(viaOverlay).toEqual(viaSqlite);
        // The committed store is untouched.
        expect(store.view.size()).toBe(committed.length);
      } finally {
        store.close();
      }
    },
  );

  test.prop([uniqueEntries('s', 10), uniqueEntries('w', 6)], { numRuns: 40 })(
    'reads made between inserts (counts are indexed lazily) match SQLite after every insert',
    (setup, writes) => {
      const store = new MemoryStore(':memory:');
      try {
        const ids = new Set(setup.map((e) => `${e.store}/${e.id}`));
        const w = writes.filter((e) => !ids.has(`${e.store}/${e.id}`));
        const layer = store.overlay(setup);
        for (let i = 0; i <= w.length; i++) {
          const inserted = [...setup, ...w.slice(0, i)];
          expect(reads(layer.view)).toEqual(store.scratch(inserted, (view) => reads(view)));
          if (i < w.length) layer.insert(w[i] as MemoryEntry);
        }
      } finally {
        store.close();
      }
    },
  );

  test.prop([uniqueEntries('c', 8), uniqueEntries('s', 6)], { numRuns: 30 })(
    'an in-memory store read as empty by one layer is read again after it changes (insert, scratch, rollback)',
    (committed, setup) => {
      const store = new MemoryStore(':memory:');
      try {
        const ok = (e: MemoryEntry): boolean => !committed.some((c) => c.store === e.store && c.id === e.id);
        const s = setup.filter(ok);
        const empty = reads(store.overlay(s).view);
        expect(empty).toEqual(store.scratch(s, (view) => reads(view)));
        // Inside a scratch the committed entries are there; after its rollback they are not (a layer
        // made then may read the committed counts again, which are 0: slower, never wrong).
        const inside = store.scratch(committed, () => reads(store.overlay(s).view));
        expect(inside).toEqual(store.scratch([...committed, ...s], (view) => reads(view)));
        expect(reads(store.overlay(s).view)).toEqual(empty);
        store.insertMany(committed);
        expect(reads(store.overlay(s).view)).toEqual(store.scratch(s, (view) => reads(view)));
      } finally {
        store.close();
      }
    },
  );

  it('refuses ids the SQLite store would refuse, with its messages', () => {
    const store = new MemoryStore(':memory:');
    const e: MemoryEntry = { id: 'x1', store: 'reasoning', content: 'alpha', source: 'AGENT', trust: 'VERIFIED', traceType: 'fact', timestamp: 't' };
    store.insert(e);
    expect(() => store.overlay([e])).toThrow(StoreError);
    expect(() => store.overlay([e])).toThrow('already in the reasoning store');
    const f = { ...e, id: 'x2' };
    expect(() => store.overlay([f, f])).toThrow('appears twice in one insert batch');
    const layer = store.overlay([f]);
    expect(() => layer.insert(f)).toThrow('already in the reasoning store');
    // Another part of the store may reuse the id.
    layer.insert({ ...f, store: 'general' });
    expect(layer.view.size()).toBe(3);
    expect(() => layer.insert({ ...e, id: 'x3', store: 'nowhere' as StoreName })).toThrow('unknown store');
    store.close();
  });

  it('layers open at once do not see each other', () => {
    const store = new MemoryStore(':memory:');
    const mk = (id: string, content: string): MemoryEntry => ({ id, store: 'reasoning', content, source: 'AGENT', trust: 'VERIFIED', traceType: 'fact', timestamp: 't' });
    const a = store.overlay([mk('a', 'INT-EHR-7742 alpha')]);
    const b = store.overlay([mk('a', 'QC-GEO-0413 beta'), mk('b', 'beta')]);
    expect(a.view.size()).toBe(1);
    expect(b.view.size()).toBe(2);
    expect(a.view.countByKey('INT-EHR-7742')).toBe(1);
    expect(b.view.countByKey('INT-EHR-7742')).toBe(0);
    expect(a.view.search('beta', 5)).toEqual([]);
    expect(b.view.search('beta', 5).map((e) => e.id).sort()).toEqual(['a', 'b']);
    expect(store.view.size()).toBe(0);
    store.close();
  });
});
