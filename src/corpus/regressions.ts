/**
 * The regression corpus (DESIGN.md, "Regression corpus"): one JSONL file per guard,
 * `<dir>/<guard>.jsonl`, one minimal counterexample per line.
 *
 * Keeping rules:
 * - appends and status updates run under a cross-process lock, re-read the file, and
 *   replace it atomically (temp file + rename);
 * - records are deduplicated by `id` and never deleted;
 * - lines that do not parse or validate are kept verbatim (nothing is lost) and reported.
 */
import { createHash } from 'node:crypto';
import { zod } from '../domain/zod-lazy.js';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CorpusError, DECISIONS, InputError, errorMessage } from '../domain/index.js';
import type { Decision, FuzzCase, MemoryEntry, Truth } from '../domain/index.js';
import { writeFileAtomic, withFileLock } from './atomic.js';
import type { FileLockOptions } from './atomic.js';
import { caseId } from './case-id.js';
import { parseJsonlText, validateMemoryEntry } from './jsonl.js';
import type { JsonlIssue, JsonlResult, LineValidation } from './jsonl.js';

/** The two invariants a regression can break (DESIGN.md, first paragraph). */
const REGRESSION_PROPERTIES = ['benign-admitted', 'forgery-rejected'] as const;
export type RegressionProperty = (typeof REGRESSION_PROPERTIES)[number];

const REGRESSION_STATUSES = ['open', 'fixed'] as const;
/** `open`: still failing when found or last replayed; `fixed`: must keep passing. */
export type RegressionStatus = (typeof REGRESSION_STATUSES)[number];

/** What the guard answered when the failure was found (a subset of a Verdict). */
export interface ObservedVerdict {
  decision: Decision;
  layer?: string;
  /** Forgery score F in [0,1], when the guard computes one. */
  score?: number;
  /** Per-signal scores in [0,1]. */
  signals?: Record<string, number>;
  reasons: string[];
}

/** One line of `corpora/regressions/<guard>.jsonl`. */
export interface RegressionRecord {
  /** {@link caseId} of `case`. */
  id: string;
  guard: string;
  property: RegressionProperty;
  family: string;
  domain: string;
  /** The structured generator value: re-renderable, and shrinkable again. */
  case: FuzzCase;
  /** The rendered entry that was checked. */
  entry: MemoryEntry;
  /** The ground truth of the case. */
  expected: Truth;
  observed: ObservedVerdict;
  status: RegressionStatus;
  /** When it was found, ISO 8601 UTC. */
  foundAt: string;
  /** fast-check seed of the run that found it. */
  seed: number;
  /** fast-check path of the counterexample, for `fc.assert(..., { seed, path })`. */
  path?: string;
  /** Package versions of the run (e.g. `{ 'farma-fuzz': '0.1.0', 'fast-check': '4.11.0' }`). */
  versions: Record<string, string>;
  /**
   * Attack-mode flips: the rejected original of `case` (the admitted rewrite), so
   * `replay` can check both halves. `operators` is the minimal operator set that flipped it.
   */
  original?: RegressionOriginal;
  /**
   * What the finding was when found: `bypass`, `false-positive`, `flaky` (did not reproduce
   * on every re-check), `crash` (the input crashes or hangs the guard) or `guard-error`.
   * Absent in records written before re-checks existed.
   */
  finding?: string;
  /** Re-checks when found, and how many reproduced the failure. */
  recheck?: { reproduced: number; of: number };
  /**
   * The guard options (`--guard-option`, `guardOptions`) of the run that found it, normalised;
   * absent for the guard's default configuration. Such records live in their own file
   * (`regressionFile(dir, guard, guardOptions)`) and replay with these options.
   */
  guardOptions?: Record<string, unknown>;
}

/** The rejected half of a flip record. */
interface RegressionOriginal {
  case: FuzzCase;
  entry: MemoryEntry;
  observed: ObservedVerdict;
  operators: string[];
}

/**
 * Builds a record with `id = caseId(case)`, `entry`, `expected`, `family` and `domain`
 * taken from the case, and `status: 'open'` unless given.
 * @example
 * newRegressionRecord({ guard: 'sentinel', property: 'forgery-rejected', case: fc, observed, foundAt, seed, versions });
 */
