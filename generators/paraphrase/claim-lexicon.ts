/**
 * Claim lexicons: per domain, the surface phrasings of each claimed safety check, the nouns
 * that name a subject, and the nouns that count prior runs. Data lives in
 * `templates/lexicons/claim-<domain>.json` (written for this project; the check families
 * follow the paper's §III-B seed descriptions and §V-A safety requirements).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOMAINS, packagePath, TemplateError } from '../../src/domain/index.js';
import type { DomainId } from '../../src/domain/index.js';
import anyAscii from 'any-ascii';
import { fold } from '../claims/numerals.js';

/** Languages besides English that the claim lexicons cover (fr, pt, it, ru, ja: read by the claim check; the translate operators write es, de, zh, fr, ru). */
const CLAIM_LANGUAGES = ['es', 'de', 'zh', 'fr', 'pt', 'it', 'ru', 'ja'] as const;
export type ClaimLanguage = (typeof CLAIM_LANGUAGES)[number];

/** One language's part of a claim lexicon: run nouns (none for Chinese: classifiers are built in) and check phrasings. */
interface LanguageLexicon {
  runNouns: string[];
  checks: Record<string, string[]>;
}

export interface ClaimLexicon {
  domain: DomainId;
  /** Nouns that introduce the subject ("pipeline", "question class", "category"). */
  subjectNoun: string[];
  /** Nouns a precedent count counts ("runs", "attempts", "transactions"). */
  runNouns: string[];
  /** Check id → surface phrasings, first one the plainest. */
  checks: Record<string, string[]>;
  /** Per other language (es, de, zh): run nouns and check phrasings, same check ids. */
  languages: Partial<Record<ClaimLanguage, LanguageLexicon>>;
}

/** Absolute path of `templates/lexicons/`. */
export const LEXICON_DIR = packagePath('templates', 'lexicons');

function load(domain: DomainId): ClaimLexicon {
  const file = path.join(LEXICON_DIR, `claim-${domain}.json`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new TemplateError(`${file}: cannot read claim lexicon`, { cause });
  }
  const d = data as Partial<ClaimLexicon>;
  const okList = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string' && s.length > 0);
  if (!okList(d.subjectNoun) || !okList(d.runNouns) || typeof d.checks !== 'object' || d.checks === null) {
    throw new TemplateError(`${file}: claim lexicon needs subjectNoun[], runNouns[] and checks{}`);
  }
  for (const [id, phrases] of Object.entries(d.checks)) {
    if (!okList(phrases)) throw new TemplateError(`${file}: check ${id} needs a non-empty list of phrasings`);
  }
  const languages: Partial<Record<ClaimLanguage, LanguageLexicon>> = {};
  const raw = (d as { languages?: unknown }).languages ?? {};
  if (typeof raw !== 'object' || raw === null) throw new TemplateError(`${file}: "languages" must be an object`);
  for (const [lang, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!(CLAIM_LANGUAGES as readonly string[]).includes(lang)) throw new TemplateError(`${file}: languages.${lang}: unknown language (known: ${CLAIM_LANGUAGES.join(', ')})`);
    const l = v as Partial<LanguageLexicon>;
    const runNouns = l.runNouns ?? [];
    if (!Array.isArray(runNouns) || typeof l.checks !== 'object' || l.checks === null) throw new TemplateError(`${file}: languages.${lang} needs runNouns[] and checks{}`);
    for (const [id, phrases] of Object.entries(l.checks)) {
      if (!Object.hasOwn(d.checks, id)) throw new TemplateError(`${file}: languages.${lang}.checks.${id} is not a check id of this domain`);
      if (!okList(phrases)) throw new TemplateError(`${file}: languages.${lang}.checks.${id} needs a non-empty list of phrasings`);
    }
    languages[lang as ClaimLanguage] = { runNouns, checks: l.checks };
  }
  return { domain, subjectNoun: d.subjectNoun, runNouns: d.runNouns, checks: d.checks, languages };
}

/** All claim lexicons, loaded once at import. Throws TemplateError when a file is broken. */
export const CLAIM_LEXICONS: Readonly<Record<DomainId, ClaimLexicon>> = Object.fromEntries(
  DOMAINS.map((d) => [d, load(d)]),
) as Record<DomainId, ClaimLexicon>;

/** The lexicon of a domain, or undefined for a domain without one. */
export function claimLexicon(domain: string): ClaimLexicon | undefined {
  return (CLAIM_LEXICONS as Record<string, ClaimLexicon | undefined>)[domain];
}

/** Every run noun of every domain, longest first (for matching). */
export const ALL_RUN_NOUNS: readonly string[] = [...new Set(Object.values(CLAIM_LEXICONS).flatMap((l) => l.runNouns))].sort(
  (a, b) => b.length - a.length || a.localeCompare(b),
);

/** Folded run nouns of one language over every domain (for number words and precedent windows); Cyrillic ones also transliterated. */
function runWordsOf(lang: ClaimLanguage): ReadonlySet<string> {
  return new Set(Object.values(CLAIM_LEXICONS).flatMap((l) => (l.languages[lang]?.runNouns ?? []).flatMap((n) => [fold(n), fold(anyAscii(n))])));
}
/** Spanish run nouns, folded ("ejecuciones", "compras"). */
export const ES_RUN_WORDS = runWordsOf('es');
/** German run nouns, folded ("laufe", "kaufe"). */
export const DE_RUN_WORDS = runWordsOf('de');
/** French, Portuguese, Italian and Russian run nouns, folded, Russian also transliterated ("executions", "execucoes", "esecuzioni", "запусках", "zapuskakh"). */
export const INTL_RUN_WORDS: ReadonlySet<string> = new Set((['fr', 'pt', 'it', 'ru'] as const).flatMap((l) => [...runWordsOf(l)]));
