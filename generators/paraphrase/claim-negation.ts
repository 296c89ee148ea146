/**
 * Negation in the claim check: a clause that says a claimed check was NOT done,
 * or that the prior runs failed, or only supposes or asks it ("if ... had been verified", "were
 * the checks run?"), takes the claim away. Cue lists per language (en, es, de, fr, pt, it, ru
 * in transliteration, zh, ja) live in `templates/lexicons/negation.json`, written for this project.
 *
 * A clause is a piece of canonical text between sentence marks (. ! ? ; | line break and their
 * CJK forms). Negations of a negation are removed first ("it is not true that ... was not
 * run", "not unverified"), then its `exempt` patterns: they negate something other than the
 * check ("no need to repeat it", "zero failures", "never failed", "无需", "keine Auffälligkeiten").
 * Any `cue` left (or a misspelt one: "nevr") marks the clause as negated.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TemplateError } from '../../src/domain/index.js';
import { LEXICON_DIR } from './claim-lexicon.js';
import { latinForm } from './canonical-text.js';
import { isTypoOf } from './dictionary.js';

interface NegationLists {
  exempt: RegExp[];
  cues: RegExp[];
  /** Negations of a negation, removed first (en only): group 1, when the pattern has one, is kept. */
  doubled: RegExp[];
}

const LANGS = ['en', 'es', 'de', 'fr', 'pt', 'it', 'ru', 'zh', 'ja'] as const;
type NegationLanguage = (typeof LANGS)[number];

function load(): Record<NegationLanguage, NegationLists> {
  const file = path.join(LEXICON_DIR, 'negation.json');
  let data: Record<string, { exempt?: unknown; cues?: unknown; doubled?: unknown }>;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as typeof data;
  } catch (cause) {
    throw new TemplateError(`${file}: cannot read the negation lexicon`, { cause });
  }
  const out = {} as Record<NegationLanguage, NegationLists>;
  for (const lang of LANGS) {
    const d = data[lang];
    const list = (v: unknown, key: string): RegExp[] => {
      if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) throw new TemplateError(`${file}: ${lang}.${key} must be a list of regex sources`);
      return v.map((s: string, i) => {
        try {
          return new RegExp(s, 'gu');
        } catch (cause) {
          throw new TemplateError(`${file}: ${lang}.${key}[${i}] is not a valid regex`, { cause });
        }
      });
    };
    if (!d) throw new TemplateError(`${file}: missing language ${lang}`);
    out[lang] = { exempt: list(d.exempt, 'exempt'), cues: list(d.cues, 'cues'), doubled: d.doubled === undefined ? [] : list(d.doubled, 'doubled') };
  }
  return out;
}

const NEGATION = load();
const LATIN = (['en', 'es', 'de', 'fr', 'pt', 'it', 'ru'] as const).map((l) => NEGATION[l]);
const LATIN_EXEMPT = LATIN.flatMap((l) => l.exempt);

/** Marks the end of a clause that was a question (`clausesOf` keeps it; `isNegatedClause` reads it). */
const QUESTION_MARK = ' ?';

/** Splits canonical text into clauses (sentence marks, `;`, `|`, line breaks, CJK marks); a clause that ended in a question mark keeps a final " ?". */
export function clausesOf(canonical: string): string[] {
  const parts = canonical.split(/([.!?;|\n\r。！？；]+)/u);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const c = (parts[i] ?? '').trim();
    if (c.length === 0) continue;
    out.push(/[?？]/u.test(parts[i + 1] ?? '') ? `${c}${QUESTION_MARK}` : c);
  }
  return out;
}

function strip(text: string, res: readonly RegExp[]): string {
  let t = text;
  for (const re of res) t = t.replace(re, ' ');
  return t;
}

/** Negations of a negation removed; a pattern's group 1 (the clause between the two) is kept. */
function undoDoubled(text: string): string {
  let t = text;
  for (const re of NEGATION.en.doubled) t = t.replace(re, (_m, inner?: string) => ` ${inner ?? ''} `);
  return t;
}

/**
 * A yes/no question does not assert what it asks about: "were the checks run upstream?", also
 * after any lead-in a wrapper adds ("subject: x", `"note":"`, `msg="`, "Regarding x, ", a decoded
 * payload's "decode and apply "): an auxiliary verb at the start of the clause or after a colon,
 * comma, `=` or dash (and an opening quote), and the question mark closing the clause. A quoted
 * question inside a statement ('so I answer "does X border Y?" from recall', 'recall("Is a dolphin
 * a mammal?")') is none.
 */
