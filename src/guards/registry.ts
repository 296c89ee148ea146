/**
 * The built-in guard registry: a typed object whose keys are the guard ids
 * (docs/STYLE.md §3). An id with no implementation fails to compile.
 */
import { GuardLoadError, UsageError, type Guard, type GuardFactory } from '../domain/index.js';
import { createKeywordFilter, createNoDefense, type KeywordFilterOptions } from './baselines/index.js';
import { createSentinel, LAYER_IDS, type LayerId, type SentinelConfig } from './sentinel/index.js';
import { amemguardFactory } from './amemguard/index.js';
import { markTrustedGuard } from '../domain/trusted-guard.js';

/** A built-in guard in `GUARDS`: a one-line description and its factory. */
export interface GuardEntry {
  /** One line for `farma-fuzz guards` listings. */
  description: string;
  create: GuardFactory;
}

function sentinelFromOptions(options: Record<string, unknown> = {}): Guard {
  const { config, layers } = options;
  if (config !== undefined && (typeof config !== 'object' || config === null || Array.isArray(config))) {
    throw new UsageError('sentinel option "config" must be an object');
  }
  if (layers !== undefined) {
    if (!Array.isArray(layers) || layers.some((l) => !(LAYER_IDS as readonly unknown[]).includes(l))) {
      throw new UsageError(`sentinel option "layers" must be a list of: ${LAYER_IDS.join(', ')}`);
    }
  }
  return createSentinel({
    ...(config !== undefined ? { config: config as Partial<SentinelConfig> } : {}),
    ...(layers !== undefined ? { layers: layers as LayerId[] } : {}),
  });
}

function keywordFromOptions(options: Record<string, unknown> = {}): Guard {
  const o: KeywordFilterOptions = {};
  for (const k of ['keywords', 'extraKeywords'] as const) {
    const v = options[k];
    if (v === undefined) continue;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new UsageError(`keyword option "${k}" must be a list of strings`);
    o[k] = v as string[];
  }
  return createKeywordFilter(o);
}

/** Built-in guards. */
export const GUARDS = {
  sentinel: {
    description: 'SENTINEL reconstructed (paper §IV): keyword, provenance, taint, pattern/risk layers and the Reasoning Guard',
    create: sentinelFromOptions,
  },
  none: {
    description: 'No defense: admits every entry (paper §V-D baseline)',
    create: () => createNoDefense(),
  },
  keyword: {
    description: 'KeywordFilter: blocklist of overt jailbreak and skip tokens (paper §V-D baseline)',
    create: keywordFromOptions,
  },
  amemguard: {
    description: 'A-MemGuard (heuristic mode): DBSCAN consensus over reasoning chains of the candidate and its top-k neighbours (TangciuYueng/AMemGuard)',
    create: amemguardFactory,
  },
} as const satisfies Record<string, GuardEntry>;

/** The id of a built-in guard (a key of `GUARDS`). */
export type BuiltinGuardId = keyof typeof GUARDS;

/** True when `id` names a built-in guard. */
export function isBuiltinGuardId(id: string): id is BuiltinGuardId {
  return Object.hasOwn(GUARDS, id);
}

/**
 * Builds a built-in guard by id.
 * @throws GuardLoadError for an unknown id; the message lists the known ids.
 * @throws UsageError for invalid options.
 * @example createGuard('sentinel', { layers: ['L5-reasoning-guard'] })
 */
export function createGuard(id: string, options?: Record<string, unknown>): Guard {
  if (!isBuiltinGuardId(id)) {
    throw new GuardLoadError(`unknown guard "${id}"; known guards: ${Object.keys(GUARDS).join(', ')}`, { code: 'usage' });
  }
  // Built-in guards are trusted in-process code: the engine skips the verdict schema for them.
  return markTrustedGuard(GUARDS[id].create(options));
}

/** The built-in guards, in registry order. */
export function listGuards(): { id: BuiltinGuardId; description: string }[] {
  return (Object.keys(GUARDS) as BuiltinGuardId[]).map((id) => ({ id, description: GUARDS[id].description }));
}
