/**
 * A signal, layer or error kind named after an Object.prototype property
 * (`constructor`, `__proto__`, `toString`, …) is counted like any other name in every tally:
 * the cell stats, report.json, report.md, the HTML report. Before the fix `constructor` gave
 * `function Object() { [native code] }1…` counts (or an internal error in the Wilson interval)
 * and `__proto__` was silently dropped.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyStats, record } from '../../src/fuzz/stats.js';
import type { FuzzCase } from '../../src/domain/fuzz-case.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const GUARD = path.join(ROOT, 'test/fixtures/guards/proto-names-guard.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'farma-proto-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('tallies keyed by guard-supplied names', () => {
  it('record counts prototype-named signals, layers, error kinds and breakdown keys', () => {
    const stats = emptyStats();
    const c = {
      entry: { id: 'x', store: 'reasoning', content: 'x', source: 'AGENT', trust: 'VERIFIED', traceType: '__proto__', timestamp: '2026-01-01T00:00:00Z' },
      truth: { label: 'forged', family: 'seed', domain: 'ehr', template: 'constructor', operators: ['toString'] },
    } as unknown as FuzzCase;
    const admit = { decision: 'admit', layer: 'constructor', signals: JSON.parse('{"constructor":0.5,"__proto__":0.25}') as Record<string, number>, trace: [{ layer: '__proto__', outcome: 'reject', value: 1 }], reasons: [], elapsedUs: 1 } as unknown as Verdict;
    const error = { decision: 'error', error: { kind: 'constructor', message: 'm' }, trace: [], reasons: [], elapsedUs: 1 } as unknown as Verdict;
    for (let i = 0; i < 3; i++) record(stats, c, admit, 'violated');
    record(stats, c, error, 'error');
    expect(stats.signalFires.constructor).toBe(3);
    expect(stats.signalFires.__proto__).toBe(3);
    expect(Object.keys(stats.signalFires).sort()).toEqual(['__proto__', 'constructor']);
    expect(stats.decidingLayers.constructor).toBe(3);
    expect(stats.layerFires.__proto__).toBe(3);
    expect(stats.errorKinds.constructor).toBe(1);
    expect(stats.breakdown.template.constructor).toEqual({ runs: 4, violations: 3, errors: 1 });
    expect(stats.breakdown.operator.toString).toEqual({ runs: 4, violations: 3, errors: 1 });
    expect(stats.breakdown.traceType.__proto__).toEqual({ runs: 4, violations: 3, errors: 1 });
    // The tallies survive JSON (report.json, shard blobs) with every name.
    const back = JSON.parse(JSON.stringify(stats)) as typeof stats;
    expect(back.signalFires.__proto__).toBe(3);
  });

  it('fuzz against a guard using those names: exit 1 (a finding), every count a number in every report', async () => {
    const out = path.join(dir, 'run');
    const r = await runCli(['fuzz', '--guard', GUARD, '--domain', 'ehr', '--family', 'seed,benign', '--runs', '40', '--no-real', '--no-corpus', '-q', '--seed', '3', '--out', out]);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(1);
    const json = readFileSync(path.join(out, 'report.json'), 'utf8');
    expect(json).not.toContain('[native code]');
    const report = JSON.parse(json) as { cells: Array<{ runs: number; signalFires: Record<string, number>; decidingLayers: Record<string, number>; errorKinds: Record<string, number> }> };
    for (const cell of report.cells) {
      for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) expect(Object.hasOwn(cell.signalFires, name) && typeof cell.signalFires[name]).toBe('number');
      expect(Object.keys(cell.decidingLayers).sort()).toEqual(['__proto__', 'constructor', 'error']);
      const decided = Object.values(cell.decidingLayers).reduce((a, b) => a + b, 0);
      expect(decided).toBe(cell.runs);
      // An unknown error kind is read as `malformed` (verdict-schema.ts).
      expect(Object.keys(cell.errorKinds)).toEqual(['malformed']);
    }
    for (const file of ['report.md', 'report.html']) {
      const text = readFileSync(path.join(out, file), 'utf8');
      expect(text, file).not.toContain('[native code]');
      expect(text, file).not.toMatch(/NaN|undefined/);
      for (const name of NAMES.slice(0, 2)) expect(text, `${file} names ${name}`).toContain(name);
    }
  });
});
