/**
 * JSONL reading that never gives up on a whole file because of one bad line
 * (docs/STYLE.md §2: corpus loading returns good records plus line-numbered issues).
 *
 * - Lines are split on `\n`; a trailing `\r` (CRLF files) is removed.
 * - A UTF-8 byte-order mark at the very start of the file is removed; one at the start of a later
 *   line (two files joined with `cat`) is removed too, with a warning naming the line.
 * - Blank (whitespace-only) lines are skipped and never reported.
 * - Malformed JSON, a truncated last line and a failed validation each become an issue
 *   naming the file and the 1-based line; every other line is kept.
 * - Only an unreadable file throws (`InputError` naming the file).
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream, readFileSync } from 'node:fs';
import { InputError, isStoreName, errorMessage } from '../domain/index.js';
import type { MemoryEntry, StoreName } from '../domain/index.js';
import { KNOWN_SOURCES, KNOWN_TRUST_LABELS, STORE_NAMES, TRACE_TYPES } from '../domain/entry.js';
import { plural } from '../domain/plural.js';
import { redactedHead } from '../domain/secrets.js';
import { didYouMean } from '../domain/suggest.js';

/** Result of validating one parsed line. */
/** A line's value, or why it is unusable; a usable line may carry warnings (e.g. a field value outside the known ones). */
export type LineValidation<T> = { ok: true; value: T; warnings?: string[] } | { ok: false; message: string };

/** Validates one parsed JSON value; `line` is 1-based (for messages). */
export type LineValidator<T> = (value: unknown, line: number) => LineValidation<T>;

/** A line that could not be used. `line` is 1-based. */
export interface JsonlIssue {
  file: string;
  line: number;
  message: string;
}

/** A kept record with the 1-based line it came from. */
interface JsonlRecord<T> {
  line: number;
  value: T;
}

export interface JsonlResult<T> {
  records: Array<JsonlRecord<T>>;
  /** Lines that were not used (bad JSON, failed validation). */
  issues: JsonlIssue[];
  /** Lines that were used but deserve a word (e.g. invalid UTF-8 read as U+FFFD). */
  warnings?: JsonlIssue[];
}

/** A validator that accepts any JSON value unchanged. */
export const anyJson: LineValidator<unknown> = (value) => ({ ok: true, value });

/** Longest excerpt of a bad line quoted in an issue message (characters). */
const EXCERPT_CHARS = 60;

/** The start of an input line for a message: secrets (`redactSecrets`) replaced first, then cut. */
function excerpt(raw: string): string {
  const text = redactedHead(raw, EXCERPT_CHARS);
  return raw.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
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
  const acc = new LineAccumulator(fileLabel, validate);
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let lineNo = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    const terminated = end !== -1;
    if (!terminated) end = text.length;
    lineNo += 1;
    const raw = text.slice(start, end);
    start = end + 1;
    acc.line(raw, lineNo, terminated);
    if (!terminated) break;
  }
  return acc.result();
}

/** Message for a line that holds a JSON array, or the first line of a pretty-printed document. */
const NOT_JSONL = {
  array: 'this file is a JSON array; JSONL expected (one JSON object per line, no surrounding [ ])',
  document: 'this looks like a pretty-printed JSON document; JSONL expected (one JSON object per line)',
  csv: 'this looks like CSV (a header of comma-separated names); JSONL expected (one JSON object per line, e.g. {"id": "1", "content": "..."})',
} as const;

