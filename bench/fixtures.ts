/**
 * Bench inputs: ~300-character entries to check, benign histories to fill stores with,
 * and regression records to replay. Everything is sampled from the families with fixed
 * seeds, so two bench runs check the same entries.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { MemoryEntry } from '../src/domain/entry.js';
import type { FuzzCase } from '../src/domain/fuzz-case.js';
import { DOMAINS } from '../src/domain/fuzz-case.js';
import { newRegressionRecord } from '../src/corpus/regressions.js';
import { propertyFor } from '../src/fuzz/oracle.js';
import { MemoryStore } from '../src/memory/index.js';
import { FAMILY_IDS, FAMILY_REGISTRY, type FamilyId } from '../generators/families.js';

/** Samples cases of one family over every domain, round-robin. */
export function sampleCases(family: FamilyId, n: number, seed: number): FuzzCase[] {
  const per = Math.ceil(n / DOMAINS.length);
  const byDomain = DOMAINS.map((d, i) => fc.sample(FAMILY_REGISTRY[family].arbitrary(d), { seed: seed + i, numRuns: per }));
  const out: FuzzCase[] = [];
  for (let i = 0; out.length < n && i < per; i++) for (const list of byDomain) if (out.length < n && list[i]) out.push(list[i] as FuzzCase);
  return out;
}

/**
 * `n` entries whose content is 300 ± 50 characters: half benign, half forged (seed, naive,
 * amplification). Shorter samples are skipped, so the mix is of real generator output.
 */
export function entriesOf300Chars(n: number, seed = 7): MemoryEntry[] {
  const fits = (c: FuzzCase): boolean => c.entry.content.length >= 250 && c.entry.content.length <= 350;
  const take = (family: FamilyId, k: number): MemoryEntry[] => {
    const got: MemoryEntry[] = [];
    for (let round = 0; got.length < k && round < 20; round++) {
      for (const c of sampleCases(family, 200, seed + round * 101)) if (got.length < k && fits(c)) got.push(c.entry);
    }
    return got;
  };
  const benign = take('benign', Math.ceil(n / 2));
  const forged = [...take('seed', Math.ceil(n / 6)), ...take('naive', Math.ceil(n / 6)), ...take('amplification', Math.ceil(n / 6))];
  const all = [...benign, ...forged].slice(0, n);
  return all;
}

/** `distinct` benign entries, repeated with fresh ids up to `n` (a store of realistic size). */
export function benignHistory(n: number, distinct: readonly MemoryEntry[]): MemoryEntry[] {
  const out: MemoryEntry[] = [];
  for (let i = 0; i < n; i++) {
    const e = distinct[i % distinct.length] as MemoryEntry;
    out.push({ ...e, id: `bench-${i}` });
  }
  return out;
}

/** A SQLite store (temporary file, WAL) holding `entries`, inserted in one transaction. */
export function filledStore(entries: readonly MemoryEntry[]): { store: MemoryStore; dispose: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'farma-bench-'));
  const store = new MemoryStore(path.join(dir, 'memory.sqlite'));
  store.insertMany(entries);
  return {
    store,
    dispose: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes `n` regression records (every family, every domain) to a temporary JSONL corpus. */
export function corpusFile(n: number, seed = 11, families: readonly FamilyId[] = FAMILY_IDS): { file: string; dispose: () => void } {
  const per = Math.ceil(n / families.length);
  const cases = families.flatMap((f) => sampleCases(f, per, seed)).slice(0, n);
  const lines = cases.map((c, i) =>
    JSON.stringify(
      newRegressionRecord({
        guard: 'sentinel',
        property: propertyFor(c.truth),
        case: c,
        observed: { decision: 'admit', reasons: [] },
        foundAt: '2026-01-01T00:00:00.000Z',
        seed: i,
        versions: { bench: '1' },
      }),
    ),
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'farma-bench-corpus-'));
  const file = path.join(dir, 'sentinel.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
