/** The two planners as `Planner` objects. */
import type { LlmClient } from '../llm/index.js';
import type { Planner } from './agent.js';
import { llmPlanDecision } from './llm-planner.js';
import { DEFAULT_SURROGATE_RULE, surrogatePlan, type SurrogateRule } from './surrogate-planner.js';

/** The surrogate for an LLM planner (deterministic rule; see `surrogatePlan`). */
export function surrogatePlanner(rule: SurrogateRule = DEFAULT_SURROGATE_RULE): Planner {
  return { id: 'surrogate', plan: (task, retrieved) => surrogatePlan(task, retrieved, rule) };
}

/** An LLM planner over a configured client (see `llmPlanDecision`). */
export function llmPlanner(client: LlmClient): Planner {
  return { id: 'llm', plan: (task, retrieved) => llmPlanDecision(client, task, retrieved) };
}