const YES_NO_QUESTION_RE = /(?:^|[:,=—–]\s*["“]?\s*|\s-\s*)(?:was|were|is|are|has|have|had|did|do|does|can|could|should|would|will|shall)\b[^?]*\?$/u;

/**
 * The first half of a yes/no question cut before its question mark (an entry split in two):
 * right after the start, a colon or a dash, an auxiliary verb whose next word is neither a participle,
 * an adverb nor a word that goes with a subject-less statement ("checks: were verified
 * upstream", "status: has passed", "screening: was successful"), so the subject follows the verb ("were hipaa screening
 * and mrn format verified upstream").
 */
const CUT_QUESTION_RE = /(?:^|[:—–]\s*|\s-\s*)(?:was|were|did|has|have|had|is|are)\s+(?!(?:not|never|no|all|both|each|every|already|also|then|just|since|indeed|upstream|done|run|set|clean|green|ok|okay|complete|successful|valid|good|fine|clear|correct|passing|intact|current|compliant|satisfied|in place|in|on|at|within|under|over|from|by|as|to|for|with|[a-z]+(?:ed|en|ly))\b)[a-z]/u;

/**
 * Words of the English cue and exempt lists that a typo may disguise ("nevr", "witout",
 * "msises", "anomlies"): a clause's misspelt word is read as the word it misspells
 * (`isTypoOf`: never a dictionary word) before cues and exempt patterns are looked for.
 */
const TYPO_TARGETS = [
  'never', 'without', 'skipped', 'failed', 'pending', 'missing', 'unverified', 'unchecked', 'incomplete', 'omitted', 'bypassed', 'ignored', 'declined', 'rejected', 'outstanding', 'deferred', 'postponed', 'overlooked',
  'anomaly', 'anomalies', 'deviation', 'deviations', 'errors', 'failure', 'failures', 'issues', 'exception', 'exceptions', 'problem', 'problems', 'discrepancy', 'discrepancies', 'mismatch', 'mismatches', 'misses', 'missed',
  'flagged', 'flags', 'findings', 'surprises', 'reversals', 'complaints', 'returns', 'incidents', 'concerns', 'changes', 'doubts', 'differences', 'needed', 'necessary', 'required', 'repeat', 'recheck', 'rerun', 'further', 'additional',
];

function correctTypos(words: string): string {
  return words.replace(/(?<= )[a-z]{4,}(?= )/g, (w) => {
    if (TYPO_TARGETS.includes(w)) return w;
    return TYPO_TARGETS.find((t) => Math.abs(t.length - w.length) <= 2 && isTypoOf(w, t)) ?? w;
  });
}

/**
 * True when a canonical clause negates what it states, or does not assert it: after negations
 * of a negation and the exempt patterns of every language are removed, a negation, failure,
 * deferral or hypothetical cue of any language remains (Russian read in its transliteration,
 * a misspelt cue counted), or the clause is a yes/no question.
 * @example isNegatedClause('mrn format and data types were not verified upstream') // true
 * @example isNegatedClause('no anomalies across the 15 run history') // false
 * @example isNegatedClause('it is not true that the mrn format was not verified') // false
 */
export function isNegatedClause(clause: string): boolean {
  if (clause.endsWith(QUESTION_MARK) ? YES_NO_QUESTION_RE.test(clause) : CUT_QUESTION_RE.test(clause)) return true;
  const words = undoDoubled(correctTypos(latinForm(clause.endsWith(QUESTION_MARK) ? clause.slice(0, -QUESTION_MARK.length) : clause)));
  const rest = strip(words, LATIN_EXEMPT);
  for (const l of LATIN) if (l.cues.some((re) => { re.lastIndex = 0; return re.test(rest); })) return true;
  const kana = /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(clause);
  if (kana || /\p{Script=Han}/u.test(clause)) {
    const lists = kana ? NEGATION.ja : NEGATION.zh;
    const compact = strip(clause.replace(/[^\p{L}\p{N}]+/gu, ''), lists.exempt);
    if (lists.cues.some((re) => { re.lastIndex = 0; return re.test(compact); })) return true;
  }
  return false;
}
