/**
 * No comment, message or doc cites "issue N" of a tracker that is not in the repository: a
 * reader cannot look it up, so the sentence must state the rule itself (README "Tests",
 * docs/results/README.md). Scanned: Markdown files and the sources under src/, generators/,
 * bench/, scripts/, examples/ and test/.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SKIP = new Set(['node_modules', 'dist', '.git', 'reports', '.tmp', 'corpora']);
// "issue 12", "issues 7 and 12", "Issue 22.3", "issue 12 point 5"; not "issues" alone or "an issue with".
const CITES = /\bissues? \d+(?:[.]\d+)?\b/i;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(md|ts|mts|mjs|js|py)$/.test(e.name)) out.push(p);
  }
  return out;
}

it('no file cites an issue number', () => {
  const self = path.join(ROOT, 'test/docs/no-tracker-refs.test.ts');
  const files = [...['src', 'generators', 'bench', 'scripts', 'examples', 'test', 'docs', 'templates'].flatMap((d) => walk(path.join(ROOT, d))), path.join(ROOT, 'README.md')].filter((f) => f !== self);
  const found: string[] = [];
  for (const f of files) {
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (CITES.test(line)) found.push(`${path.relative(ROOT, f)}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
  }
  expect(found).toEqual([]);
});

it('the pattern sees a citation and lets ordinary words through', () => {
  expect(CITES.test('as issue 12 point 5 says')).toBe(true);
  expect(CITES.test('(issues 7 and 12)')).toBe(true);
  expect(CITES.test('Issue 22.3: SIGTERM')).toBe(true);
  expect(CITES.test('line-numbered issues plus records')).toBe(false);
  expect(CITES.test('an issue with the file')).toBe(false);
});
