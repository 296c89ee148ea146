/**
 * Deeper composition: MCTS reaches two- and three-operator compositions within the default
 * budget when no single operator flips the guard (a planted-hole guard that admits only entries
 * carrying two or three evasion kinds at once, decision feedback only), and once one base falls,
 * the transfer pool carries the composition to the others.
 * Fast tier: eight arms (the needed ones among distractors). Full tier: every registered
 * operator, the default attack of `fuzz` (200 bases per domain, 30 queries per base, one pool
 * across the domains as attack mode keeps it).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompositionPool, runAttack } from '../../src/fuzz/attack.js';
import { MemoryStore } from '../../src/memory/index.js';
import { ATTACK_DEFAULTS } from '../../src/campaign/attack-mode.js';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { attackBases } from '../../generators/families.js';
import { adaptiveAttackParts } from '../../generators/adaptive.js';
import type { OperatorId } from '../../generators/paraphrase/index.js';
import { FAST } from '../helpers/tier.js';
import { CARRIES, plantedHoleGuard, type PlantedKind } from '../fixtures/guards/planted-hole.js';

const store = new MemoryStore(':memory:');
const DISTRACTORS: OperatorId[] = ['hedging', 'passive-voice', 'homoglyph', 'translate-es', 'format-bullets'];

async function attack(kinds: PlantedKind[], operators: readonly OperatorId[] | undefined, domains: readonly (typeof DOMAINS)[number][], nBases: number) {
  const guard = plantedHoleGuard(kinds);
  const flips: Array<{ minimal: string[]; found: number; queriesToFlip: number; source: 'pool' | 'search' }> = [];
  let attacked = 0;
  const pool = new CompositionPool();
  for (const domain of domains) {
    const bases = fc.sample(attackBases(domain), { numRuns: nBases, seed: 1 });
    const out = await runAttack({ guard, store, phase: 'write', bases, ...adaptiveAttackParts(domain, operators ? { operators } : {}), budget: ATTACK_DEFAULTS.budget, seed: 1, feedback: 'decision', pool });
    for (const r of out.results) {
      // Nothing carries every kind unmutated: each base is rejected and attacked.
      expect(r.status).not.toBe('skipped');
      if (r.status === 'flipped' || r.status === 'held') attacked += 1;
      if (!r.flip) continue;
      for (const k of kinds) expect(CARRIES[k](r.flip.case.entry), k).toBe(true);
      flips.push({ minimal: r.flip.minimal.map((s) => s.op), found: r.flip.found.length, queriesToFlip: r.flip.queriesToFlip, source: r.flip.source });
    }
  }
  return { attacked, flips };
}

describe('MCTS composes operators when single ones fail (planted-hole guards)', () => {
  it('two kinds at once (zero-width + system source): reached, minimal set of exactly the two operators', async () => {
    const { flips } = await attack(['zero-width', 'system-spoof'], ['zero-width', 'spoof-system', ...DISTRACTORS], ['ehr'], 6);
    expect(flips.length).toBeGreaterThan(0);
    for (const f of flips) {
      expect(f.minimal.sort()).toEqual(['spoof-system', 'zero-width']);
      expect(f.queriesToFlip).toBeLessThanOrEqual(ATTACK_DEFAULTS.budget);
    }
  });

  it('three kinds at once (zero-width + system source + JSON): a depth-3 composition is reached', async () => {
    const { flips } = await attack(['zero-width', 'system-spoof', 'fmt-json'], ['zero-width', 'spoof-system', 'format-json', ...DISTRACTORS], ['ehr'], 6);
    expect(flips.length).toBeGreaterThan(0);
    for (const f of flips) {
      expect(f.minimal.sort()).toEqual(['format-json', 'spoof-system', 'zero-width']);
      expect(f.found).toBeGreaterThanOrEqual(3);
    }
  });

  it.skipIf(FAST)('every registered operator, the default attack (200 bases per domain, 30 queries): the two-kind hole is reached in most bases', async () => {
    const { attacked, flips } = await attack(['zero-width', 'system-spoof'], undefined, DOMAINS, ATTACK_DEFAULTS.bases);
    expect(attacked).toBe(DOMAINS.length * ATTACK_DEFAULTS.bases);
    // Fresh search finds the composition on some base; the pool carries it to most of the others.
    expect(flips.length).toBeGreaterThan(attacked / 2);
    expect(flips.filter((f) => f.source === 'search').length).toBeGreaterThan(0);
    expect(flips.filter((f) => f.source === 'pool').length).toBeGreaterThan(flips.length / 2);
    // Each flip shrinks to one operator per kind: spoof-system for the source, and one that writes a
    // zero-width character (zero-width itself, or another that does, e.g. enclosed-letters joining its
    // letters with U+200B); the flipped entry carries both kinds (checked in attack()).
    for (const f of flips) {
      expect(f.minimal).toHaveLength(2);
      expect(f.minimal).toContain('spoof-system');
    }
  }, 180_000);
});
