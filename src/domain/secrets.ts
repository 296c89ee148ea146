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

/** Values registered by {@link registerSecret} (e.g. the password of a guard URL given on the command line). */
const registered = new Set<string>();

/**
 * Adds `value` to the secrets of this process: every later {@link secretValues} (and so every
 * redaction) hides it and its encodings. For secrets that come in by another channel than the
 * environment, such as a `--guard` URL's password. Blank values are ignored.
 */
export function registerSecret(value: string): void {
  const v = value.trim();
  if (v) registered.add(v);
}

/** An HTTP authorization value `<scheme> <token>`: the token, and for `Basic` the password it encodes. */
function schemeParts(value: string): string[] {
  const m = /^(?:Bearer|Basic|Token|Bot|ApiKey|Api-Key|Key|Digest|Negotiate)\s+(\S+)$/i.exec(value);
  if (!m) return [];
  const token = m[1] as string;
  const out = [token];
  if (/^basic\s/i.test(value)) {
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0 && colon < decoded.length - 1) out.push(decoded.slice(colon + 1));
  }
  return out;
}

/**
 * The values of `FARMA_GUARD_HEADERS` (a JSON object of header names to values, sent to an HTTP
 * guard): every one is a secret, whatever the header is called. Not JSON: nothing
 * (the CLI refuses such a value before any request).
 */
function guardHeaderValues(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (typeof parsed !== 'object' || parsed === null) return [];
  return Object.values(parsed).filter((v): v is string => typeof v === 'string');
}

/**
 * The secrets a guard spec carries: for an http(s) URL, the password of
 * `user:password@` (as given and decoded), the `user:password` pair, and the values of query
 * parameters with a secret-looking name (`?api_key=…`, `?token=…`) or value; for an `exec:`
 * command, the values of `NAME=value` and `--name=value` words with a secret-looking name.
 * Values shorter than 6 characters are left out (as for the environment). Pure; never throws.
 * @example guardSpecSecrets('http://u:pw123456@host/check') // ['pw123456', 'pw123456', 'u:pw123456']
 */
