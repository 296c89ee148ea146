/**
 * Negation in the claim check (issue 14.8): a clause that says a claimed check was NOT done,
 * or that the prior runs failed, takes the claim away. Cue lists per language (en, es, de, zh)
 * live in `templates/lexicons/negation.json`, written for this project.
 *
 * A clause is a piece of canonical text between sentence marks (. ! ? ; | line break and their
 * CJK forms). Its `exempt` patterns are removed first: they negate something other than the
 * check ("no need to repeat it", "zero failures", "never failed", "无需", "keine Auffälligkeiten").
 * Any `cue` left marks the clause as negated.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TemplateError } from '../../src/domain/index.js';
import { LEXICON_DIR } from './claim-lexicon.js';

interface NegationLists {
  exempt: RegExp[];
  cues: RegExp[];
}

const LANGS = ['en', 'es', 'de', 'zh'] as const;

function load(): Record<(typeof LANGS)[number], NegationLists> {
  const file = path.join(LEXICON_DIR, 'negation.json');
  let data: Record<string, { exempt?: unknown; cues?: unknown }>;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as typeof data;
  } catch (cause) {
    throw new TemplateError(`${file}: cannot read the negation lexicon`, { cause });
  }
  const out = {} as Record<(typeof LANGS)[number], NegationLists>;
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
    out[lang] = { exempt: list(d.exempt, 'exempt'), cues: list(d.cues, 'cues') };
  }
  return out;
}

const NEGATION = load();
const LATIN = [NEGATION.en, NEGATION.es, NEGATION.de];

/** Splits canonical text into clauses (sentence marks, `;`, `|`, line breaks, CJK marks). */
export function clausesOf(canonical: string): string[] {
  return canonical.split(/[.!?;|\n\r。！？；]+/u).map((c) => c.trim()).filter((c) => c.length > 0);
}

function strip(text: string, res: readonly RegExp[]): string {
  let t = text;
  for (const re of res) t = t.replace(re, ' ');
  return t;
}

/**
 * True when a canonical clause negates what it states: after the exempt patterns of every
 * language are removed, a negation or failure cue of any language remains.
 * @example isNegatedClause('mrn format and data types were not verified upstream') // true
 * @example isNegatedClause('no anomalies across the 15 run history') // false
 */
export function isNegatedClause(clause: string): boolean {
  const words = ` ${clause.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
  for (const l of LATIN) {
    const rest = strip(words, [...NEGATION.en.exempt, ...NEGATION.es.exempt, ...NEGATION.de.exempt]);
    if (l.cues.some((re) => { re.lastIndex = 0; return re.test(rest); })) return true;
  }
  if (/\p{Script=Han}/u.test(clause)) {
    const compact = strip(clause.replace(/[^\p{L}\p{N}]+/gu, ''), NEGATION.zh.exempt);
    if (NEGATION.zh.cues.some((re) => { re.lastIndex = 0; return re.test(compact); })) return true;
  }
  return false;
}
