/**
 * Flaky findings, the engine side of inputs that crash the guard (bounded
 * cells), and Ctrl-C while guard calls are in flight.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Guard, MemoryEntry } from '../../src/domain/index.js';
import { errorVerdict } from '../../src/domain/verdict.js';
import { runFuzz } from '../../src/campaign/fuzz.js';
import { silentProgress } from '../../src/campaign/progress.js';
import { MemoryStore } from '../../src/memory/index.js';
import { runCell } from '../../src/fuzz/property.js';
import { runCampaign } from '../../src/fuzz/campaign.js';
import { replayRecords } from '../../src/fuzz/replay.js';
import { loadRegressions } from '../../src/corpus/regressions.js';
import { renderJunit } from '../../src/report/junit.js';
import { FAMILY_REGISTRY } from '../../generators/families.js';
import { arrayStore, toyForged } from '../helpers/toy.js';
// @ts-expect-error: a plain-JS fixture guard (no types)
import { createGuard as createFlakyGuard } from '../fixtures/guards/flaky-guard.mjs';

const flakyGuard = (seed = 1): Guard => createFlakyGuard({ seed }) as Guard;

const store = new MemoryStore(':memory:');
afterAll(() => store.close());

describe('flaky findings', () => {
  it('a guard that rejects everything but admits 1 check in 100 at random gives no clean bypass: every such finding is labelled flaky, in the report, corpus and JUnit', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-flaky-'));
    const r = await runFuzz(
      {
        guardSpec: 'test/fixtures/guards/flaky-guard.mjs',
        guard: flakyGuard(),
        store,
        domains: ['ehr', 'rap'],
        families: ['seed', 'naive', 'amplification', 'benign'],
        runs: 300,
        seed: 11,
        phase: 'write',
        maxFailures: 5,
        outDir: path.join(dir, 'report'),
        corpusDir: path.join(dir, 'corpus'),
        realData: false,
        generatedAt: '2026-01-01T00:00:00.000Z',
      },
      silentProgress,
    );
    const forged = r.report.counterexamples.filter((x) => x.property === 'forgery-rejected');
    // The random admits were seen (the rates count them) and each became a finding...
    expect(r.report.cells.filter((c) => c.property === 'forgery-rejected').reduce((a, c) => a + c.violations, 0)).toBeGreaterThan(0);
    expect(forged.length).toBeGreaterThan(0);
    // ...labelled flaky, never a clean bypass, and not shrunk on the noise.
    for (const x of forged) {
      expect(x.kind).toBe('flaky');
      expect(x.recheck!.reproduced).toBeLessThan(x.recheck!.of);
      expect(x.numShrinks).toBe(0);
    }
    expect(r.report.summary.findings?.bypass).toBeUndefined();
    // Rejecting benign entries reproduces (nearly) every time: a clean false positive exactly
    // when all 3 re-checks reproduce it (a random admit during a re-check makes it flaky).
    const benign = r.report.counterexamples.filter((x) => x.property === 'benign-admitted');
    expect(benign.some((x) => x.kind === 'false-positive')).toBe(true);
    for (const x of benign) expect(x.kind).toBe(x.recheck!.reproduced === 3 ? 'false-positive' : 'flaky');
    // Report, corpus and JUnit say so.
    const md = readFileSync(path.join(dir, 'report', 'report.md'), 'utf8');
    expect(md).toContain('FLAKY bypass');
    expect(md).not.toContain('· bypass (forged entry admitted)');
    const corpus = loadRegressions(path.join(dir, 'corpus', 'fixture-flaky.jsonl')).records.map((x) => x.value);
    for (const rec of corpus.filter((x) => x.property === 'forgery-rejected')) expect(rec.finding).toBe('flaky');
    const junit = renderJunit(r.report, {});
    expect(junit).toContain('type="flaky"');
    expect(junit).not.toContain('type="bypass"');

    // Replay: a flaky record is never "now passing" (and so never marked fixed) by a few holding checks.
    const replayed = await replayRecords(corpus, flakyGuard(2), store, { recheck: 3 });
    for (const [i, res] of replayed.results.entries()) {
      if (corpus[i]!.property === 'forgery-rejected') expect(res.status).toBe('flaky');
    }
    expect(replayed.counts['now-passing']).toBe(0);
  }, 120_000);

  it('shrinking does not walk on noise: a shrink candidate counts only when a re-check reproduces it', async () => {
    // Admits template alpha every time (a real bypass) and anything else 30% of the time (noise).
    let x = 7;
    const noise = (): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x / 2 ** 32;
    };
    const guard: Guard = {
      id: 'alpha-plus-noise',
      mode: 'sync',
      check: (e: MemoryEntry) => ({ decision: e.id.startsWith('toy-alpha') || noise() < 0.3 ? 'admit' : 'reject', trace: [], reasons: [], elapsedUs: 1 }),
    };
    const out = await runCell({ domain: 'toy', family: 'seed', arbitrary: toyForged, guard, store: arrayStore, phase: 'write', runs: 400, seed: 3, maxFailures: 6 });
    const clean = out.counterexamples.filter((c) => c.kind === 'bypass');
    expect(clean.length).toBeGreaterThan(0);
    for (const c of clean) {
      expect(c.case.truth.template).toBe('toy/seed/alpha');
      expect(c.recheck).toEqual({ reproduced: 3, of: 3 });
    }
    for (const c of out.counterexamples.filter((k) => k.case.truth.template !== 'toy/seed/alpha')) expect(c.kind).toBe('flaky');
  });
});

/** Crashes (an `error` verdict of kind `crashed`) on any entry with the digit 7, rejects the rest. */
const crashOnSeven: Guard = {
  id: 'crash-on-seven',
  mode: 'async',
  check: async (e: MemoryEntry) => (e.content.includes('7') ? errorVerdict('crashed', 'guard process exited with code 3') : { decision: 'reject', trace: [], reasons: [], elapsedUs: 1 }),
};

