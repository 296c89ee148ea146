/**
 * Shared bench plumbing: the row type every section reports, the section context, and the
 * tinybench sampling helper. A section is one file under `bench/sections/` exporting one
 * {@link BenchSection}; `bench/sections/index.ts` lists them in run order.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import type { MemoryEntry } from '../src/domain/entry.js';
import type { Guard, Phase } from '../src/domain/guard.js';
import type { Verdict } from '../src/domain/verdict.js';
import type { MemoryStore } from '../src/memory/index.js';
import type { Figure } from './summary.js';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** One row of the bench table. */
export interface BenchRow {
  /** Stable id, e.g. `check.sentinel.retrieve.1000`; budgets refer to rows by id. */
  id: string;
  figure: string;
  value: Figure;
  /** e.g. `<= 10 µs`; absent when the figure has no budget. */
  budget?: string;
  /** `met` / `missed` against the budget; `reported` when there is none. */
  status: 'met' | 'missed' | 'reported';
  note?: string;
}

/** What a section gets from the driver. */
export interface BenchContext {
  /** `--quick`: small samples, a smoke run. */
  quick: boolean;
  /** Every command-line argument (sections may read their own flags). */
  args: ReadonlySet<string>;
  /** Records a row (and prints it to stderr). */
  row: (r: BenchRow) => void;
  /** Progress line on stderr. */
  log: (s: string) => void;
}

/** One bench section: `id` is what `--only` / `--skip` name. */
export interface BenchSection {
  id: string;
  /** One line for `--help` and the progress log. */
  title: string;
  /** Skipped unless named by `--only` (slow or needing something the machine may lack). */
  optIn?: boolean;
  run: (ctx: BenchContext) => Promise<void>;
}

/** Runs `fn` under tinybench and returns the per-iteration latency samples, ms. */
export async function samplesOf(name: string, fn: () => unknown, opts: { time: number; iterations: number; warmupIterations?: number }): Promise<number[]> {
  const bench = new Bench({
    name,
    time: opts.time,
    iterations: opts.iterations,
    warmupIterations: opts.warmupIterations ?? 3,
    warmupTime: 0,
    retainSamples: true,
    throws: true,
  });
  bench.add(name, fn);
  await bench.run();
  const task = bench.tasks[0];
  const res = task?.result;
  if (!res || !('latency' in res) || !res.latency.samples) throw new Error(`bench ${name}: no samples (${res?.state})`);
  return [...res.latency.samples];
}

/** Checks every entry synchronously; throws on an `error` verdict (a bench must not time errors). */
export function checkAll(guard: Guard, entries: readonly MemoryEntry[], store: MemoryStore, phase: Phase): void {
  for (const e of entries) {
    const v = guard.check(e, { phase, store: store.view }) as Verdict;
    if (v.decision === 'error') throw new Error(`guard ${guard.id} errored in the bench: ${v.reasons.join('; ')}`);
  }
}

/** A figure from one measurement (no spread). */
export function single(x: number, unit: string): Figure {
  return { median: x, p25: x, p75: x, mad: 0, n: 1, unit };
}

/** `b / a` as a figure; the spread pairs the worst and best ends of the two p25–p75 ranges. */
export function ratioOf(b: Figure, a: Figure): Figure {
  return { median: b.median / a.median, p25: b.p25 / a.p75, p75: b.p75 / a.p25, mad: Number.NaN, n: Math.min(a.n, b.n), unit: '×' };
}

/** `met` when `ok`, else `missed`. */
export function status(ok: boolean): 'met' | 'missed' {
  return ok ? 'met' : 'missed';
}
