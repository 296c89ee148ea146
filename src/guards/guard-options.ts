/**
 * Options of the built-in guards as zod schemas, so `--guard-option key=value`
 * and `guardOptions` in `farma-fuzz.config.ts` can configure a guard without writing a module.
 * A wrong key or value is a UsageError that names the key and lists the valid ones.
 *
 * SENTINEL: `layers` and `config` are its options; any other top-level key is a field of
 * `SentinelConfig` and goes into `config`, so `tauGuard=0.25` means `config.tauGuard=0.25`.
 * Ranges that involve several fields (weights summing to 1) are checked by
 * `resolveSentinelConfig` when the guard is built.
 */
import { z } from 'zod';
import { RESERVED_OPTION_NAMES, reservedOptionPath } from '../domain/reserved-names.js';
import { UsageError } from '../domain/index.js';
import { didYouMean } from '../domain/suggest.js';
import { DEFAULT_SENTINEL_CONFIG, LAYER_IDS, SIGNAL_IDS } from './sentinel/index.js';
import type { BuiltinGuardId } from './registry.js';

const unit = z.number().min(0).max(1);
const strings = z.array(z.string());
const posInt = z.number().int().min(1);
const layerList = z.array(z.enum(LAYER_IDS));

/** Every field of `SentinelConfig`, each optional; unknown fields are rejected. */
export const SENTINEL_CONFIG_SCHEMA = z
  .object({
    weights: z.object(Object.fromEntries(SIGNAL_IDS.map((s) => [s, unit])) as Record<(typeof SIGNAL_IDS)[number], typeof unit>).partial().strict(),
    tauGuard: unit,
    s3Tiers: z.array(z.object({ minMatches: posInt, score: unit }).strict()),
    sourceTaint: z.record(z.string(), unit),
    unknownSourceTaint: unit,
    sourceLabel: z.record(z.string(), z.enum(['Trusted', 'External', 'Poisoned'])),
    tauTaint: unit,
    taintPropagation: z.object({ increment: unit, parentKeys: strings, depthKey: z.string(), parentTaintKey: z.string() }).partial().strict(),
    riskTransform: z.union([
      z.object({ kind: z.literal('power'), exponent: z.number().positive() }).strict(),
      z.object({ kind: z.literal('logistic'), steepness: z.number().positive(), midpoint: z.number() }).strict(),
    ]),
    tauRisk: unit,
    keywords: strings,
    maliciousPatterns: strings,
    precedentPatterns: strings,
    precedentCountStore: z.enum(['reasoning', 'general', 'all']),
    forgeryPhrases: strings,
    perfectionPhrases: strings,
    largePrecedentCount: posInt,
    internalClaimPatterns: strings,
    s1CountsReasoningTraceType: z.boolean(),
    openingPatterns: strings,
    reasoningOpeningPatterns: strings,
    reasoningTraceTypes: strings,
    openingWindow: posInt,
    openingPrefix: z.string(),
    countUnitKeyPattern: z.string(),
    scoreDecimals: z.number().int(),
    phaseLayers: z.object({ write: layerList, retrieve: layerList }).partial().strict(),
  })
  .partial()
  .strict();

/** Option schemas of the built-in guards (an id without a schema fails to compile). */
export const GUARD_OPTION_SCHEMAS = {
  sentinel: z.object({ layers: layerList, config: SENTINEL_CONFIG_SCHEMA }).partial().strict(),
  none: z.object({}).strict(),
  keyword: z.object({ keywords: strings, extraKeywords: strings }).partial().strict(),
  amemguard: z
    .object({
      k: posInt,
      eps: z.number().positive(),
      minSamples: posInt,
      lessonCapacity: z.number().int().min(0),
      store: z.enum(['reasoning', 'general']),
      emptyStore: z.enum(['decide', 'admit']),
      onJudgeError: z.enum(['reject', 'error']),
      recordLessons: z.boolean(),
    })
    .partial()
    .strict(),
} as const satisfies Record<BuiltinGuardId, z.ZodType>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parses `key=value` flags into a nested option object: the value is JSON when it parses as
 * JSON, else the text itself; a dotted key (`weights.s1=0.3`) sets a nested field. Later flags
 * win; `into` (e.g. `guardOptions` from the config file) is copied, never changed. With
 * `intoSource` (the config file's path) a bad value from `into` is later named as
 * `<file>: guardOptions.<key>` by `validateGuardOptions`, one from a flag as `--guard-option <key>=<value>`.
 * @throws UsageError for a flag without `=` or with an empty key or key part.
 * @example parseGuardOptionFlags(['tauGuard=0.25', 'layers=["L1-keyword"]']) // { tauGuard: 0.25, layers: ['L1-keyword'] }
 */
export function parseGuardOptionFlags(flags: readonly string[], into: Record<string, unknown> = {}, intoSource?: string): Record<string, unknown> {
  const out = structuredClone(into);
  // Where each option came from, so that a bad value is named where the user wrote it.
  const origins = new Map<string, string>();
  if (intoSource !== undefined) for (const key of flatKeys(into)) origins.set(key, intoSource);
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    if (eq <= 0) throw new UsageError(`--guard-option ${JSON.stringify(flag)}: expected key=value (e.g. tauGuard=0.25)`);
    const key = flag.slice(0, eq).trim();
    const raw = flag.slice(eq + 1);
    const parts = key.split('.');
    if (parts.some((p) => p === '')) throw new UsageError(`--guard-option ${JSON.stringify(flag)}: the key has an empty part`);
    const reservedPart = parts.find((p) => RESERVED_OPTION_NAMES.includes(p));
    if (reservedPart !== undefined) throw new UsageError(`--guard-option ${JSON.stringify(flag)}: "${reservedPart}" is not an option name (a reserved JavaScript property name)`);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    const reservedKey = reservedOptionPath(value, key);
    if (reservedKey !== undefined) throw new UsageError(`--guard-option ${JSON.stringify(flag)}: ${reservedKey}: "${reservedKey.split('.').pop() ?? ''}" is not an option name (a reserved JavaScript property name)`);
    let at: Record<string, unknown> = out;
    for (const p of parts.slice(0, -1)) {
      if (!Object.hasOwn(at, p) || !isPlainObject(at[p])) at[p] = {};
      at = at[p] as Record<string, unknown>;
    }
    at[parts[parts.length - 1] as string] = value;
    for (const k of [...origins.keys()]) if (k === key || k.startsWith(`${key}.`) || key.startsWith(`${k}.`)) origins.delete(k);
    origins.set(key, '--guard-option');
  }
  ORIGINS.set(out, origins);
  return out;
}

