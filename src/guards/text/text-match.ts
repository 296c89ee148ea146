/**
 * Text helpers shared by the built-in guards (SENTINEL's layers and the keyword baseline): one
 * normalisation per check, and phrase lists compiled once into a single linear-time alternation.
 */
import { UsageError } from '../../domain/index.js';

/** NFKC then lower-case: the one normalisation applied to content per check. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;
const WORD_CHAR = /\w/;

function phraseSource(phrase: string): string {
  const p = normalizeText(phrase).trim();
  // Escape, then let any run of whitespace in the text match a space in the phrase.
  const body = p.replace(REGEX_SPECIAL, '\\$&').replace(/ +/g, '\\s+');
  const start = WORD_CHAR.test(p.charAt(0)) ? '\\b' : '';
  const end = WORD_CHAR.test(p.charAt(p.length - 1)) ? '\\b' : '';
  return start + body + end;
}

/**
 * Compiles phrases into one global regex matching any of them as whole words (longest
 * phrase first, so overlapping phrases count once). Returns `null` for an empty list.
 * Whole-word edges use `\b` (ASCII word characters), so `skip` does not match `skipped`.
 */
export function compilePhraseList(phrases: readonly string[]): RegExp | null {
  const parts = phrases
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .sort((a, b) => b.length - a.length)
    .map(phraseSource);
  if (parts.length === 0) return null;
  return new RegExp(parts.join('|'), 'g');
}

/**
 * Compiles regex sources into one global regex (`(?:a)|(?:b)`), or `null` for an empty
 * list. `prefix` is prepended to the whole alternation (e.g. an opening anchor).
 * `name` is the config key the sources come from (e.g. `sentinel config: maliciousPatterns`),
 * quoted in the error.
 * @throws UsageError naming the bad pattern when a source does not compile.
 */
export function compilePatternList(name: string, sources: readonly string[], prefix = '', flags = 'g'): RegExp | null {
  for (const s of sources) {
    try {
      new RegExp(s, flags);
    } catch (cause) {
      throw new UsageError(`${name} has an invalid pattern ${JSON.stringify(s)}`, { cause });
    }
  }
  if (sources.length === 0) return null;
  return new RegExp(prefix + '(?:' + sources.map((s) => `(?:${s})`).join('|') + ')', flags);
}

/** Compiles one regex per source (used where each capture group must be read separately). */
export function compilePatterns(name: string, sources: readonly string[], flags = 'g'): RegExp[] {
  return sources.map((s) => {
    try {
      return new RegExp(s, flags);
    } catch (cause) {
      throw new UsageError(`${name} has an invalid pattern ${JSON.stringify(s)}`, { cause });
    }
  });
}

/** First match of a global regex in `text`, or null. Resets `lastIndex`. */
export function firstMatch(re: RegExp | null, text: string): string | null {
  if (re === null) return null;
  re.lastIndex = 0;
  const m = re.exec(text);
  re.lastIndex = 0;
  return m === null ? null : m[0];
}

/** Counts non-overlapping matches of a global regex, stopping at `cap`. */
export function countMatches(re: RegExp | null, text: string, cap: number): number {
  if (re === null) return 0;
  re.lastIndex = 0;
  let n = 0;
  while (n < cap) {
    const m = re.exec(text);
    if (m === null) break;
    n++;
    if (m[0].length === 0) re.lastIndex++;
  }
  re.lastIndex = 0;
  return n;
}
