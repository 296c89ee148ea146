/**
 * Campaigns split over machines, after vitest's and playwright's `--shard` and
 * `merge-reports`: `fuzz --shard i/n` runs every n-th unit of the campaign and writes a blob
 * (`farma-fuzz-shard-<i>-of-<n>.json`) beside its partial report; `merge-reports DIR…`
 * reads the blobs of all n shards and rebuilds the report the unsharded run would have made.
 *
 * Why the merge is exact: a unit is one domain × family cell (or the whole attack mode of
 * the adaptive family), and each cell's seed is derived from the campaign seed and the
 * cell's name alone (`cellSeed`), never from its position or from other cells. So a cell gives
 * the same cases, verdicts and counterexamples on any shard. The merge puts the cells back in
 * campaign order and runs the same report code as an unsharded `fuzz`. Only `timing` (and the
 * dates) can differ. With `--time` instead of `--runs` cells get a share of a wall-clock
 * budget, which is never reproducible, sharded or not.
 */
import type { RunSpend } from '../fuzz/query-meter.js';
import type { CampaignOutcome } from '../fuzz/campaign.js';
import type { Counterexample } from '../fuzz/property.js';
import type { Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import type { AttackReport } from './adaptive.js';
import type { GateThresholds } from './gate.js';
import type { LosoCheckRow, RealSetFpr, ReportFlip } from './model.js';

/** `--shard i/n`: shard `index` (1-based) of `total`. */
export interface ShardSpec {
  index: number;
  total: number;
}

/**
 * Parses `i/n` (1 <= i <= n <= 1000).
 * @returns the spec, or an error message naming the flag.
 * @example parseShard('2/3') // { ok: true, shard: { index: 2, total: 3 } }
 */
export function parseShard(text: string): { ok: true; shard: ShardSpec } | { ok: false; message: string } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) return { ok: false, message: `--shard must be i/n (for example 1/4), got "${text}"` };
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1 || total > 1000) return { ok: false, message: `--shard ${text}: n must be in 1..1000` };
  if (index < 1 || index > total) return { ok: false, message: `--shard ${text}: i must be in 1..${total}` };
  return { ok: true, shard: { index, total } };
}

/** True when campaign unit `unit` (0-based, in campaign order) belongs to `shard` (round robin; every unit without a shard). */
export function inShard(unit: number, shard: ShardSpec | undefined): boolean {
  return shard === undefined || unit % shard.total === shard.index - 1;
}

/** What the report is built from besides the campaign parts; identical on every shard. */
export interface FinishSettings {
  guardSpec: string;
  guardId: string;
  guardConfigHash: string;
  guardOptions?: Record<string, unknown>;
  /** Corpus to grow, or undefined to leave it alone. */
  corpusDir?: string;
  phase: Phase;
  generatedAt: string;
  domains: string[];
  families: string[];
  maxFailures: number;
  thresholds?: GateThresholds;
  outDir: string;
}

/** The campaign parts a shard contributes. */
export interface ShardParts {
  outcome: CampaignOutcome;
  attack?: { report: AttackReport; flips: Map<Counterexample, ReportFlip>; originals: Verdict[]; flipVerdicts: Array<{ original: Verdict; rewrite: Verdict }> };
  realSets: RealSetFpr[];
  /** Leave-one-source-out calibration check (measured with the real sets, by shard 1). */
  loso?: LosoCheckRow[];
  warnings: string[];
  /** Queries spent outside property mode, and the run's cache and budget settings (issue 20). */
  spend?: RunSpend;
}

/** The file a shard writes (JSON). Version 1. */
export interface ShardBlob {
  format: 'farma-fuzz-shard';
  version: 1;
  shard: ShardSpec;
  settings: Omit<FinishSettings, 'outDir' | 'corpusDir'> & { runsPerCell: number; seed: number };
  outcome: CampaignOutcome;
  /** The attack mode, with each flip addressed by cell and counterexample index in `outcome.cells`. */
  attack?: Omit<NonNullable<ShardParts['attack']>, 'flips'> & { flips: Array<{ cell: number; cx: number; flip: ReportFlip }> };
  realSets: RealSetFpr[];
  loso?: LosoCheckRow[];
  warnings: string[];
  /** Queries this shard spent outside property mode (absent in blobs made before issue 20). */
  spend?: RunSpend;
}

/** Sums the shards' spending outside property mode (the cells carry their own). */
function sumSpend(spends: ReadonlyArray<RunSpend | undefined>): RunSpend | undefined {
  const given = spends.filter((x): x is RunSpend => x !== undefined);
  const first = given[0];
  if (!first) return undefined;
  const out: RunSpend = { attack: { queries: 0, cacheHits: 0 }, real: { queries: 0, cacheHits: 0 }, loso: { queries: 0, cacheHits: 0 }, ms: { attack: 0, real: 0, loso: 0 }, cache: first.cache, ...(first.maxQueries !== undefined ? { maxQueries: first.maxQueries } : {}), ...(first.costPerQuery !== undefined ? { costPerQuery: first.costPerQuery } : {}) };
  for (const x of given) {
    for (const p of ['attack', 'real', 'loso'] as const) {
      out[p].queries += x[p].queries;
      out[p].cacheHits += x[p].cacheHits;
      out.ms[p] += x.ms[p];
    }
  }
  return out;
}

/** `farma-fuzz-shard-2-of-3.json`. */
export function shardBlobName(shard: ShardSpec): string {
  return `farma-fuzz-shard-${shard.index}-of-${shard.total}.json`;
}

const BLOB_NAME = /^farma-fuzz-shard-(\d+)-of-(\d+)\.json$/;

