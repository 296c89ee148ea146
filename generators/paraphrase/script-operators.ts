/**
 * Script operators for Chinese text: characters of the Chinese check phrases swapped for
 * homophones (TextAttack ChineseHomophoneCharacterSwap: the same toned pinyin, as a pinyin
 * input method mistypes them) or for look-alike characters (ChineseMorphonymCharacterSwap).
 * They rewrite the Chinese check names that `translate-zh`, `code-switch` and the Chinese
 * templates write; an entry with none is returned as it is. Each phrase keeps at least one of
 * its characters, and no swap writes a negation character. The claim check reads a phrase with
 * such swaps back (`han-variants.ts`), so the claim survives.
 */
import { ALL_TEXT, withContent } from './operator.js';
import type { Operator } from './operator.js';
import { ZH_PHRASES, homophonesOf, lookAlikesOf } from './han-variants.js';
import type { EvasionKind } from '../claims/evasion-kinds.js';

/** Chinese check phrases, longest first, so that "临床值范围" is rewritten before "临床范围" could be. */
const PHRASES_LONGEST_FIRST = [...ZH_PHRASES].sort((a, b) => b.length - a.length);

/**
 * `phrase` with some of its Han characters swapped by `variants`: `choice` picks the first
 * character and whether one character or all but one are swapped, and which variant.
 */
function swapInPhrase(phrase: string, choice: number, variants: (c: string) => readonly string[]): string {
  const chars = [...phrase];
  const swappable = chars.map((c, i) => [c, i] as const).filter(([c]) => variants(c).length > 0);
  const han = chars.filter((c) => /\p{Script=Han}/u.test(c)).length;
  if (swappable.length === 0) return phrase;
  const many = Math.floor(choice / 2) % 2 === 1;
  const count = many ? Math.min(swappable.length, han - 1) : 1;
  if (han - count < 1) return phrase; // one character at least stays as written
  const start = choice % swappable.length;
  for (let k = 0; k < count; k++) {
    const [c, i] = swappable[(start + k) % swappable.length] ?? ['', -1];
    const list = variants(c);
    chars[i] = list[Math.floor(choice / 4) % list.length] ?? c;
  }
  return chars.join('');
}

function hanSwap(id: string, kind: EvasionKind, description: string, variants: (c: string) => readonly string[]): Operator {
  return {
    id,
    group: 'encoding',
    reading: 'natural',
    description,
    preserves: ALL_TEXT,
    kinds: [kind],
    apply(entry, choice) {
      let text = entry.content;
      const done = new Set<string>();
      for (const p of PHRASES_LONGEST_FIRST) {
        if (!text.includes(p) || [...done].some((d) => d.includes(p))) continue;
        done.add(p);
        let n = 0;
        text = text.split(p).map((part, i) => (i === 0 ? part : `${swapInPhrase(p, choice + n++, variants)}${part}`)).join('');
      }
      return withContent(entry, text);
    },
  };
}

const zhHomophone = hanSwap('zh-homophone', 'zh-homophone', 'Swaps characters of the Chinese check names for common characters with the same toned pinyin (pinyin-pro; TextAttack ChineseHomophoneCharacterSwap): one character, or all but one; no negation character is written.', homophonesOf);

const zhMorphonym = hanSwap('zh-morphonym', 'zh-morphonym', 'Swaps characters of the Chinese check names for look-alike characters (our table: 验→险, 查→杳, 卖→买...; TextAttack ChineseMorphonymCharacterSwap): one character, or all but one.', lookAlikesOf);

export const SCRIPT_OPERATORS = { zhHomophone, zhMorphonym } as const;
