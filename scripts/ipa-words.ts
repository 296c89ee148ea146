/**
 * Writes `templates/lexicons/ipa-words.json`: the ARPAbet pronunciation (CMU Pronouncing
 * Dictionary, the `cmu-pronouncing-dictionary` dev dependency) of every word the IPA operator
 * rewrites: the filter-relevant words and the English words of the claim lexicons (check
 * phrases, run nouns). `npx tsx scripts/ipa-words.ts` writes it; `-- --check` only compares and
 * exits 1 when it differs. The operator and its reader use only these words.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dictionary } from 'cmu-pronouncing-dictionary';
import { CLAIM_LEXICONS, LEXICON_DIR } from '../generators/paraphrase/claim-lexicon.js';
import { TARGET_WORDS } from '../generators/paraphrase/encoding-operators.js';

/** The JSON text of the restricted dictionary. */
export function ipaWordsJson(): string {
  const wanted = new Set<string>(TARGET_WORDS);
  for (const l of Object.values(CLAIM_LEXICONS)) for (const p of [...Object.values(l.checks).flat(), ...l.runNouns]) for (const w of p.toLowerCase().match(/[a-z]+/g) ?? []) wanted.add(w);
  const words: Record<string, string> = {};
  for (const w of [...wanted].sort()) {
    const arpa = (dictionary as Record<string, string | undefined>)[w];
    if (arpa !== undefined) words[w] = arpa;
  }
  return `${JSON.stringify({ source: 'CMU Pronouncing Dictionary (cmu-pronouncing-dictionary 3.0.0), restricted by scripts/ipa-words.ts', words }, null, 1)}\n`;
}

const file = path.join(LEXICON_DIR, 'ipa-words.json');
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const text = ipaWordsJson();
  if (process.argv.includes('--check')) {
    const same = readFileSync(file, 'utf8') === text;
    console.log(same ? `${file} is current` : `${file} differs: run npx tsx scripts/ipa-words.ts`);
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${file} (${Object.keys(JSON.parse(text).words).length} words)`);
  }
}
