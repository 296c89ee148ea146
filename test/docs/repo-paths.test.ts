/**
 * Every repository path that the docs and the code's messages name exists. Scanned: every
 * Markdown file of the repository (README.md, docs/, the folder READMEs, corpora/, templates/),
 * and the whole text (comments, error messages, help text) of the product code under src/,
 * generators/, bench/, scripts/ and bin/. A path is a token that starts with one of the
 * repository's top-level folders (`src/…`, `docs/…`, …); one with a placeholder (`<guard>`,
 * `*`, `{…}`, `${…}`) is a pattern and is skipped. A `path:N` line reference must point inside
 * the file. Paths of other projects (docs/STYLE.md quotes fast-check's and openai-node's
 * layout) are listed below with the reason.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TOP = ['src', 'generators', 'test', 'bench', 'scripts', 'docs', 'templates', 'corpora', 'examples', 'bin'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'reports', '.tmp', '.stryker-tmp']);
// A path token, the characters that may follow it (to spot placeholders), and an optional :line.
const PATH = new RegExp(`(?<![\\w./@-])((?:${TOP.join('|')})/[\\w./-]*\\w)((?:[-.])?[<*{$])?(?::(\\d+))?`, 'g');

/** Paths that name another project's files, not ours: file → the foreign paths and why. */
const FOREIGN: Record<string, { paths: string[]; why: string }> = {
  'docs/STYLE.md': {
    paths: ['src/fast-check-default.ts', 'src/arbitrary/_internals', 'src/internal', 'src/core/error.ts', 'src/arbitrary/uuid.ts', 'test/e2e/NoRegression.spec.ts', 'scripts/checkArchitectureBoundaries.ts', 'src/middleware'],
    why: 'the style guide quotes the layout of fast-check, openai-node and other projects it learns from',
  },
  'src/domain/errors.ts': { paths: ['src/core/error.ts'], why: "openai-node's error module, which the error tree is modelled on" },
  'docs/catalog.md': { paths: ['src/redteam/constants/strategies.ts', 'src/redteam/strategies/textMutation.ts', 'src/redteam/strategies'], why: "promptfoo's strategy files, which the catalog maps" },
  'generators/paraphrase/catalog.ts': { paths: ['src/redteam/constants/strategies.ts', 'src/redteam/strategies/textMutation.ts', 'src/redteam/strategies'], why: "promptfoo's strategy files, which the catalog maps" },
};

function walk(dir: string, keep: (f: string) => boolean, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, keep, out);
    else if (keep(p)) out.push(p);
  }
  return out;
}

/** `file:line: path` for every named path that does not exist (or whose :line is past the end). */
function missingPaths(files: string[]): string[] {
  const lineCount = new Map<string, number>();
  const lines = (p: string): number => {
    if (!lineCount.has(p)) lineCount.set(p, readFileSync(path.join(ROOT, p), 'utf8').split('\n').length);
    return lineCount.get(p)!;
  };
  const bad: string[] = [];
  for (const file of files) {
    const rel = path.relative(ROOT, file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(PATH)) {
      const [, p, placeholder, lineRef] = m as unknown as [string, string, string, string | undefined];
      if (placeholder || FOREIGN[rel]?.paths.includes(p)) continue;
      const at = `${rel}:${text.slice(0, m.index).split('\n').length}`;
      const abs = path.join(ROOT, p);
      if (!existsSync(abs)) bad.push(`${at}: ${p} does not exist`);
      else if (lineRef && Number(lineRef) > lines(p)) bad.push(`${at}: ${p}:${lineRef} is past the end (${lines(p)} lines)`);
    }
  }
  return bad;
}

describe('repository paths named in docs and messages', () => {
  it('every Markdown file names only paths that exist', () => {
    const md = walk(ROOT, (f) => f.endsWith('.md'));
    expect(md.length).toBeGreaterThan(10);
    expect(missingPaths(md)).toEqual([]);
  });

  it('the product code (comments, errors, help) names only paths that exist', () => {
    const code = ['src', 'generators', 'bench', 'scripts', 'bin'].flatMap((d) => walk(path.join(ROOT, d), (f) => /\.(ts|mts|js|mjs|cjs)$/.test(f)));
    expect(code.length).toBeGreaterThan(50);
    expect(missingPaths(code)).toEqual([]);
  });

  it('the scanner sees a missing path, a placeholder and a line past the end', () => {
    const sample = path.join(ROOT, 'test/docs/repo-paths.test.ts');
    const bad = missingPaths([sample]);
    // This file names 'src/no-such-file.ts' and 'README.md:1' style references only on purpose here:
    expect(bad.some((b) => b.includes('src/no-such-file.ts'))).toBe(true);
    expect(bad.some((b) => b.includes('src/<guard>'))).toBe(false);
    expect(bad.some((b) => b.includes('docs/DESIGN.md:999999'))).toBe(true);
  });
});
// Fixtures for the scanner's own test: src/no-such-file.ts, src/<guard>.ts, docs/DESIGN.md:999999