export function guardSpecSecrets(spec: string): string[] {
  const out: string[] = [];
  if (/^https?:\/\//i.test(spec)) {
    let url: URL;
    try {
      url = new URL(spec);
    } catch {
      return [];
    }
    if (url.password) {
      let pw = url.password;
      let user = url.username;
      try {
        pw = decodeURIComponent(pw);
        user = decodeURIComponent(user);
      } catch {
        // A malformed escape: keep the raw form.
      }
      out.push(pw, url.password, `${user}:${pw}`);
    }
    for (const [name, value] of url.searchParams) if (value && (SECRET_NAME_RE.test(name) || SECRET_VALUE_RE.test(value))) out.push(value);
  } else if (/^exec:/i.test(spec)) {
    for (const m of spec.matchAll(/(?:^|[\s:])(?:--?)?([A-Za-z_][\w-]*)=("[^"]*"|'[^']*'|\S+)/g)) {
      const value = (m[2] as string).replace(/^(["'])(.*)\1$/, '$2');
      if (value && SECRET_NAME_RE.test(m[1] as string)) out.push(value);
    }
  }
  return out.filter((v) => v.length >= MIN_REDACTED_LENGTH);
}

/**
 * The secret values to hide, longest first (so a secret containing another is replaced whole):
 * - `OPENAI_API_KEY` (any non-blank value);
 * - every variable whose name matches {@link SECRET_NAME_RE}, with a value of at least
 *   {@link MIN_REDACTED_LENGTH} characters;
 * - every value of `FARMA_GUARD_HEADERS` of at least that length, whatever the header is called;
 * - every value that looks like a credential ({@link SECRET_VALUE_RE}), whatever its name;
 * - the password of a URL with `user:password@` in any variable;
 * - the token of a `<scheme> <token>` value among these (`Bearer …`; for `Basic …` also the
 *   password it encodes);
 * - values given to {@link registerSecret} (a guard URL's password) and `extra` values (e.g. a
 *   key passed in code rather than through the environment).
 *
 * Encodings covered: each secret is also hidden where it appears, whole and on its
 * own, as its UTF-8 bytes in hex (lower or upper case), in base64 (padded or not), in base64url,
 * or URL-encoded (`encodeURIComponent`). Not covered: a secret encoded together with other text
 * (the base64 of `"key=" + secret` shifts the alphabet), other encodings (base32, ROT13,
 * reversed, split into parts, HTML entities, JSON `\u` escapes) and hashes of it.
 */
export function secretValues(env: Env = process.env, extra: readonly string[] = []): string[] {
  const out = new Set<string>();
  const add = (raw: string): void => {
    const v = raw.trim();
    if (!v || out.has(v)) return;
    out.add(v);
    const bytes = Buffer.from(v, 'utf8');
    const b64 = bytes.toString('base64');
    if (b64.length >= MIN_REDACTED_LENGTH) {
      out.add(b64.replace(/=+$/, ''));
      out.add(bytes.toString('base64url'));
    }
    const hex = bytes.toString('hex');
    out.add(hex);
    out.add(hex.toUpperCase());
    const url = encodeURIComponent(v);
    if (url !== v) out.add(url);
    for (const part of schemeParts(v)) if (part.length >= MIN_REDACTED_LENGTH) add(part);
  };
  for (const [name, value] of Object.entries(env)) {
    const v = value?.trim();
    if (!v) continue;
    if (name === 'OPENAI_API_KEY' || (v.length >= MIN_REDACTED_LENGTH && (SECRET_NAME_RE.test(name) || SECRET_VALUE_RE.test(v)))) add(v);
    const pw = URL_PASSWORD_RE.exec(v)?.[1];
    if (pw !== undefined && pw.length >= MIN_REDACTED_LENGTH) add(pw);
  }
  for (const v of guardHeaderValues(env['FARMA_GUARD_HEADERS'])) if (v.trim().length >= MIN_REDACTED_LENGTH) add(v);
  for (const v of registered) add(v);
  for (const v of extra) add(v);
  return [...out].sort((a, b) => b.length - a.length);
}

/** Shortest start of a secret that is hidden when a cut ends the text, or a `…`, `...` or `*` mask follows it. */
const MIN_CUT_PREFIX = 10;

/**
 * `text` with every whole secret replaced, then every start of a secret (at least
 * {@link MIN_CUT_PREFIX} characters) that a cut left at the end of the text or right before a
 * `…` (a text cut before it is redacted keeps the key's first characters), or that a
 * server masked as `<start>...` or `<start>****` (an LLM's "Incorrect API key provided" message).
 */
function replaceAll(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  if (out.length < MIN_CUT_PREFIX) return out;
  for (const secret of secrets) {
    if (secret.length <= MIN_CUT_PREFIX) continue;
    const head = secret.slice(0, MIN_CUT_PREFIX);
    let at = out.indexOf(head);
    while (at >= 0) {
      let n = MIN_CUT_PREFIX;
      while (n < secret.length && at + n < out.length && out[at + n] === secret[n]) n += 1;
      const end = at + n;
      if (end === out.length || out[end] === '…' || out[end] === '*' || out.startsWith('...', end)) {
        out = `${out.slice(0, at)}${REDACTED}${out.slice(end)}`;
        at = out.indexOf(head, at + REDACTED.length);
      } else {
        at = out.indexOf(head, at + 1);
      }
    }
  }
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
 * The start of `text` that an excerpt of at most `max` characters is cut from, with every secret
 * already replaced (see {@link redactSecrets}): redact first, then cut, so a key that straddles
 * the cut keeps none of its characters. Only the first `max` + 1024 characters
 * are looked at, so a 50 MB line costs no more than a short one.
 * @example redactedHead(line, 60).slice(0, 60)
 */
export function redactedHead(text: string, max: number): string {
  return redactSecrets(text.length > max + 1024 ? text.slice(0, max + 1024) : text);
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