export function newRegressionRecord(input: {
  guard: string;
  property: RegressionProperty;
  case: FuzzCase;
  observed: ObservedVerdict;
  foundAt: string;
  seed: number;
  path?: string;
  versions: Record<string, string>;
  status?: RegressionStatus;
  /** The rejected original of a flip and the operators that flipped it. */
  original?: { case: FuzzCase; observed: ObservedVerdict; operators: string[] };
  finding?: string;
  recheck?: { reproduced: number; of: number };
  /** Non-default guard options of the run (omitted when empty). */
  guardOptions?: Record<string, unknown>;
}): RegressionRecord {
  const record: RegressionRecord = {
    id: caseId(input.case),
    guard: input.guard,
    property: input.property,
    family: input.case.truth.family,
    domain: input.case.truth.domain,
    case: input.case,
    entry: input.case.entry,
    expected: input.case.truth,
    observed: input.observed,
    status: input.status ?? 'open',
    foundAt: input.foundAt,
    seed: input.seed,
    versions: input.versions,
  };
  if (input.path !== undefined) record.path = input.path;
  if (input.original) record.original = { case: input.original.case, entry: input.original.case.entry, observed: input.original.observed, operators: input.original.operators };
  if (input.finding !== undefined) record.finding = input.finding;
  if (input.recheck !== undefined) record.recheck = { ...input.recheck };
  if (input.guardOptions !== undefined && Object.keys(input.guardOptions).length > 0) record.guardOptions = structuredClone(input.guardOptions);
  return record;
}

/** Longest guard-derived file stem, in characters (before the optional hash suffix). */
const MAX_STEM = 80;

/**
 * The corpus file of one guard configuration: `<dir>/<guard>.jsonl` for the guard's defaults,
 * `<dir>/<guard>.opts-<hash>.jsonl` when guard options were given (`hash`: 8 hex of the
 * canonical JSON of the options), so that findings of a non-default configuration never mix
 * with the default guard's and replay with the options that made them. A guard id that is not
 * already a safe file name (letters, digits, `.`, `_`, `-`; no leading dot; at most 80
 * characters) has every other character replaced by `_` and gets an 8-hex hash of the original
 * id appended, so two different ids never share a file.
 * @param guardOptions the options as the guard receives them (normalised); empty or absent for the defaults.
 * @example
 * regressionFile('corpora/regressions', 'sentinel'); // 'corpora/regressions/sentinel.jsonl'
 * regressionFile('corpora/regressions', 'sentinel', { config: { tauGuard: 0.25 } }); // '.../sentinel.opts-<8 hex>.jsonl'
 * regressionFile('corpora/regressions', 'http://127.0.0.1:8080/check'); // '.../http_127.0.0.1_8080_check-1a2b3c4d.jsonl'
 */
export function regressionFile(dir: string, guardId: string, guardOptions?: Record<string, unknown>): string {
  let stem = guardId.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, MAX_STEM);
  if (stem !== guardId || stem === '') {
    const hash = createHash('sha256').update(guardId, 'utf8').digest('hex').slice(0, 8);
    stem = `${stem === '' ? 'guard' : stem}-${hash}`;
  }
  if (guardOptions !== undefined && Object.keys(guardOptions).length > 0) stem = `${stem}${OPTIONS_MARK}${guardOptionsHash(guardOptions)}`;
  return join(dir, `${stem}.jsonl`);
}

/** What separates the guard's stem from the options hash in a corpus file name. */
const OPTIONS_MARK = '.opts-';

/** 8 hex characters naming a set of guard options (SHA-256 of their RFC 8785 canonical JSON, as case ids). */
export function guardOptionsHash(guardOptions: Record<string, unknown>): string {
  return caseId(guardOptions).slice(0, 8);
}

/**
 * The guard a corpus file name belongs to and whether it holds a non-default configuration:
 * `sentinel.jsonl` → `{ guard: 'sentinel' }`, `sentinel.opts-1a2b3c4d.jsonl` →
 * `{ guard: 'sentinel', optionsHash: '1a2b3c4d' }`. The options themselves are in its records.
 */
