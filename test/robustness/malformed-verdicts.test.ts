/**
 * Robustness: one zod schema checks every guard answer, at every boundary
 * (module, HTTP and exec adapters, the in-process evaluate path, the store's write path).
 * Anything off-shape is an `error` verdict of kind `malformed` that names what is wrong; a
 * run never crashes on it and its report is still written.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseVerdict } from '../../src/domain/verdict-schema.js';
import type { Guard } from '../../src/domain/guard.js';
import { evaluateAsync, evaluateSync } from '../../src/fuzz/evaluate.js';
import { createExecGuard } from '../../src/guards/adapters/exec-guard.js';
import { createHttpGuard } from '../../src/guards/adapters/http-guard.js';
import { loadModuleGuard } from '../../src/guards/adapters/module-guard.js';
import { MemoryStore } from '../../src/memory/index.js';
import { main } from '../../src/cli/main.js';
import type { ReportData } from '../../src/report/model.js';
import { WRITE_CTX, makeEntry } from '../fixtures/guards/make-entry.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-malformed-'));

/** Off-shape answers and the path each message must name. */
const BAD: Array<[string, unknown, RegExp]> = [
  ['trace: [null]', { decision: 'admit', trace: [null] }, /trace\[0\]: expected an object, got null/],
  ['trace item without layer', { decision: 'reject', trace: [{ outcome: 'reject', reasons: [] }] }, /trace\[0\]\.layer: expected a string/],
  ['trace outcome unknown', { decision: 'reject', trace: [{ layer: 'L1', outcome: 'block' }] }, /trace\[0\]\.outcome/],
  ['NaN score', { decision: 'admit', score: Number.NaN }, /score: .*got NaN/],
  ['infinite signal', { decision: 'admit', signals: { s1: Number.POSITIVE_INFINITY } }, /signals\.s1: .*finite.*got Infinity/],
  ['string signal', { decision: 'admit', signals: { s1: 'high' } }, /signals\.s1: expected a number, got string "high"/],
  ['reason that is a number', { decision: 'reject', reasons: ['ok', 7] }, /reasons\[1\]: expected a string, got 7/],
  ['layer that is an object', { decision: 'reject', layer: { id: 'L1' } }, /layer: expected a string, got an object/],
  ['negative elapsedUs', { decision: 'admit', elapsedUs: -5 }, /elapsedUs: must be ≥ 0/],
  ['unknown decision', { decision: 'maybe' }, /decision must be admit\|reject\|error, got string "maybe"/],
  ['trace that is an object', { decision: 'admit', trace: { layer: 'x' } }, /trace: expected an array/],
  ['an array', [{ decision: 'admit' }], /verdict must be an object, got an array/],
  ['null', null, /verdict must be an object, got null/],
];

