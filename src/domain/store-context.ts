/**
 * The store context of a benign entry: which earlier entries sit in the memory store when the
 * entry is checked (docs/calibration.md, "Store context"). One definition for real sets
 * (`realSetCases`), for the calibration's text features and for generated trajectories, so the
 * generated estimate and the real figures are measured the same way.
 *
 * An agent's memory holds the earlier steps of the task it is working on and, before them, what
 * it wrote in earlier tasks. So the context of entry `i` is, up to `history` entries:
 * 1. the earlier entries of its own episode (most recent first), then
 * 2. the entries of the episodes before it (the previous episode first, its last entry first),
 *    cycling to the end of the set for the first episodes, so no entry meets an empty store only
 *    because it comes first in a file;
 * never a later step of its own episode. A set with a single episode (no episode labels) is one
 * trajectory: entry `i` sees the `history` entries before it, cyclic.
 */
import type { MemoryEntry } from './entry.js';

/** Metadata keys read as the episode label, first present wins (exports name it in different ways). */
const EPISODE_KEYS = ['episode', 'trajectory', 'session', 'env', 'task', 'task_id'] as const;

/**
 * The episode label of an entry: the first of `metadata.episode`, `.trajectory`, `.session`, `.env`, `.task`,
 * `.task_id` that is a non-empty string or a finite number; `''` (one episode) when none is.
 */
export function episodeOf(entry: Pick<MemoryEntry, 'metadata'>): string {
  for (const key of EPISODE_KEYS) {
    const e = entry.metadata?.[key];
    if (typeof e === 'string' && e !== '') return `${key}:${e}`;
    if (typeof e === 'number' && Number.isFinite(e)) return `${key}:${e}`;
  }
  return '';
}

/**
 * Indices of the store context of entry `i`, oldest first (the order they are committed in).
 * `episodes[j]` is the episode label of entry `j`; entries of one episode are expected to be in
 * time order (not necessarily contiguous). At most `history` indices, never `i` itself.
 * @throws RangeError when `i` is out of range or `history` is not an integer >= 0.
 * @example storeContextIndices(['a', 'a', 'b', 'b'], 3, 8) // [0, 1, 2]: episode a, then entry 2 of its own episode b
 */
export function storeContextIndices(episodes: readonly string[], i: number, history: number): number[] {
  const n = episodes.length;
  if (!Number.isInteger(i) || i < 0 || i >= n) throw new RangeError(`store context: entry ${i} is not in 0..${n - 1}`);
  if (!Number.isInteger(history) || history < 0) throw new RangeError(`store context: history must be an integer >= 0, got ${history}`);
  const h = Math.min(history, n - 1);
  const order: string[] = [];
  const members = new Map<string, number[]>();
  episodes.forEach((e, j) => {
    const list = members.get(e);
    if (list) list.push(j);
    else {
      members.set(e, [j]);
      order.push(e);
    }
  });
  const picked: number[] = [];
  if (order.length === 1) {
    for (let d = 1; d <= h; d++) picked.push((i - d + n) % n);
    return picked.reverse();
  }
  const own = episodes[i] as string;
  const mine = members.get(own) as number[];
  for (let p = mine.indexOf(i) - 1; p >= 0 && picked.length < h; p--) picked.push(mine[p] as number);
  const at = order.indexOf(own);
  for (let d = 1; d < order.length && picked.length < h; d++) {
    const list = members.get(order[(at - d + order.length) % order.length] as string) as number[];
    for (let p = list.length - 1; p >= 0 && picked.length < h; p--) picked.push(list[p] as number);
  }
  return picked.reverse();
}

/**
 * How many of the context entries (as `storeContextIndices` returns them, oldest first) belong to
 * the entry's own episode: always the last ones. With a single episode, all of them.
 */
export function ownEpisodeCount(episodes: readonly string[], i: number, context: readonly number[]): number {
  return context.filter((j) => episodes[j] === episodes[i]).length;
}