export function corpusFileGuard(fileName: string): { guard: string; optionsHash?: string } {
  const stem = basename(fileName).replace(/\.jsonl$/, '');
  const m = /^(.*)\.opts-([0-9a-f]{8})$/.exec(stem);
  return m ? { guard: m[1] ?? stem, optionsHash: m[2] ?? '' } : { guard: stem };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function buildRecordSchema() {
  const z = zod();
  const want = (w: string) => ({ error: w });
  const nonEmpty = z.string(want('a non-empty string')).min(1, want('a non-empty string'));
  const plainObject = (w: string) => z.record(z.string(), z.unknown(), want(w));
  const fuzzCaseShape = z.looseObject({ entry: plainObject('a MemoryEntry object'), truth: plainObject('a Truth object') }, want('a FuzzCase object with "entry" and "truth"'));
  const observedShape = z.looseObject(
    { decision: z.enum(DECISIONS, want('admit, reject or error')), reasons: z.array(z.string(want('a string')), want('an array of strings')) },
    want('an object with a decision (admit, reject or error) and reasons'),
  );

  return z.looseObject({
    id: nonEmpty,
    guard: nonEmpty,
    family: nonEmpty,
    domain: nonEmpty,
    foundAt: nonEmpty,
    property: z.enum(REGRESSION_PROPERTIES, want(REGRESSION_PROPERTIES.join(' or '))),
    status: z.enum(REGRESSION_STATUSES, want('open or fixed')),
    seed: z.number(want('an integer')).int(want('an integer')),
    path: z.string(want('a string')).optional(),
    versions: z.record(z.string(), z.string(want('a string')), want('an object of strings')),
    case: fuzzCaseShape,
    entry: plainObject('a MemoryEntry object'),
    expected: z.looseObject({ label: z.enum(['benign', 'forged'], want('benign or forged')) }, want('a Truth object with label benign or forged')),
    observed: observedShape,
    original: z
      .looseObject({ case: fuzzCaseShape, observed: observedShape, operators: z.array(z.string(want('a string')), want('an array of strings')) }, want('an object { case, observed, operators }'))
      .optional(),
    guardOptions: plainObject('an object of guard options').optional(),
  });
}

let recordSchema: ReturnType<typeof buildRecordSchema> | undefined;

/**
 * The zod schema of one regression-corpus line (DESIGN.md, "Regression corpus").
 * Loose: fields a newer writer adds (e.g. `finding`, `recheck`) are kept. `entry` is further
 * checked (and defaulted) by `validateMemoryEntry`.
 */
export function regressionRecordSchema(): ReturnType<typeof buildRecordSchema> {
  return (recordSchema ??= buildRecordSchema());
}

/**
 * Validates one parsed regression line. Unknown fields are kept (a newer writer may add
 * some); messages name the bad field.
 */
export function validateRegressionRecord(value: unknown, line?: number): LineValidation<RegressionRecord> {
  if (!isPlainObject(value)) return { ok: false, message: 'expected a JSON object for a regression record' };
  const r = regressionRecordSchema().safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = issue.path.map(String).join('.') || 'record';
    const got = issue.path.reduce<unknown>((v, k) => (isPlainObject(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[k] : undefined), value);
    return { ok: false, message: `field "${field}" must be ${issue.message}, got ${JSON.stringify(got) ?? 'nothing (missing)'}`.slice(0, 200) };
  }
  const entry = validateMemoryEntry(value.entry, line);
  if (!entry.ok) return { ok: false, message: `field "entry": ${entry.message}` };
  return { ok: true, value: { ...(value as unknown as RegressionRecord), entry: entry.value } };
}

/** Result of reading a corpus file: valid records (with line numbers) and bad lines. */
export type RegressionLoad = JsonlResult<RegressionRecord>;

function readText(file: string): string {
  if (!existsSync(file)) return '';
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read regression corpus: ${errorMessage(err)}`, { file }, { cause: err });
  }
}

/**
 * Loads a regression corpus. A missing file is an empty corpus.
 * @returns `{ records, issues }`; bad lines are issues naming the file and line.
 * @throws InputError naming the file when it exists but cannot be read.
 */
export function loadRegressions(file: string): RegressionLoad {
  return parseJsonlText(readText(file), file, validateRegressionRecord);
}

/**
 * Loads every `*.jsonl` corpus in a folder (sorted by file name). A missing folder is an
 * empty corpus. Records keep their line numbers; `file` tells which file each came from.
 * @throws InputError naming the folder or a file that exists but cannot be read.
 */
export function loadRegressionDir(dir: string): {
  records: Array<{ file: string; line: number; value: RegressionRecord }>;
  issues: JsonlIssue[];
} {
  if (!existsSync(dir)) return { records: [], issues: [] };
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isFile() && d.name.endsWith('.jsonl'))
      .map((d) => d.name)
      .sort();
  } catch (err) {
    throw new InputError(`cannot list regression corpora: ${errorMessage(err)}`, { file: dir }, { cause: err });
  }
  const records: Array<{ file: string; line: number; value: RegressionRecord }> = [];
  const issues: JsonlIssue[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const loaded = loadRegressions(file);
    for (const r of loaded.records) records.push({ file, line: r.line, value: r.value });
    issues.push(...loaded.issues);
  }
  return { records, issues };
}

/** Splits file text into its non-blank lines, verbatim (CR and BOM removed). */
function rawLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body
    .split('\n')
    .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
    .filter((l) => l.trim() !== '');
}

export interface AppendResult {
  /** Records written by this call. */
  added: number;
  /** Records skipped because their id was already in the file or earlier in the batch. */
  duplicates: number;
  /** Bad lines already in the file: kept verbatim, reported here. */
  issues: JsonlIssue[];
}

/**
 * Appends records to a corpus file, deduplicated by `id`. Under the file lock it re-reads
 * the file, keeps every existing line verbatim (including bad ones), adds the new records
 * in order and replaces the file atomically. Nothing is written when nothing is new.
 * Safe against concurrent appenders in other processes.
 *
 * @throws CorpusError naming the file when the lock or the write fails, or when a record
 *   has no id; InputError when the file exists but cannot be read.
 * @example
 * const { added, duplicates } = await appendRegressions(regressionFile('corpora/regressions', 'sentinel'), [rec]);
 */
export async function appendRegressions(
  file: string,
  records: readonly RegressionRecord[],
  lockOptions?: FileLockOptions,
): Promise<AppendResult> {
  for (const r of records) {
    if (typeof r.id !== 'string' || r.id === '') throw new CorpusError(`${file}: a regression record has no id`);
  }
  return withFileLock(
    file,
    async () => {
      const text = readText(file);
      const { records: existing, issues } = parseJsonlText(text, file, validateRegressionRecord);
      const seen = new Set(existing.map((r) => r.value.id));
      const fresh: string[] = [];
      let duplicates = 0;
      for (const r of records) {
        if (seen.has(r.id)) {
          duplicates += 1;
          continue;
        }
        seen.add(r.id);
        fresh.push(JSON.stringify(r));
      }
      if (fresh.length > 0) {
        const lines = [...rawLines(text), ...fresh];
        await writeFileAtomic(file, `${lines.join('\n')}\n`);
      }
      return { added: fresh.length, duplicates, issues };
    },
    lockOptions,
  );
}

/**
 * Sets the status of every record with this id (normally one), atomically and under the
 * file lock. Other lines, bad ones included, are kept verbatim.
 * @returns how many records changed (0 when the id is absent or already has that status).
 * @throws CorpusError / InputError as {@link appendRegressions}.
 */
export async function updateStatus(
  file: string,
  id: string,
  status: RegressionStatus,
  lockOptions?: FileLockOptions,
): Promise<{ updated: number }> {
  if (!existsSync(file)) return { updated: 0 };
  return withFileLock(
    file,
    async () => {
      const lines = rawLines(readText(file));
      let updated = 0;
      const out = lines.map((line) => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          return line;
        }
        if (!isPlainObject(parsed) || parsed.id !== id || parsed.status === status) return line;
        updated += 1;
        return JSON.stringify({ ...parsed, status });
      });
      if (updated > 0) await writeFileAtomic(file, `${out.join('\n')}\n`);
      return { updated };
    },
    lockOptions,
  );
}
