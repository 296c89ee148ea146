/**
 * The request body that out-of-process guards receive (HTTP and exec adapters).
 * Specified in `docs/guard-protocol.md`.
 */
import type { GuardContext, MemoryEntry, Phase } from '../../domain/index.js';
import { redactedHead } from '../../domain/secrets.js';

/**
 * One check request on the wire.
 * - `entry`: the candidate MemoryEntry, as JSON.
 * - `phase`: `write` (before commit) or `retrieve` (before the agent sees it).
 * - `store.size`: committed entry counts of the two stores; the store itself is not sent.
 */
export interface WireRequest {
  entry: MemoryEntry;
  phase: Phase;
  store: { size: { reasoning: number; general: number } };
}

/** Builds the wire request for one entry; reads only the store's two sizes. */
export function toWireRequest(entry: MemoryEntry, ctx: GuardContext): WireRequest {
  return {
    entry,
    phase: ctx.phase,
    store: { size: { reasoning: ctx.store.size('reasoning'), general: ctx.store.size('general') } },
  };
}

/**
 * Default number of requests in flight for the exec and HTTP adapters when the caller gives
 * none (the engine's default `--concurrency` for async guards).
 */
export const DEFAULT_ADAPTER_CONCURRENCY = 8;

/** Starts a wall-clock stopwatch; the returned function gives the elapsed time in µs. */
export function startStopwatch(): () => number {
  const t0 = process.hrtime.bigint();
  return () => Number(process.hrtime.bigint() - t0) / 1000;
}

/** Shortens an untrusted text (a body, a stdout line) for use in an error message; secrets are replaced before the cut. */
export function excerpt(text: string, max = 200): string {
  const flat = redactedHead(text, max).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`;
}
