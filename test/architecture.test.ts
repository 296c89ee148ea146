/**
 * Import boundaries (DESIGN.md "Layout and direction of imports", docs/STYLE.md §6), checked by
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

  it('src/domain imports nothing outside src/domain (and no package but zod, for the schemas at the edges, and leven, for did-you-mean)', () => {
    for (const f of files('src/domain')) {
      for (const s of imports(f)) {
        const t = target(f, s);
        expect(t.startsWith('src/domain/') || t.startsWith('node:') || t === 'zod' || t === 'leven', `${f} imports ${s}`).toBe(true);
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

// ---------------------------------------------------------------------------------------------
// Folder rules, cycles and guard folders: the rule of every folder README, as data.
// A folder that gains a README must gain a rule here, so no folder goes unchecked.
// ---------------------------------------------------------------------------------------------
import { foldersWithReadme, importCycles, ruleViolations, sourceFiles, type FolderRule } from './helpers/import-graph.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const GUARD_FOLDERS = ['src/guards/sentinel', 'src/guards/baselines', 'src/guards/amemguard', 'src/guards/adapters'];

/** What each folder may import from the project, as its README says (its own folder always). */
export const FOLDER_RULES: readonly FolderRule[] = [
  { folder: 'src', mayImport: ['src'] }, // index.ts: the public API, over the engine only
  { folder: 'src/domain', mayImport: [] },
  { folder: 'src/memory', mayImport: ['src/domain'] },
  { folder: 'src/metrics', mayImport: [] },
  { folder: 'src/llm', mayImport: ['src/domain'] },
  { folder: 'src/corpus', mayImport: ['src/domain'] },
  { folder: 'src/config', mayImport: ['src/domain', 'src/guards/adapters/import-module.ts'] },
  { folder: 'src/fuzz', mayImport: ['src/domain', 'src/corpus', 'src/metrics'] },
  { folder: 'src/report', mayImport: ['src/domain', 'src/fuzz', 'src/metrics'] },
  // Where generators meet the engine: the runs the commands start (fuzz campaign, fpr, ...).
  // guard-options.ts: the --guard-option flags of a replay command (no guard implementation).
  { folder: 'src/campaign', mayImport: ['src/domain', 'src/fuzz', 'src/corpus', 'src/metrics', 'src/report', 'src/llm', 'src/eval', 'src/agents', 'generators', 'src/guards/guard-options.ts'] },
  { folder: 'src/agents', mayImport: ['src/domain', 'src/memory', 'src/llm'] },
  { folder: 'src/eval', mayImport: ['src/domain', 'src/memory', 'src/metrics', 'src/agents', 'src/llm'] },
  // registry.ts / resolve.ts reach each guard folder through its index.ts only.
  { folder: 'src/guards', mayImport: ['src/domain', ...GUARD_FOLDERS.map((g) => `${g}/index.ts`)] },
  { folder: 'src/guards/text', mayImport: ['src/domain'] },
  { folder: 'src/guards/sentinel', mayImport: ['src/domain', 'src/guards/text'] },
  { folder: 'src/guards/baselines', mayImport: ['src/domain', 'src/guards/text'] },
  { folder: 'src/guards/amemguard', mayImport: ['src/domain', 'src/guards/text'] },
  { folder: 'src/guards/adapters', mayImport: ['src/domain'] },
  { folder: 'src/cli', mayImport: ['*'] },
  { folder: 'src/cli/commands', mayImport: ['*'] },
  { folder: 'generators', mayImport: ['src/domain', 'src/llm', 'generators/paraphrase', 'generators/claims', 'templates'] },
  { folder: 'generators/claims', mayImport: ['src/domain'] },
  { folder: 'generators/paraphrase', mayImport: ['src/domain', 'generators/claims', 'templates/lexicons'] },
];

