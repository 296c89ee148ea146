/**
 * A `--benign` export whose lines cannot all be measured (unreadable JSON, a missing or empty
 * content, an id already taken) used to be gated on the readable rest: with 70 of 100 lines
 * bad, `--max-fpr 0.5` passed on 30 entries and report.md never said a line was skipped. Now the
 * report names the unread lines and a gate counts them against the guard (their verdict is
 * unknown); `fpr`'s failed-gate advice fits the reason (errors, unread lines, a small set).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { loadBenignJsonl } from '../../src/corpus/benign-sets.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-unread-'));

/** `good` readable benign lines, then `bad` lines of the given kinds in turn. */
function exportFile(name: string, good: number, bad: number): string {
  const lines: string[] = [];
  for (let i = 0; i < good; i++) lines.push(JSON.stringify({ id: `g${i}`, content: `Checked the order total for cart ${i}; it matches the invoice.` }));
  const kinds = [(i: number) => JSON.stringify({ id: `b${i}` }), (i: number) => JSON.stringify({ id: `b${i}`, content: '   ' }), () => '{"id": "broken", ', () => JSON.stringify({ id: 'g0', content: 'A second entry under a taken id.' })];
  for (let i = 0; i < bad; i++) lines.push((kinds[i % kinds.length] as (i: number) => string)(i));
  const f = path.join(dir, name);
  writeFileSync(f, `${lines.join('\n')}\n`);
  return f;
}

describe('a --benign export with lines that hold no measured entry', () => {
  it('loadBenignJsonl skips missing, blank, broken and repeated-id lines and lists them in skipped', () => {
    const f = exportFile('kinds.jsonl', 3, 4);
    const r = loadBenignJsonl(f);
    expect(r.entries.map((e) => e.id)).toEqual(['g0', 'g1', 'g2']);
    expect(r.skipped?.map((i) => i.line)).toEqual([4, 5, 6, 7]);
    expect(r.skipped?.[1]?.message).toMatch(/field "content" is empty: there is nothing for a guard to judge/);
    expect(r.skipped?.[3]?.message).toMatch(/already taken .* by line 1/);
  });

  it('fuzz: the report names the unread lines and --max-fpr counts them against the guard', async () => {
    const f = exportFile('mixed.jsonl', 30, 70);
    const out = mkdtempSync(path.join(dir, 'out-'));
    const r = await runCli(['fuzz', '--guard', 'keyword', '--runs', '5', '--domain', 'ehr', '--family', 'benign', '--benign', f, '--no-real', '--no-corpus', '--seed', '1', '--max-fpr', '0.5', '--out', out]);
    expect(r.code, r.stdout).toBe(1);
    // The gate line says what its count adds up: none of the 70 is a rejection.
    expect(r.stdout).toMatch(/maxFpr real mixed\.jsonl: 70\.0% \[[\d.]+%, [\d.]+%\] \(70\/100: 0 rejected \+ 70 lines not measured, counted against the guard\), upper bound > limit 50\.0%: FAIL/);
    expect(r.stdout).toMatch(/mixed\.jsonl +0\/30 .* 70 unread lines/);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/\*\*mixed\.jsonl: 70 lines of the export hold no measured entry\*\*.*n = 30/);
    const json = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { fpr: { real: Array<{ name: string; unread?: { lines: number; first: string[] } }> } };
    const set = json.fpr.real.find((s) => s.name === 'mixed.jsonl');
    expect(set?.unread?.lines).toBe(70);
    expect(set?.unread?.first[0]).toMatch(/mixed\.jsonl:31: field "content" must be a string/);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain('70 lines of the export hold no measured entry');
  }, 120_000);

  it('fuzz without a gate: the RESULT line names the unread lines although no entry was rejected', async () => {
    const f = exportFile('mostly-bad.jsonl', 10, 40);
    const out = mkdtempSync(path.join(dir, 'out-'));
    const r = await runCli(['fuzz', '--guard', 'keyword', '--runs', '5', '--domain', 'ehr', '--family', 'benign', '--benign', f, '--no-real', '--no-corpus', '--seed', '1', '--out', out]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/RESULT: every invariant held, but mostly-bad\.jsonl: 40 lines of 50 not measured; no gate on it/);
  }, 120_000);

  it('a line that repeats an earlier one exactly is measured once and is no unread line; one that reuses an id is', () => {
    const f = path.join(dir, 'dupes.jsonl');
    const a = JSON.stringify({ id: 'd1', content: 'Looked up the refund policy for order 77.', source: 'AGENT' });
    writeFileSync(f, [a, JSON.stringify({ id: 'd2', content: 'Refund approved.', source: 'AGENT' }), a, a, JSON.stringify({ id: 'd1', content: 'Another text under d1.', source: 'AGENT' })].join('\n') + '\n');
    const r = loadBenignJsonl(f);
    expect(r.entries.map((e) => e.id)).toEqual(['d1', 'd2']);
    expect(r.skipped?.map((i) => i.line)).toEqual([5]);
    expect(r.issues.filter((i) => /repeats line 1 exactly/.test(i.message)).map((i) => i.line)).toEqual([3, 4]);
  });

  it('fuzz: a clean export has no unread field and passes the same gate', async () => {
    const f = exportFile('clean.jsonl', 30, 0);
    const out = mkdtempSync(path.join(dir, 'out-'));
    const r = await runCli(['fuzz', '--guard', 'keyword', '--runs', '5', '--domain', 'ehr', '--family', 'benign', '--benign', f, '--no-real', '--no-corpus', '--seed', '1', '--max-fpr', '0.5', '--out', out, '-q']);
    expect(r.code, r.stdout).toBe(0);
    const json = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { fpr: { real: Array<{ name: string; unread?: unknown }> } };
    expect(json.fpr.real.find((s) => s.name === 'clean.jsonl')?.unread).toBeUndefined();
  }, 120_000);

  it('fpr: the gate counts unread lines, and its advice names them instead of suggesting --no-real', async () => {
    const f = exportFile('fpr-mixed.jsonl', 30, 70);
    const out = mkdtempSync(path.join(dir, 'fpr-'));
    const r = await runCli(['fpr', '--guard', 'keyword', '--benign', f, '--no-real', '--no-loso', '--no-matched', '--runs', '20', '--seed', '1', '--max-fpr', '0.5', '--out', out]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/maxFpr real fpr-mixed\.jsonl: 70\.0% .*\(70\/100: 0 rejected \+ 70 lines not measured, counted against the guard\).*FAIL/);
    expect(r.stdout).toMatch(/fpr-mixed\.jsonl: 70 lines of the export hold no measured entry, and they count against the guard/);
    expect(r.stdout).not.toMatch(/add --no-real/);
    // The console shows the first five warnings and counts the rest; fpr.json keeps them all.
    expect(r.stderr.match(/^warning: .*fpr-mixed\.jsonl:\d+: /gm)).toHaveLength(5);
    expect(r.stderr).toMatch(/^warning: \d+ more, not shown one by one: every one is in .*fpr\.json \("issues"\)$/m);
    const json = JSON.parse(readFileSync(path.join(out, 'fpr.json'), 'utf8')) as { issues: string[] };
    expect(json.issues.filter((i) => /fpr-mixed\.jsonl:\d+: /.test(i)).length).toBeGreaterThanOrEqual(70);
  }, 120_000);
});
