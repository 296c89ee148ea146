/**
 * Cases asked ahead in a hunting round start one at a time and widen to N (`Prefetcher`'s slow
 * start): against a guard that admits every forgery, each hunting round ends at its first case,
 * and with N cases asked ahead each such round spent N − 1 queries past its failure. Before this,
 * one ehr seed cell of 60 runs cost 100 case queries at `--concurrency 8` and 60 at 1; now
 * at most one more per failure than at 1. The verdicts are the same at every N either way.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Guard } from '../../src/domain/index.js';
import { MemoryStore } from '../../src/memory/index.js';
import { runCell } from '../../src/fuzz/property.js';
import { FAMILY_REGISTRY } from '../../generators/families.js';
import { timeless } from '../helpers/campaign.js';
import type { CampaignOutcome } from '../../src/fuzz/campaign.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

const admitAll: Guard = {
  id: 'admit-all',
  mode: 'async',
  check: async () => {
    await new Promise((r) => setTimeout(r, 1));
    return { decision: 'admit', trace: [], reasons: [], elapsedUs: 0 };
  },
};

const seedCell = (concurrency: number) => runCell({ domain: 'ehr', family: 'seed', arbitrary: FAMILY_REGISTRY.seed.arbitrary('ehr'), guard: admitAll, store, phase: 'write', runs: 60, seed: 21, maxFailures: 5, concurrency });

describe('slow start of the cases asked ahead', () => {
  it('a round that fails at its first case asks at most one case past it', async () => {
    const one = await seedCell(1);
    const eight = await seedCell(8);
    expect(eight.counterexamples.length).toBe(5);
    expect(one.queries?.cases.queries).toBe(60);
    const past = (eight.queries?.cases.queries ?? 0) - (one.queries?.cases.queries ?? 0);
    expect(past).toBeGreaterThanOrEqual(0);
    expect(past).toBeLessThanOrEqual(eight.counterexamples.length);
    // Same verdicts, counts and counterexamples.
    const asCampaign = (c: typeof one) => timeless({ cells: [c] } as unknown as CampaignOutcome);
    expect(asCampaign(eight)).toEqual(asCampaign(one));
  });

  it('a round that does not fail widens to N calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const slowAdmit: Guard = {
      id: 'slow-admit',
      mode: 'async',
      check: async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 2));
        inFlight -= 1;
        return { decision: 'admit', trace: [], reasons: [], elapsedUs: 0 };
      },
    };
    // Benign cases hold against a guard that admits them: the hunting round runs on.
    const out = await runCell({ domain: 'ehr', family: 'benign', arbitrary: FAMILY_REGISTRY.benign.arbitrary('ehr'), guard: slowAdmit, store, phase: 'write', runs: 40, seed: 3, maxFailures: 5, concurrency: 8 });
    expect(out.stats.violations).toBe(0);
    expect(most).toBe(8);
  });
});
