/**
 * Import boundaries (DESIGN.md "Layout and direction of imports", STYLE.md §6), checked by
 * reading the import lines of every source file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...files(rel));
    else if (/\.(ts|mts)$/.test(name)) out.push(rel);
  }
  return out;
}

/** Module specifiers imported by a file (static imports, re-exports and dynamic imports of literals). */
function imports(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) specs.push(m[1]!);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) specs.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]!);
  return specs;
}

/** Resolves a relative specifier to a repo-relative path; bare specifiers are returned as is. */
function target(file: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  return path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec)).split(path.sep).join('/');
}

const NODE_OR_BARE = (t: string): boolean => !t.startsWith('src/') && !t.startsWith('generators/') && !t.startsWith('templates/') && !t.startsWith('test/');

describe('import boundaries', () => {
  const source = [...files('src'), ...files('generators')];

  it('finds the source files', () => {
    expect(source.length).toBeGreaterThan(20);
  });

  it('src/domain imports nothing outside src/domain (and no package but zod, for the schemas at the edges)', () => {
    for (const f of files('src/domain')) {
      for (const s of imports(f)) {
        const t = target(f, s);
        expect(t.startsWith('src/domain/') || t.startsWith('node:') || t === 'zod', `${f} imports ${s}`).toBe(true);
      }
    }
  });

  it('guards import only src/domain (and packages), never generators, src/llm or other engine parts', () => {
    for (const f of files('src/guards')) {
      for (const s of imports(f)) {
        const t = target(f, s);
        if (NODE_OR_BARE(t)) {
          expect(t, `${f} imports ${s}`).not.toBe('openai');
          expect(t, `${f} imports ${s}`).not.toBe('handlebars');
          continue;
        }
        expect(t.startsWith('src/domain/') || t.startsWith('src/guards/'), `${f} imports ${s}`).toBe(true);
      }
    }
  });

  it('generators import only src/domain, src/llm and generators (never a guard)', () => {
    for (const f of files('generators')) {
      for (const s of imports(f)) {
        const t = target(f, s);
        if (NODE_OR_BARE(t)) continue;
        expect(t.startsWith('src/domain/') || t.startsWith('src/llm/') || t.startsWith('generators/'), `${f} imports ${s}`).toBe(true);
      }
    }
  });

  it('src/fuzz never imports generators or a guard implementation', () => {
    for (const f of files('src/fuzz')) {
      for (const s of imports(f)) {
        const t = target(f, s);
        expect(t.startsWith('generators/') || (t.startsWith('src/guards/') && !t.endsWith('.d.ts')), `${f} imports ${s}`).toBe(false);
      }
    }
  });

  it('only src/llm imports openai; only generators/templates.ts imports handlebars', () => {
    for (const f of source) {
      for (const s of imports(f)) {
        if (s === 'openai' || s.startsWith('openai/')) expect(f.startsWith('src/llm/'), `${f} imports openai`).toBe(true);
        if (s === 'handlebars') expect(f, `${f} imports handlebars`).toBe('generators/templates.ts');
      }
    }
  });

  it('only src/cli sets exit codes or calls process.exit', () => {
    for (const f of source) {
      if (f.startsWith('src/cli/')) continue;
      const text = readFileSync(path.join(ROOT, f), 'utf8');
      expect(/process\.exit\s*\(|process\.exitCode\s*=/.test(text), `${f} touches the exit code`).toBe(false);
    }
  });
});
