/**
 * Ordered concurrent evaluation: runs `fn` over a list with at most `concurrency` calls in
 * flight and returns the results in input order, whatever order the calls finish in. Used
 * for corpus replay, `check` and FPR measurement against async guards (HTTP, exec, LLM judge).
 */

/**
 * @param concurrency calls in flight, >= 1 (1 runs them one after another).
 * @param signal when it aborts, no new call starts; the results so far are returned
 *   (`results.length` tells how many, always a prefix of `items`).
 * @throws whatever `fn` throws (the first failure, in input order).
 * @example
 * const verdicts = await mapInOrder(records, (r) => evaluateCase(guard, r.case, store, 'write'), 8);
 */
export async function mapInOrder<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => R | Promise<R>,
  concurrency: number,
  signal?: AbortSignal,
): Promise<R[]> {
  const n = Math.max(1, Math.floor(concurrency));
  if (n === 1) {
    const out: R[] = [];
    for (const [i, item] of items.entries()) {
      if (signal?.aborted) break;
      out.push(await fn(item, i));
    }
    return out;
  }
  const results: Array<Promise<R>> = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) {
      const i = next++;
      const p = Promise.resolve().then(() => fn(items[i] as T, i));
      results[i] = p;
      await p.catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  const out: R[] = [];
  for (const p of results) {
    if (p === undefined) break;
    out.push(await p);
  }
  return out;
}
