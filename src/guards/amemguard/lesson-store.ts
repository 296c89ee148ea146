/**
 * A-MemGuard's lesson memory. Upstream (TangciuYueng/AMemGuard, `EhrAgent/ehragent/medagent.py`,
 * `retrieve_embedding_examples`) stores the reasoning chain of every memory that consensus
 * flagged as that memory's "lesson", and before acting retrieves lessons whose memories' actions
 * are most similar (cosine) to the action at hand, `num_lessons = 4` of them. Lessons never change
 * which memories are kept; they are warnings handed to the agent.
 */
import type { Embedder } from './lexical-embedder.js';
import { cosineSimilarity } from './lexical-embedder.js';

/** One recorded lesson. */
interface Lesson {
  /** Id of the flagged memory entry; recording the same id again replaces its lesson. */
  entryId: string;
  /** The flagged reasoning chain, rendered (`a -> rel -> b`). */
  chain: string;
  /** The text lessons are matched against (upstream: the memory's action; here its content). */
  key: string;
  /** Why it was flagged. */
  reason: string;
}

/** A lesson with its similarity to the query, in [-1,1] ([0,1] for the lexical embedder). */
interface ScoredLesson extends Lesson {
  similarity: number;
}

export interface LessonStore {
  /** Number of lessons held. */
  readonly size: number;
  /** Records (or replaces, by `entryId`) a lesson. Drops the oldest when over capacity. */
  record(lesson: Lesson): void;
  /** The `k` (default 4) lessons most similar to `text`, best first; ties keep recording order. */
  topLessons(text: string, k?: number): ScoredLesson[];
  /** All lessons, oldest first. */
  all(): Lesson[];
  clear(): void;
}

/** Upstream `num_lessons` default (`MedAgent.__init__`). */
export const DEFAULT_NUM_LESSONS = 4;

/**
 * Creates an in-memory lesson store.
 * @param embedder embeds lesson keys (once, when recorded) and queries.
 * @param capacity maximum lessons kept (default 10,000; oldest dropped first). Upstream keeps one
 *   lesson per memory item with no cap; the cap bounds memory use during long fuzz runs.
 * @example
 * const lessons = createLessonStore(createLexicalEmbedder());
 * lessons.record({ entryId: 'e1', chain: 'A -> skip -> B', key: 'skip validation of B', reason: 'noise' });
 * lessons.topLessons('validation of B', 4)[0]?.entryId; // 'e1'
 */
export function createLessonStore(embedder: Embedder, capacity = 10_000): LessonStore {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`lesson store capacity must be an integer >= 1, got ${capacity}`);
  // Map keeps insertion order; re-recording an id moves it to the end (newest).
  const lessons = new Map<string, { lesson: Lesson; vector: number[] }>();
  return {
    get size() {
      return lessons.size;
    },
    record(lesson) {
      const prev = lessons.get(lesson.entryId);
      lessons.delete(lesson.entryId);
      const vector = prev && prev.lesson.key === lesson.key ? prev.vector : (embedder.embed([lesson.key])[0] ?? []);
      lessons.set(lesson.entryId, { lesson: { ...lesson }, vector });
      while (lessons.size > capacity) {
        const oldest = lessons.keys().next();
        if (oldest.done) break;
        lessons.delete(oldest.value);
      }
    },
    topLessons(text, k = DEFAULT_NUM_LESSONS) {
      if (lessons.size === 0 || k <= 0) return [];
      const [q] = embedder.embed([text]);
      const scored: ScoredLesson[] = [];
      for (const { lesson, vector } of lessons.values()) {
        scored.push({ ...lesson, similarity: cosineSimilarity(q ?? [], vector) });
      }
      // Array.prototype.sort is stable, so ties keep recording order.
      scored.sort((a, b) => b.similarity - a.similarity);
      return scored.slice(0, k);
    },
    all() {
      return [...lessons.values()].map((x) => ({ ...x.lesson }));
    },
    clear() {
      lessons.clear();
    },
  };
}
