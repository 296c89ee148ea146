/**
 * `--max-queries` in attack mode: the attack's guard calls (attacker writes before each
 * candidate, minimisation and the re-checks of flips included) stay within the campaign's
 * budget, every cell still ends with an interval, and the attack says it stopped for the budget.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Guard } from '../../src/domain/guard.js';
import { MemoryStore } from '../../src/memory/index.js';
import { fuzzIn, reportJson } from '../helpers/fuzz-run.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

/** A guard that rejects every entry, counting the calls that reach it. */
function rejectAll(): Guard & { calls: number } {
  const g = {
    id: 'reject-all',
    mode: 'sync' as const,
    calls: 0,
    check() {
      g.calls += 1;
      return { decision: 'reject' as const, score: 1, trace: [], reasons: ['rejects every entry'], elapsedUs: 0 };
    },
  };
  return g;
}

const tmp = () => mkdtempSync(path.join(tmpdir(), 'farma-attack-budget-'));

describe('attack mode under --max-queries', () => {
  it('keeps a reject-all campaign within its budget, with an interval for every cell', async () => {
    const guard = rejectAll();
    const maxQueries = 300;
    const run = (dir: string, g: Guard) => fuzzIn(dir, { guardSpec: 'reject-all.mjs', guard: g, store, domains: ['ehr'], families: ['amplification', 'adaptive'], runs: 200, seed: 7, maxQueries });
    const [d1, d2] = [tmp(), tmp()];
    const r = await run(d1, guard);
    // Deterministic for the seed: a second run writes the same report.
    await run(d2, rejectAll());
    expect(reportJson(d2)).toEqual(reportJson(d1));
    const q = r.report.timing.queries!;
    expect(q.total.queries).toBe(guard.calls);
    expect(guard.calls).toBeLessThanOrEqual(maxQueries);
    expect(q.byPhase.attack.queries).toBeGreaterThan(0);
    for (const c of r.report.cells) {
      expect(c.runs).toBeGreaterThan(0);
      expect(c.violationRate.high).toBeGreaterThanOrEqual(c.violationRate.low);
    }
    expect(r.report.attack?.sampling?.[0]?.stopped).toBe('budget');
  });

  it('counts minimisation and the re-checks of flips within the share', async () => {
    // Rejects its first 30 calls and admits every later one: the search flips bases late, and
    // each flip is minimised and re-checked.
    let calls = 0;
    const guard: Guard = {
      id: 'late-admit',
      mode: 'sync',
      check: () => {
        calls += 1;
        return { decision: calls > 30 ? 'admit' : 'reject', score: calls > 30 ? 0 : 1, trace: [], reasons: [], elapsedUs: 0 };
      },
    };
    const maxQueries = 100;
    const r = await fuzzIn(tmp(), { guardSpec: 'late-admit.mjs', guard, store, domains: ['ehr'], families: ['adaptive'], runs: 40, seed: 7, attack: { budget: 20 }, maxQueries });
    expect(calls).toBeLessThanOrEqual(maxQueries);
    expect(r.report.timing.queries!.total.queries).toBe(calls);
    expect(r.report.attack!.overall.flipped).toBeGreaterThan(0);
    // A kept flip was re-checked in full.
    expect(r.report.counterexamples.length).toBeGreaterThan(0);
    for (const c of r.report.counterexamples) expect(c.recheck?.of).toBe(3);
    expect(r.report.cells[0]!.runs).toBeGreaterThan(0);
  });
});
