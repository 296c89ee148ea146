/**
 * No test reads a wall clock, so no assertion can depend on how busy the
 * machine is. Time bounds live in `npm run bench` (bench/sections/); timeouts are tested with
 * vitest fake timers or with guards that never answer. This scans every test source for
 * clock reads (`performance.now()`, `Date.now()`, `process.hrtime`, `new Date()` without an
 * argument) outside comments.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const TEST_ROOT = path.resolve(import.meta.dirname, '..');
const CLOCK = /\bperformance\.now\s*\(|\bDate\.now\s*\(|\bprocess\.hrtime\b|\bnew Date\s*\(\s*\)/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' || name === '__snapshots__' ? [] : files(p);
    return /\.(?:ts|mts|mjs|js)$/.test(name) ? [p] : [];
  });
}

/** Lines that read a clock, comments (`//`, `/* … *\/` lines, `*` doc lines) left out. */
export function clockReads(source: string): number[] {
  const hits: number[] = [];
  source.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\/\/.*$/, '').replace(/\/\*.*?\*\//g, '');
    if (/^\s*\*/.test(line)) return;
    if (CLOCK.test(line)) hits.push(i + 1);
  });
  return hits;
}

describe('no wall-clock reads in the test suite', () => {
  it('the scanner finds clock reads and skips comments', () => {
    expect(clockReads('const t0 = performance.now();\n// performance.now() in a comment\n * Date.now() in a doc\nconst d = new Date();')).toEqual([1, 4]);
    expect(clockReads('const d = new Date(0);\nprocess.hrtime.bigint();')).toEqual([2]);
  });

  it('no test file reads a clock', () => {
    const found = files(TEST_ROOT)
      .filter((f) => f !== import.meta.filename)
      .flatMap((f) => clockReads(readFileSync(f, 'utf8')).map((line) => `${path.relative(TEST_ROOT, f)}:${line}`));
    expect(found, `clock reads (move time bounds to npm run bench; use vi.useFakeTimers for timeouts):\n${found.join('\n')}`).toEqual([]);
  });
});
