/**
 * The catalog operators (`cipher-operators.ts`, `noise-operators.ts`,
 * `record-operators.ts`, `script-operators.ts`, `word-operators.ts`) and the catalog coverage matrix (`catalog.ts`): each operator keeps the
 * claim of the probe texts and still loses it on their negated, supposed and unticked twins;
 * each declares its reading; the matrix names real operators, covers each catalog, and
 * `docs/catalog.md` lists every entry. (Claim keeping on generated attacks and templates, and
 * pair composition, are the registry-wide tests of paraphrase-operators and paraphrase-pairs.)
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { DOMAINS } from '../../src/domain/index.js';
import { amplificationChain, seedTrace } from '../../generators/farma.js';
import { applyOperators, precedentRule } from '../../generators/paraphrase/operators.js';
import type { OperatorChoice } from '../../generators/paraphrase/operators.js';
import { runs } from '../helpers/tier.js';
import type { MemoryEntry } from '../../src/domain/index.js';
import { CIPHER_OPERATORS } from '../../generators/paraphrase/cipher-operators.js';
import { NOISE_OPERATORS } from '../../generators/paraphrase/noise-operators.js';
import { RECORD_OPERATORS } from '../../generators/paraphrase/record-operators.js';
import { SCRIPT_OPERATORS } from '../../generators/paraphrase/script-operators.js';
import { WORD_OPERATORS } from '../../generators/paraphrase/word-operators.js';
import { OPERATORS, WITHHELD_OPERATORS, isOperatorId } from '../../generators/paraphrase/operators.js';
import type { Operator } from '../../generators/paraphrase/operator.js';
import { claimPreserved, recoverClaim } from '../../generators/paraphrase/claim-check.js';
import { CATALOG, CATALOGS, catalogCounts, isWithheld } from '../../generators/paraphrase/catalog.js';
import { probeBasesFor } from '../fixtures/catalog-probes.js';

const entry = (content: string): MemoryEntry => ({ id: 'c', store: 'reasoning', content, source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: '2026-03-14T09:30:00.000Z' });
const ADDED: Operator[] = [...Object.values(CIPHER_OPERATORS), ...Object.values(NOISE_OPERATORS), ...Object.values(RECORD_OPERATORS), ...Object.values(SCRIPT_OPERATORS), ...Object.values(WORD_OPERATORS)];

describe('catalog operators', () => {
  test('are registered under their ids (or listed as withheld) and each declares a reading and a kind', () => {
    expect(ADDED.length).toBeGreaterThanOrEqual(50);
    for (const op of ADDED) {
      const registered = isOperatorId(op.id);
      expect(registered !== isWithheld(op.id), `${op.id}: registered xor withheld`).toBe(true);
      expect(registered ? OPERATORS[op.id as keyof typeof OPERATORS] : WITHHELD_OPERATORS[op.id as keyof typeof WITHHELD_OPERATORS]).toBe(op);
      expect(['natural', 'encoded'], op.id).toContain(op.reading);
      expect(op.kinds?.length ?? 0, op.id).toBeGreaterThan(0);
    }
  });

  test.each(ADDED.map((op) => [op.id, op] as const))('%s keeps the probe claims and refuses their negated, supposed and unticked twins', (_id, op) => {
    const rule = op.preserves.includes('precedent') ? 'exact' : 'count';
    let changed = false;
    for (const b of probeBasesFor(op)) {
      for (let choice = 0; choice < 4; choice++) {
        const ctx = { domain: b.domain, claim: b.claim };
        const kept = op.apply(entry(b.carrying), choice, ctx);
        const keptList = Array.isArray(kept) ? kept : [kept];
        changed ||= keptList.some((e) => e.content !== b.carrying);
        expect(claimPreserved(b.domain, b.claim, keptList, rule), `${op.id}(${choice}) lost: ${keptList.map((e) => e.content).join(' || ')}\n${JSON.stringify(recoverClaim(b.domain, keptList[0]?.content ?? ''))}`).toBe(true);
        for (const [twinIs, text] of Object.entries(b.twins)) {
          const out = op.apply(entry(text), choice, ctx);
          const outList = Array.isArray(out) ? out : [out];
          changed ||= outList.some((e) => e.content !== text);
          expect(claimPreserved(b.domain, b.claim, outList, rule, { original: b.carrying }), `${op.id}(${choice}) kept a ${twinIs} twin: ${outList.map((e) => e.content).join(' || ')}`).toBe(false);
        }
      }
    }
    expect(changed, `${op.id} changed no probe text`).toBe(true);
  });
});

describe('Chinese character swaps on Chinese text', () => {
  const forged = fc.oneof(...DOMAINS.flatMap((d) => [seedTrace(d), amplificationChain(d, { maxSeeds: 3, maxCycles: 4 })]));
  test.each([
    ['translate-zh', 'zh-homophone'],
    ['translate-zh', 'zh-morphonym'],
    ['code-switch', 'zh-homophone'],
    ['code-switch', 'zh-morphonym'],
  ] as const)(`%s then %s keeps the claim of generated attacks, and rewrites the Chinese check names (${runs(60, 10)} cases)`, (first, swap) => {
    let rewritten = 0;
    fc.assert(
      fc.property(forged, fc.nat(1023), fc.nat(1023), (c, a, b) => {
        const ctx = { domain: c.truth.domain as (typeof DOMAINS)[number], claim: c.truth.claim ?? { subject: '', checks: [] }, storeSize: c.setup?.length ?? 0 };
        const ops: OperatorChoice[] = [{ op: first, choice: a }, { op: swap, choice: b }];
        const before = applyOperators(c.entry, ops.slice(0, 1), ctx);
        const out = applyOperators(c.entry, ops, ctx);
        if (out.map((e) => e.content).join('\n') !== before.map((e) => e.content).join('\n')) rewritten++;
        expect(claimPreserved(ctx.domain, ctx.claim, out, precedentRule(ops)), out.map((e) => e.content).join(' || ')).toBe(true);
      }),
      { numRuns: runs(60, 10), seed: 20261202 },
    );
    expect(rewritten, 'no Chinese check name was rewritten').toBeGreaterThan(0);
  });
});

describe('catalog coverage matrix', () => {
  test('names every catalog, each entry once, mapped entries with registered operators', () => {
    const counts = catalogCounts();
    expect(counts.map((c) => c.catalog)).toEqual([...CATALOGS]);
    for (const c of counts) expect(c.total, c.catalog).toBeGreaterThanOrEqual(40);
    const seen = new Set<string>();
    for (const e of CATALOG) {
      const key = `${e.catalog}/${e.name}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      if (e.coverage.status === 'mapped') {
        expect(e.coverage.operators.length, key).toBeGreaterThan(0);
        for (const id of e.coverage.operators) expect(isOperatorId(id) || isWithheld(id), `${key}: ${id}`).toBe(true);
      }
      if (e.coverage.status === 'gap') expect(e.coverage.why.length, key).toBeGreaterThan(10);
    }
  });

  test('docs/catalog.md lists every entry of the matrix', () => {
    const doc = readFileSync(new URL('../../docs/catalog.md', import.meta.url), 'utf8');
    for (const e of CATALOG) expect(doc.includes(`| ${e.catalog} | ${e.name} |`), `${e.catalog} ${e.name}`).toBe(true);
  });
});

describe('list operators --catalog', () => {
  const ROOT = path.resolve(import.meta.dirname, '../..');
  const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });

  test('prints the counts per catalog and every entry', () => {
    const r = cli('list', 'operators', '--catalog');
    expect(r.status, r.stderr).toBe(0);
    for (const c of catalogCounts()) expect(r.stdout).toMatch(new RegExp(`^${c.catalog}\\s+${c.total}\\s+${c.mapped}\\s+${c.withheld}\\s+${c.llm}\\s+${c.family}\\s+${c.gap}\\s`, 'm'));
    for (const e of CATALOG) expect(r.stdout, e.name).toContain(`${e.catalog.padEnd(11)} ${e.name}`);
  });

  test('--catalog with another kind is a usage error naming the flag', () => {
    const r = cli('list', 'guards', '--catalog');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('--catalog goes with "operators"');
  });
});
