/**
 * Turns free text into a safe FTS5 query. User text is never parsed as FTS5 syntax:
 * the text is cut into letter/digit runs, and each run becomes a double-quoted string
 * (FTS5 treats a quoted string as plain terms), joined with OR so bm25 ranks partial
 * matches. `"`, `*`, `^`, `:`, `-`, `(`, `NEAR`, `AND`, `OR`, `NOT` lose their meaning.
 */

/** Most distinct terms kept from one query (first seen); longer queries are cut. */
const MAX_QUERY_TERMS = 64;

const TERM_RE = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * The distinct searchable terms of `text` (letter/digit runs, lower-cased), first seen first,
 * at most {@link MAX_QUERY_TERMS}. Each becomes one quoted FTS5 string in a query.
 */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(TERM_RE)) {
    const t = m[0].toLowerCase();
    if (seen.has(t)) continue;
    seen.add(t);
    terms.push(t);
    if (terms.length >= MAX_QUERY_TERMS) break;
  }
  return terms;
}

/**
 * @returns the FTS5 MATCH expression, or `undefined` when the text has no searchable term
 *   (the caller then returns no results).
 * @example
 * toFtsQuery('NEAR("a" b*) -c'); // '"near" OR "a" OR "b" OR "c"'
 */
export function toFtsQuery(text: string): string | undefined {
  const terms = queryTerms(text);
  return terms.length === 0 ? undefined : terms.map((t) => `"${t}"`).join(' OR ');
}
