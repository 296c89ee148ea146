/**
 * `merge-reports` checks what each shard blob says before merging it.
 * - Every blob carries a checksum (sha-256 of its canonical JSON, checksum field left out): an
 *   edited or damaged blob (violations zeroed by hand) is refused, exit 3.
 * - A zod schema: negative runs, violations above runs, a missing `stats`: exit 3 naming the
 *   file and the field, never an internal error (exit 5).
 * - Each shard must hold exactly the cells its index owns (round robin over domain × family):
 *   a cell relabelled `ehr/benign` → `rap/benign` is refused even with a fresh checksum.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobChecksum } from '../../src/report/merge.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'farma-shard-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CAMPAIGN = ['fuzz', '--guard', 'keyword', '-d', 'ehr,rap', '-f', 'benign,seed', '-n', '6', '-s', '5', '--no-real', '--no-corpus', '--no-html', '-q'];
const blobFile = (i: number) => path.join(dir, `s${i}`, `farma-fuzz-shard-${i}-of-2.json`);
type Blob = Record<string, unknown> & { checksum?: string; outcome: { cells: Array<{ domain: string; family: string; stats: Record<string, unknown> }> } };
const original: Record<number, string> = {};

beforeAll(async () => {
  for (const i of [1, 2]) {
    const r = await runCli([...CAMPAIGN, '--shard', `${i}/2`, '--out', path.join(dir, `s${i}`)]);
    expect(r.stderr).not.toContain('internal error');
    original[i] = readFileSync(blobFile(i), 'utf8');
  }
}, 120_000);

/** Merges shard 1 as written with shard 2 changed by `edit`; `reseal` recomputes its checksum (a careful forger). */
async function mergeWith(name: string, edit: (b: Blob) => void, reseal: boolean) {
  const b = JSON.parse(original[2]!) as Blob;
  edit(b);
  if (reseal) b.checksum = blobChecksum(b);
  writeFileSync(blobFile(2), `${JSON.stringify(b)}\n`);
  try {
    return await runCli(['merge-reports', path.join(dir, 's1'), path.join(dir, 's2'), '--out', path.join(dir, `m-${name}`), '--no-corpus', '--no-html']);
  } finally {
    writeFileSync(blobFile(2), original[2]!);
  }
}

describe('merge-reports validates shard blobs', () => {
  it('each blob carries a checksum of its content', () => {
    const b = JSON.parse(original[2]!) as Blob;
    expect(b.checksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(blobChecksum(b)).toBe(b.checksum);
  });

  it('the untouched shards merge (not exit 3 or 5)', async () => {
    const r = await mergeWith('clean', () => undefined, false);
    expect([0, 1]).toContain(r.code);
  });

  it('violations zeroed by hand: the checksum no longer matches, exit 3', async () => {
    const r = await mergeWith('zeroed', (b) => {
      expect(b.outcome.cells.some((c) => Number(c.stats.violations) > 0)).toBe(true);
      for (const c of b.outcome.cells) c.stats.violations = 0;
    }, false);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/farma-fuzz-shard-2-of-2\.json: its content does not match its checksum/);
  });

  it('a cell relabelled ehr/seed → rap/seed is refused even with a fresh checksum: exit 3', async () => {
    const r = await mergeWith('relabel', (b) => {
      for (const c of b.outcome.cells) if (c.domain === 'ehr' && c.family === 'seed') c.domain = 'rap';
    }, true);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/shard 2\/2 must hold exactly the cells ehr\/seed, rap\/seed .*but holds rap\/seed, rap\/seed/);
  });

  it('runs: -5 is a schema error naming the field, exit 3', async () => {
    const r = await mergeWith('negative', (b) => {
      b.outcome.cells[0]!.stats.runs = -5;
    }, true);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/outcome\.cells\[0\]\.stats\.runs: .*got -5/);
  });

  it('violations above runs: exit 3', async () => {
    const r = await mergeWith('over', (b) => {
      const s = b.outcome.cells[0]!.stats;
      s.violations = Number(s.runs) + 1;
    }, true);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/outcome\.cells\[0\]\.stats: .*at most runs/);
  });

  it('a missing stats: exit 3, not an internal error', async () => {
    const r = await mergeWith('missing', (b) => {
      delete (b.outcome.cells[0] as Record<string, unknown>).stats;
    }, true);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/outcome\.cells\[0\]\.stats: /);
  });

  it('a blob without a checksum (edited, or from an older farma-fuzz) is refused: exit 3', async () => {
    const r = await mergeWith('unsealed', (b) => {
      delete b.checksum;
    }, false);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/has no checksum/);
  });
});
