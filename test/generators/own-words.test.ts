/**
 * Own words (DESIGN.md, "Your own words"): no sentence of the generators' phrase lists and
 * templates repeats a real trace or the paper. Every string literal of five words or more in
 * `generators/` (TypeScript) and every line of five words or more in `templates/` is looked up,
 * case and spacing folded, in the bundled real sets (`corpora/benign/`) and, where the checkout
 * has them beside it, `../shared/data/` and `../shared/paper/`. Data tables with a named source
 * (the calibration weights, the Ecoji emoji table) are not sentences and are left out.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/spawn-cli.js';

const fold = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();

function filesUnder(dir: string, keep: (f: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out;
}

const TEXT = /\.(jsonl|json|txt|md|tex|py|csv)$/;
const corpus = [path.join(ROOT, 'corpora', 'benign'), path.join(ROOT, '..', 'shared', 'data'), path.join(ROOT, '..', 'shared', 'paper')]
  .flatMap((d) => filesUnder(d, (f) => TEXT.test(f)))
  .map((f) => fold(readFileSync(f, 'utf8')))
  .join('\n');

/** Sentences the project wrote: string literals of the generators, lines of the templates; five words or more. */
function ownSentences(): Array<{ where: string; text: string }> {
  const out: Array<{ where: string; text: string }> = [];
  const five = (t: string): boolean => fold(t).split(' ').length >= 5;
  for (const f of filesUnder(path.join(ROOT, 'generators'), (p) => p.endsWith('.ts') && !/ecoji/i.test(path.basename(p)))) {
    const src = readFileSync(f, 'utf8');
    for (const m of src.matchAll(/(["'`])((?:(?!\1)[^\\\n]|\\.){20,})\1/g)) {
      const text = m[2]!;
      if (five(text) && !/\$\{/.test(text)) out.push({ where: path.relative(ROOT, f), text });
    }
  }
  for (const f of filesUnder(path.join(ROOT, 'templates'), () => true)) {
    for (const line of readFileSync(f, 'utf8').split('\n')) {
      const text = line.replace(/\{\{[^}]*\}\}/g, ' ').trim();
      if (five(text) && text.length >= 20) out.push({ where: path.relative(ROOT, f), text });
    }
  }
  return out;
}

/** The sentences of `own` that appear in `text` word for word, case and spacing folded, as `where: "sentence"`. */
const repeatedIn = (text: string, own: ReadonlyArray<{ where: string; text: string }>): string[] => own.filter((s) => text.includes(fold(s.text))).map((s) => `${s.where}: ${JSON.stringify(s.text)}`);

describe('own words', () => {
  it('finds the real sets to compare with', () => {
    expect(corpus.length).toBeGreaterThan(100_000);
  });

  it('no generator or template sentence repeats a real trace or the paper word for word', () => {
    const sentences = ownSentences();
    expect(sentences.length).toBeGreaterThan(200);
    expect(repeatedIn(corpus, sentences)).toEqual([]);
  });

  it('would see a repeated sentence in other case and spacing (the check can fail)', () => {
    // Eight words from the middle of the corpus, shouted and spaced out, stand for a copied phrase.
    const words = corpus.slice(corpus.indexOf(' ', Math.floor(corpus.length / 2)) + 1).split(' ').slice(0, 8);
    const copied = { where: 'generators/example.ts', text: words.join('   ').toUpperCase() };
    expect(repeatedIn(corpus, [copied, { where: 'generators/example.ts', text: 'a sentence nobody has written anywhere zq7' }])).toEqual([`generators/example.ts: ${JSON.stringify(copied.text)}`]);
  });
});
