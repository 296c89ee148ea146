/**
 * JSONL reading that never gives up on a whole file because of one bad line
 * (docs/STYLE.md §2: corpus loading returns good records plus line-numbered issues).
 *
 * - Lines are split on `\n`; a trailing `\r` (CRLF files) is removed.
 * - A UTF-8 byte-order mark at the very start of the file is removed.
 * - Blank (whitespace-only) lines are skipped and never reported.
 * - Malformed JSON, a truncated last line and a failed validation each become an issue
 *   naming the file and the 1-based line; every other line is kept.
 * - Only an unreadable file throws (`InputError` naming the file).
 */
import { readFileSync } from 'node:fs';
import { InputError, isStoreName, errorMessage } from '../domain/index.js';
import type { MemoryEntry, StoreName } from '../domain/index.js';

/** Result of validating one parsed line. */
export type LineValidation<T> = { ok: true; value: T } | { ok: false; message: string };

/** Validates one parsed JSON value; `line` is 1-based (for messages). */
export type LineValidator<T> = (value: unknown, line: number) => LineValidation<T>;

/** A line that could not be used. `line` is 1-based. */
export interface JsonlIssue {
  file: string;
  line: number;
  message: string;
}

/** A kept record with the 1-based line it came from. */
export interface JsonlRecord<T> {
  line: number;
  value: T;
}

export interface JsonlResult<T> {
  records: Array<JsonlRecord<T>>;
  issues: JsonlIssue[];
}

/** A validator that accepts any JSON value unchanged. */
export const anyJson: LineValidator<unknown> = (value) => ({ ok: true, value });

/** Longest excerpt of a bad line quoted in an issue message (characters). */
const EXCERPT_CHARS = 60;

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

/**
 * Parses JSONL text already in memory.
 *
 * @param text the file contents (may start with a BOM, may use CRLF, may lack a final newline).
 * @param fileLabel the name used in issues (a path, or e.g. `<stdin>`).
 * @param validate turns each parsed value into a `T` or a message.
 * @returns `{ records, issues }`; never throws for bad content.
 * @example
 * const { records, issues } = parseJsonlText('{"a":1}\n{bad\n', 'x.jsonl', anyJson);
 * // records = [{ line: 1, value: { a: 1 } }], issues = [{ file: 'x.jsonl', line: 2, message: 'malformed JSON: …' }]
 */
export function parseJsonlText<T>(text: string, fileLabel: string, validate: LineValidator<T>): JsonlResult<T> {
  const records: Array<JsonlRecord<T>> = [];
  const issues: JsonlIssue[] = [];
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNo = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    const terminated = end !== -1;
    if (!terminated) end = text.length;
    lineNo += 1;
    let raw = text.slice(start, end);
    start = end + 1;
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    if (raw.trim() === '') {
      if (!terminated) break;
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (err) {
      const why = errorMessage(err);
      const message = terminated
        ? `malformed JSON (${why}): ${excerpt(raw)}`
        : `truncated last line (no trailing newline and not valid JSON: ${why}): ${excerpt(raw)}`;
      issues.push({ file: fileLabel, line: lineNo, message });
      if (!terminated) break;
      continue;
    }
    let checked: LineValidation<T>;
    try {
      checked = validate(parsed, lineNo);
    } catch (err) {
      checked = { ok: false, message: `validator threw: ${errorMessage(err)}` };
    }
    if (checked.ok) records.push({ line: lineNo, value: checked.value });
    else issues.push({ file: fileLabel, line: lineNo, message: checked.message });
    if (!terminated) break;
  }
  return { records, issues };
}

/**
 * Reads and parses a JSONL file (UTF-8).
 *
 * @throws InputError when the file cannot be read at all (missing, a directory, no
 *   permission, too large for one string); the message names the file.
 * @example
 * const { records, issues } = readJsonl('corpora/benign/ehr.jsonl', validateMemoryEntry);
 */
export function readJsonl<T>(file: string, validate: LineValidator<T>): JsonlResult<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const why = errorMessage(err);
    throw new InputError(`cannot read JSONL file: ${why}`, { file }, { cause: err });
  }
  return parseJsonlText(text, file, validate);
}