describe('parseVerdict (the one schema)', () => {
  it.each(BAD)('%s is refused, naming the field', (_name, value, message) => {
    const r = parseVerdict(value);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });

  it('fills defaults, keeps what is valid and drops unknown fields', () => {
    const r = parseVerdict({ decision: 'reject', layer: 'L2', trace: [{ layer: 'L2', outcome: 'reject', value: 0.7 }], signals: { s1: 1 }, score: 0.6, extra: { deep: true } });
    expect(r).toEqual({ ok: true, verdict: { decision: 'reject', layer: 'L2', trace: [{ layer: 'L2', outcome: 'reject', value: 0.7, reasons: [] }], signals: { s1: 1 }, score: 0.6, reasons: [], elapsedUs: 0 } });
  });

  it('a __proto__ signal name stays a plain own key and never changes the prototype', () => {
    const r = parseVerdict(JSON.parse('{"decision":"admit","signals":{"__proto__":0.5,"s1":1}}'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.getPrototypeOf(r.verdict.signals)).toBe(Object.prototype);
    expect(Object.keys(r.verdict.signals ?? {})).toContain('s1');
    expect(({} as Record<string, unknown>)['s1']).toBeUndefined();
  });

  it('a getter that throws is malformed, never a crash', () => {
    const evil = { decision: 'admit', get trace(): unknown { throw new Error('gotcha'); } };
    const r = parseVerdict(evil);
    expect(r.ok).toBe(false);
  });

  it('a guard-reported error keeps a known kind, else malformed', () => {
    const a = parseVerdict({ decision: 'error', error: { kind: 'timeout', message: 'upstream slow' } });
    const b = parseVerdict({ decision: 'error', error: { kind: 'weird' } });
    expect(a.ok && a.verdict.error).toEqual({ kind: 'timeout', message: 'upstream slow' });
    expect(b.ok && b.verdict.error?.kind).toBe('malformed');
  });
});

const entry = makeEntry('hello');
const inProcess = (answer: unknown, mode: 'sync' | 'async'): Guard => ({ id: 'odd', mode, check: () => (mode === 'sync' ? answer : Promise.resolve(answer)) as never });

describe('every boundary turns an off-shape answer into a malformed error verdict', () => {
  it.each(BAD.slice(0, 10))('in process, sync and async: %s', async (_n, value, message) => {
    const store = new MemoryStore(':memory:');
    try {
      const c = { entry, truth: { label: 'benign' as const, family: 'x', domain: 'x', template: 'x', operators: [] } };
      for (const v of [evaluateSync(inProcess(value, 'sync'), c, store, 'write'), await evaluateAsync(inProcess(value, 'async'), c, store, 'write')]) {
        expect(v.decision).toBe('error');
        expect(v.error?.kind).toBe('malformed');
        expect(v.error?.message).toMatch(message);
      }
      // The store's guarded write path too (used by `import --guard` and eval).
      const w = store.writeSync(entry, inProcess(value, 'sync'));
      expect(w.committed).toBe(false);
      expect(w.verdict.error?.kind).toBe('malformed');
    } finally {
      store.close();
    }
  });

  it('module adapter', async () => {
    const file = path.join(dir, 'null-trace.mjs');
    writeFileSync(file, "export const guard = { id: 'null-trace', check: () => ({ decision: 'reject', trace: [null], reasons: [] }) };\n");
    const g = await loadModuleGuard(file);
    const v = await g.check(entry, WRITE_CTX);
    expect(v.error?.kind).toBe('malformed');
    expect(v.error?.message).toMatch(/trace\[0\]: expected an object, got null/);
  });

  it('exec adapter', async () => {
    const file = path.join(dir, 'null-trace-exec.mjs');
    writeFileSync(
      file,
      "import { createInterface } from 'node:readline';\nfor await (const line of createInterface({ input: process.stdin })) { const r = JSON.parse(line); process.stdout.write(JSON.stringify({ id: r.id, verdict: { decision: 'admit', trace: [null], signals: { s1: 'x' } } }) + '\\n'); }\n",
    );
    const g = createExecGuard(`${JSON.stringify(process.execPath)} ${JSON.stringify(file)}`, { timeoutMs: 10_000 });
    try {
      const v = await g.check(entry, WRITE_CTX);
      expect(v.error?.kind).toBe('malformed');
      expect(v.error?.message).toMatch(/trace\[0\]: expected an object, got null/);
      expect(v.error?.message).toMatch(/signals\.s1: expected a number/);
    } finally {
      await g.close?.();
    }
  }, 20_000);

  describe('HTTP adapter', () => {
    let server: Server;
    let url = '';
    beforeAll(async () => {
      server = createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ decision: 'reject', trace: [null], score: 'high' })));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/check`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('names every wrong field', async () => {
      const g = createHttpGuard(url, { timeoutMs: 5000 });
      try {
        const v = await g.check(entry, WRITE_CTX);
        expect(v.decision).toBe('error');
        expect(v.error?.kind).toBe('malformed');
        expect(v.error?.message).toMatch(/trace\[0\]: expected an object, got null/);
        expect(v.error?.message).toMatch(/score: expected a number, got string "high"/);
      } finally {
        await g.close?.();
      }
    });
  });
});

describe('a fuzz run against a guard answering trace: [null]', () => {
  afterEach(() => vi.restoreAllMocks());

  it('finishes, writes report.md/json/html and counts malformed errors (no internal error)', async () => {
    const file = path.join(dir, 'null-trace-fuzz.mjs');
    writeFileSync(file, "export const guard = { id: 'null-trace-fuzz', mode: 'sync', check: () => ({ decision: 'admit', trace: [null], reasons: [] }) };\n");
    const out = path.join(dir, 'out');
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const code = await main(['fuzz', '--guard', file, '--family', 'naive,benign', '--domain', 'ehr', '--runs', '10', '--seed', '1', '--no-corpus', '--no-real', '--out', out, '-q']);
    vi.restoreAllMocks();
    expect(stderr).not.toMatch(/internal error|TypeError/);
    // Every verdict malformed: nothing was judged, so the exit code is 4 (guard), not a finding.
    expect(code).toBe(4);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ReportData;
    for (const c of report.cells) {
      expect(c.errors).toBe(c.runs);
      expect(c.errorKinds).toEqual({ malformed: c.runs });
    }
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/trace\[0\]: expected an object, got null/);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8').length).toBeGreaterThan(1000);
  }, 60_000);
});
