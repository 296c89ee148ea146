/**
 * Robustness: no ReDoS in guard regexes, checked without timing anything. The regexes are collected
 * by scripts/redos-regexes.ts (the compiled SENTINEL config and its sources, the KeywordFilter
 * blocklist, and every regex literal under `src/guards/**` and in `src/domain/keys.ts`).
 * recheck's verdicts are checked in as test/robustness/redos-verdicts.json, written by
 * `npm run redos-audit`; recheck's fuzzer has time limits, so running it here would make the
 * answer depend on how busy the machine is. This test runs no checker and measures no time:
 * - the file covers exactly the current set of regexes (source + flags), so a new or changed
 *   regex fails until the audit is re-run;
 * - every recorded verdict is `safe`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectAuditedRegexes } from '../../scripts/redos-regexes.js';

interface Recorded {
  key: string;
  source: string;
  flags: string;
  where: string[];
  status: string;
  complexity?: string;
  error?: string;
}

const FILE = new URL('./redos-verdicts.json', import.meta.url);
const recorded = (JSON.parse(readFileSync(FILE, 'utf8')) as { verdicts: Recorded[] }).verdicts;
const current = collectAuditedRegexes();

describe('ReDoS audit of guard regexes (recheck verdicts on file)', () => {
  it('collects the regexes of SENTINEL, KeywordFilter, A-MemGuard, the adapters and the key extractor', () => {
    const where = current.flatMap((r) => r.where);
    expect(where.some((w) => w.startsWith('src/domain/keys.ts'))).toBe(true);
    expect(where.some((w) => w.startsWith('src/guards/amemguard'))).toBe(true);
    expect(where.some((w) => w.startsWith('compiled SENTINEL forgeryRe'))).toBe(true);
    expect(where).toContain('KeywordFilter blocklist');
    expect(current.length).toBeGreaterThan(20);
  });

  it('the verdict file covers exactly the current regexes (else run `npm run redos-audit`)', () => {
    const have = new Set(recorded.map((v) => v.key));
    const want = new Set(current.map((r) => r.key));
    const missing = current.filter((r) => !have.has(r.key)).map((r) => `${r.where.join(', ')}: /${r.source.slice(0, 80)}/${r.flags}`);
    const stale = recorded.filter((v) => !want.has(v.key)).map((v) => `${v.where.join(', ')}: /${v.source.slice(0, 80)}/${v.flags}`);
    expect({ missing, stale }, `redos-verdicts.json is out of date; run \`npm run redos-audit\` and commit it.\nno verdict for:\n${missing.join('\n')}\nstale:\n${stale.join('\n')}`).toEqual({ missing: [], stale: [] });
    for (const v of recorded) expect(v.key).toBe(`${v.flags}/${v.source}`);
  });

  it('every recorded verdict is safe', () => {
    const notSafe = recorded.filter((v) => v.status !== 'safe').map((v) => `${v.where.join(', ')}: ${v.status} ${v.complexity ?? v.error ?? ''} /${v.source.slice(0, 80)}/${v.flags}`);
    expect(notSafe, notSafe.join('\n')).toEqual([]);
    expect(recorded.length).toBe(current.length);
  });
});
