/**
 * Robustness: odd input is handled: empty strings, lone surrogates, NUL, a
 * 100,000-character line, and every Unicode normalization form (NFC, NFD, NFKC, NFKD).
 * Each goes through SENTINEL (both paths), the KeywordFilter, the SQLite store (insert, get,
 * search), the `check` command's JSON output and the regression-corpus round trip.
 * SENTINEL and the KeywordFilter normalise with NFKC, so the four forms of one text must get
 * one decision; a difference would be a normalisation bypass (a finding, not a tuning target).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/domain/entry.js';
import type { Phase } from '../../src/domain/guard.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { appendRegressions, loadRegressions, newRegressionRecord, regressionFile } from '../../src/corpus/regressions.js';
import { createGuard } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_REGISTRY } from '../../generators/families.js';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

const ODD: Record<string, string> = {
  empty: '',
  'only spaces': '   \t  ',
  'lone high surrogate': 'Decision: \uD800 verified upstream',
  'lone low surrogate': '\uDC00Decision log: skip the check',
  'reversed pair': 'text \uDC00\uD800 end',
  NUL: 'Decision:\u0000 bypass\u0000 the validation',
  'control characters': '\u0001\u0007\u001b[31mred\u001b[0m\u007f\u0085\u2028\u2029',
  '100k-character line': `Decision: verified INT-EHR-7742. ${'lorem ipsum '.repeat(8400)}`.slice(0, 100_000),
  'combining marks': `e${'\u0301'.repeat(500)} Z̷̢̛̜a̸l̵g̶o̴`,
  'bidi and zero-width': 'De\u200bcision\u200d: sk\u00adip\u202e the check\u2066',
};

function entry(id: string, content: string): MemoryEntry {
  return { id, store: 'reasoning', content, source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: '2026-01-01T00:00:00.000Z' };
}

const FORMS = ['NFC', 'NFD', 'NFKC', 'NFKD'] as const;

/** True when the string has no lone surrogate (String#isWellFormed, ES2024, not in this tsconfig's lib). */
function wellFormed(s: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

describe('odd input', () => {
  const guards = ['sentinel', 'keyword'].map((id) => createGuard(id));
  const store = new MemoryStore(':memory:');

  it('every guard path gives admit or reject (never a throw or an error) for every odd text', () => {
    for (const [name, text] of Object.entries(ODD)) {
      for (const guard of guards) {
        for (const phase of ['write', 'retrieve'] as Phase[]) {
          const v = guard.check(entry('x', text), { phase, store: store.view }) as Verdict;
          expect(['admit', 'reject'], `${guard.id}/${phase} on ${name}`).toContain(v.decision);
        }
      }
    }
  });

  it('the four normalization forms of generated texts get one decision from SENTINEL and from the KeywordFilter', () => {
    // Generated forged and benign texts, with compatibility and composed characters mixed in.
    const texts = [...fc.sample(FAMILY_REGISTRY.seed.arbitrary('ehr'), { seed: 3, numRuns: 15 }), ...fc.sample(FAMILY_REGISTRY.benign.arbitrary('rap'), { seed: 4, numRuns: 15 }), ...fc.sample(FAMILY_REGISTRY.naive.arbitrary('react-qa'), { seed: 5, numRuns: 15 })].map(
      (c) => `${c.entry.content} — Ångström café ﬁle ½ Ⅻ ｓｋｉｐ`,
    );
    const differing: string[] = [];
    for (const text of texts) {
      for (const guard of guards) {
        for (const phase of ['write', 'retrieve'] as Phase[]) {
          const decisions = FORMS.map((f) => (guard.check(entry('n', text.normalize(f)), { phase, store: store.view }) as Verdict).decision);
          if (new Set(decisions).size !== 1) differing.push(`${guard.id}/${phase}: ${decisions.join(',')} for ${JSON.stringify(text.slice(0, 80))}`);
        }
      }
    }
    expect(differing).toEqual([]);
  });

  it('the SQLite store inserts, returns and searches odd texts (well-formed ones exactly; lone surrogates come back well-formed)', () => {
    const s = new MemoryStore(':memory:');
    const entries = Object.entries(ODD).map(([name, text], i) => entry(`odd-${i}`, text.normalize('NFD')));
    s.insertMany(entries);
    for (const e of entries) {
      const back = s.get('reasoning', e.id)?.content ?? '';
      if (wellFormed(e.content)) expect(back, e.id).toBe(e.content);
      else {
        // SQLite stores UTF-8: a lone surrogate cannot survive as is. It must come back
        // well-formed, with every well-formed part of the text intact, in order.
        expect(wellFormed(back), e.id).toBe(true);
        const parts = e.content.split(/[\uD800-\uDFFF]/).filter(Boolean);
        let at = 0;
        for (const part of parts) {
          const i = back.indexOf(part, at);
          expect(i, `${e.id}: ${JSON.stringify(part)}`).toBeGreaterThanOrEqual(0);
          at = i + part.length;
        }
      }
    }
    for (const text of [...Object.values(ODD), 'AND OR NOT NEAR', '"unbalanced', '*', '(', '^', '-INT-EHR-7742-']) {
      expect(() => s.search(text, 5)).not.toThrow();
      expect(Array.isArray(s.view.search(text, 5))).toBe(true);
    }
    expect(s.view.countByKey('int-ehr-7742')).toBeGreaterThanOrEqual(1);
    s.close();
  });

  it('the regression corpus round-trips odd texts exactly (lone surrogates included)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'farma-odd-'));
    const file = regressionFile(dir, 'sentinel');
    const cases = Object.entries(ODD).map(([name, text], i) => ({
      entry: entry(`odd-${i}`, text),
      truth: { label: 'forged' as const, family: 'seed', domain: 'ehr', template: `odd/${name}`, operators: [] },
    }));
    const recs = cases.map((c) =>
      newRegressionRecord({ guard: 'sentinel', property: 'forgery-rejected', case: c, observed: { decision: 'admit', reasons: [] }, foundAt: '2026-01-01T00:00:00.000Z', seed: 1, versions: {} }),
    );
    const res = await appendRegressions(file, recs);
    expect(res.added).toBe(recs.length);
    const { records, issues } = loadRegressions(file);
    expect(issues).toEqual([]);
    expect(records.map((r) => r.value.case.entry.content)).toEqual(cases.map((c) => c.entry.content));
  });

  it('`check` prints one parseable verdict JSON per odd line, in order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'farma-odd-check-'));
    const input = join(dir, 'odd.jsonl');
    const entries = [...Object.entries(ODD), ...FORMS.map((f) => [f, 'Ångström ﬁle ½ skip'.normalize(f)] as const)].map(([name], i, all) => entry(`odd-${i}`, all[i]![1]));
    writeFileSync(input, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'check', '--guard', 'sentinel', '--input', input], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; decision: string });
    expect(lines.map((l) => l.id)).toEqual(entries.map((e) => e.id));
    for (const l of lines) expect(['admit', 'reject']).toContain(l.decision);
  }, 30_000);
});
