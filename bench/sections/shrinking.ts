/**
 * Shrink time of a planted bypass (DESIGN.md "Budgets": a found bypass shrinks in <= 2 s,
 * median). SENTINEL with a hole admits any text containing the digit `7`; `fc.check` finds
 * a forged case with a 7 and shrinks it.
 */
import fc from 'fast-check';
import type { SyncGuard } from '../../src/domain/guard.js';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { evaluateSync } from '../../src/fuzz/evaluate.js';
import { judge } from '../../src/fuzz/oracle.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_REGISTRY, type FamilyId } from '../../generators/families.js';
import { status, type BenchContext, type BenchSection } from '../lib.js';
import { summarize } from '../summary.js';

function plantedGuard(): SyncGuard {
  const inner = createGuard('sentinel') as SyncGuard;
  return {
    id: 'sentinel-planted-7',
    mode: 'sync',
    check: (entry, ctx) => (entry.content.includes('7') ? { decision: 'admit', trace: [], reasons: ['planted hole'], elapsedUs: 0 } : inner.check(entry, ctx)),
  };
}

async function run(ctx: BenchContext): Promise<void> {
  ctx.log('shrink time for a planted bypass (find + shrink, fc.check)');
  const guard = plantedGuard();
  const store = new MemoryStore(':memory:');
  const times: number[] = [];
  const shrinks: number[] = [];
  const seeds = ctx.quick ? 2 : 5;
  try {
    for (const family of ['seed', 'naive', 'amplification'] as FamilyId[]) {
      for (const domain of DOMAINS) {
        for (let s = 1; s <= seeds; s++) {
          const arb = FAMILY_REGISTRY[family].arbitrary(domain);
          const t0 = performance.now();
          const details = fc.check(
            fc.property(arb, (c) => judge(c.truth, evaluateSync(guard, c, store, 'write')) !== 'violated'),
            { seed: s * 7919, numRuns: 10_000, interruptAfterTimeLimit: 30_000 },
          );
          const ms = performance.now() - t0;
          if (details.failed) {
            times.push(ms);
            shrinks.push(details.numShrinks);
          }
        }
      }
    }
  } finally {
    store.close();
  }
  const fig = summarize(times, 'ms');
  ctx.row({
    id: 'shrink.planted',
    figure: `shrink time of a planted bypass (SENTINEL admitting any text with a "7"; seed, naive, amplification × ${DOMAINS.length} domains × ${seeds} seeds)`,
    value: fig,
    budget: '<= 2,000 ms',
    status: status(fig.median <= 2000),
    note: `${times.length} bypasses found and shrunk; median ${summarize(shrinks, '').median} shrink steps`,
  });
}

export const shrinking: BenchSection = { id: 'shrinking', title: 'shrink time of a planted bypass', run };
