/**
 * Content ids for corpus records: the same case always gets the same id, whatever the key
 * order or the machine (RFC 8785 canonical JSON via npm `canonicalize`).
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { InputError, errorMessage } from '../domain/index.js';

/** Length of a case id, in hex characters (64 bits of SHA-256). */
const CASE_ID_CHARS = 16;

/**
 * Makes a value acceptable to RFC 8785, which refuses lone UTF-16 surrogates and
 * non-finite numbers (both appear in fuzzed text): such a string becomes
 * `{"$utf16":[code units]}` and such a number `{"$number":"NaN"|"Infinity"|"-Infinity"}`.
 * Other values are unchanged; `undefined` at top level becomes `null`.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function encodable(value: unknown, seen = new Set<object>()): unknown {
  if (typeof value === 'string') {
    return !LONE_SURROGATE.test(value) ? value : { $utf16: Array.from({ length: value.length }, (_, i) => value.charCodeAt(i)) };
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : { $number: String(value) };
  if (value === undefined) return null;
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) throw new TypeError('circular reference');
  seen.add(value);
  let out: unknown;
  const json = (value as { toJSON?: unknown }).toJSON;
  if (Array.isArray(value)) out = value.map((v: unknown) => encodable(v, seen));
  else if (typeof json === 'function') out = encodable((json as () => unknown).call(value), seen);
  else {
    const obj: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
      obj[LONE_SURROGATE.test(k) ? JSON.stringify(k) : k] = encodable(v, seen);
    }
    out = obj;
  }
  seen.delete(value);
  return out;
}

/**
 * The id of a corpus case: the first 16 hex characters of SHA-256 over the canonical JSON
 * (RFC 8785) of `value`. Key order does not matter; `undefined` fields are ignored.
 *
 * @throws InputError when the value cannot be serialised (a cycle, a BigInt).
 * @example
 * caseId({ b: 1, a: 2 }) === caseId({ a: 2, b: 1 }); // true
 */
export function caseId(value: unknown): string {
  let text: string | undefined;
  try {
    text = canonicalize(encodable(value));
  } catch (err) {
    throw new InputError(`cannot compute a case id: ${errorMessage(err)}`, {}, { cause: err });
  }
  return createHash('sha256')
    .update(text ?? 'null', 'utf8')
    .digest('hex')
    .slice(0, CASE_ID_CHARS);
}
