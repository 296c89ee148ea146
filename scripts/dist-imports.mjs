#!/usr/bin/env node
/**
 * `npm run dist-imports`: lists every package the shipped code (dist/ and bin/) loads, and
 * checks package.json against it:
 * - every package loaded is a `dependency` or an optional `peerDependency`;
 * - every `dependency` is loaded by the shipped code (a dev-only tool belongs in devDependencies);
 * - an optional peer is loaded only by `import()`, never by a static import, so a project
 *   without it can still load farma-fuzz.
 * Static and dynamic imports are read with es-module-lexer; `require('pkg')` calls (through
 * `createRequire`, e.g. for data packages) by a pattern. Node built-ins are left out.
 *
 * Usage: npm run build && npm run dist-imports [-- --json] [-- --dist <dir>]
 * Exit code: 0 when package.json agrees with the code, 1 when it does not (each problem is named), 2 when dist/ is missing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { init, parse } from 'es-module-lexer';

const ROOT = path.resolve(import.meta.dirname, '..');
const distAt = process.argv.indexOf('--dist');
/** The shipped folders: dist/ (or the build named by `--dist <dir>`) and bin/. */
const SHIPPED = [distAt > -1 && process.argv[distAt + 1] ? path.resolve(process.argv[distAt + 1]) : path.join(ROOT, 'dist'), path.join(ROOT, 'bin')];

/** The package name of a bare specifier (`@scope/name/sub` → `@scope/name`), or undefined for a relative path or a built-in. */
function packageOf(spec) {
  if (!spec || spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.startsWith('file:')) return undefined;
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
  return builtinModules.includes(name) ? undefined : name;
}

function* jsFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* jsFiles(p);
    else if (/\.[cm]?js$/.test(e.name) && !/\.test\.[cm]?js$/.test(e.name)) yield p;
  }
}

/** Map package → { how: Set<'static'|'dynamic'|'require'>, files: Set<string> } over the shipped files. */
async function shippedImports() {
  await init;
  const found = new Map();
  const note = (spec, how, file) => {
    const pkg = packageOf(spec);
    if (!pkg) return;
    const f = found.get(pkg) ?? { how: new Set(), files: new Set() };
    f.how.add(how);
    f.files.add(path.relative(ROOT, file).replace(/^(\.\.\/)+.*?\/dist\//, 'dist/'));
    found.set(pkg, f);
  };
  for (const top of SHIPPED) {
    for (const file of jsFiles(top)) {
      const text = readFileSync(file, 'utf8');
      const [imports] = parse(text, file);
      for (const i of imports) {
        // t: 1 static, 2 dynamic import(); a dynamic import of a computed name has no `n`.
        if (i.n !== undefined) note(i.n, i.d > -1 ? 'dynamic' : 'static', file);
      }
      for (const m of text.matchAll(/\brequire\(\s*(['"])([^'"\n]+)\1\s*\)/g)) note(m[2], 'require', file);
    }
  }
  return found;
}

const missingDist = SHIPPED.filter((d) => !existsSync(d));
if (missingDist.length > 0) {
  console.error(`dist-imports: ${missingDist.join(', ')} missing: run npm run build first`);
  process.exit(2);
}
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const deps = Object.keys(pkg.dependencies ?? {});
const optionalPeers = Object.keys(pkg.peerDependencies ?? {}).filter((p) => pkg.peerDependenciesMeta?.[p]?.optional === true);
const found = await shippedImports();

const problems = [];
for (const [name, f] of found) {
  if (name === pkg.name) continue; // self-reference
  if (optionalPeers.includes(name)) {
    if (f.how.has('static')) problems.push(`${name} is an optional peer dependency but is imported statically (${[...f.files].join(', ')}): load it with import() so a project without it still loads farma-fuzz`);
  } else if (!deps.includes(name)) {
    problems.push(`${name} is loaded by ${[...f.files].join(', ')} but is not in dependencies`);
  }
}
for (const d of deps) if (!found.has(d)) problems.push(`${d} is in dependencies but dist/ and bin/ never load it: move it to devDependencies`);

if (process.argv.includes('--json')) {
  const rows = Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, f]) => [n, { how: [...f.how].sort(), files: [...f.files].sort() }]));
  process.stdout.write(`${JSON.stringify({ packages: rows, problems }, null, 2)}\n`);
} else {
  const rows = [...found].sort(([a], [b]) => (a < b ? -1 : 1));
  const w = Math.max(...rows.map(([n]) => n.length));
  for (const [n, f] of rows) {
    const kind = deps.includes(n) ? 'dependency' : optionalPeers.includes(n) ? 'optional peer' : 'UNDECLARED';
    console.log(`${n.padEnd(w)}  ${kind.padEnd(13)}  ${[...f.how].sort().join('+').padEnd(14)}  ${f.files.size} file${f.files.size === 1 ? '' : 's'} (${[...f.files][0]}${f.files.size > 1 ? ', …' : ''})`);
  }
  console.log(problems.length === 0 ? `\n${rows.length} packages loaded by dist/ and bin/; package.json agrees.` : `\n${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `- ${p}`).join('\n')}`);
}
process.exit(problems.length === 0 ? 0 : 1);