/** Timestamp given to an entry that has none: the Unix epoch, so loads stay deterministic. */
export const DEFAULT_TIMESTAMP = '1970-01-01T00:00:00.000Z';
/** Trust label given to an entry that has none. */
export const DEFAULT_TRUST = 'UNVERIFIED';
/** Store given to an entry that has none. */
export const DEFAULT_STORE: StoreName = 'reasoning';
/** Trace type given to an entry that has none. */
export const DEFAULT_TRACE_TYPE = 'decision_log';
/**
 * Source given to an entry that has none. It is not one of the known sources, so a
 * provenance layer treats it as unknown (paper §IV-B: unknown taint 1.0).
 */
export const DEFAULT_SOURCE = 'UNKNOWN';

/**
 * Validates a MemoryEntry-shaped value. Unknown fields are ignored.
 *
 * Required: `id` (non-empty string or finite number, kept as a string) and `content`
 * (string). Optional, with defaults when missing (or `null`):
 * - `store` → `'reasoning'` ({@link DEFAULT_STORE}); when present must be `reasoning|general`;
 * - `source` → `'UNKNOWN'` ({@link DEFAULT_SOURCE}, counts as an unknown source);
 * - `trust` → `'UNVERIFIED'`; `traceType` → `'decision_log'`;
 * - `timestamp` → `'1970-01-01T00:00:00.000Z'` (fixed, never the clock);
 * - `metadata` → absent; when present must be a plain object.
 * A present field of the wrong type is an error whose message names the field (the
 * caller's issue already names the file and line).
 */
export function validateMemoryEntry(value: unknown, _line?: number): LineValidation<MemoryEntry> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `expected a JSON object for a memory entry` };
  }
  const v = value as Record<string, unknown>;
  let id: string;
  if (typeof v.id === 'string' && v.id !== '') id = v.id;
  else if (typeof v.id === 'number' && Number.isFinite(v.id)) id = String(v.id);
  else return { ok: false, message: `field "id" must be a non-empty string, got ${describe(v.id)}` };
  if (typeof v.content !== 'string') {
    return { ok: false, message: `field "content" must be a string, got ${describe(v.content)}` };
  }
  let store: StoreName = DEFAULT_STORE;
  if (v.store !== undefined && v.store !== null) {
    if (!isStoreName(v.store)) {
      return { ok: false, message: `field "store" must be "reasoning" or "general", got ${describe(v.store)}` };
    }
    store = v.store;
  }
  const strings: Array<['source' | 'trust' | 'traceType' | 'timestamp', string]> = [
    ['source', DEFAULT_SOURCE],
    ['trust', DEFAULT_TRUST],
    ['traceType', DEFAULT_TRACE_TYPE],
    ['timestamp', DEFAULT_TIMESTAMP],
  ];
  const out: Record<string, string> = {};
  for (const [field, fallback] of strings) {
    const f = v[field];
    if (f === undefined || f === null) out[field] = fallback;
    else if (typeof f === 'string') out[field] = f;
    else return { ok: false, message: `field "${field}" must be a string, got ${describe(f)}` };
  }
  const entry: MemoryEntry = {
    id,
    store,
    content: v.content,
    source: out.source ?? DEFAULT_SOURCE,
    trust: out.trust ?? DEFAULT_TRUST,
    traceType: out.traceType ?? DEFAULT_TRACE_TYPE,
    timestamp: out.timestamp ?? DEFAULT_TIMESTAMP,
  };
  if (v.metadata !== undefined && v.metadata !== null) {
    if (typeof v.metadata !== 'object' || Array.isArray(v.metadata)) {
      return { ok: false, message: `field "metadata" must be an object, got ${describe(v.metadata)}` };
    }
    entry.metadata = v.metadata as Record<string, unknown>;
  }
  return { ok: true, value: entry };
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `string ${JSON.stringify(excerpt(v))}`;
  return `${typeof v} ${excerpt(JSON.stringify(v) ?? String(v))}`;
}
