/**
 * The coverage target, on a fixed seed: a campaign against the default SENTINEL fires and turns
 * off every signal s1..s5 at least once; on the retrieve path it fires every layer and turns off
 * the rejecting ones (L1, L5), and the metadata operators turn off the taint layers (L2..L4).
 *
 * Why the retrieve path is split: L2 only labels and L3/L4 pass these bases with a taint above
 * 0, so only a flip whose minimal set spoofs the source as SYSTEM (taint 0) lowers them. With
 * the whole registry the word-level routes flip first (median 3 queries) and such a flip is
 * luck: 0 to 2 of about 78 flips over seeds 1..4 and 20261201 (2 before the ecoji-payload arm
 * moved the arm order). With the metadata operators as the only arms, 17 to 29 flips on the same
 * seeds turn L2..L4 off.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runFuzz } from '../../src/campaign/fuzz.js';
import { silentProgress } from '../../src/campaign/progress.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { LAYER_IDS, SIGNAL_IDS } from '../../src/guards/sentinel/index.js';

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

const METADATA_ARMS = ['relabel-trace-type', 'move-to-general', 'spoof-system', 'backdate', 'spoof-agent', 'split-metadata'] as const;

async function coverage(phase: 'write' | 'retrieve', operators?: readonly (typeof METADATA_ARMS)[number][]) {
  const r = await runFuzz(
    {
      guardSpec: 'sentinel',
      guard: createGuard('sentinel'),
      store,
      domains: ['ehr', 'react-qa', 'rap'],
      families: ['seed', 'amplification', 'naive', 'adaptive'],
      runs: 120,
      seed: 20261201,
      phase,
      maxFailures: 1,
      outDir: path.join(mkdtempSync(path.join(tmpdir(), 'farma-cov-')), 'report'),
      realData: false,
      generatedAt: '2026-01-01T00:00:00.000Z',
      ...(operators ? { attack: { operators } } : {}),
    },
    silentProgress,
  );
  return r.report.coverage!;
}

describe('signal and layer coverage against the default SENTINEL', () => {
  it('write path: every signal s1..s5 is fired by a forged entry and turned off by a flip', async () => {
    const t = await coverage('write');
    for (const s of SIGNAL_IDS) {
      const row = t.rows.find((x) => x.kind === 'signal' && x.id === s);
      expect(row?.fired, s).toBeGreaterThan(0);
      expect(row?.evaded, s).toBeGreaterThan(0);
    }
  });

  it('retrieve path: every layer is fired, and the rejecting layers L1 and L5 are turned off', async () => {
    const t = await coverage('retrieve');
    for (const l of LAYER_IDS) {
      const row = t.rows.find((x) => x.kind === 'layer' && x.id === l);
      expect(row?.fired, l).toBeGreaterThan(0);
      if (l === 'L1-keyword' || l === 'L5-reasoning-guard') expect(row?.evaded, l).toBeGreaterThan(0);
    }
  });

  it('retrieve path, metadata operators as the arms: flips that spoof the source turn off L2, L3 and L4', async () => {
    const t = await coverage('retrieve', METADATA_ARMS);
    for (const l of ['L2-provenance', 'L3-taint', 'L4-pattern-risk']) {
      const row = t.rows.find((x) => x.kind === 'layer' && x.id === l);
      expect(row?.fired, l).toBeGreaterThan(0);
      expect(row?.evaded, l).toBeGreaterThan(0);
    }
  });
});
