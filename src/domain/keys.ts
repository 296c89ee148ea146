/**
 * Subject keys: identifier-like tokens (e.g. `INT-EHR-7742`, `QC-GEO-0413`, `SKU-88-1207`)
 * that the memory store indexes and that SENTINEL's s2 uses to count "matching entries".
 * Both sides call this one function, so the index and the guard always agree.
 * A key is 2+ hyphen-joined alphanumeric segments containing at least one digit and one
 * letter, lower-cased. At most `MAX_KEYS_PER_ENTRY` distinct keys are kept (first seen).
 */
const MAX_KEYS_PER_ENTRY = 16;

const KEY_RE = /\b[A-Za-z0-9]{1,24}(?:-[A-Za-z0-9]{1,24}){1,6}\b/g;

/** Extracts the distinct subject keys of a text, lower-cased, in order of first appearance. */
export function extractKeys(text: string): string[] {
  const keys: string[] = [];
  for (const m of text.matchAll(KEY_RE)) {
    const k = m[0].toLowerCase();
    if (!/[0-9]/.test(k) || !/[a-z]/.test(k)) continue;
    if (!keys.includes(k)) keys.push(k);
    if (keys.length >= MAX_KEYS_PER_ENTRY) break;
  }
  return keys;
}
