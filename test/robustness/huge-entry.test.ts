/**
 * Robustness: a 1 MB entry is checked by every built-in guard, on both paths, and gets a
 * well-formed verdict. The texts (bench/huge-texts.ts) stress the pattern lists.
 * The time bound (2 s per check) is a budget of `npm run bench` (section `huge-entry`), never
 * asserted here: the suite must pass on a loaded machine (the suite must pass on a loaded machine).
 */
import { describe, expect, it } from 'vitest';
import type { Phase } from '../../src/domain/guard.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { createGuard, GUARDS, type BuiltinGuardId } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { HUGE_TEXTS, MB, hugeEntry, hugeEntryHistory } from '../../bench/huge-texts.js';

describe('a 1 MB entry gets a well-formed verdict from every built-in guard', () => {
  const store = new MemoryStore(':memory:');
  store.insertMany(hugeEntryHistory());
  const ids = Object.keys(GUARDS) as BuiltinGuardId[];
  for (const id of ids) {
    for (const phase of ['write', 'retrieve'] as Phase[]) {
      // Generous: a loaded 2-core machine may take several seconds per MB for a slow guard.
      it(`${id} (${phase})`, () => {
        const guard = createGuard(id);
        expect(guard.mode).toBe('sync');
        for (const [name, text] of Object.entries(HUGE_TEXTS)) {
          expect(text.length).toBeGreaterThanOrEqual(MB);
          const v = guard.check(hugeEntry(text), { phase, store: store.view }) as Verdict;
          expect(['admit', 'reject'], `${id}/${phase} on "${name}": ${v.reasons.join('; ')}`).toContain(v.decision);
          expect(Array.isArray(v.reasons)).toBe(true);
        }
      }, 180_000);
    }
  }
});
