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
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { zod } from '../domain/zod-lazy.js';
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
  /** Queries spent outside property mode, and the run's cache and budget settings. */
  spend?: RunSpend;
}

/** The file a shard writes (JSON). Version 2: version 1 plus `checksum`. */
export interface ShardBlob {
  format: 'farma-fuzz-shard';
  version: 2;
  /** `sha256:<hex>` of the blob's canonical JSON (RFC 8785) without this field ({@link blobChecksum}). */
  checksum?: string;
  shard: ShardSpec;
  settings: Omit<FinishSettings, 'outDir' | 'corpusDir'> & { runsPerCell: number; seed: number };
  outcome: CampaignOutcome;
  /** The attack mode, with each flip addressed by cell and counterexample index in `outcome.cells`. */
  attack?: Omit<NonNullable<ShardParts['attack']>, 'flips'> & { flips: Array<{ cell: number; cx: number; flip: ReportFlip }> };
  realSets: RealSetFpr[];
  loso?: LosoCheckRow[];
  warnings: string[];
  /** Queries this shard spent outside property mode (absent in older blobs). */
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
  const blob: ShardBlob = { format: 'farma-fuzz-shard', version: 2, shard, settings: kept, outcome: parts.outcome, realSets: parts.realSets, ...(parts.loso ? { loso: parts.loso } : {}), warnings: parts.warnings, ...(parts.spend ? { spend: parts.spend } : {}) };
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

/**
 * The checksum of a blob: `sha256:` and the hex SHA-256 of its canonical JSON (RFC 8785, npm
 * `canonicalize`), the `checksum` field left out. It shows a blob edited or damaged after its
 * shard wrote it; it is not a signature: whoever can write the blob can recompute
 * it, which is why the merge also checks the schema and each shard's cells.
 */
export function blobChecksum(blob: object): string {
  const { checksum: _c, ...rest } = blob as { checksum?: unknown };
  // Through JSON first, as the file holds it (undefined fields dropped).
  const text = canonicalize(JSON.parse(JSON.stringify(rest)) as object) ?? '';
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The blob with its checksum set (what a shard writes). */
export function sealBlob(blob: ShardBlob): ShardBlob {
  return { ...blob, checksum: blobChecksum(blob) };
}

function buildBlobSchema() {
  const z = zod();
  const count = z.number().int('expected a non-negative integer').min(0, 'expected a non-negative integer');
  const name = z.string().min(1, 'expected a non-empty string');
  const tally = z.object({ runs: count, violations: count, errors: count }).loose();
  const stats = tally.refine((t) => t.violations + t.errors <= t.runs, { message: 'violations + errors must be at most runs' });
  const cell = z
    .object({
      domain: name,
      family: name,
      property: name,
      seed: count,
      stats,
      counterexamples: z.array(z.object({ judgement: z.enum(['violated', 'error']), signature: z.string(), case: z.object({}).loose(), verdict: z.object({ decision: z.string() }).loose() }).loose()),
      interrupted: z.boolean(),
    })
    .loose();
  return z
    .object({
      format: z.literal('farma-fuzz-shard'),
      version: z.literal(2),
      checksum: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'expected sha256:<64 hex digits>'),
      shard: z.object({ index: z.number().int().min(1), total: z.number().int().min(1).max(1000) }).refine((s) => s.index <= s.total, { message: 'index must be at most total' }),
      settings: z
        .object({
          guardSpec: z.string(),
          guardId: name,
          guardConfigHash: z.string(),
          phase: z.enum(['write', 'retrieve']),
          generatedAt: z.string(),
          domains: z.array(name).min(1),
          families: z.array(name).min(1),
          maxFailures: count,
          runsPerCell: z.number().int().min(1, 'expected a positive integer'),
          seed: count.max(0xffffffff),
        })
        .loose(),
      outcome: z.object({ guardId: name, seed: count, runsPerCell: count, cells: z.array(cell), elapsedMs: z.number().min(0), totalRuns: count, failed: z.boolean() }).loose(),
      realSets: z.array(z.object({}).loose()),
      warnings: z.array(z.string()),
    })
    .loose();
}

let blobSchema: ReturnType<typeof buildBlobSchema> | undefined;

function pathText(p: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const k of p) out += typeof k === 'number' ? `[${k}]` : `${out === '' ? '' : '.'}${String(k)}`;
  return out === '' ? '(the blob)' : out;
}

