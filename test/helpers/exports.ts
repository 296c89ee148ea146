/**
 * Reads the export list of an entry file (`src/index.ts`, `generators/index.ts`) from its
 * source text and finds where each name is declared, following `export { … } from` chains,
 * so a test can pin the public names and check that each one carries a TSDoc comment.
 * Handles the forms the entry files use: `export { a, b as c } from './x.js'` and
 * `export type { … } from`; a declaration is `export [declare] [async] function|const|let|
 * class|abstract class|interface|type|enum NAME`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One exported name: whether it is type-only, and the file that declares it. */
export interface ExportedName {
  name: string;
  typeOnly: boolean;
  /** Repo-relative path of the declaring file. */
  declaredIn: string;
  /** The TSDoc comment right above the declaration, or undefined when there is none. */
  doc: string | undefined;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const REEXPORT = /export\s+(type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g;

function resolveTs(fromFile: string, spec: string): string {
  return path.resolve(path.dirname(fromFile), spec.replace(/\.js$/, '.ts'));
}

/** The TSDoc block that ends on the line right before `index` (blank lines not allowed). */
function docBefore(text: string, index: number): string | undefined {
  const before = text.slice(0, index).replace(/\r?\n$/, '').replace(/[ \t]+$/, '');
  if (!before.endsWith('*/')) return undefined;
  const start = before.lastIndexOf('/**');
  if (start < 0) return undefined;
  const block = before.slice(start);
  // The comment must be one block: no earlier '*/' inside it.
  return block.indexOf('*/') === block.length - 2 ? block : undefined;
}

function findDeclaration(file: string, name: string, seen: Set<string>): { file: string; doc: string | undefined } | undefined {
  const key = `${file}#${name}`;
  if (seen.has(key)) return undefined;
  seen.add(key);
  const text = readFileSync(file, 'utf8');
  const decl = new RegExp(`^export\\s+(?:declare\\s+)?(?:default\\s+)?(?:async\\s+)?(?:abstract\\s+)?(?:function\\*?|const|let|class|interface|type|enum)\\s+${name}\\b`, 'm');
  const m = decl.exec(text);
  if (m) return { file, doc: docBefore(text, m.index) };
  for (const r of text.matchAll(REEXPORT)) {
    for (const part of r[2]!.split(',')) {
      const [orig, alias] = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/);
      if ((alias ?? orig) === name && orig) return findDeclaration(resolveTs(file, r[3]!), orig, seen);
    }
  }
  // `import { name } from './y.js'; export { name };`
  const local = new RegExp(`^export\\s+\\{[^}]*\\b${name}\\b[^}]*\\}\\s*;`, 'm');
  if (local.test(text)) {
    for (const r of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
      const parts = r[1]!.split(',').map((x) => x.trim().replace(/^type\s+/, ''));
      if (parts.includes(name)) return findDeclaration(resolveTs(file, r[2]!), name, seen);
    }
  }
  return undefined;
}

/** Every name an entry file exports, with its declaring file and doc. Throws when a name cannot be traced. */
export function exportedNames(entry: string): ExportedName[] {
  const file = path.resolve(ROOT, entry);
  const text = readFileSync(file, 'utf8');
  const out: ExportedName[] = [];
  for (const r of text.matchAll(REEXPORT)) {
    for (const part of r[2]!.split(',')) {
      const p = part.trim();
      if (!p) continue;
      const [orig, alias] = p.replace(/^type\s+/, '').split(/\s+as\s+/);
      const name = alias ?? orig!;
      const found = findDeclaration(resolveTs(file, r[3]!), orig!, new Set());
      if (!found) throw new Error(`${entry}: cannot find the declaration of ${name} (from ${r[3]})`);
      out.push({ name, typeOnly: Boolean(r[1]) || p.startsWith('type '), declaredIn: path.relative(ROOT, found.file), doc: found.doc });
    }
  }
  return out;
}