/** True when a first line reads as a CSV header: two or more comma-separated bare names, no JSON brace or bracket. */
function looksLikeCsvHeader(t: string): boolean {
  if (t.length > 4096 || /^[[{]/.test(t)) return false;
  const names = t.split(/[,;\t]/);
  return names.length >= 2 && names.every((n) => /^"?[\w.-]+(?: [\w.-]+)*"?$/.test(n.trim()));
}

/** Parses and validates lines one at a time (shared by the text and the streaming readers). */
class LineAccumulator<T> {
  readonly records: Array<JsonlRecord<T>> = [];
  readonly issues: JsonlIssue[] = [];
  readonly warnings: JsonlIssue[] = [];
  #firstContent = true;
  constructor(
    readonly file: string,
    readonly validate: LineValidator<T>,
  ) {}

  line(rawLine: string, lineNo: number, terminated: boolean): void {
    let raw = rawLine;
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    // A BOM opening a later line: two files joined with `cat`, the second saved with a BOM.
    if (raw.charCodeAt(0) === 0xfeff) {
      raw = raw.slice(1);
      this.warn(lineNo, 'a byte-order mark (U+FEFF) at the start of this line was removed (were two files joined, the second saved with a BOM?)');
    }
    if (raw.trim() === '') return;
    const first = this.#firstContent;
    this.#firstContent = false;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (err) {
      const why = errorMessage(err);
      const t = raw.trim();
      const hint = first && (t === '[' || t.startsWith('[{')) ? `${NOT_JSONL.array}; ` : first && t === '{' ? `${NOT_JSONL.document}; ` : first && looksLikeCsvHeader(t) ? `${NOT_JSONL.csv}; ` : '';
      const message = terminated
        ? `${hint}malformed JSON (${why}): ${excerpt(raw)}`
        : `${hint}truncated last line (no trailing newline and not valid JSON: ${why}): ${excerpt(raw)}`;
      this.issues.push({ file: this.file, line: lineNo, message });
      return;
    }
    if (Array.isArray(parsed)) {
      // Only a first line can tell that the whole file is an array; later, it is one bad line of a JSONL file.
      const message = first ? `${NOT_JSONL.array}; this line holds an array of ${plural(parsed.length, 'item')}` : `this line holds a JSON array of ${plural(parsed.length, 'item')}; JSONL expects one JSON object per line`;
      this.issues.push({ file: this.file, line: lineNo, message });
      return;
    }
    let checked: LineValidation<T>;
    try {
      checked = this.validate(parsed, lineNo);
    } catch (err) {
      checked = { ok: false, message: `validator threw: ${errorMessage(err)}` };
    }
    if (checked.ok) {
      this.records.push({ line: lineNo, value: checked.value });
      for (const w of checked.warnings ?? []) this.warn(lineNo, w);
    }
    else this.issues.push({ file: this.file, line: lineNo, message: checked.message });
  }

  warn(lineNo: number, message: string): void {
    this.warnings.push({ file: this.file, line: lineNo, message });
  }

  result(): JsonlResult<T> {
    return { records: this.records, issues: this.issues, ...(this.warnings.length > 0 ? { warnings: this.warnings } : {}) };
  }
}

/**
 * Reads and parses a JSONL file (UTF-8) in one piece. Lines that are not valid UTF-8 are
 * decoded with U+FFFD in place of the bad bytes and named in `warnings` (file:line).
 * For files of any size (also larger than V8's longest string), use {@link readJsonlFile}.
 *
 * @throws InputError when the file cannot be read at all (missing, a directory, no
 *   permission, too large for one string); the message names the file.
 * @example
 * const { records, issues } = readJsonl('corpora/benign/curated.jsonl', validateMemoryEntry);
 */
export function readJsonl<T>(file: string, validate: LineValidator<T>): JsonlResult<T> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new InputError(`cannot read JSONL file: ${errorMessage(err)}`, { file }, { cause: err });
  }
  if (isUtf8(bytes)) {
    let text: string;
    try {
      text = bytes.toString('utf8');
    } catch (err) {
      throw new InputError(`cannot read JSONL file as one string (${errorMessage(err)}); it is read in a stream by check and import`, { file }, { cause: err });
    }
    return parseJsonlText(text, file, validate);
  }
  const acc = new LineAccumulator(file, validate);
  let lineNo = 0;
  for (const { bytes: line, terminated } of splitLines(bytes, true)) {
    lineNo += 1;
    if (!isUtf8(line)) acc.warn(lineNo, INVALID_UTF8);
    acc.line(decodeLine(line, lineNo), lineNo, terminated);
  }
  return acc.result();
}

