/**
 * A small reader of the project's import graph, for the architecture test: which project files
 * each source file imports (static imports, re-exports and literal dynamic imports), the
 * folder rules of the READMEs, and import cycles (Tarjan's strongly connected components).
 * It reads text, so it sees exactly what a reviewer sees in the import lines.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface ImportEdge {
  from: string;
  /** Repo-relative path of the imported file (`.ts`), or the bare specifier of a package. */
  to: string;
  /** True for `import type` / `export type` lines, which vanish at run time. */
  typeOnly: boolean;
}

/** Repo-relative `.ts`/`.mts` files under `dir` (declaration files excluded), sorted. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return out;
  for (const name of readdirSync(abs).sort()) {
    const rel = path.join(dir, name).split(path.sep).join('/');
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sourceFiles(root, rel));
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The import edges of one file. Relative specifiers are resolved to repo-relative `.ts` paths. */
function importsOf(root: string, file: string): ImportEdge[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const edges: ImportEdge[] = [];
  const add = (spec: string, typeOnly: boolean): void => {
    if (!spec.startsWith('.')) {
      edges.push({ from: file, to: spec, typeOnly });
      return;
    }
    const rel = path.relative(root, path.resolve(root, path.dirname(file), spec)).split(path.sep).join('/');
    // NodeNext imports name the emitted `.js`; the source is the `.ts` beside it.
    edges.push({ from: file, to: rel.replace(/\.(m?)js$/, '.$1ts'), typeOnly });
  };
  for (const m of text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?[^'";]*?from\s*['"]([^'"]+)['"]/g)) add(m[3]!, m[2] !== undefined);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) add(m[1]!, false);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) add(m[1]!, false);
  return edges;
}

/**
 * Import cycles among the given files, over run-time (non type-only) edges: each cycle is a
 * strongly connected component of two or more files (or a file importing itself), sorted.
 */
export function importCycles(root: string, files: readonly string[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const f of files) graph.set(f, []);
  for (const f of files) {
    for (const e of importsOf(root, f)) if (!e.typeOnly && graph.has(e.to)) graph.get(f)!.push(e.to);
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

/**
 * A folder's import rule, as its README states it: the project folders its files may import
 * (a file may always import its own folder; `*` means anything), and for guard folders
 * whether other guard folders are off limits.
 */
export interface FolderRule {
  folder: string;
  mayImport: readonly string[];
}

/** The rule that governs a file: the one of the deepest folder that contains it. */
function ruleFor(file: string, rules: readonly FolderRule[]): FolderRule | undefined {
  let best: FolderRule | undefined;
  for (const r of rules) {
    if (file.startsWith(`${r.folder}/`) && (best === undefined || r.folder.length > best.folder.length)) best = r;
  }
  return best;
}

/** True when `target` (a repo-relative path) is inside `folder` or one of its subfolders. */
function inside(target: string, folder: string): boolean {
  return target.startsWith(`${folder}/`);
}

/**
 * Violations of the folder rules: each project import (paths under `src/`, `generators/`,
 * `templates/`) that the importing file's rule does not allow, as `from -> to`.
 */
export function ruleViolations(root: string, files: readonly string[], rules: readonly FolderRule[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const rule = ruleFor(f, rules);
    if (rule === undefined) {
      out.push(`${f}: no folder rule`);
      continue;
    }
    if (rule.mayImport.includes('*')) continue;
    for (const e of importsOf(root, f)) {
      if (!/^(src|generators|templates)\//.test(e.to)) continue;
      if (inside(e.to, rule.folder) && ruleFor(e.to, rules) === rule) continue;
      if (rule.mayImport.some((allowed) => inside(e.to, allowed) || e.to === allowed)) continue;
      out.push(`${f} -> ${e.to}`);
    }
  }
  return out;
}

/** The folders that hold a README.md under `dir` (repo-relative), sorted. */
export function foldersWithReadme(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const abs = path.join(root, rel);
    if (existsSync(path.join(abs, 'README.md'))) out.push(rel);
    for (const name of readdirSync(abs).sort()) if (statSync(path.join(abs, name)).isDirectory()) walk(`${rel}/${name}`);
  };
  if (existsSync(path.join(root, dir))) walk(dir);
  return out;
}
