/**
 * Robustness: no ReDoS in guard regexes (issue 7). Every regex a guard uses is audited with
 * recheck (npm `recheck`, native checker):
 * - the compiled SENTINEL config (each pattern source alone and every combined alternation),
 *   and the KeywordFilter's compiled blocklist;
 * - every regex literal and `new RegExp('literal')` in the source of `src/guards/**` and
 *   `src/domain/keys.ts`, collected by parsing the files (rolldown's oxc parser).
 * A regex passes when recheck proves it safe. When recheck's fuzzer reports an attack, the
 * attack string is run on V8's engine: the test fails if it takes longer than 100 ms (the
 * fuzzer counts backtracking steps of its own engine, which may not carry over to V8).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { check, type Diagnostics } from 'recheck';
import { parseAst } from 'rolldown/parseAst';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SENTINEL_CONFIG, compileSentinelConfig } from '../../src/guards/sentinel/index.js';
import { DEFAULT_KEYWORD_BLOCKLIST } from '../../src/guards/baselines/keyword-filter.js';
import { compilePhraseList } from '../../src/guards/text/text-match.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

interface Audited {
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
function regexesInSource(file: string): Audited[] {
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

function runtimeRegexes(): Audited[] {
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

/** Times the attack string on V8 (all matches of a global copy), ms. */
function v8Ms(a: Audited, attack: string): number {
  const re = new RegExp(a.source, a.flags.includes('g') ? a.flags : `${a.flags}g`);
  const t0 = performance.now();
  for (const _ of attack.matchAll(re)) {
    // drain
  }
  return performance.now() - t0;
}

const V8_BOUND_MS = 100;

describe('ReDoS audit of guard regexes (recheck)', () => {
  const staticOnes = [...tsFiles('src/guards'), 'src/domain/keys.ts'].flatMap(regexesInSource);
  const all = [...runtimeRegexes(), ...staticOnes];
  // De-duplicate identical source+flags.
  const unique = [...new Map(all.map((a) => [`${a.flags}/${a.source}`, a])).values()];

  it('collects the regexes of SENTINEL, KeywordFilter, A-MemGuard, the adapters and the key extractor', () => {
    expect(staticOnes.some((a) => a.where.startsWith('src/domain/keys.ts'))).toBe(true);
    expect(staticOnes.some((a) => a.where.startsWith('src/guards/amemguard'))).toBe(true);
    expect(all.some((a) => a.where.startsWith('compiled SENTINEL forgeryRe'))).toBe(true);
    expect(all.some((a) => a.where === 'KeywordFilter blocklist')).toBe(true);
    expect(unique.length).toBeGreaterThan(20);
  });

  it('every regex is safe (recheck), or its reported attack runs in under 100 ms on V8', async () => {
    const results: Array<{ a: Audited; d: Diagnostics }> = [];
    // Four checks at a time keep the audit well under 20 s on two cores.
    for (let i = 0; i < unique.length; i += 4) {
      const batch = unique.slice(i, i + 4);
      results.push(...(await Promise.all(batch.map(async (a) => ({ a, d: await check(a.source, a.flags, { randomSeed: 7, timeout: 8000 }) })))));
    }
    const problems: string[] = [];
    for (const { a, d } of results) {
      if (d.status === 'safe') continue;
      if (d.status === 'unknown') {
        problems.push(`${a.where}: recheck could not decide (${d.error.kind}) for /${a.source.slice(0, 80)}/${a.flags}`);
        continue;
      }
      const ms = v8Ms(a, d.attack.string);
      if (ms > V8_BOUND_MS) problems.push(`${a.where}: ${d.complexity.summary}, attack ${d.attack.pattern} took ${ms.toFixed(0)} ms on V8`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  }, 60_000);
});