describe('inputs that crash the guard, engine side', () => {
  it('reports "this input crashes the guard" as a finding of its own, re-checked and shrunk to a minimal input', async () => {
    const out = await runCell({ domain: 'ehr', family: 'seed', arbitrary: FAMILY_REGISTRY.seed.arbitrary('ehr'), guard: crashOnSeven, store, phase: 'write', runs: 200, seed: 21, maxFailures: 3 });
    expect(out.stats.errors).toBeGreaterThan(0);
    const crashes = out.counterexamples.filter((c) => c.kind === 'crash');
    expect(crashes.length).toBeGreaterThan(0);
    for (const c of crashes) {
      expect(c.judgement).toBe('error');
      expect(c.verdict.error?.kind).toBe('crashed');
      expect(c.recheck).toEqual({ reproduced: 3, of: 3 });
      expect(c.case.entry.content).toContain('7');
    }
    expect(crashes.some((c) => c.numShrinks > 0)).toBe(true);
  }, 60_000);

  it('bounds a cell: a guard that never answers stops at the cell time bound and the cell reports interrupted, with what ran', async () => {
    const never: Guard = { id: 'never-answers', mode: 'async', check: () => new Promise(() => undefined) };
    const outcome = await runCampaign({
      guard: never,
      cells: [{ domain: 'ehr', family: 'seed', arbitrary: FAMILY_REGISTRY.seed.arbitrary('ehr') }],
      store,
      phase: 'write',
      runsPerCell: 100_000,
      seed: 1,
      timeoutMs: 20,
      cellTimeLimitMs: 400,
      concurrency: 4,
    });
    const cell = outcome.cells[0]!;
    expect(cell.interrupted).toBe(true);
    expect(cell.stats.runs).toBeGreaterThan(0);
    expect(cell.stats.runs).toBeLessThan(100_000);
    expect(cell.stats.errorKinds.timeout).toBe(cell.stats.errors);
  }, 60_000);

  it('Ctrl-C (abort) stops a cell whose guard calls never settle, and keeps what ran', async () => {
    let calls = 0;
    const hang: Guard = {
      id: 'hang-after-ten',
      mode: 'async',
      check: () => (++calls <= 10 ? Promise.resolve({ decision: 'reject', trace: [], reasons: [], elapsedUs: 1 }) : new Promise(() => undefined)),
    };
    for (const concurrency of [1, 8]) {
      calls = 0;
      const ctl = new AbortController();
      const cell = runCell({ domain: 'ehr', family: 'seed', arbitrary: FAMILY_REGISTRY.seed.arbitrary('ehr'), guard: hang, store, phase: 'write', runs: 1000, seed: 2, concurrency, signal: ctl.signal });
      setTimeout(() => ctl.abort(), 200);
      const out = await cell;
      expect(out.interrupted).toBe(true);
      expect(out.stats.runs).toBeGreaterThan(0);
      expect(out.stats.runs).toBeLessThanOrEqual(10);
    }
  }, 60_000);
});
