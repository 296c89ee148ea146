/**
 * The one schema (zod) for a guard's answer, used at every boundary where a verdict enters
 * the engine: the module, HTTP and exec adapters and the in-process evaluate path
 *. The evaluate path skips it only for the registry's own built-in guard
 * objects (`trusted-guard.ts`), whose verdicts are typed in-process values. Anything off-shape becomes an `error` verdict of kind `malformed`
 * whose message names the field, e.g. `trace[0]: expected an object, got null`.
 *
 * Shape (docs/guard-protocol.md, "Verdict"):
 * - `decision`: `admit | reject | error` (required);
 * - `layer`: string; `trace`: `{ layer, outcome: pass|reject|skip, value?, reasons? }[]`;
 * - `signals`: `{ [name]: finite number }`; `score`: finite number;
 * - `reasons`: string[]; `elapsedUs`: finite number ≥ 0 (µs);
 * - `error`: `{ kind?, message? }`, read when `decision` is `error`; beside `admit` or
 *   `reject` a kind or message makes the answer an `error` verdict (the guard failed open or
 *   closed: it did not judge the entry).
 * Missing `trace` and `reasons` are empty lists, a missing `elapsedUs` is 0. Unknown fields
 * are dropped. Numbers must be finite (no NaN, no ±Infinity).
 */
import { zod } from './zod-lazy.js';
import { DECISIONS, errorVerdict, type GuardErrorKind, type Verdict } from './verdict.js';
import { redactSecrets } from './secrets.js';
import { didYouMean } from './suggest.js';

const ERROR_KINDS = ['threw', 'timeout', 'malformed', 'crashed', 'unavailable'] as const satisfies readonly GuardErrorKind[];

/** A guard-reported error kind kept when it is one of {@link ERROR_KINDS}, else `malformed`. */
function knownErrorKind(kind: string | undefined): GuardErrorKind {
  return (ERROR_KINDS as readonly string[]).includes(kind ?? '') ? (kind as GuardErrorKind) : 'malformed';
}

function buildVerdictSchema() {
  const z = zod();
  // zod 4 numbers refuse NaN and ±Infinity.
  const finite = z.number();

  const LayerResultSchema = z.object({
    layer: z.string(),
    outcome: z.enum(['pass', 'reject', 'skip']),
    value: finite.optional(),
    reasons: z.array(z.string()).default([]),
  });

  return z.object({
    decision: z.enum(DECISIONS),
    layer: z.string().optional(),
    trace: z.array(LayerResultSchema).default([]),
    signals: z.record(z.string(), finite).optional(),
    score: finite.optional(),
    reasons: z.array(z.string()).default([]),
    elapsedUs: finite.refine((x) => x >= 0, { message: 'must be ≥ 0' }).default(0),
    error: z.object({ kind: z.string().optional(), message: z.string().optional() }).optional(),
  });

}

let verdictSchema: ReturnType<typeof buildVerdictSchema> | undefined;

/** The zod schema of an untrusted verdict (see the module comment for the shape), built on first use. */
export function getVerdictSchema(): ReturnType<typeof buildVerdictSchema> {
  return (verdictSchema ??= buildVerdictSchema());
}

