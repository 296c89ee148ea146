/**
 * Secret redaction for everything a guard or an LLM says that leaves the process: console
 * lines, reports (md, json, html, JUnit), corpora, fixtures, stored verdicts and error
 * messages. A guard is untrusted code that runs with the user's environment,
 * so any text it returns may quote an API key: values, object keys (signal and layer names),
 * reasons, error messages and stderr excerpts alike.
 */

/** An environment: variable name → value (e.g. `process.env`). */
export type Env = Readonly<Record<string, string | undefined>>;

/** Variable names whose values are treated as secrets. */
const SECRET_NAME_RE = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|BEARER|PRIVATE|SESSION|COOKIE|SIGNATURE|\bDSN\b|_DSN|CONN(ECTION)?_?STR/i;

/**
 * Values that look like credentials whatever the variable is called: provider key prefixes
 * (OpenAI `sk-`, GitHub `ghp_`/`gho_`/`ghs_`/`github_pat_`, Slack `xox?-`, AWS `AKIA`, Google
 * `AIza`, GitLab `glpat-`, Hugging Face `hf_`, Anthropic `sk-ant-`) and JWTs.
 */
const SECRET_VALUE_RE = /^(?:sk-[\w-]{8,}|gh[pousr]_[A-Za-z0-9]{16,}|github_pat_\w{16,}|xox[abposr]-[\w-]{8,}|AKIA[0-9A-Z]{16}|AIza[\w-]{20,}|glpat-[\w-]{16,}|hf_[A-Za-z0-9]{16,}|eyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,})$/;

/**
 * Shortest value of a secret-named variable (other than `OPENAI_API_KEY`) that gets redacted.
 * Shorter values (`1`, `true`, `off`) are flags, and blanking them everywhere would wreck text.
 */
const MIN_REDACTED_LENGTH = 6;

export const REDACTED = '[redacted]';

/** `user:password@` inside a URL value (e.g. `DATABASE_URL=postgres://u:pw@host/db`). */
const URL_PASSWORD_RE = /^[a-z][\w+.-]*:\/\/[^:/@\s]*:([^@/\s]+)@/i;

/**
 * The secret values to hide, longest first (so a secret containing another is replaced whole):
 * - `OPENAI_API_KEY` (any non-blank value);
 * - every variable whose name matches {@link SECRET_NAME_RE}, with a value of at least
 *   {@link MIN_REDACTED_LENGTH} characters;
 * - every value that looks like a credential ({@link SECRET_VALUE_RE}), whatever its name;
 * - the password of a URL with `user:password@` in any variable;
 * - `extra` values (e.g. a key passed in code rather than through the environment).
 * Each secret is also hidden in its base64 and URL-encoded forms, which an echoing guard may use.
 */
export function secretValues(env: Env = process.env, extra: readonly string[] = []): string[] {
  const out = new Set<string>();
  const add = (v: string): void => {
    out.add(v);
    const b64 = Buffer.from(v, 'utf8').toString('base64');
    if (b64.length >= MIN_REDACTED_LENGTH) out.add(b64.replace(/=+$/, ''));
    const url = encodeURIComponent(v);
    if (url !== v) out.add(url);
  };
  for (const [name, value] of Object.entries(env)) {
    const v = value?.trim();
    if (!v) continue;
    if (name === 'OPENAI_API_KEY' || (v.length >= MIN_REDACTED_LENGTH && (SECRET_NAME_RE.test(name) || SECRET_VALUE_RE.test(v)))) add(v);
    const pw = URL_PASSWORD_RE.exec(v)?.[1];
    if (pw !== undefined && pw.length >= MIN_REDACTED_LENGTH) add(pw);
  }
  for (const v of extra) if (v.trim()) add(v.trim());
  return [...out].sort((a, b) => b.length - a.length);
}

function replaceAll(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * Replaces every secret value (see {@link secretValues}) occurring in `text` with `[redacted]`.
 * Plain substring replacement; never throws.
 * @example
 * redactSecrets('auth failed for sk-abc123', { OPENAI_API_KEY: 'sk-abc123' }) // 'auth failed for [redacted]'
 */
export function redactSecrets(text: string, env: Env = process.env, extra: readonly string[] = []): string {
  return replaceAll(text, secretValues(env, extra));
}

/**
 * A copy of `value` with every secret replaced in every string: array items, object values
 * and object **keys** (signal names, layer names, error kinds). Two keys that become equal are
 * kept apart as `[redacted]`, `[redacted]#2`, ... Non-plain objects other than arrays (Dates,
 * Maps) are returned as they are. Returns `value` itself when there is no secret to hide.
 * @example
 * redactDeep({ signals: { 'sk-abc123': 1 } }, { OPENAI_API_KEY: 'sk-abc123' }) // { signals: { '[redacted]': 1 } }
 */
export function redactDeep<T>(value: T, env: Env = process.env, extra: readonly string[] = []): T {
  const secrets = secretValues(env, extra);
  if (secrets.length === 0) return value;
  return redactWith(value, secrets);
}

/** {@link redactDeep} with a secret list computed once (see {@link secretValues}). */
export function redactWith<T>(value: T, secrets: readonly string[]): T {
  const seen = new WeakMap<object, unknown>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return replaceAll(v, secrets);
    if (typeof v !== 'object' || v === null) return v;
    const done = seen.get(v);
    if (done !== undefined) return done;
    if (Array.isArray(v)) {
      const arr: unknown[] = [];
      seen.set(v, arr);
      for (const x of v) arr.push(walk(x));
      return arr;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return v;
    const obj: Record<string, unknown> = {};
    seen.set(v, obj);
    for (const [k, x] of Object.entries(v)) {
      let key = replaceAll(k, secrets);
      if (key !== k) for (let i = 2; Object.hasOwn(obj, key); i++) key = `${replaceAll(k, secrets)}#${i}`;
      Object.defineProperty(obj, key, { value: walk(x), enumerable: true, writable: true, configurable: true });
    }
    return obj;
  };
  return walk(value) as T;
}
