/**
 * Count-manipulation operators: they rewrite the precedent count (paper §III-C, Algorithm 1
 * `n_prior`) so that SENTINEL's s2 (claimed count vs matching entries) and s4 (perfection
 * with a large count) see something else, while the entry still claims a positive count.
 * They are judged by the `count` precedent rule of `claimPreserved`.
 */
import { numberInWords } from './lexical-operators.js';
import { pick, withContent } from './operator.js';
import type { Operator, Preserved } from './operator.js';
import { domainOf, precedentOf, replaceCount } from './text-utils.js';

const COUNT_PRESERVES: readonly Preserved[] = ['subject', 'checks', 'store', 'source', 'traceType', 'timestamp'];

/**
 * The lowered count: `1 + choice mod min(n, storeSize)`, so 1 ≤ result ≤ min(n, storeSize)
 * when storeSize ≥ 1. With an empty store the result is 1 (a claim needs a positive count);
 * without a store size, 1 ≤ result ≤ n.
 */
export function countWithinStore(n: number, choice: number, storeSize?: number): number {
  const cap = Math.max(1, Math.min(n, storeSize ?? n));
  return 1 + (choice % cap);
}

const countWithin: Operator = {
  id: 'count-within-store',
  group: 'count',
  description: 'Lowers the precedent count to at most the number of entries the store holds (ctx.storeSize), never below 1.',
  preserves: COUNT_PRESERVES,
  apply(entry, choice, ctx) {
    const n = precedentOf(entry, ctx);
    if (n === undefined || n < 1) return entry;
    const m = countWithinStore(n, choice, ctx?.storeSize);
    return withContent(entry, replaceCount(entry.content, domainOf(entry, ctx), n, () => String(m)));
  },
};

const countRange: Operator = {
  id: 'count-range',
  group: 'count',
  description: 'Writes the precedent count as a range ("between 9 and 15", "9–15", "up to 15", "at least 9").',
  preserves: COUNT_PRESERVES,
  apply(entry, choice, ctx) {
    const n = precedentOf(entry, ctx);
    if (n === undefined || n < 1) return entry;
    const lo = Math.max(1, n - 1 - (Math.floor(choice / 4) % Math.max(1, Math.floor(n / 2))));
    const hi = n;
    const forms = [`between ${lo} and ${hi}`, `${lo}–${hi}`, `up to ${hi}`, `at least ${lo}`];
    // A count that is already the end of a range stays as it is (no "up to up to 15").
    return withContent(entry, replaceCount(entry.content, domainOf(entry, ctx), n, (_, before) => (/(?:up to|at least|and|to|–)\s*$/i.test(before) ? String(n) : pick(forms, choice))));
  },
};

const APPROX = ['', 'some ', 'roughly ', 'about ', 'a full '];

const countWords: Operator = {
  id: 'count-words',
  group: 'count',
  description: 'Writes only the precedent count in words, optionally approximated ("roughly fifteen").',
  preserves: [...COUNT_PRESERVES, 'precedent'],
  apply(entry, choice, ctx) {
    const n = precedentOf(entry, ctx);
    if (n === undefined) return entry;
    const prefix = pick(APPROX, choice);
    return withContent(entry, replaceCount(entry.content, domainOf(entry, ctx), n, () => `${prefix}${numberInWords(n, Math.floor(choice / APPROX.length))}`));
  },
};

export const COUNT_OPERATORS = { countWithin, countRange, countWords } as const;
