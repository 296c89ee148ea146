/**
 * "Did you mean" for a name typed by a user (a guard id, a list value, a field value of an
 * entry): the known names closest to it by Levenshtein distance (npm `leven`), compared
 * case-insensitively with `-`, `_` and spaces treated alike, so `sentinal`, `SENTINEL` and
 * `thought-chain` find `sentinel` and `thought_chain`.
 */
import leven from 'leven';

const fold = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, '_');

/**
 * The nearest candidates within reach of `input` (ties in candidate order), at most `max`.
 * A candidate is within reach when its folded form starts with the input's (3 or more characters
 * typed) or is at most about a third of the longer name's length away (at least 1, at most 3 edits).
 * @example
 * closestNames('sentinal', ['sentinel', 'none', 'keyword']); // ['sentinel']
 */
export function closestNames(input: string, candidates: readonly string[], max = 3): string[] {
  const a = fold(input);
  if (a === '') return [];
  const scored: Array<{ name: string; d: number; i: number }> = [];
  for (const [i, name] of candidates.entries()) {
    const b = fold(name);
    if (name === input) continue;
    const limit = Math.min(3, Math.max(1, Math.floor(Math.max(a.length, b.length) / 3)));
    const d = a === b ? 0 : a.length >= 3 && b.startsWith(a) ? 0.5 : leven(a, b);
    if (d <= limit) scored.push({ name, d, i });
  }
  // Only the nearest are offered (as commander does for flags): a name that differs only in case or
  // separators is then the one suggestion.
  const best = Math.min(...scored.map((s) => s.d));
  return scored.filter((s) => s.d === best).sort((x, y) => x.i - y.i).slice(0, max).map((s) => s.name);
}

/**
 * The suggestion as a clause to append to an error or warning: ` (did you mean "sentinel"?)`,
 * ` (did you mean "a" or "b"?)`, or `''` when nothing is close.
 * @example
 * `unknown guard "sentinal"${didYouMean('sentinal', ids)}`; // unknown guard "sentinal" (did you mean "sentinel"?)
 */
export function didYouMean(input: string, candidates: readonly string[]): string {
  const names = closestNames(input, candidates).map((n) => JSON.stringify(n));
  if (names.length === 0) return '';
  return ` (did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}?)`;
}
