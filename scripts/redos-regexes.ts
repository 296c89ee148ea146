/**
 * The regexes the ReDoS audit covers, collected without running any checker:
 * - the compiled SENTINEL config (each pattern source alone and every combined alternation),
 *   and the KeywordFilter's compiled blocklist;
 * - every regex literal and `new RegExp('literal')` in the source of `src/guards/**` and
 *   `src/domain/keys.ts`, found by parsing the files (rolldown's oxc parser).
 * Shared by `npm run redos-audit` (scripts/redos-audit.ts), which records recheck's verdicts,
 * and test/robustness/redos-audit.test.ts, which checks the record is current and safe.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAst } from 'rolldown/parseAst';
import { DEFAULT_SENTINEL_CONFIG, compileSentinelConfig } from '../src/guards/sentinel/index.js';
import { DEFAULT_KEYWORD_BLOCKLIST } from '../src/guards/baselines/keyword-filter.js';
import { compilePhraseList } from '../src/guards/text/text-match.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/** One audited regex: where it was found, its source and flags. */
export interface Audited {
  where: string;
  source: string;
  flags: string;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...tsFiles(rel));
    else if (/\.ts$/.test(name) && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** Regex literals and `new RegExp('...', '...')` / `RegExp('...')` with literal arguments. */
export function regexesInSource(file: string): Audited[] {
  const ast = parseAst(readFileSync(path.join(ROOT, file), 'utf8'), { lang: 'ts' });
  const found: Audited[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.type === 'Literal' && typeof n.regex === 'object' && n.regex !== null) {
      const r = n.regex as { pattern: string; flags: string };
      found.push({ where: `${file} (literal)`, source: r.pattern, flags: r.flags });
    }
    if ((n.type === 'NewExpression' || n.type === 'CallExpression') && (n.callee as { name?: string } | undefined)?.name === 'RegExp') {
      const [a, b] = n.arguments as Array<{ type: string; value?: unknown }>;
      if (a?.type === 'Literal' && typeof a.value === 'string') {
        found.push({ where: `${file} (new RegExp)`, source: a.value, flags: b?.type === 'Literal' && typeof b.value === 'string' ? b.value : '' });
      }
    }
    for (const v of Object.values(n)) {
      if (Array.isArray(v)) for (const x of v) walk(x);
      else if (typeof v === 'object') walk(v);
    }
  };
  walk(ast);
  return found;
}

export function runtimeRegexes(): Audited[] {
  const out: Audited[] = [];
  const compiled = compileSentinelConfig(DEFAULT_SENTINEL_CONFIG);
  for (const [key, value] of Object.entries(compiled)) {
    const list = value instanceof RegExp ? [value] : Array.isArray(value) ? value.filter((x): x is RegExp => x instanceof RegExp) : [];
    for (const re of list) out.push({ where: `compiled SENTINEL ${key}`, source: re.source, flags: re.flags });
  }
  const c = DEFAULT_SENTINEL_CONFIG;
  for (const key of ['maliciousPatterns', 'precedentPatterns', 'internalClaimPatterns', 'openingPatterns', 'reasoningOpeningPatterns'] as const) {
    for (const s of c[key]) out.push({ where: `SENTINEL ${key}`, source: s, flags: 'g' });
  }
  const kw = compilePhraseList(DEFAULT_KEYWORD_BLOCKLIST);
  if (kw) out.push({ where: 'KeywordFilter blocklist', source: kw.source, flags: kw.flags });
  return out;
}

/** The source files whose regex literals are audited, relative to the repository root. */
export function auditedSourceFiles(): string[] {
  return [...tsFiles('src/guards'), 'src/domain/keys.ts'];
}

/** The key of a regex in the verdict file: `flags/source`. */
export function regexKey(a: { source: string; flags: string }): string {
  return `${a.flags}/${a.source}`;
}

/**
 * Every audited regex, de-duplicated by source + flags, sorted by key; `where` lists every
 * place the regex was found.
 */
export function collectAuditedRegexes(): Array<{ key: string; source: string; flags: string; where: string[] }> {
  const all = [...runtimeRegexes(), ...auditedSourceFiles().flatMap(regexesInSource)];
  const byKey = new Map<string, { key: string; source: string; flags: string; where: string[] }>();
  for (const a of all) {
    const key = regexKey(a);
    const got = byKey.get(key);
    if (got) {
      if (!got.where.includes(a.where)) got.where.push(a.where);
    } else byKey.set(key, { key, source: a.source, flags: a.flags, where: [a.where] });
  }
  return [...byKey.values()].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
}
