/**
 * Memory entries: the unit a guard judges. Terms follow the paper, section II-A
 * (memory store vs reasoning store) and DESIGN.md ("Terms").
 */

/** The two parts of the persistent memory store (paper §II-A). */
export const STORE_NAMES = ['reasoning', 'general'] as const;
/** `reasoning` or `general`: the store an entry is written to. */
export type StoreName = (typeof STORE_NAMES)[number];

/** Declared sources that SENTINEL's provenance layer recognises (paper §IV-B). */
export const KNOWN_SOURCES = ['SYSTEM', 'AGENT', 'TOOL', 'EXTERNAL'] as const;
/** One of `KNOWN_SOURCES`. */
export type KnownSource = (typeof KNOWN_SOURCES)[number];
/** Any other string is allowed and counts as an unknown source. */
export type Source = KnownSource | (string & {});

/** Trust labels the generators and the bundled sets use; any other string is kept as given. */
export const KNOWN_TRUST_LABELS = ['VERIFIED', 'UNVERIFIED'] as const;

/** Trace types that belong to the reasoning store (paper §IV-F, `looks_like_reasoning`). */
export const REASONING_TRACE_TYPES = ['decision_log', 'thought_chain', 'reflection', 'rationale'] as const;
/** Trace types that belong to the general store (paper §II-A). */
export const GENERAL_TRACE_TYPES = ['observation', 'fact', 'experience', 'example', 'tool_output'] as const;
/** Every known trace type: the reasoning ones, then the general ones. */
export const TRACE_TYPES = [...REASONING_TRACE_TYPES, ...GENERAL_TRACE_TYPES] as const;
/** One of `TRACE_TYPES`. */
export type KnownTraceType = (typeof TRACE_TYPES)[number];
/** Other values are allowed (DESIGN.md). */
export type TraceType = KnownTraceType | (string & {});

/**
 * One memory entry.
 * - `id`: unique within a store.
 * - `store`: which part of the memory store it is written to.
 * - `content`: free text (may be JSON, bullets, Thought/Action lines, any language).
 * - `source`: declared provenance; `trust`: a label such as `VERIFIED` or `UNVERIFIED`.
 * - `timestamp`: ISO 8601 string (UTC).
 */
export interface MemoryEntry {
  id: string;
  store: StoreName;
  content: string;
  source: Source;
  trust: string;
  traceType: TraceType;
  timestamp: string;
  metadata?: Record<string, unknown>;
}

export function isReasoningTraceType(t: string): boolean {
  return (REASONING_TRACE_TYPES as readonly string[]).includes(t);
}

export function isStoreName(s: unknown): s is StoreName {
  return s === 'reasoning' || s === 'general';
}
