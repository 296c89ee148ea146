/**
 * The coverage target, on a fixed seed: a campaign against the default SENTINEL fires and turns
 * off every signal s1..s5 at least once, and on the retrieve path every layer.
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

async function coverage(phase: 'write' | 'retrieve') {
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

  it('retrieve path: every layer is fired and turned off', async () => {
    const t = await coverage('retrieve');
    for (const l of LAYER_IDS) {
      const row = t.rows.find((x) => x.kind === 'layer' && x.id === l);
      expect(row?.fired, l).toBeGreaterThan(0);
      expect(row?.evaded, l).toBeGreaterThan(0);
    }
  });
});
