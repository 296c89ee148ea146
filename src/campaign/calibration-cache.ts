/**
 * A disk cache of calibrations (docs/calibration.md, "Leave-one-source-out"): `fuzz` and `fpr`
 * recalibrate once per left-out real set (and `fpr` once per set for its matched estimate), about
 * a second each, and every one is a pure function of the real sets' entries and of farma-fuzz's
 * own code. A calibration is computed once per content and kept in
 * `node_modules/.cache/farma-fuzz/` of the project run in (npm `find-cache-dir`, as babel, ava
 * and eslint keep theirs), else in the OS temp folder; `FARMA_FUZZ_CACHE_DIR` moves it and
 * `FARMA_FUZZ_CACHE=off` turns it off. Nothing is ever written inside the installed package.
 *
 * The key is a SHA-256 over the calibration's inputs (name, domain and every field of every
 * entry of every set) and a fingerprint of the code that computes it (every file under the
 * running `src/` and `generators/`, or their compiled `dist/` copies, plus `templates/`, the
 * checked-in weights and the Node version), so a change to a set, a template, a feature or a
 * weight format is a new key, never a stale hit. Files are written atomically; a file that is
 * unreadable, not JSON, of another format, or whose digest does not match its payload is
 * ignored and rewritten. A cache folder that cannot be written only costs the speed-up.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import canonicalize from 'canonicalize';
import findCacheDirectory from 'find-cache-dir';
import writeFileAtomic from 'write-file-atomic';
import type { MemoryEntry } from '../domain/entry.js';
import { PACKAGE_ROOT } from '../domain/package-root.js';
import type { Calibration } from '../../generators/calibration/index.js';

/** Format of a cache file; bump when its layout changes. */
const CACHE_FORMAT = 'farma-fuzz-calibration-cache/1';
/** Files kept in the cache folder; past this the least recently written go first. */
const MAX_FILES = 200;

/** One input set of a calibration, as `calibrationFor` takes it. */
export interface CalibrationInputSet {
  name: string;
  domain?: string;
  entries: readonly MemoryEntry[];
}

/** What the cache did in this process (for tests and `--verbose`-style notes). */
export const calibrationCacheStats = { hits: 0, misses: 0, writes: 0, rejected: 0, writeFailures: 0 };

/** The lookups of this process's cache since `before` (a copy of {@link calibrationCacheStats}): hits, misses, failed writes. */
export function calibrationCacheSince(before: Readonly<typeof calibrationCacheStats>): { hits: number; misses: number; writeFailures: number } {
  return { hits: calibrationCacheStats.hits - before.hits, misses: calibrationCacheStats.misses - before.misses, writeFailures: calibrationCacheStats.writeFailures - before.writeFailures };
}

/**
 * The cache folder for this run, or `undefined` when the cache is off (`FARMA_FUZZ_CACHE=off|0|false`).
 * `FARMA_FUZZ_CACHE_DIR` wins; else `node_modules/.cache/farma-fuzz` of the project around `cwd`
 * when its `node_modules` is writable (find-cache-dir, which also honours `CACHE_DIR`); else
 * `<os temp>/farma-fuzz-cache-<uid>`.
 */
export function calibrationCacheDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string | undefined {
  const off = (env.FARMA_FUZZ_CACHE ?? '').trim().toLowerCase();
  if (off === 'off' || off === '0' || off === 'false' || off === 'no') return undefined;
  if (env.FARMA_FUZZ_CACHE_DIR !== undefined && env.FARMA_FUZZ_CACHE_DIR.trim() !== '') return path.resolve(cwd, env.FARMA_FUZZ_CACHE_DIR);
  let found: string | undefined;
  try {
    found = findCacheDirectory({ name: 'farma-fuzz', cwd });
  } catch {
    found = undefined;
  }
  return found ?? path.join(os.tmpdir(), `farma-fuzz-cache-${typeof process.getuid === 'function' ? process.getuid() : 'user'}`);
}

let fingerprint: string | undefined;

/** Every regular file under `dir` (recursively, sorted), skipping `node_modules`; none when it is missing. */
function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = path.join(dir, name);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) out.push(...filesUnder(p));
    else if (st.isFile()) out.push(p);
  }
  return out;
}

/**
 * SHA-256 of the code a calibration depends on, computed once per process: every file under the
 * running code's `src/` and `generators/` (the sources under tsx, `dist/` when installed),
 * `templates/`, the checked-in weights, and the Node version (Unicode tables of regular expressions).
 */
