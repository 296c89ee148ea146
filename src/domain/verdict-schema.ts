/**
 * The one schema (zod) for a guard's answer, used at every boundary where a verdict enters
 * the engine: the module, HTTP and exec adapters and the in-process evaluate path
 * (issue 14.4, 15.5). The evaluate path skips it only for the registry's own built-in guard
 * objects (`trusted-guard.ts`), whose verdicts are typed in-process values. Anything off-shape becomes an `error` verdict of kind `malformed`
 * whose message names the field, e.g. `trace[0]: expected an object, got null`.
 *
 * Shape (docs/guard-protocol.md, "Verdict"):
 * - `decision`: `admit | reject | error` (required);
 * - `layer`: string; `trace`: `{ layer, outcome: pass|reject|skip, value?, reasons? }[]`;
 * - `signals`: `{ [name]: finite number }`; `score`: finite number;
 * - `reasons`: string[]; `elapsedUs`: finite number ≥ 0 (µs);
 * - `error`: `{ kind?, message? }`, read when `decision` is `error`.
 * Missing `trace` and `reasons` are empty lists, a missing `elapsedUs` is 0. Unknown fields
 * are dropped. Numbers must be finite (no NaN, no ±Infinity).
 */
import { zod } from './zod-lazy.js';
import { DECISIONS, errorVerdict, type GuardErrorKind, type Verdict } from './verdict.js';

const ERROR_KINDS = ['threw', 'timeout', 'malformed', 'crashed', 'unavailable'] as const satisfies readonly GuardErrorKind[];

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
export function parseVerdict(value: unknown): { ok: true; verdict: Verdict } | { ok: false; message: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `verdict must be an object, got ${describeValue(value)}` };
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
        return `decision must be admit|reject|error, got ${describeValue(valueAt(value, i.path))}`;
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
  if (d.decision === 'error') {
    const kind = (ERROR_KINDS as readonly string[]).includes(d.error?.kind ?? '') ? (d.error?.kind as GuardErrorKind) : 'malformed';
    verdict.error = { kind, message: d.error?.message ?? 'guard reported an error' };
  } else if (d.error !== undefined) {
    delete verdict.error;
  }
  return { ok: true, verdict };
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
