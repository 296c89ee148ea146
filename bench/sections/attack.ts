/**
 * Attack mode: what the adaptive attack costs against SENTINEL with tauGuard 0.25
 * (a variant that rejects many seed traces, so the attack meets resistance). Per round and
 * domain: draw forged bases, attack the rejected ones (MCTS-Explore + UCB1, 30 queries per
 * base), and record the wall time per attacked base and the queries each flip needed.
 * A benchmark, not a timed test: the figures are reported, with no budget.
 */
import fc from 'fast-check';
import type { BenchContext, BenchSection } from '../lib.js';
import { summarize } from '../summary.js';
import { runAttack } from '../../src/fuzz/attack.js';
import { createSentinel } from '../../src/guards/sentinel/index.js';
import { MemoryStore } from '../../src/memory/index.js';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { attackBases } from '../../generators/families.js';
import { adaptiveAttackParts } from '../../generators/adaptive.js';

async function run(ctx: BenchContext): Promise<void> {
  const guard = createSentinel({ config: { tauGuard: 0.25 } });
  const store = new MemoryStore(':memory:');
  const rounds = ctx.quick ? 1 : 4;
  const nBases = ctx.quick ? 60 : 200;
  const budget = 30;
  const msPerAttacked: number[] = [];
  const queriesPerAttacked: number[] = [];
  const queriesPerFlip: number[] = [];
  let attacked = 0;
  let flipped = 0;
  ctx.log(`attack mode vs sentinel tauGuard 0.25: ${rounds} round(s) × ${DOMAINS.length} domains × ${nBases} bases, budget ${budget}`);
  try {
    for (let round = 0; round < rounds; round++) {
      for (const domain of DOMAINS) {
        const bases = fc.sample(attackBases(domain), { numRuns: nBases, seed: 1000 + round });
        const t0 = performance.now();
        const out = await runAttack({ guard, store, phase: 'write', bases, ...adaptiveAttackParts(domain), budget, seed: round + 1 });
        const ms = performance.now() - t0;
        const hit = out.results.filter((r) => r.status === 'flipped' || r.status === 'held');
        if (hit.length === 0) continue;
        attacked += hit.length;
        flipped += hit.filter((r) => r.status === 'flipped').length;
        msPerAttacked.push(ms / hit.length);
        queriesPerAttacked.push(out.totalQueries / hit.length);
        for (const r of hit) if (r.flip) queriesPerFlip.push(r.flip.queriesToFlip);
      }
    }
  } finally {
    store.close();
  }
  const note = `${attacked} attacked bases, ${flipped} flipped; wall time of the whole attack (skipped bases and minimisation included) / attacked bases`;
  ctx.row({ id: 'attack.ms-per-attacked-base', figure: 'attack mode: wall time per attacked base (sentinel tauGuard 0.25)', value: summarize(msPerAttacked, 'ms'), status: 'reported', note });
  ctx.row({ id: 'attack.queries-per-attacked-base', figure: 'attack mode: guard queries per attacked base (minimisation and the one query of each skipped base included)', value: summarize(queriesPerAttacked, 'queries'), status: 'reported' });
  ctx.row({ id: 'attack.queries-per-flip', figure: 'attack mode: queries per flip (original included), sentinel tauGuard 0.25', value: summarize(queriesPerFlip, 'queries'), status: 'reported', note: `over ${queriesPerFlip.length} flips, budget ${budget} per base` });
}

export const attack: BenchSection = { id: 'attack', title: 'Adaptive attack mode vs SENTINEL tauGuard 0.25: cost per attacked base, queries per flip', run };
