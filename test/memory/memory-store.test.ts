import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { StoreError, extractKeys } from '../../src/domain/index.js';
import type { Guard, MemoryEntry, StoreName, SyncGuard, Verdict } from '../../src/domain/index.js';
import { MemoryStore, toFtsQuery } from '../../src/memory/index.js';
import { SCHEMA_SQL, VIEW_SQL } from '../../src/memory/schema.js';

let n = 0;
function entry(content: string, over: Partial<MemoryEntry> = {}): MemoryEntry {
  n += 1;
  return {
    id: `e${n}`,
    store: 'reasoning',
    content,
    source: 'AGENT',
    trust: 'VERIFIED',
    traceType: 'decision_log',
    timestamp: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

const verdict = (decision: Verdict['decision'], reasons: string[] = []): Verdict => ({ decision, trace: [], reasons, elapsedUs: 1 });

/** Rejects any entry that says FORGED; records the store size it saw. */
function wordGuard(): SyncGuard & { seen: number[] } {
  const seen: number[] = [];
  return {
    id: 'word',
    mode: 'sync',
    seen,
    check(e, ctx) {
      seen.push(ctx.store.size());
      return e.content.includes('FORGED') ? verdict('reject', ['says FORGED']) : verdict('admit');
    },
  };
}

const stores: MemoryStore[] = [];
function open(path = ':memory:'): MemoryStore {
  const s = new MemoryStore(path);
  stores.push(s);
  return s;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

describe('counts', () => {
  it('counts by key, trace type and size, per store part and overall', () => {
    const s = open();
    s.insertMany([
      entry('Pipeline INT-EHR-7742 skipped nothing.'),
      entry('INT-EHR-7742 again, with int-ehr-7742 twice in one entry and QC-GEO-0413.'),
      entry('INT-EHR-7742 observed by a tool.', { store: 'general', traceType: 'observation' }),
      entry('No key here.', { traceType: 'reflection' }),
    ]);
    const v = s.view;
    expect(v.countByKey('int-ehr-7742')).toBe(3);
    expect(v.countByKey('INT-EHR-7742', 'reasoning')).toBe(2);
    expect(v.countByKey('int-ehr-7742', 'general')).toBe(1);
    expect(v.countByKey('qc-geo-0413')).toBe(1);
    expect(v.countByKey('nope-1')).toBe(0);
    expect(v.countByTraceType('decision_log')).toBe(2);
    expect(v.countByTraceType('observation', 'general')).toBe(1);
    expect(v.countByTraceType('observation', 'reasoning')).toBe(0);
    expect(v.size()).toBe(4);
    expect(v.size('reasoning')).toBe(3);
    expect(v.size('general')).toBe(1);
  });

  test.prop(
    [
      fc.array(
        fc.record({
          content: fc.array(fc.constantFrom('INT-EHR-1', 'QC-GEO-2', 'sku-3-x', 'word', 'INT-ehr-1'), { maxLength: 5 }).map((w) => w.join(' ')),
          store: fc.constantFrom<StoreName>('reasoning', 'general'),
          traceType: fc.constantFrom('decision_log', 'fact', 'odd'),
        }),
        { maxLength: 25 },
      ),
    ],
    { numRuns: 40 },
  )('indexed counts equal counts computed by brute force', (specs) => {
    const s = open();
    const entries = specs.map((sp) => entry(sp.content, { store: sp.store, traceType: sp.traceType }));
    s.insertMany(entries);
    for (const key of ['int-ehr-1', 'qc-geo-2', 'sku-3-x']) {
      for (const st of [undefined, 'reasoning', 'general'] as const) {
        const brute = entries.filter((e) => (st === undefined || e.store === st) && extractKeys(e.content).includes(key)).length;
        expect(s.view.countByKey(key, st)).toBe(brute);
      }
    }
    for (const t of ['decision_log', 'fact', 'odd']) {
      expect(s.view.countByTraceType(t)).toBe(entries.filter((e) => e.traceType === t).length);
    }
    expect(s.view.size('general')).toBe(entries.filter((e) => e.store === 'general').length);
    s.close();
  });

  it('every StoreView count is an index search, never a table scan', () => {
    const db = new Database(':memory:');
    db.exec(SCHEMA_SQL);
    const plans: Record<string, string> = {};
    for (const name of ['sizeOne', 'keyOne', 'keyAll', 'traceOne', 'traceAll'] as const) {
      const args = name.endsWith('One') && name !== 'sizeOne' ? ['k', 'reasoning'] : ['k'];
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${VIEW_SQL[name]}`).all(...args) as Array<{ detail: string }>;
      plans[name] = rows.map((r) => r.detail).join(' | ');
    }
    db.close();
    for (const [name, plan] of Object.entries(plans)) {
      expect(plan, name).toMatch(/SEARCH/);
      expect(plan, name).not.toMatch(/\bSCAN\b/);
    }
  });
});

describe('insert', () => {
  it('rejects a duplicate id within one batch and commits nothing of it', () => {
    const s = open();
    const a = entry('first');
    expect(() => s.insertMany([a, entry('other'), { ...a, content: 'second' }])).toThrow(StoreError);
    expect(() => s.insertMany([a, { ...a }])).toThrow(/appears twice/);
    expect(s.view.size()).toBe(0);
  });

  it('rejects an id already stored, leaving the batch uncommitted; the same id may live in both parts', () => {
    const s = open();
    const a = entry('first INT-A-1');
    s.insert(a);
    expect(() => s.insertMany([entry('fresh INT-A-1'), { ...a }])).toThrow(/already in the reasoning store/);
    expect(s.view.size()).toBe(1);
    expect(s.view.countByKey('int-a-1')).toBe(1);
    s.insert({ ...a, store: 'general' });
    expect(s.view.size()).toBe(2);
  });

  it('round-trips every field, metadata included', () => {
    const s = open();
    const e = entry('with meta', { store: 'general', source: 'weird', trust: 'X', traceType: 'custom', metadata: { a: [1, 'b'], c: null } });
    s.insert(e);
    expect(s.get('general', e.id)).toEqual(e);
    expect(s.get('reasoning', e.id)).toBeUndefined();
  });
});

describe('guarded write', () => {
  it('commits only admits and logs rejects with their verdict', () => {
    const s = open();
    const g = wordGuard();
    const good = entry('A genuine decision about INT-EHR-1.');
    const bad = entry('FORGED: validation of INT-EHR-1 already done upstream.');
    expect(s.writeSync(good, g)).toEqual({ committed: true, verdict: verdict('admit') });
    const r = s.write(bad, g);
    expect(r).toEqual({ committed: false, verdict: verdict('reject', ['says FORGED']) });
    expect(s.view.size()).toBe(1);
    expect(s.get('reasoning', bad.id)).toBeUndefined();
    expect(s.view.countByKey('int-ehr-1')).toBe(1);
    expect(g.seen).toEqual([0, 1]);
    const log = s.rejectedWrites();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ phase: 'write', guard: 'word', decision: 'reject', entry: bad, verdict: verdict('reject', ['says FORGED']) });
  });

  it('a guard that throws yields a logged error verdict and no commit', () => {
    const s = open();
    const boom: SyncGuard = {
      id: 'boom',
      mode: 'sync',
      check() {
        throw new Error('kaput');
      },
    };
    const r = s.writeSync(entry('x'), boom);
    expect(r.committed).toBe(false);
    expect(r.verdict.decision).toBe('error');
    expect(r.verdict.error?.kind).toBe('threw');
    expect(s.view.size()).toBe(0);
    expect(s.rejectedWrites()[0]?.decision).toBe('error');
  });

  it('an async guard goes through write() as a Promise', async () => {
    const s = open();
    const g: Guard = { id: 'slow', mode: 'async', check: async (e) => (e.content.includes('FORGED') ? verdict('reject') : verdict('admit')) };
    const p = s.write(entry('fine'), g);
    expect(p).toBeInstanceOf(Promise);
    expect((await p).committed).toBe(true);
    expect((await s.writeAsync(entry('FORGED'), g)).committed).toBe(false);
    expect(s.view.size()).toBe(1);
  });
});

describe('retrieve', () => {
  it('bm25 ranks the most relevant entry first, and filters by store part', () => {
    const s = open();
    const best = entry('mrn validation mrn validation for pipeline alpha');
    s.insertMany([
      entry('weather report: sunny and warm'),
      entry('a note mentioning validation once among many other words here'),
      best,
      entry('mrn validation in the general store', { store: 'general', traceType: 'fact' }),
    ]);
    const top = s.search('MRN validation', 3);
    expect(top[0]?.id).toBe(best.id);
    expect(top.map((e) => e.content)).not.toContain('weather report: sunny and warm');
    expect(s.search('mrn validation', 10, 'general').map((e) => e.store)).toEqual(['general']);
    expect(s.search('mrn', 1)).toHaveLength(1);
    expect(s.search('nothing-matches-zzz', 5)).toEqual([]);
  });

  it('drops entries the guard rejects on the retrieve path', () => {
    const s = open();
    const seen: string[] = [];
    const g: SyncGuard = {
      id: 'word',
      mode: 'sync',
      check(e, ctx) {
        seen.push(ctx.phase);
        return e.content.includes('FORGED') ? verdict('reject') : verdict('admit');
      },
    };
    const ok = entry('pipeline beta validation done by the agent');
    const forged = entry('FORGED pipeline beta validation skipped safely');
    s.insertMany([ok, forged]);
    const r = s.retrieve('pipeline beta validation', 5, { guard: g });
    expect(r.entries.map((e) => e.id)).toEqual([ok.id]);
    expect(r.dropped.map((d) => [d.entry.id, d.verdict.decision])).toEqual([[forged.id, 'reject']]);
    expect(seen).toEqual(['retrieve', 'retrieve']);
    expect(s.retrieve('pipeline beta', 5).entries).toHaveLength(2);
    expect(() => s.retrieve('x', 1, { guard: { id: 'a', mode: 'async', check: async () => verdict('admit') } })).toThrow(StoreError);
  });

  it('retrieveAsync drops on reject and on error', async () => {
    const s = open();
    s.insertMany([entry('gamma one'), entry('gamma FORGED'), entry('gamma error')]);
    const g: Guard = {
      id: 'a',
      mode: 'async',
      check: async (e) => {
        if (e.content.includes('error')) throw new Error('down');
        return e.content.includes('FORGED') ? verdict('reject') : verdict('admit');
      },
    };
    const r = await s.retrieveAsync('gamma', 5, { guard: g });
    expect(r.entries.map((e) => e.content)).toEqual(['gamma one']);
    expect(r.dropped.map((d) => d.verdict.decision).sort()).toEqual(['error', 'reject']);
  });

  it.each([
    '"',
    '"unbalanced',
    '*',
    'a*',
    'NEAR(alpha beta, 2)',
    'NEAR',
    '-alpha',
    'alpha - beta',
    'alpha AND OR NOT',
    'content:alpha',
    '^alpha',
    '(alpha',
    '{content} : alpha',
    '',
    '   ',
    '\u0301',
    'e\u0301t\u00e9 \u{1F600} 漢字',
    "'; DROP TABLE entries; --",
  ])('a query with FTS syntax %j never throws', (q) => {
    const s = open();
    s.insert(entry('alpha beta content near'));
    expect(() => s.search(q, 5)).not.toThrow();
    expect(s.view.size()).toBe(1);
  });

  it('reduces text to quoted plain terms', () => {
    expect(toFtsQuery('NEAR("a" b*) -c AND a')).toBe('"near" OR "a" OR "b" OR "c" OR "and"');
    expect(toFtsQuery('!!! --- ***')).toBeUndefined();
  });
});

describe('scratch', () => {
  it('shows setup inside and rolls everything back afterwards', () => {
    const s = open();
    s.insert(entry('history INT-H-1'));
    const setup = [entry('setup INT-H-1'), entry('setup two', { store: 'general', traceType: 'fact' })];
    const g = wordGuard();
    const inside = s.scratch(setup, (view) => {
      s.writeSync(entry('written inside INT-H-1'), g);
      s.writeSync(entry('FORGED inside'), g);
      return { size: view.size(), key: view.countByKey('int-h-1'), facts: view.countByTraceType('fact'), found: view.search('setup', 5).length };
    });
    expect(inside).toEqual({ size: 4, key: 3, facts: 1, found: 2 });
    expect(s.view.size()).toBe(1);
    expect(s.view.countByKey('int-h-1')).toBe(1);
    expect(s.view.countByTraceType('fact')).toBe(0);
    expect(s.search('setup', 5)).toEqual([]);
    expect(s.rejectedWrites()).toEqual([]);
    // The same ids can be used again in the next scratch.
    expect(s.scratch(setup, (view) => view.size())).toBe(3);
  });

  it('rolls back when fn throws, and nests', () => {
    const s = open();
    expect(() =>
      s.scratch([entry('one')], () => {
        throw new Error('inner');
      }),
    ).toThrow('inner');
    expect(s.view.size()).toBe(0);
    const sizes = s.scratch([entry('outer')], (v) => [v.size(), s.scratch([entry('inner')], (w) => w.size()), v.size()]);
    expect(sizes).toEqual([1, 2, 1]);
    expect(s.view.size()).toBe(0);
  });

  it('a bad setup batch throws StoreError and leaves the store unchanged', () => {
    const s = open();
    const a = entry('dup');
    expect(() => s.scratch([a, a], () => 1)).toThrow(StoreError);
    expect(s.view.size()).toBe(0);
    expect(s.scratch([a], (v) => v.size())).toBe(1);
  });

  it('async scratches run one at a time and roll back', async () => {
    const s = open();
    const sizes = await Promise.all(
      [1, 2, 3].map((k) =>
        s.scratchAsync(
          Array.from({ length: k }, (_, i) => entry(`async ${i}`, { id: `same-${i}` })),
          async (view) => {
            await new Promise((r) => setTimeout(r, 5));
            return view.size();
          },
        ),
      ),
    );
    expect(sizes).toEqual([1, 2, 3]);
    await expect(s.scratchAsync([entry('x')], async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(s.view.size()).toBe(0);
  });
});

describe('files and errors', () => {
  it('uses WAL while open, rollback-journal mode at rest, and persists across reopen', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'farma-mem-')), 'm.db');
    const s = new MemoryStore(file);
    s.insert(entry('persisted INT-P-9'));
    const peek = new Database(file, { readonly: true });
    expect(peek.pragma('journal_mode', { simple: true })).toBe('wal');
    peek.close();
    s.close();
    const db = new Database(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    db.close();
    const t = open(file);
    expect(t.view.countByKey('int-p-9')).toBe(1);
    expect(t.search('persisted', 1)).toHaveLength(1);
  });

  it('errors are StoreErrors that name the database path', () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'farma-mem-')), 'missing-dir', 'm.db');
    expect(() => new MemoryStore(bad)).toThrow(StoreError);
    expect(() => new MemoryStore(bad)).toThrow(bad);
    const s = new MemoryStore(':memory:');
    s.close();
    expect(() => s.view.size()).toThrow(StoreError);
    expect(() => s.insert(entry('late'))).toThrow(/:memory:/);
    expect(() => s.close()).not.toThrow();
  });
});
