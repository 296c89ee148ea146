/**
 * s2/s4 helper: numeric precedent claims ("consistent with 12 prior runs", "across 8
 * processing cycles", "a 15-run history"), extracted with the configured regexes (paper §IV-E).
 */
import type { CompiledSentinel } from './compiled-config.js';

/**
 * The largest precedent count claimed in normalised `text`, or -1 when there is none.
 * Only digit counts are read (1–7 digits); number words are not (reconstruction).
 */
export function maxPrecedentClaim(text: string, compiled: CompiledSentinel): number {
  let max = -1;
  for (const re of compiled.precedentRes) {
    re.lastIndex = 0;
    for (;;) {
      const m = re.exec(text);
      if (m === null) break;
      if (m[0].length === 0) re.lastIndex++;
      const g = m[1];
      if (g !== undefined) {
        const n = Number.parseInt(g, 10);
        if (n > max) max = n;
      }
    }
    re.lastIndex = 0;
  }
  return max;
}
