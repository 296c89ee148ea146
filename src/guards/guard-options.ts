/**
 * Options of the built-in guards as zod schemas (issue 10.6), so `--guard-option key=value`
 * and `guardOptions` in `farma-fuzz.config.ts` can configure a guard without writing a module.
 * A wrong key or value is a UsageError that names the key and lists the valid ones.
 *
 * SENTINEL: `layers` and `config` are its options; any other top-level key is a field of
 * `SentinelConfig` and goes into `config`, so `tauGuard=0.25` means `config.tauGuard=0.25`.
 * Ranges that involve several fields (weights summing to 1) are checked by
 * `resolveSentinelConfig` when the guard is built.
 */
import { z } from 'zod';
import { UsageError } from '../domain/index.js';
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
 * win; `into` (e.g. `guardOptions` from the config file) is copied, never changed.
 * @throws UsageError for a flag without `=` or with an empty key or key part.
 * @example parseGuardOptionFlags(['tauGuard=0.25', 'layers=["L1-keyword"]']) // { tauGuard: 0.25, layers: ['L1-keyword'] }
 */
export function parseGuardOptionFlags(flags: readonly string[], into: Record<string, unknown> = {}): Record<string, unknown> {
  const out = structuredClone(into);
  for (const flag of flags) {
    const eq = flag.indexOf('=');
    if (eq <= 0) throw new UsageError(`--guard-option ${JSON.stringify(flag)}: expected key=value (e.g. tauGuard=0.25)`);
    const key = flag.slice(0, eq).trim();
    const raw = flag.slice(eq + 1);
    const parts = key.split('.');
    if (parts.some((p) => p === '')) throw new UsageError(`--guard-option ${JSON.stringify(flag)}: the key has an empty part`);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    let at: Record<string, unknown> = out;
    for (const p of parts.slice(0, -1)) {
      if (!isPlainObject(at[p])) at[p] = {};
      at = at[p] as Record<string, unknown>;
    }
    at[parts[parts.length - 1] as string] = value;
  }
  return out;
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
 *   key and what it must be (bad value).
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
    throw new UsageError(`--guard-option ${names.join(', ')}: unknown key for guard ${id}; valid keys${where ? ` under ${where}` : ''}: ${valid.length > 0 ? valid.join(', ') : '(none)'}`);
  }
  throw new UsageError(`--guard-option ${shown(path) || '(options)'}: ${issue.message} (guard ${id})`);
}

/**
 * The `--guard-option` flags that rebuild `options` (objects flattened to dotted keys, other
 * values as JSON), for the replay commands a report prints. Inverse of `parseGuardOptionFlags`.
 * @example guardOptionFlags({ config: { tauGuard: 0.25 } }) // ['config.tauGuard=0.25']
 */
export function guardOptionFlags(options: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(options).flatMap(([k, v]) => (isPlainObject(v) && Object.keys(v).length > 0 ? guardOptionFlags(v, `${prefix}${k}.`) : [`${prefix}${k}=${JSON.stringify(v)}`]));
}