const INVALID_UTF8 = 'not valid UTF-8: the bad bytes were read as U+FFFD (\uFFFD); re-export the file as UTF-8';

function decodeLine(line: Buffer, lineNo: number): string {
  const text = line.toString('utf8');
  return lineNo === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Splits a buffer on `\n` (the `\n` is not part of a line); the last piece may be unterminated. */
function* splitLines(bytes: Buffer, final: boolean): Generator<{ bytes: Buffer; terminated: boolean }> {
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) break;
    yield { bytes: bytes.subarray(start, end), terminated: true };
    start = end + 1;
  }
  if (final && start < bytes.length) yield { bytes: bytes.subarray(start), terminated: false };
}

/**
 * Streams JSONL from any byte stream, line by line: memory holds one line at a time (plus
 * the kept records), so files larger than V8's longest string (about 512 MB) load. Same rules
 * as {@link parseJsonlText}; lines that are not valid UTF-8 are named in `warnings`.
 * @param label the name used in issues (a path, or e.g. `<stdin>`).
 * @example
 * const { records } = await readJsonlStream(createReadStream('big.jsonl'), 'big.jsonl', validateMemoryEntry);
 */
export async function readJsonlStream<T>(stream: AsyncIterable<Buffer | string>, label: string, validate: LineValidator<T>): Promise<JsonlResult<T>> {
  const acc = new LineAccumulator(label, validate);
  let lineNo = 0;
  const emit = (line: Buffer, terminated: boolean): void => {
    lineNo += 1;
    if (!isUtf8(line)) acc.warn(lineNo, INVALID_UTF8);
    acc.line(decodeLine(line, lineNo), lineNo, terminated);
  };
  const lines = new LineSplitter(emit);
  for await (const chunk of stream) lines.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  lines.end();
  return acc.result();
}

/**
 * Splits a byte stream on `\n` in linear time, however long a line is: each chunk
 * is searched once, from its own start, and the pieces of an unfinished line are kept as a list
 * and joined once when its `\n` arrives. (The former reader joined the unfinished line with each
 * new chunk and searched it again from byte 0: a 50 MB line took minutes.) Node's `readline`
 * is linear too but decodes first, so it cannot say which line held invalid UTF-8, and it also
 * ends a line at a lone `\r`; `split2` joins and re-splits the unfinished line per chunk.
 */