/** Origins recorded by `parseGuardOptionFlags`: dotted key → `--guard-option` or the config file's path. */
const ORIGINS = new WeakMap<object, Map<string, string>>();

/** Dotted keys of the leaves of an option object (`{ weights: { s1: 0.3 } }` → `weights.s1`). */
function flatKeys(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (isPlainObject(v) && Object.keys(v).length > 0 ? flatKeys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

/** A value as a user reads it in an error: `the string "high"`, `the number 2`, `an array [1,2]`. */
function describeValue(v: unknown): string {
  const json = (x: unknown): string => {
    const t = JSON.stringify(x) ?? String(x);
    return t.length > 80 ? `${t.slice(0, 77)}...` : t;
  };
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array ${json(v)}`;
  if (typeof v === 'string') return `the string ${json(v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `the ${typeof v} ${String(v)}`;
  if (typeof v === 'object') return `an object ${json(v)}`;
  return typeof v;
}

const ARTICLE: Readonly<Record<string, string>> = { array: 'an array', object: 'an object', int: 'an integer', number: 'a number', string: 'a string', boolean: 'a boolean' };

/** What a zod issue asked for, in words: `a number`, `a number at most 1`, `one of "x", "y"`. */
function describeExpected(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return ARTICLE[issue.expected] ?? `a value of type ${issue.expected}`;
    case 'too_big':
      return `${issue.origin === 'number' ? 'a number' : `${issue.origin} with`} ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}${issue.origin === 'number' ? '' : ' items'}`;
    case 'too_small':
      return `${issue.origin === 'number' ? 'a number' : `${issue.origin} with`} ${issue.inclusive ? 'at least' : 'greater than'} ${String(issue.minimum)}${issue.origin === 'number' ? '' : ' items'}`;
    case 'invalid_value':
      return issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return issue.message;
  }
}

/** The value at a path of an object, or undefined. */
function valueAt(o: unknown, path: readonly PropertyKey[]): unknown {
  let at = o;
  for (const p of path) at = at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[p] : undefined;
  return at;
}

/** SENTINEL's top-level config fields go into `config` (so `tauGuard=0.25` works as is). */
function normalise(id: BuiltinGuardId, options: Record<string, unknown>): Record<string, unknown> {
  if (id !== 'sentinel') return options;
  const out: Record<string, unknown> = {};
  let config: Record<string, unknown> | undefined = isPlainObject(options.config) ? { ...options.config } : undefined;
  for (const [k, v] of Object.entries(options)) {
    if (k === 'layers') out.layers = v;
    else if (k !== 'config') (config ??= {})[k] = v;
  }
  if (options.config !== undefined && !isPlainObject(options.config)) out.config = options.config;
  else if (config) out.config = config;
  return out;
}

/**
 * The options as the guard receives them (SENTINEL's top-level config fields moved into
 * `config`), so that `tauGuard=0.25` and `config.tauGuard=0.25` name the same configuration
 * (and the same corpus file). Options of a guard without a schema are returned as they are.
 * @example canonicalGuardOptions('sentinel', { tauGuard: 0.25 }) // { config: { tauGuard: 0.25 } }
 */
export function canonicalGuardOptions(id: string, options: Record<string, unknown>): Record<string, unknown> {
  return Object.hasOwn(GUARD_OPTION_SCHEMAS, id) ? normalise(id as BuiltinGuardId, options) : options;
}

/** The keys an object schema accepts at `path` (empty when the path is not an object). */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  // Optional fields wrap their schema: unwrap them to reach the object's shape.
  const unwrap = (x: unknown): unknown => {
    let y = x as { shape?: unknown; unwrap?: () => unknown };
    while (y && y.shape === undefined && typeof y.unwrap === 'function') y = y.unwrap() as typeof y;
    return y;
  };
  let s: unknown = unwrap(schema);
  for (const p of path) {
    const shape = (s as { shape?: Record<string, unknown> }).shape;
    if (!shape || typeof p !== 'string' || !(p in shape)) return [];
    s = unwrap(shape[p]);
  }
  const shape = (s as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * Checks and normalises the options of a built-in guard.
 * @returns the options to pass to `createGuard(id, options)`.
 * @throws UsageError naming the key and listing the valid keys (unknown key), or naming the
 *   key where it was given (the flag, or the config file and key), the bad value and what it
 *   must be (bad value), e.g. `--guard-option tauGuard="high": expected a number, got the string "high"`.
 * @example validateGuardOptions('sentinel', { tauGuard: 0.25 }) // { config: { tauGuard: 0.25 } }
 */
export function validateGuardOptions(id: BuiltinGuardId, options: Record<string, unknown>): Record<string, unknown> {
  const schema = GUARD_OPTION_SCHEMAS[id];
  const normal = normalise(id, options);
  const parsed = schema.safeParse(normal);
  if (parsed.success) return normal;
  const issue = parsed.error.issues[0];
  if (!issue) throw new UsageError(`--guard-option: invalid options for guard ${id}`);
  const path = issue.path.map(String);
  // SENTINEL config fields given at the top level are named as given (without `config.`).
  const shown = (p: string[]): string => (id === 'sentinel' && p[0] === 'config' && options.config === undefined ? p.slice(1) : p).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys: string[] }).keys;
    let valid = keysAt(schema, issue.path);
    if (id === 'sentinel' && path.length === 0) valid = ['layers', 'config', ...Object.keys(DEFAULT_SENTINEL_CONFIG)];
    if (id === 'sentinel' && path.length === 1 && path[0] === 'config') valid = options.config === undefined ? ['layers', 'config', ...Object.keys(DEFAULT_SENTINEL_CONFIG)] : Object.keys(DEFAULT_SENTINEL_CONFIG);
    const where = shown(path);
    const names = keys.map((k) => (where ? `${where}.${k}` : k));
    // Named where it was written: a config file's key as `<file>: guardOptions.<key>`, a flag as `--guard-option <key>`.
    const from = originOf(options, shown([...path, keys[0] ?? '']));
    const head = from && from.source !== '--guard-option' ? `${from.source}: ${names.map((n) => `guardOptions.${n}`).join(', ')}` : `--guard-option ${names.join(', ')}`;
    throw new UsageError(`${head}: unknown key for guard ${id}${keys.length === 1 ? didYouMean(keys[0]!, valid) : ''}; valid keys${where ? ` under ${where}` : ''}: ${valid.length > 0 ? valid.join(', ') : '(none)'}`);
  }
  // A bad value: name where it was written (the flag as given, or the config file and key), echo it, and say what was expected.
  const key = shown(path) || '(options)';
  const value = valueAt(normal, issue.path);
  const got = `expected ${describeExpected(issue)}, got ${describeValue(value)} (guard ${id})`;
  const origin = originOf(options, key);
  if (origin && origin.source !== '--guard-option') throw new UsageError(`${origin.source}: guardOptions.${key}: ${got}`);
  // A flag that set a whole list or object (`layers=["L9"]`) is echoed as given, then the part that is wrong.
  const flagKey = origin?.key ?? key;
  const flagValue = flagKey === key ? value : valueAt(options, flagKey.split('.'));
  const echo = `--guard-option ${flagKey}=${JSON.stringify(flagValue) ?? String(flagValue)}`;
  throw new UsageError(flagKey === key ? `${echo}: ${got}` : `${echo}: ${key}: ${got}`);
}

/** Where the option at dotted `key` was given: the flag or file that set it (or an enclosing key), and the key it set. */
function originOf(options: Record<string, unknown>, key: string): { source: string; key: string } | undefined {
  const origins = ORIGINS.get(options);
  if (!origins) return undefined;
  for (const [k, source] of origins) if (k === key || key.startsWith(`${k}.`) || k.startsWith(`${key}.`)) return { source, key: k };
  return undefined;
}

/**
 * The `--guard-option` flags that rebuild `options` (objects flattened to dotted keys, other
 * values as JSON), for the replay commands a report prints. Inverse of `parseGuardOptionFlags`.
 * @example guardOptionFlags({ config: { tauGuard: 0.25 } }) // ['config.tauGuard=0.25']
 */
export function guardOptionFlags(options: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(options).flatMap(([k, v]) => (isPlainObject(v) && Object.keys(v).length > 0 ? guardOptionFlags(v, `${prefix}${k}.`) : [`${prefix}${k}=${JSON.stringify(v)}`]));
}