function calibrationCodeFingerprint(): string {
  if (fingerprint !== undefined) return fingerprint;
  // This file is <code>/src/campaign/calibration-cache.{ts,js}: <code> is the package root or its dist/.
  const code = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const files = [
    ...filesUnder(path.join(code, 'src')),
    ...filesUnder(path.join(code, 'generators')),
    ...filesUnder(path.join(PACKAGE_ROOT, 'templates')),
    path.join(PACKAGE_ROOT, 'generators', 'calibration', 'weights.json'),
  ];
  const h = createHash('sha256').update(`${CACHE_FORMAT}\0node ${process.versions.node}\0`);
  for (const f of [...new Set(files)]) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(f);
    } catch {
      continue;
    }
    h.update(`${path.relative(PACKAGE_ROOT, f)}\0${bytes.length}\0`).update(bytes);
  }
  fingerprint = h.digest('hex');
  return fingerprint;
}

/** Digest of one set's content, memoised per entries array (leave-one-source-out reuses the same arrays). */
const setDigests = new WeakMap<readonly MemoryEntry[], string>();
function setDigest(entries: readonly MemoryEntry[]): string {
  let d = setDigests.get(entries);
  if (d === undefined) {
    d = createHash('sha256').update(canonicalize(entries) ?? '[]').digest('hex');
    setDigests.set(entries, d);
  }
  return d;
}

/** The cache key of a calibration on `sets` (in order) with this code. */
export function calibrationCacheKey(sets: readonly CalibrationInputSet[]): string {
  const h = createHash('sha256').update(`${CACHE_FORMAT}\0${calibrationCodeFingerprint()}\0`);
  for (const s of sets) h.update(`${JSON.stringify([s.name, s.domain ?? null])}\0${setDigest(s.entries)}\0`);
  return h.digest('hex');
}

const payloadDigest = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Reads a cached calibration; `undefined` when there is none or the file is not a good one. */
function read(file: string, key: string): Calibration | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const doc = JSON.parse(text) as { format?: unknown; key?: unknown; digest?: unknown; calibration?: unknown };
    if (doc.format !== CACHE_FORMAT || doc.key !== key || typeof doc.digest !== 'string' || typeof doc.calibration !== 'object' || doc.calibration === null) throw new Error('not a cache file of this format');
    if (payloadDigest(JSON.stringify(doc.calibration)) !== doc.digest) throw new Error('digest mismatch');
    return doc.calibration as Calibration;
  } catch {
    calibrationCacheStats.rejected += 1;
    return undefined;
  }
}

/** Writes atomically; keeps the folder under {@link MAX_FILES}. Never throws. */
function write(dir: string, file: string, key: string, calibration: Calibration): void {
  try {
    mkdirSync(dir, { recursive: true });
    writeFileAtomic.sync(file, `${JSON.stringify({ format: CACHE_FORMAT, key, digest: payloadDigest(JSON.stringify(calibration)), calibration })}\n`);
    calibrationCacheStats.writes += 1;
  } catch {
    calibrationCacheStats.writeFailures += 1;
    return;
  }
  try {
    const files = readdirSync(dir).filter((f) => f.startsWith('calibration-') && f.endsWith('.json'));
    if (files.length <= MAX_FILES) return;
    const byAge = files.map((f) => ({ f, t: statSync(path.join(dir, f)).mtimeMs })).sort((a, b) => a.t - b.t);
    for (const { f } of byAge.slice(0, files.length - MAX_FILES)) rmSync(path.join(dir, f), { force: true });
  } catch {
    // Pruning is best effort: another process may be pruning the same folder.
  }
}

/**
 * The calibration on `sets`: from the cache when a good file has its key, else `compute()`,
 * then stored. The result is the same object shape `compute` returns (JSON data only).
 * @param dir the cache folder (`calibrationCacheDir()`), or `undefined` to always compute.
 */
export function cachedCalibration(sets: readonly CalibrationInputSet[], compute: () => Calibration, dir: string | undefined): Calibration {
  if (dir === undefined) return compute();
  const key = calibrationCacheKey(sets);
  const file = path.join(dir, `calibration-${key.slice(0, 32)}.json`);
  const hit = read(file, key);
  if (hit !== undefined) {
    calibrationCacheStats.hits += 1;
    return hit;
  }
  calibrationCacheStats.misses += 1;
  const calibration = compute();
  write(dir, file, key, calibration);
  return calibration;
}
