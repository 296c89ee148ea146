/**
 * `fuzz --shard i/n` + `merge-reports`: the shards of a campaign, merged,
 * give the report.json, report.md, report.html, JUnit and corpus of the unsharded run with
 * the same seed, less timing and dates. The campaign includes the real benign sets (measured
 * by shard 1) and the adaptive attack mode (one unit of its own).
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, spawnCli, type SpawnedCli } from '../helpers/spawn-cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ff-shard-'));
const at = (...p: string[]): string => path.join(dir, ...p);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CAMPAIGN = ['fuzz', '--guard', 'sentinel', '-d', 'ehr,rap', '-f', 'seed,adaptive,benign', '-n', '12', '-s', '99', '--attack-bases', '5', '-q'];

/** report.json without what may differ between two runs with one seed. */
function json(file: string): unknown {
  const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  delete r.timing;
  delete r.generatedAt;
  return r;
}
const text = (file: string, drop: RegExp): string => readFileSync(file, 'utf8').replace(drop, '');
// Query counts and phase times are timing too (the cache of each shard serves only that shard).
const MD_TIMING = /^\| (throughput|execution|generated|guard queries|queries by phase|query cost) \|.*\n/gm;
const HTML_TIMING = /<tr><td data-label="setting">(throughput|generated|guard queries|queries by phase|query cost)<\/td>.*?<\/tr>|<li>Guard queries: .*?<\/li>/g;
const JUNIT_TIMING = / time="[\d.]+"|<property name="queries\.[^"]*" value="[^"]*"\/>/g;
const corpusLines = (file: string): unknown[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const { foundAt: _f, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest;
    });

describe('fuzz --shard i/n and merge-reports', () => {
  const results: Record<string, SpawnedCli> = {};
  beforeAll(async () => {
    // The unsharded run grows the corpus at `corpus`, which is then put aside, so the merge
    // grows the same (empty) corpus path and the replay commands name the same folder.
    results.full = await spawnCli([...CAMPAIGN, '--out', at('full'), '--corpus', at('corpus'), '--junit', at('full', 'junit.xml')]);
    renameSync(at('corpus'), at('corpus-full'));
    const shards = await Promise.all([1, 2, 3].map((i) => spawnCli([...CAMPAIGN, '--shard', `${i}/3`, '--out', at(`s${i}`), '--corpus', at('corpus')])));
    shards.forEach((r, i) => (results[`s${i + 1}`] = r));
    results.corpusAfterShards = { code: existsSync(at('corpus', 'sentinel.jsonl')) ? 1 : 0, stdout: '', stderr: '' };
    results.merged = await spawnCli(['merge-reports', at('s1'), at('s2'), at('s3'), '--out', at('merged'), '--corpus', at('corpus'), '--junit', at('merged', 'junit.xml')]);
  }, 300_000);

  it('the unsharded run and the merge exit with the finding, each finished shard with 0, and the shards leave the corpus to the merge', () => {
    for (const [k, r] of Object.entries(results)) if (k !== 'corpusAfterShards') expect(r.code, `${k}: ${r.stderr}`).toBe(k.startsWith('s') ? 0 : 1);
    // Every shard says what its own cells give, and that the merge decides.
    for (const i of [1, 2, 3]) {
      expect(results[`s${i}`]!.stdout).toMatch(new RegExp(`shard ${i}/3: its cells alone would give exit 1, decided by invariants FAIL; .*merge-reports judges`));
      expect(results[`s${i}`]!.stdout).toContain(`exit 0: shard ${i}/3 finished (the verdict is merge-reports').`);
    }
    expect(results.corpusAfterShards!.code).toBe(0);
    expect(results.s1!.stdout).toMatch(/shard 1\/3: .*farma-fuzz-shard-1-of-3\.json/);
    expect(results.merged!.stderr).toContain('merged 3 shards of guard sentinel, seed 99');
  });

  it('gives the report.json of the unsharded run, less timing and date', () => {
    const full = json(at('full', 'report.json')) as { cells: unknown[]; counterexamples: unknown[]; fpr: { real: unknown[] }; attack?: unknown };
    expect(full.cells.length).toBe(6);
    expect(full.counterexamples.length).toBeGreaterThan(0);
    expect(full.fpr.real.length).toBeGreaterThan(0);
    expect(full.attack).toBeDefined();
    expect(json(at('merged', 'report.json'))).toEqual(full);
    // A shard alone is not the whole campaign.
    expect(json(at('s1', 'report.json'))).not.toEqual(full);
  });

  it('gives the same report.md, report.html and JUnit, less timing', () => {
    expect(text(at('merged', 'report.md'), MD_TIMING)).toBe(text(at('full', 'report.md'), MD_TIMING));
    expect(text(at('merged', 'report.html'), HTML_TIMING)).toBe(text(at('full', 'report.html'), HTML_TIMING));
    expect(text(at('merged', 'junit.xml'), JUNIT_TIMING)).toBe(text(at('full', 'junit.xml'), JUNIT_TIMING));
  });

  it('grows the same corpus, less the date each record was found', () => {
    const full = corpusLines(at('corpus-full', 'sentinel.jsonl'));
    expect(full.length).toBeGreaterThan(0);
    expect(corpusLines(at('corpus', 'sentinel.jsonl'))).toEqual(full);
  });

  it('refuses a merge with a shard missing, naming it', async () => {
    const r = await spawnCli(['merge-reports', at('s1'), at('s3'), '--out', at('bad'), '--no-corpus']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('missing shard(s) 2/3');
  });

  it('refuses shards of different campaigns', async () => {
    const other = await spawnCli([...CAMPAIGN.map((a) => (a === '99' ? '100' : a)), '--shard', '2/3', '--out', at('other2'), '--no-corpus']);
    // A finished shard exits 0; it must have run and written its blob.
    expect(other.code, other.stderr).toBe(0);
    expect(existsSync(at('other2', 'farma-fuzz-shard-2-of-3.json'))).toBe(true);
    const r = await spawnCli(['merge-reports', at('s1'), at('other2'), at('s3'), '--out', at('bad'), '--no-corpus']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('come from different campaigns');
  });

  it('the documented GitHub Actions workflow runs a shard matrix and merges with the artifact actions', () => {
    const wf = readFileSync(path.join(ROOT, 'examples/github-actions/fuzz-sharded.yml'), 'utf8');
    expect(wf).toContain('--shard ${{ matrix.shardIndex }}/${{ matrix.shardTotal }}');
    expect(wf).toMatch(/uses: actions\/upload-artifact@v\d/);
    expect(wf).toMatch(/uses: actions\/download-artifact@v\d/);
    expect(wf).toContain('npx farma-fuzz merge-reports all-shards');
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('examples/github-actions/fuzz-sharded.yml');
  });
});