function valueAt(root: unknown, p: ReadonlyArray<PropertyKey>): unknown {
  let v = root;
  for (const k of p) v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/**
 * Checks one parsed blob file: its checksum, then its shape (zod), then that its shard index
 * matches the file name.
 * @returns the blob, or a message naming the file and at most three fields.
 */
function checkShardBlob(file: string, raw: unknown): { ok: true; blob: ShardBlob } | { ok: false; message: string } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, message: `${file}: not a farma-fuzz shard blob (a JSON object is expected)` };
  const o = raw as Record<string, unknown>;
  if (o.format !== 'farma-fuzz-shard') return { ok: false, message: `${file}: not a farma-fuzz shard blob (format is not "farma-fuzz-shard")` };
  if (o.version === 1) return { ok: false, message: `${file}: a version-1 blob, written by an older farma-fuzz, has no checksum; run the shard again with this version` };
  if (o.checksum === undefined) return { ok: false, message: `${file}: has no checksum (edited by hand, or not written by farma-fuzz); run the shard again` };
  if (typeof o.checksum !== 'string' || blobChecksum(o) !== o.checksum) return { ok: false, message: `${file}: its content does not match its checksum: the blob was edited or damaged after its shard wrote it; run the shard again` };
  const parsed = (blobSchema ??= buildBlobSchema()).safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const parts = issues.slice(0, 3).map((i) => {
      const v = valueAt(raw, i.path);
      return `${pathText(i.path)}: ${i.message}${v === undefined ? ' (missing)' : typeof v === 'object' ? '' : `, got ${JSON.stringify(v)}`}`;
    });
    return { ok: false, message: `${file}: not a valid shard blob: ${parts.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}` };
  }
  const blob = raw as ShardBlob;
  const m = BLOB_NAME.exec(file.split(/[\\/]/).pop() ?? '');
  if (m && (Number(m[1]) !== blob.shard.index || Number(m[2]) !== blob.shard.total)) {
    return { ok: false, message: `${file}: the file is named for shard ${m[1]}/${m[2]} but the blob says ${blob.shard.index}/${blob.shard.total}` };
  }
  return { ok: true, blob };
}

/**
 * The cells (`domain/family`) shard `index` of `total` must hold, in campaign order, and
 * whether it owns attack mode: the units of `planCells` (src/campaign/fuzz.ts), round robin.
 */
function ownedUnits(settings: ShardBlob['settings'], shard: ShardSpec, attackMode: boolean): { cells: string[]; attack: boolean } {
  const units: string[] = [];
  for (const d of settings.domains) for (const f of settings.families) if (!(attackMode && f === 'adaptive')) units.push(`${d}/${f}`);
  return { cells: units.filter((_, k) => inShard(k, shard)), attack: attackMode && inShard(units.length, shard) };
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
 * @returns `ok: false` with a message when a blob is of another format, fails its checksum or
 *   its schema ({@link checkShardBlob}), when two blobs come from different campaigns (seed,
 *   guard, runs, families, … differ), when a shard is missing or appears twice, or when a shard
 *   does not hold exactly the cells its index owns.
 */
export function mergeShardBlobs(blobs: ReadonlyArray<{ file: string; blob: ShardBlob }>): MergeResult {
  if (blobs.length === 0) return { ok: false, message: 'no shard blobs (farma-fuzz-shard-<i>-of-<n>.json) found' };
  for (const { file, blob } of blobs) {
    const checked = checkShardBlob(file, blob);
    if (!checked.ok) return checked;
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

  // Each shard holds exactly the cells its index owns: a relabelled, dropped or extra cell would
  // otherwise merge silently (a cell twice, another missing). Attack mode is on when the
  // adaptive family is listed and no shard ran it as a plain cell.
  // Attack mode's cells (family adaptive, one per domain) come with the blob that ran it; without
  // attack mode the adaptive family is a plain cell, held by a blob with no attack.
  const attackMode = first.blob.settings.families.includes('adaptive') && !blobs.some((b) => b.blob.attack === undefined && b.blob.outcome.cells.some((c) => c.family === 'adaptive'));
  for (const b of blobs) {
    const own = ownedUnits(b.blob.settings, b.blob.shard, attackMode);
    const held = b.blob.outcome.cells.filter((c) => !(attackMode && c.family === 'adaptive')).map((c) => `${c.domain}/${c.family}`);
    if (held.join(',') !== own.cells.join(',')) {
      return { ok: false, message: `${b.file}: shard ${b.blob.shard.index}/${total} must hold exactly the cells ${own.cells.join(', ') || '(none)'} (round robin over domain × family), but holds ${held.join(', ') || '(none)'}` };
    }
    if (b.blob.attack !== undefined && !own.attack) return { ok: false, message: `${b.file}: shard ${b.blob.shard.index}/${total} carries attack mode, which another shard owns` };
    if (b.blob.shard.index !== 1 && (b.blob.realSets.length > 0 || (b.blob.loso?.length ?? 0) > 0)) return { ok: false, message: `${b.file}: shard ${b.blob.shard.index}/${total} carries real-set measurements, which shard 1 alone makes` };
    const over = b.blob.outcome.cells.find((c) => c.stats.runs > b.blob.settings.runsPerCell);
    if (over) return { ok: false, message: `${b.file}: cell ${over.domain}/${over.family} has ${over.stats.runs} runs, more than the campaign's ${b.blob.settings.runsPerCell} per cell` };
  }
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
