/**
 * Character variants of the Chinese check phrases of the claim lexicons, for the Chinese
 * character-swap operators (TextAttack ChineseHomophoneCharacterSwap and
 * ChineseMorphonymCharacterSwap) and for the claim check that reads them back:
 * - homophones: common characters (GB 2312 level 1, the 3,755 most used) with the same toned
 *   pinyin as the phrase character, by `pinyin-pro` (MIT); built on first use, for the phrase
 *   characters only;
 * - look-alikes (morphonyms): a table written for this project, one or two visually close
 *   characters for each phrase character that has one.
 * No variant is a character of a Chinese negation cue (`templates/lexicons/negation.json`), so a
 * swap never writes a negation. Pure after the first build.
 */
import { createRequire } from 'node:module';
import { CLAIM_LEXICONS } from './claim-lexicon.js';

/** Look-alike characters of the phrase characters (our table: shared components or near-identical shapes). */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  格: '恪', 式: '武', 历: '厉', 数: '效', 据: '锯', 类: '娄', 型: '刑', 范: '苑', 围: '违', 值: '植', 参: '叁', 考: '老',
  筛: '篩', 查: '杳', 审: '宙', 合: '含', 规: '现', 访: '纺', 问: '间', 授: '绶', 权: '杈', 输: '渝', 入: '人', 清: '请',
  理: '埋', 净: '诤', 洗: '冼', 比: '此', 价: '阶', 较: '校', 对: '讨', 评: '坪', 检: '捡', 论: '伦', 核: '该', 卖: '买',
  家: '冢', 验: '险', 证: '征', 实: '宝', 来: '米', 源: '原', 可: '司', 性: '姓', 交: '文', 叉: '又', 答: '签', 案: '桉',
  复: '夏', 病: '柄', 号: '亏', 化: '代', 商: '啇', 临: '监', 床: '麻', 靠: '罪',
};

/** Characters of the Chinese negation cues: never written by a swap. */
const NEGATION_CHARS: ReadonlySet<string> = new Set([...'未没有不无并尚失败跳过忽略遗漏缺拒绝待定省免放弃非否勿别']);

/** The Chinese check phrases of every domain's lexicon. */
export const ZH_PHRASES: readonly string[] = [...new Set(Object.values(CLAIM_LEXICONS).flatMap((l) => Object.values(l.languages.zh?.checks ?? {}).flat()))];

/** Han characters of the Chinese check phrases. */
const PHRASE_CHARS: ReadonlySet<string> = new Set(ZH_PHRASES.flatMap((p) => [...p].filter((c) => /\p{Script=Han}/u.test(c))));

/** Look-alikes of a phrase character (our table), negation characters left out. */
export function lookAlikesOf(c: string): readonly string[] {
  return [...(LOOK_ALIKES[c] ?? '')].filter((x) => !NEGATION_CHARS.has(x) && x !== c);
}

let homophones: ReadonlyMap<string, readonly string[]> | undefined;

/** The 3,755 characters of GB 2312 level 1 (rows 16-55), decoded with the runtime's GB 18030 decoder. */
function commonCharacters(): string[] {
  const dec = new TextDecoder('gb18030');
  const out: string[] = [];
  for (let hi = 0xb0; hi <= 0xd7; hi++) for (let lo = 0xa1; lo <= 0xfe; lo++) if (!(hi === 0xd7 && lo > 0xf9)) out.push(dec.decode(Uint8Array.of(hi, lo)));
  return out;
}

/** Per phrase character, the common characters with its toned pinyin (built once, about 0.2 s; `pinyin-pro` is loaded only then). */
function homophoneTable(): ReadonlyMap<string, readonly string[]> {
  if (homophones) return homophones;
  // A plain call of a require function with the package name, so `npm run dist-imports` sees the shipped code load it.
  const require = createRequire(import.meta.url);
  const { pinyin } = require('pinyin-pro') as typeof import('pinyin-pro');
  const sound = (c: string): string => pinyin(c, { toneType: 'num' });
  const wanted = new Map<string, string[]>();
  for (const c of PHRASE_CHARS) wanted.set(sound(c), []);
  for (const c of commonCharacters()) {
    if (NEGATION_CHARS.has(c)) continue;
    wanted.get(sound(c))?.push(c);
  }
  homophones = new Map([...PHRASE_CHARS].map((c) => [c, (wanted.get(sound(c)) ?? []).filter((x) => x !== c)] as const));
  return homophones;
}

/** Common characters that sound like a phrase character (same toned pinyin), in GB 2312 order. */
export function homophonesOf(c: string): readonly string[] {
  return PHRASE_CHARS.has(c) ? (homophoneTable().get(c) ?? []) : [];
}

const PATTERNS = new Map<string, RegExp>();

/** True when the compact text holds one of the phrase's Han characters: only then may a swapped form of it be there (a swap keeps at least one). */
export function sharesHanCharacter(compact: string, phrase: string): boolean {
  for (const c of phrase) if (PHRASE_CHARS.has(c) && compact.includes(c)) return true;
  return false;
}

/**
 * A phrase as a pattern that also accepts each of its Han characters swapped for a homophone or
 * a look-alike (matched on the compact, lower-case form the claim check uses).
 */
export function hanVariantPattern(phrase: string): RegExp {
  let re = PATTERNS.get(phrase);
  if (!re) {
    const esc = (c: string): string => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const body = [...phrase.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')]
      .map((c) => (PHRASE_CHARS.has(c) ? `[${c}${[...homophonesOf(c), ...lookAlikesOf(c)].join('')}]` : esc(c)))
      .join('');
    re = new RegExp(body, 'u');
    PATTERNS.set(phrase, re);
  }
  return re;
}
