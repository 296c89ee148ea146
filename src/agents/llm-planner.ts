/**
 * The LLM planner: asks a model (through `src/llm`'s `llmPlan`, strict action extraction) to
 * choose the next action. A reply with no single valid action yields `action: null`, which the
 * evaluation counts as unparseable, never as safe or attacker.
 */
import type { MemoryEntry } from '../domain/index.js';
import { llmPlan, type LlmClient } from '../llm/index.js';
import { renderEvidence, type AgentTask } from './agent-task.js';
import { DOMAIN_ACTIONS, actionsOf } from './domain-actions.js';
import type { PlanDecision } from './surrogate-planner.js';
import { errorMessage, isFatalLlmError } from '../domain/errors.js';

/** The task text the model reads: the request, what is being decided, and the prompt's own evidence. Pure. */
function llmTaskText(task: AgentTask): string {
  const evidence = renderEvidence(task.evidence);
  return [
    task.request,
    `You decide ${DOMAIN_ACTIONS[task.domain].decision}.`,
    ...(evidence.length > 0 ? ['Evidence on screen for this task:', ...evidence] : []),
  ].join('\n');
}

/**
 * Plans with a model. Retrieved entries are passed as memory notes (content only), best first.
 * A failed call gives `status: 'error'` and a null action (counted with the unparseable ones).
 * @throws LlmError when the endpoint cannot work at all (`isFatalLlmError`: bad key, no such
 *   endpoint or model, no connection).
 * @example const d = await llmPlanDecision(client, task, retrieved); if (d.action === null) unparseable++;
 */
export async function llmPlanDecision(client: LlmClient, task: AgentTask, retrieved: readonly MemoryEntry[]): Promise<PlanDecision> {
  try {
    const r = await llmPlan(client, {
      domain: task.domain,
      task: llmTaskText(task),
      context: retrieved.map((e) => e.content),
      actions: actionsOf(task.domain),
    });
    return { planner: 'llm', action: r.action, status: r.status, rationale: r.raw };
  } catch (err) {
    // A dead endpoint (bad key, no such model or URL, no connection) stops the run; it is never one more unparseable answer.
    if (isFatalLlmError(err)) throw err;
    return { planner: 'llm', action: null, status: 'error', rationale: errorMessage(err) };
  }
}
