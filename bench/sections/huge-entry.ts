/**
 * A 1 MB entry is checked by every built-in guard, on both paths, within the stated ReDoS
 * bound of 2 s per check. The texts are shaped to stress the pattern lists; the
 * test `test/robustness/huge-entry.test.ts` checks the verdicts, this section the time.
 */
import type { Phase, SyncGuard } from '../../src/domain/guard.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { createGuard, GUARDS, type BuiltinGuardId } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { HUGE_TEXTS, hugeEntry, hugeEntryHistory } from '../huge-texts.js';
import { single, status, type BenchContext, type BenchSection } from '../lib.js';

/** The bound of docs/performance.md: one check of a 1 MB entry, any built-in guard, ms. */
export const HUGE_ENTRY_BOUND_MS = 2000;

async function run(ctx: BenchContext): Promise<void> {
  ctx.log('1 MB entry, every built-in guard, both paths (slowest of the stress texts)');
  const store = new MemoryStore(':memory:');
  store.insertMany(hugeEntryHistory());
  try {
    for (const id of Object.keys(GUARDS) as BuiltinGuardId[]) {
      const guard = createGuard(id) as SyncGuard;
      for (const phase of ['write', 'retrieve'] as Phase[]) {
        let worst = 0;
        let worstName = '';
        for (const [name, text] of Object.entries(HUGE_TEXTS)) {
          const t0 = performance.now();
          const v = guard.check(hugeEntry(text), { phase, store: store.view }) as Verdict;
          const ms = performance.now() - t0;
          if (v.decision === 'error') throw new Error(`${id}/${phase} errored on "${name}": ${v.reasons.join('; ')}`);
          if (ms > worst) [worst, worstName] = [ms, name];
        }
        ctx.row({
          id: `huge-entry.${id}.${phase}`,
          figure: `1 MB entry, ${id} (${phase} path), slowest of ${Object.keys(HUGE_TEXTS).length} texts`,
          value: single(worst, 'ms'),
          budget: `<= ${HUGE_ENTRY_BOUND_MS.toLocaleString('en')} ms`,
          status: status(worst <= HUGE_ENTRY_BOUND_MS),
          note: `slowest text: ${worstName}`,
        });
      }
    }
  } finally {
    store.close();
  }
}

export const hugeEntrySection: BenchSection = { id: 'huge-entry', title: '1 MB entry per check, every built-in guard', run };
