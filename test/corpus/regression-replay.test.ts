/**
 * Replays every committed regression corpus (DESIGN.md "Regression corpus"):
 * - a `fixed` record that fails again is a regression, and fails the suite;
 * - an `open` record is a known finding that the guard must still exhibit: if it now passes,
 *   the suite fails and asks for `npm run cli -- replay --guard <id> --mark-fixed`.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusFileGuard, guardOptionsHash, loadRegressions } from '../../src/corpus/regressions.js';
import { validateGuardOptions } from '../../src/guards/guard-options.js';
import { replayRecords } from '../../src/fuzz/replay.js';
import { createGuard, isBuiltinGuardId, type BuiltinGuardId } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { rejectAll } from '../helpers/toy.js';

const DIR = path.resolve(import.meta.dirname, '..', '..', 'corpora', 'regressions');
const files = readdirSync(DIR).filter((f) => f.endsWith('.jsonl'));
const store = new MemoryStore(':memory:');
afterAll(() => store.close());

describe('regression corpora', () => {
  it('exist for the built-in guards that have findings', () => {
    expect(files).toContain('sentinel.jsonl');
  });

  for (const file of files) {
    // `<guard>.opts-<hash>.jsonl` holds findings of a non-default configuration: replayed with the options its records carry.
    const { guard: guardId, optionsHash } = corpusFileGuard(file);
    it.runIf(isBuiltinGuardId(guardId))(`${file}: no fixed record regresses and every open finding still reproduces`, async () => {
      const { records, issues } = loadRegressions(path.join(DIR, file));
      expect(issues, 'corpus lines that do not parse').toEqual([]);
      expect(records.length).toBeGreaterThan(0);
      const options = records[0]?.value.guardOptions;
      if (optionsHash !== undefined) {
        expect(options, `${file}: records of a configuration file carry their guard options`).toBeDefined();
        expect(guardOptionsHash(options!)).toBe(optionsHash);
      }
      const id = guardId as BuiltinGuardId;
      const summary = await replayRecords(
        records.map((r) => r.value),
        createGuard(id, options ? validateGuardOptions(id, options) : undefined),
        store,
      );
      const regressed = summary.results.filter((r) => r.status === 'regressed').map((r) => r.id);
      const nowPassing = summary.results.filter((r) => r.status === 'now-passing').map((r) => r.id);
      expect(regressed, `fixed records that fail again in ${file}`).toEqual([]);
      expect(nowPassing, `open records that now pass in ${file}: run "npm run cli -- replay --guard ${guardId} --mark-fixed"`).toEqual([]);
      expect(summary.counts.error).toBe(0);
    });
  }
});

describe('replay statuses', () => {
  it('open/fixed × holds/violated map to open, now-passing, fixed and regressed', async () => {
    const { records } = loadRegressions(path.join(DIR, 'sentinel.jsonl'));
    const bypass = records.map((r) => r.value).find((r) => r.status === 'open' && r.property === 'forgery-rejected');
    expect(bypass).toBeDefined();
    const open = bypass!;
    const fixed = { ...open, status: 'fixed' as const };
    const sentinel = createGuard('sentinel');
    expect((await replayRecords([open], sentinel, store)).results[0]!.status).toBe('open');
    expect((await replayRecords([fixed], sentinel, store)).results[0]!.status).toBe('regressed');
    expect((await replayRecords([open], rejectAll, store)).results[0]!.status).toBe('now-passing');
    expect((await replayRecords([fixed], rejectAll, store)).results[0]!.status).toBe('fixed');
  });
});
