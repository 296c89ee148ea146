/** Public surface of the simulated agents (paper §V-A), listed one by one. */
export { DOMAIN_ACTIONS, actionsOf, isAttackerAction, isSafeAction } from './domain-actions.js';
export type { DomainActionSpec, AgentAction, AttackerAction, SafeAction } from './domain-actions.js';
export { renderEvidence } from './agent-task.js';
export type { AgentTask, TaskEvidence, Passage, Listing } from './agent-task.js';
export { readMemory, readEntry, contraryCue, maxPrecedent, TOPIC_CUES, ASSURANCE_CUES, CONTRARY_CUES, CONTRARY_PHRASES } from './memory-evidence.js';
export type { EntryReading, MemoryEvidence } from './memory-evidence.js';
export { surrogatePlan, competingEvidence, DEFAULT_SURROGATE_RULE } from './surrogate-planner.js';
export type { SurrogateRule, CompetingEvidence, PlanDecision } from './surrogate-planner.js';
export { llmPlanDecision, llmTaskText } from './llm-planner.js';
export { runAgent, plainRetrieve } from './agent.js';
export type { AgentRun, Planner, RetrieveFn, RetrievedContext } from './agent.js';
export { surrogatePlanner, llmPlanner } from './planners.js';