/** True for a file name {@link shardBlobName} makes. */
export function isShardBlobName(name: string): boolean {
  return BLOB_NAME.test(name);
}

/** The blob of a shard (plain JSON data; flips become indexes). */
export function shardBlob(shard: ShardSpec, settings: FinishSettings & { runsPerCell: number; seed: number }, parts: ShardParts): ShardBlob {
  const { outDir: _o, corpusDir: _c, ...kept } = settings;
  const blob: ShardBlob = { format: 'farma-fuzz-shard', version: 1, shard, settings: kept, outcome: parts.outcome, realSets: parts.realSets, ...(parts.loso ? { loso: parts.loso } : {}), warnings: parts.warnings, ...(parts.spend ? { spend: parts.spend } : {}) };
  if (parts.attack) {
    const flips: Array<{ cell: number; cx: number; flip: ReportFlip }> = [];
    parts.outcome.cells.forEach((c, ci) =>
      c.counterexamples.forEach((x, xi) => {
        const flip = parts.attack?.flips.get(x);
        if (flip) flips.push({ cell: ci, cx: xi, flip });
      }),
    );
    blob.attack = { report: parts.attack.report, originals: parts.attack.originals, flipVerdicts: parts.attack.flipVerdicts, flips };
  }
  return blob;
}

/** Settings every shard must share for a merge to mean anything (everything but the shard's own index). */
function identity(b: ShardBlob): string {
  const { generatedAt: _g, ...s } = b.settings;
  return JSON.stringify({ ...s, total: b.shard.total });
}

/** Why blobs cannot be merged, naming the files; or the merge. */
export type MergeResult = { ok: true; settings: Omit<FinishSettings, 'outDir' | 'corpusDir'> & { runsPerCell: number; seed: number }; parts: ShardParts; shards: number } | { ok: false; message: string };

/**
 * Merges the blobs of all shards of one campaign into the parts of the unsharded run:
 * cells in campaign order (domain, then family, as `--domain` and `--family` list them),
 * the attack mode from the shard that ran it, the real benign sets from shard 1.
 *
 * @param blobs each with the file it came from (for messages).
 * @returns `ok: false` with a message when a blob is of another format, when two blobs come
 *   from different campaigns (seed, guard, runs, families, … differ), when a shard is
 *   missing or appears twice.
 */
export function mergeShardBlobs(blobs: ReadonlyArray<{ file: string; blob: ShardBlob }>): MergeResult {
  if (blobs.length === 0) return { ok: false, message: 'no shard blobs (farma-fuzz-shard-<i>-of-<n>.json) found' };
  for (const { file, blob } of blobs) {
    if (blob?.format !== 'farma-fuzz-shard' || blob.version !== 1) return { ok: false, message: `${file}: not a farma-fuzz shard blob of version 1` };
  }
  const first = blobs[0]!;
  for (const b of blobs.slice(1)) {
    if (identity(b.blob) !== identity(first.blob)) {
      return { ok: false, message: `${b.file} and ${first.file} come from different campaigns (guard, seed, runs, domains, families, phase, gate or shard count differ); merge the shards of one run` };
    }
  }
  const total = first.blob.shard.total;
  const byIndex = new Map<number, { file: string; blob: ShardBlob }>();
  for (const b of blobs) {
    const seen = byIndex.get(b.blob.shard.index);
    if (seen) return { ok: false, message: `shard ${b.blob.shard.index}/${total} appears twice: ${seen.file} and ${b.file}` };
    byIndex.set(b.blob.shard.index, b);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) return { ok: false, message: `missing shard(s) ${missing.map((i) => `${i}/${total}`).join(', ')}: found ${[...byIndex.keys()].sort((a, b) => a - b).map((i) => `${i}/${total}`).join(', ')}` };

  const ordered = [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b.blob);
  const s = first.blob.settings;
  const order = (c: { domain: string; family: string }): number => s.domains.indexOf(c.domain) * 1000 + s.families.indexOf(c.family);
  const cells = ordered.flatMap((b) => b.outcome.cells).sort((a, b) => order(a) - order(b));
  let attack: ShardParts['attack'];
  for (const b of ordered) {
    if (!b.attack) continue;
    const flips = new Map<Counterexample, ReportFlip>();
    for (const f of b.attack.flips) {
      const x = b.outcome.cells[f.cell]?.counterexamples[f.cx];
      if (x) flips.set(x, f.flip);
    }
    attack = { report: b.attack.report, originals: b.attack.originals, flipVerdicts: b.attack.flipVerdicts, flips };
  }
  const outcome: CampaignOutcome = {
    guardId: s.guardId,
    seed: s.seed,
    phase: s.phase,
    runsPerCell: s.runsPerCell,
    cells,
    // Wall time of the slowest shard: the shards ran side by side.
    elapsedMs: Math.max(...ordered.map((b) => b.outcome.elapsedMs)),
    totalRuns: cells.reduce((a, c) => a + c.stats.runs, 0),
    failed: cells.some((c) => c.stats.violations > 0 || c.stats.errors > 0),
  };
  return {
    ok: true,
    settings: { ...s, generatedAt: ordered[0]!.settings.generatedAt },
    parts: { outcome, ...(attack ? { attack } : {}), realSets: ordered.flatMap((b) => b.realSets), ...(ordered.some((b) => b.loso) ? { loso: ordered.flatMap((b) => b.loso ?? []) } : {}), warnings: [...new Set(ordered.flatMap((b) => b.warnings))], ...(sumSpend(ordered.map((b) => b.spend)) ? { spend: sumSpend(ordered.map((b) => b.spend)) as RunSpend } : {}) },
    shards: total,
  };
}