/** Longest part of a bad value quoted in a message, in characters. */
const QUOTE_CHARS = 60;

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isNaN(v) ? 'NaN' : String(v);
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > QUOTE_CHARS ? `${v.slice(0, QUOTE_CHARS)}…` : v)}`;
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

function pathText(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out === '' ? '' : '.'}${String(p)}`;
  return out === '' ? 'verdict' : out;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = root;
  for (const p of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

/**
 * Validates an untrusted verdict-shaped value with {@link VerdictSchema}. Never throws.
 * @returns the verdict (a fresh object: defaults filled in, unknown fields dropped, own keys
 *   only), or a message naming at most three problems with their paths.
 * @example
 * parseVerdict({ decision: 'admit', trace: [null] });
 * // { ok: false, message: 'trace[0]: expected an object, got null' }
 */
export function parseVerdict(raw: unknown): { ok: true; verdict: Verdict } | { ok: false; message: string } {
  let value: unknown;
  try {
    const shaped = interpretVerdictShape(raw);
    if ('message' in shaped) return { ok: false, message: shaped.message };
    value = shaped.value;
  } catch (e) {
    // A getter that throws, a Proxy: the value is not plain data.
    return { ok: false, message: `verdict could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
  let parsed: ReturnType<ReturnType<typeof getVerdictSchema>['safeParse']>;
  try {
    parsed = getVerdictSchema().safeParse(value);
  } catch (e) {
    // A getter that throws, a Proxy: the value is not plain data.
    return { ok: false, message: `verdict could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!parsed.success) {
    const issues = parsed.error.issues;
    const parts = issues.slice(0, 3).map((i) => {
      const at = pathText(i.path);
      if (i.code === 'invalid_value' && i.path.length === 1 && i.path[0] === 'decision') {
        const got = valueAt(value, i.path);
        // A typo of a decision ("rejcet") is named, so it is not read as a weak guard.
        const near = typeof got === 'string' ? didYouMean(got.toLowerCase(), [...DECISIONS, ...Object.keys(DECISION_ALIASES)]) : '';
        return `decision must be admit|reject|error, got ${describeValue(got)}${near} (also read: ${Object.keys(DECISION_ALIASES).join(', ')}; any case)`;
      }
      const bad = valueAt(value, i.path);
      const got = describeValue(bad);
      const what = i.code !== 'invalid_type' ? i.message : i.expected === 'number' && typeof bad === 'number' ? 'expected a finite number' : `expected ${article(i.expected)}`;
      return `${at}: ${what}, got ${got}`;
    });
    return { ok: false, message: `${parts.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}` };
  }
  // zod's output is a fresh object: defaults filled in, unknown keys dropped, absent optional keys absent.
  const d = parsed.data;
  const verdict = d as Verdict & { error?: { kind?: string; message?: string } };
  if (d.signals !== undefined && Object.getPrototypeOf(d.signals) !== Object.prototype) verdict.signals = Object.fromEntries(Object.entries(d.signals));
  // zod's record drops a `__proto__` key: a signal of that name is checked and kept here.
  const rawSignals = (value as { signals?: unknown }).signals;
  if (d.signals !== undefined && typeof rawSignals === 'object' && rawSignals !== null && Object.hasOwn(rawSignals, '__proto__')) {
    const own = Object.getOwnPropertyDescriptor(rawSignals, '__proto__')?.value as unknown;
    if (typeof own !== 'number' || !Number.isFinite(own)) return { ok: false, message: `signals.__proto__: expected a finite number, got ${describeValue(own)}` };
    const kept = d.signals;
    verdict.signals = Object.fromEntries(Object.keys(rawSignals).flatMap((k) => (k === '__proto__' ? [[k, own]] : Object.hasOwn(kept, k) ? [[k, kept[k]!]] : [])));
  }
  if (d.decision === 'error') {
    verdict.error = { kind: knownErrorKind(d.error?.kind), message: d.error?.message ?? 'guard reported an error' };
  } else if (d.error !== undefined && (d.error.kind !== undefined || d.error.message !== undefined)) {
    // A decision that comes with an error is a guard failing open (admit) or closed (reject):
    // it did not judge the entry, so it is an error, never an admission or a rejection.
    const kind = knownErrorKind(d.error.kind);
    const said = [d.error.kind, d.error.message].filter((x) => x !== undefined && x !== '').join(': ');
    const how = d.decision === 'admit' ? 'failing open' : 'failing closed';
    const message = `guard answered decision "${d.decision}" together with an error (${said || 'no message'}): a decision that carries an error is the guard ${how}, not a judgement, so it counts as an error`;
    verdict.decision = 'error';
    verdict.error = { kind, message };
    verdict.reasons = [message, ...d.reasons];
  } else if (d.error !== undefined) {
    delete verdict.error;
  }
  boundVerdict(verdict);
  return { ok: true, verdict };
}

/**
 * Most of each part of a guard's answer that is kept: every verdict is copied into the report,
 * the console and, for a counterexample, the git-tracked regression corpus, so a guard that
 * answers megabytes of reasons must not grow them without bound. What is cut is said in the
 * verdict itself (docs/guard-protocol.md, "Verdict").
 */
export const VERDICT_BOUNDS = { reasons: 32, reasonChars: 1000, signals: 64, trace: 64, nameChars: 200, errorChars: 4000 } as const;

/**
 * `text` cut to at most `max` characters, the cut said at its end; a text already cut stays as
 * it is. Secrets (`redactSecrets`) are replaced before the cut, never after: a key that straddles
 * the cut would otherwise keep its first characters, which no later redaction recognises.
 */
function cut(raw: string, max: number): string {
  if (raw.length <= max) return raw;
  const text = redactSecrets(raw);
  if (text.length <= max) return text;
  const note = `… [cut: ${text.length} characters]`;
  return `${text.slice(0, Math.max(0, max - note.length))}${note}`;
}

/** `list` with at most `max` items, the last one saying how many more there were. */
function capList(list: string[], max: number, what: string): string[] {
  return list.length <= max ? list : [...list.slice(0, max - 1), `… and ${list.length - max + 1} more ${what} (farma-fuzz keeps ${max - 1})`];
}

/** Applies {@link VERDICT_BOUNDS} in place, saying every cut in `reasons`; applying it twice changes nothing more. */
function boundVerdict(v: Verdict): void {
  const b = VERDICT_BOUNDS;
  const notes: string[] = [];
  if (v.layer !== undefined && v.layer.length > b.nameChars) v.layer = cut(v.layer, b.nameChars);
  if (v.signals !== undefined) {
    const entries = Object.entries(v.signals);
    if (entries.length > b.signals || entries.some(([k]) => k.length > b.nameChars)) {
      if (entries.length > b.signals) notes.push(`… and ${entries.length - b.signals} more signals (farma-fuzz keeps the first ${b.signals})`);
      v.signals = Object.fromEntries(entries.slice(0, b.signals).map(([k, x]) => [cut(k, b.nameChars), x]));
    }
  }
  if (v.trace.length > b.trace) {
    notes.push(`… and ${v.trace.length - b.trace} more trace items (farma-fuzz keeps ${b.trace})`);
    v.trace = v.trace.slice(0, b.trace);
  }
  for (const t of v.trace) {
    if (t.layer.length > b.nameChars) t.layer = cut(t.layer, b.nameChars);
    t.reasons = capList(t.reasons, b.reasons, 'reasons');
    if (t.reasons.some((r) => r.length > b.reasonChars)) t.reasons = t.reasons.map((r) => cut(r, b.reasonChars));
  }
  if (v.error !== undefined && v.error.message.length > b.errorChars) v.error = { ...v.error, message: cut(v.error.message, b.errorChars) };
  // The notes count against the reasons' own bound, so a second pass finds nothing to cut.
  let reasons = [...capList(v.reasons, b.reasons - notes.length, 'reasons'), ...notes];
  if (reasons.some((r) => r.length > b.reasonChars)) reasons = reasons.map((r) => cut(r, b.reasonChars));
  if (reasons.length !== v.reasons.length || reasons.some((r, i) => r !== v.reasons[i])) v.reasons = reasons;
}

/**
 * Decision words read as `admit` or `reject`, besides the canonical ones (any case, trimmed).
 * Third-party guards answer in their own vocabulary; these have one meaning only.
 */
const DECISION_ALIASES: Readonly<Record<string, 'admit' | 'reject'>> = {
  allow: 'admit', allowed: 'admit', accept: 'admit', accepted: 'admit', admitted: 'admit', pass: 'admit', passed: 'admit', safe: 'admit', benign: 'admit',
  block: 'reject', blocked: 'reject', deny: 'reject', denied: 'reject', refuse: 'reject', refused: 'reject', rejected: 'reject', flag: 'reject', flagged: 'reject', unsafe: 'reject', malicious: 'reject',
};

/**
 * Boolean fields that stand for a decision when `decision` is absent, by their normalised name
 * (lower case, `_` and a leading `is` removed: `is_safe`, `isSafe` and `safe` are one): `true`
 * on an admit-field means admit, `true` on a reject-field means reject.
 */
const BOOLEAN_DECISION_FIELDS: Readonly<Record<string, 'admit' | 'reject'>> = {
  allowed: 'admit', allow: 'admit', admitted: 'admit', admit: 'admit', safe: 'admit', accepted: 'admit',
  blocked: 'reject', block: 'reject', rejected: 'reject', reject: 'reject', flagged: 'reject', unsafe: 'reject', malicious: 'reject', denied: 'reject',
};

/** Optional top-level fields where `null` (Python's `None`) means "absent". */
const NULLABLE_FIELDS = ['layer', 'trace', 'signals', 'score', 'reasons', 'elapsedUs', 'error'] as const;

function normalisedFieldName(key: string): string {
  const k = key.toLowerCase().replace(/[_\-\s]/g, '');
  return k.startsWith('is') && k.length > 2 ? k.slice(2) : k;
}

/** The decision a boolean field such as `blocked: true` stands for, or undefined when `key: value` is not one. */
function booleanFieldDecision(key: string, value: unknown): 'admit' | 'reject' | undefined {
  const polarity = BOOLEAN_DECISION_FIELDS[normalisedFieldName(key)];
  if (polarity === undefined || typeof value !== 'boolean') return undefined;
  return value ? polarity : polarity === 'admit' ? 'reject' : 'admit';
}

function decisionWord(word: string): string {
  const w = word.trim().toLowerCase();
  return DECISION_ALIASES[w] ?? w;
}

/**
 * Reads the answer shapes third-party guards commonly give into the canonical Verdict shape,
 * before the schema checks it (docs/guard-protocol.md, "Answers read besides the canonical shape"):
 * a decision word in any case or one of {@link DECISION_ALIASES}; a bare decision string; a
 * boolean decision field such as `allowed` or `blocked` when `decision` is absent; a Verdict
 * wrapped as `{ verdict: {...} }` or `{ result: {...} }`; `null` for an optional field; `reasons` as one string;
 * `reason` (one string) when `reasons` is absent; boolean signals (1 or 0).
 * Ambiguous answers get a message saying what to return instead: a bare boolean, a boolean
 * `decision`, a score without a decision (farma-fuzz never picks a threshold for a guard).
 */
function interpretVerdictShape(raw: unknown): { value: unknown } | { message: string } {
  if (raw === undefined) return { message: 'verdict must be an object, got nothing (undefined: does check() return its verdict on every path?)' };
  if (typeof raw === 'boolean') {
    return { message: `verdict must be an object, got the boolean ${raw}: a bare boolean is ambiguous (true = allowed, or true = flagged?); return { decision: "admit" } or { decision: "reject" }, or { allowed: ${raw} } if ${raw} means allowed` };
  }
  if (typeof raw === 'string') {
    const d = decisionWord(raw);
    return (DECISIONS as readonly string[]).includes(d) ? { value: { decision: d } } : { message: `verdict must be an object, got ${describeValue(raw)}` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { message: `verdict must be an object, got ${describeValue(raw)}` };
  let v = raw as Record<string, unknown>;
  // `{ verdict: {...} }`, or JSON-RPC's `{ result: {...} }`, with no decision beside it.
  for (const wrapper of ['verdict', 'result'] as const) {
    const inner = v[wrapper];
    if (v.decision === undefined && typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
      v = inner as Record<string, unknown>;
      break;
    }
  }
  const out: Record<string, unknown> = { ...v };
  for (const k of NULLABLE_FIELDS) if (out[k] === null) delete out[k];
  // `error: false` or `error: ""` beside a decision: no error.
  if (out.error === false || out.error === '') delete out.error;
  if (typeof out.decision === 'string') {
    out.decision = decisionWord(out.decision);
    // `{ decision: "admit", blocked: true }`: a boolean decision field that says the opposite.
    if (out.decision === 'admit' || out.decision === 'reject') {
      const against = Object.entries(out).filter(([k, x]) => { const d = booleanFieldDecision(k, x); return d !== undefined && d !== out.decision; });
      if (against.length > 0) return { message: `decision "${String(out.decision)}" and the boolean field${against.length > 1 ? 's' : ''} ${against.map(([k, x]) => `${k}: ${String(x)}`).join(', ')} disagree; answer one decision` };
    }
  } else if (typeof out.decision === 'boolean') {
    return { message: `decision must be admit|reject|error, got the boolean ${out.decision}: a boolean decision is ambiguous; answer "admit" or "reject"` };
  } else if (out.decision === undefined || out.decision === null) {
    const found: Array<[string, 'admit' | 'reject']> = [];
    for (const [k, x] of Object.entries(out)) {
      const d = booleanFieldDecision(k, x);
      if (d !== undefined) found.push([k, d]);
    }
    const decisions = new Set(found.map(([, d]) => d));
    if (decisions.size > 1) return { message: `decision is missing and the boolean fields disagree (${found.map(([k]) => `${k}: ${String(out[k])}`).join(', ')}); answer decision "admit" or "reject"` };
    if (found.length > 0) out.decision = found[0]?.[1];
    else {
      const keys = Object.keys(out);
      const scoreNote = typeof out.score === 'number' ? ` It has a score (${out.score}) but farma-fuzz never picks a threshold for a guard: answer decision "reject" when the score is over your tau_guard, else "admit".` : '';
      return { message: `decision must be admit|reject|error (or a boolean field such as allowed or blocked), got nothing (fields: ${keys.length ? keys.join(', ') : 'none'})${scoreNote ? `.${scoreNote}` : ''}` };
    }
  }
  if (typeof out.reasons === 'string') out.reasons = [out.reasons];
  else if (out.reasons === undefined && typeof out.reason === 'string') out.reasons = [out.reason];
  if (out.elapsedUs === undefined && typeof out.elapsed_us === 'number') out.elapsedUs = out.elapsed_us;
  if (typeof out.signals === 'object' && out.signals !== null && !Array.isArray(out.signals)) {
    const sig = out.signals as Record<string, unknown>;
    if (Object.values(sig).some((x) => typeof x === 'boolean' || x === null)) {
      const fixed: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(sig)) if (x !== null) fixed[k] = typeof x === 'boolean' ? (x ? 1 : 0) : x;
      out.signals = fixed;
    }
  }
  if (Array.isArray(out.trace)) {
    out.trace = out.trace.map((t: unknown) => {
      if (typeof t !== 'object' || t === null) return t;
      const item = { ...(t as Record<string, unknown>) };
      if (item.value === null) delete item.value;
      if (item.reasons === null) delete item.reasons;
      else if (typeof item.reasons === 'string') item.reasons = [item.reasons];
      return item;
    });
  }
  return { value: out };
}

function article(expected: unknown): string {
  const e = String(expected);
  return /^[aeiou]/.test(e) ? `an ${e}` : `a ${e}`;
}

/**
 * The engine's boundary check for any answer a guard gave: the parsed verdict, or an `error`
 * verdict of kind `malformed` naming what is wrong. `prefix` names the source (e.g. `guard my-guard`).
 */
export function checkedVerdict(value: unknown, prefix = 'guard'): Verdict {
  const parsed = parseVerdict(value);
  return parsed.ok ? parsed.verdict : errorVerdict('malformed', `${prefix} returned a malformed verdict: ${parsed.message}`);
}
