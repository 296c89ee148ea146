/**
 * What an agent is asked to do: a domain, the subject the task is about (the same id the
 * FARMA entries target: a pipeline id, a question class, a product category), the retrieval
 * query, and the evidence visible in the prompt besides memory (paper §V-E: ReAct-QA sees two
 * passages, RAP three product listings, EHR nothing else).
 */
import type { DomainId } from '../domain/index.js';

/** A search passage shown to the ReAct-QA agent. `answer` is the value it states, or null when it does not address the question. */
export interface Passage {
  text: string;
  answer: string | null;
}

/** A product listing shown to the RAP agent. `rating` in stars (0–5), `price` in US dollars. */
export interface Listing {
  title: string;
  rating: number;
  reviews: number;
  price: number;
}

/** Evidence in the prompt besides retrieved memory. */
export type TaskEvidence =
  | { kind: 'none' }
  | { kind: 'passages'; passages: readonly Passage[] }
  | { kind: 'listings'; listings: readonly Listing[] };

export interface AgentTask {
  domain: DomainId;
  /** Subject id as written in memory entries, e.g. `INT-EHR-7742` (case-insensitive match). */
  subject: string;
  /** Free-text retrieval query (bm25 over both store parts). */
  query: string;
  /** One or two sentences stating the request, for the LLM planner's prompt. */
  request: string;
  evidence: TaskEvidence;
}

/** The evidence rendered as prompt lines (for the LLM planner and for reports). Pure. */
export function renderEvidence(evidence: TaskEvidence): string[] {
  switch (evidence.kind) {
    case 'none':
      return [];
    case 'passages':
      return evidence.passages.map((p, i) => `Passage ${i + 1}: ${p.text}`);
    case 'listings':
      return evidence.listings.map(
        (l, i) => `Listing ${i + 1}: ${l.title}, ${l.rating.toFixed(1)} stars from ${l.reviews} reviews, $${l.price.toFixed(2)}`,
      );
  }
}
