/**
 * One agent step over the SQLite memory store: retrieve the bm25 top-k for the task's query
 * through the defense's retrieve path, then let the planner pick an action (paper §V-A/B).
 */
import type { MemoryEntry } from '../domain/index.js';
import type { MemoryStore } from '../memory/index.js';
import type { AgentTask } from './agent-task.js';
import type { PlanDecision } from './surrogate-planner.js';

/** What reached the agent after the defense's retrieve path, and how many top-k entries it dropped. */
interface RetrievedContext {
  entries: MemoryEntry[];
  dropped: number;
}

/** A defense's retrieve path: bm25 top-k from `store`, then whatever filtering the defense does. */
export type RetrieveFn = (store: MemoryStore, query: string, k: number) => RetrievedContext | Promise<RetrievedContext>;

/** Chooses an action from the task and the retrieved entries (best first). */
export interface Planner {
  readonly id: 'surrogate' | 'llm';
  plan(task: AgentTask, retrieved: readonly MemoryEntry[]): PlanDecision | Promise<PlanDecision>;
}

/** Retrieval with no defense: the plain bm25 top-k over both store parts. */
export const plainRetrieve: RetrieveFn = (store, query, k) => ({ entries: store.search(query, k), dropped: 0 });

export interface AgentRun {
  decision: PlanDecision;
  /** Ids of the entries the planner saw, best first. */
  seen: string[];
  /** Top-k entries the defense kept from the planner. */
  dropped: number;
}

/**
 * Runs one agent step. `k` is the retrieval depth (top-k, ≥ 1).
 * @throws StoreError from the store; planner errors are the planner's to report as data.
 * @example const run = await runAgent(store, task, { k: 5, retrieve: plainRetrieve, planner });
 */
export async function runAgent(store: MemoryStore, task: AgentTask, options: { k: number; retrieve: RetrieveFn; planner: Planner }): Promise<AgentRun> {
  const ctx = await options.retrieve(store, task.query, options.k);
  const decision = await options.planner.plan(task, ctx.entries);
  return { decision, seen: ctx.entries.map((e) => `${e.store}:${e.id}`), dropped: ctx.dropped };
}