describe('folder rules, cycles and guard folders', () => {
  const files = [...sourceFiles(ROOT, 'src'), ...sourceFiles(ROOT, 'generators')];

  it('every folder with a README has a rule, and every rule a README', () => {
    const withReadme = [...foldersWithReadme(ROOT, 'src'), ...foldersWithReadme(ROOT, 'generators')].sort();
    expect(FOLDER_RULES.map((r) => r.folder).sort()).toEqual(withReadme);
  });

  it("every file imports only what its folder's README allows", () => {
    expect(ruleViolations(ROOT, files, FOLDER_RULES)).toEqual([]);
  });

  it('no import cycles among the source files (run-time imports)', () => {
    expect(importCycles(ROOT, files)).toEqual([]);
  });

  it('no folder-level cycle between generators/ and its subfolders', () => {
    const folderOf = (f: string) => f.slice(0, f.lastIndexOf('/'));
    const edges = new Set<string>();
    for (const f of sourceFiles(ROOT, 'generators')) {
      for (const s of imports(f)) {
        const t = target(f, s).replace(/\.js$/, '.ts');
        if (t.startsWith('generators/') && folderOf(t) !== folderOf(f)) edges.add(`${folderOf(f)} -> ${folderOf(t)}`);
      }
    }
    for (const e of edges) {
      const [a, b] = e.split(' -> ');
      expect(edges.has(`${b} -> ${a}`), `${e} and back`).toBe(false);
    }
  });

  describe('the checker catches what it is for', () => {
    let dir: string;
    const plant = (files: Record<string, string>): string => {
      dir = mkdtempSync(path.join(tmpdir(), 'farma-arch-'));
      for (const [f, text] of Object.entries(files)) {
        mkdirSync(path.join(dir, path.dirname(f)), { recursive: true });
        writeFileSync(path.join(dir, f), text);
      }
      return dir;
    };
    const cleanup = () => rmSync(dir, { recursive: true, force: true });

    it('a planted cycle is found; a type-only back edge is not a cycle', () => {
      const root = plant({
        'src/report/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
        'src/report/b.ts': "import { a } from './a.js';\nexport const b = 1;\nexport const c = a;\n",
        'src/report/c.ts': "import type { d } from './d.js';\nexport const c = 1;\n",
        'src/report/d.ts': "import { c } from './c.js';\nexport const d = c;\n",
      });
      try {
        expect(importCycles(root, sourceFiles(root, 'src'))).toEqual([['src/report/a.ts', 'src/report/b.ts']]);
      } finally {
        cleanup();
      }
    });

    it('a planted forbidden import is reported: a guard importing generators, a guard reaching into another guard', () => {
      const root = plant({
        'src/guards/sentinel/x.ts': "import { seedTrace } from '../../../generators/farma.js';\nexport const x = seedTrace;\n",
        'src/guards/baselines/y.ts': "import { normalizeText } from '../sentinel/text-match.js';\nimport { ok } from '../text/text-match.js';\nexport const y = [normalizeText, ok];\n",
        'src/guards/registry.ts': "import { createSentinel } from './sentinel/sentinel.js';\nimport { z } from './sentinel/index.js';\nexport const r = [createSentinel, z];\n",
        'src/domain/e.ts': "export * from '../memory/store.js';\n",
      });
      try {
        expect(ruleViolations(root, sourceFiles(root, 'src'), FOLDER_RULES).sort()).toEqual([
          'src/domain/e.ts -> src/memory/store.ts',
          'src/guards/baselines/y.ts -> src/guards/sentinel/text-match.ts',
          'src/guards/registry.ts -> src/guards/sentinel/sentinel.ts',
          'src/guards/sentinel/x.ts -> generators/farma.ts',
        ].sort());
      } finally {
        cleanup();
      }
    });

    it('a file in a folder without a rule is reported', () => {
      const root = plant({ 'src/newfolder/z.ts': 'export const z = 1;\n' });
      try {
        expect(ruleViolations(root, sourceFiles(root, 'src'), FOLDER_RULES.filter((r) => r.folder !== 'src'))).toEqual(['src/newfolder/z.ts: no folder rule']);
      } finally {
        cleanup();
      }
    });
  });
});

describe('one home per default', () => {
  it('the CLI spells no run default as a literal: timeouts, runs, failures, concurrency, re-checks and cell time come from RUN_DEFAULTS', () => {
    const offenders: string[] = [];
    // src/cli/options.ts is the one place the shared flags are built (from RUN_DEFAULTS).
    for (const f of sourceFiles(ROOT, 'src/cli').filter((x) => x !== 'src/cli/options.ts')) {
      const text = readFileSync(path.join(ROOT, f), 'utf8');
      for (const [i, line] of text.split('\n').entries()) {
        if (/'--timeout <ms>'|positiveInt\('--(timeout|concurrency|recheck|cell-time|max-failures)'[^)]*,\s*\d+\s*[,)]|\?\?\s*(8|3|600)\b|'(5000|1000)'\)/.test(line)) offenders.push(`${f}:${i + 1}: ${line.trim()}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('tests reach the engine, not the CLI', () => {
  /** Test files that may import src/cli/commands/: the CLI's own tests. */
  const CLI_TESTS = (f: string): boolean => f.startsWith('test/cli/');
  const importsCommands = (file: string): boolean =>
    imports(file).some((s) => (s.startsWith('.') ? target(file, s) : s).replace(/\.(m?)js$/, '.$1ts').startsWith('src/cli/commands/'));

  it('no test file outside test/cli imports src/cli/commands/', () => {
    const offenders = sourceFiles(ROOT, 'test').filter((f) => !CLI_TESTS(f) && importsCommands(f));
    expect(offenders).toEqual([]);
  });

  it('the check sees such an import: the CLI tests that do import commands are found, and let through', () => {
    const all = sourceFiles(ROOT, 'test');
    const importing = all.filter(importsCommands);
    expect(importing).toContain('test/cli/search-command.test.ts');
    expect(importing).toContain('test/cli/eval-command.test.ts');
    expect(importing.every(CLI_TESTS)).toBe(true);
    expect(CLI_TESTS('test/fuzz/golden-run.test.ts')).toBe(false);
  });
});
