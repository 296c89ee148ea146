/** Public surface of the simulated agents (paper §V-A), listed one by one. */
export { isAttackerAction, isSafeAction } from './domain-actions.js';
export type { AgentTask, Passage, Listing } from './agent-task.js';
export { readMemory, readEntry, contraryCue, maxPrecedent } from './memory-evidence.js';
export { surrogatePlan, competingEvidence } from './surrogate-planner.js';
export type { PlanDecision } from './surrogate-planner.js';
export { llmPlanDecision } from './llm-planner.js';
export { runAgent, plainRetrieve } from './agent.js';
export type { Planner, RetrieveFn } from './agent.js';
export { surrogatePlanner, llmPlanner } from './planners.js';