class LineSplitter {
  #pending: Buffer[] = [];
  constructor(private readonly emit: (line: Buffer, terminated: boolean) => void) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) break;
      const piece = chunk.subarray(start, end);
      if (this.#pending.length > 0) {
        this.#pending.push(piece);
        const line = Buffer.concat(this.#pending);
        this.#pending = [];
        this.emit(line, true);
      } else {
        this.emit(piece, true);
      }
      start = end + 1;
    }
    // A copy, so the caller's buffer (often a pooled stream chunk) may be reused.
    if (start < chunk.length) this.#pending.push(Buffer.from(chunk.subarray(start)));
  }

  end(): void {
    if (this.#pending.length === 0) return;
    const line = Buffer.concat(this.#pending);
    this.#pending = [];
    if (line.length > 0) this.emit(line, false);
  }
}

/**
 * {@link readJsonlStream} over a file.
 * @throws InputError naming the file when it cannot be opened or read.
 */
export async function readJsonlFile<T>(file: string, validate: LineValidator<T>): Promise<JsonlResult<T>> {
  try {
    return await readJsonlStream(createReadStream(file), file, validate);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(`cannot read JSONL file: ${errorMessage(err)}`, { file }, { cause: err });
  }
}

/** Timestamp given to an entry that has none: the Unix epoch, so loads stay deterministic. */
export const DEFAULT_TIMESTAMP = '1970-01-01T00:00:00.000Z';
/** Trust label given to an entry that has none. */
export const DEFAULT_TRUST = 'UNVERIFIED';
/** Store given to an entry that has none. */
export const DEFAULT_STORE: StoreName = 'reasoning';
/** Trace type given to an entry that has none. */
const DEFAULT_TRACE_TYPE = 'decision_log';
/**
 * Source given to an entry that has none. It is not one of the known sources, so a
 * provenance layer treats it as unknown (paper §IV-B: unknown taint 1.0).
 */
const DEFAULT_SOURCE = 'UNKNOWN';

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
  else return { ok: false, message: `field "id" must be a non-empty string, got ${describe(v.id)}${typeof v.content === 'string' ? '' : `; field "content" must be a string too, got ${describe(v.content)}${textFieldHint(v)}`}` };
  if (typeof v.content !== 'string') {
    return { ok: false, message: `field "content" must be a string, got ${describe(v.content)}${textFieldHint(v)}` };
  }
  let store: StoreName = DEFAULT_STORE;
  if (v.store !== undefined && v.store !== null) {
    if (!isStoreName(v.store)) {
      return { ok: false, message: `field "store" must be "reasoning" or "general", got ${describe(v.store)}${typeof v.store === 'string' ? didYouMean(v.store, STORE_NAMES) : ''}` };
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
  const warnings = unknownValueWarnings(v);
  return warnings.length > 0 ? { ok: true, value: entry, warnings } : { ok: true, value: entry };
}

/** Fields other tools name an entry's text by (chat messages, run logs, LangChain steps). */
const TEXT_FIELDS = ['text', 'message', 'thought', 'output', 'log', 'reflection', 'observation', 'value', 'body'] as const;

/** `(the text seems to be in "text": rename it "content")` when `v` has no string content but one of `TEXT_FIELDS` is a string. */
function textFieldHint(v: Record<string, unknown>): string {
  const f = TEXT_FIELDS.find((k) => typeof v[k] === 'string');
  return f === undefined ? '' : ` (the text seems to be in "${f}": rename that field "content")`;
}

/**
 * Warnings for open fields given a value outside the known ones (DESIGN.md, MemoryEntry): the
 * entry is still checked with the value as given, so a typo (`"trust":"VERIFED"`,
 * `"source":"agent"`, `"traceType":"reflexion"`) is named instead of silently changing what a
 * guard sees. Each names the field, the value, the known values and the closest one.
 */
function unknownValueWarnings(v: Record<string, unknown>): string[] {
  const out: string[] = [];
  const open: Array<[field: string, known: readonly string[], what: string, effect: string]> = [
    ['source', KNOWN_SOURCES, 'a known source', 'it counts as an unknown source (the least trusted kind for a guard that weighs provenance)'],
    ['trust', KNOWN_TRUST_LABELS, 'a known trust label', 'it is kept as given'],
    ['traceType', TRACE_TYPES, 'a known trace type', 'it is kept as given and is not a reasoning trace type'],
  ];
  for (const [field, known, what, effect] of open) {
    const value = v[field];
    if (typeof value !== 'string' || known.includes(value) || (field === 'source' && value === DEFAULT_SOURCE)) continue;
    out.push(`field "${field}" is ${JSON.stringify(excerpt(value))}, not ${what} (${known.join(', ')})${didYouMean(value, known)}; ${effect}`);
  }
  if (typeof v.timestamp === 'string' && !ISO_TIMESTAMP.test(v.timestamp)) {
    out.push(`field "timestamp" is ${JSON.stringify(excerpt(v.timestamp))}, not an ISO 8601 date-time (e.g. ${DEFAULT_TIMESTAMP}); it is kept as given, and entries are ordered by it as text`);
  }
  return out;
}

/** An ISO 8601 date-time (date, `T`, time, optional fraction, `Z` or an offset) that `Date.parse` accepts. */
const ISO_TIMESTAMP = { test: (s: string): boolean => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)) };

function describe(v: unknown): string {
  if (v === undefined) return 'nothing (missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `string ${JSON.stringify(excerpt(v))}`;
  return `${typeof v} ${excerpt(JSON.stringify(v) ?? String(v))}`;
}
