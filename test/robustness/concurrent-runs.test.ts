/**
 * Robustness: two `fuzz` runs appending to the same corpus at once lose nothing.
 * Both real CLI runs (guard `none`, so every forged cell yields findings) start together with
 * different seeds and one corpus folder; afterwards every counterexample id of both
 * report.json files is in the corpus, once, and the file parses with no issue.
 * The corpus append is serialised by proper-lockfile (src/corpus/regressions.ts).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegressions, regressionFile } from '../../src/corpus/regressions.js';
import { spawnCli } from '../helpers/spawn-cli.js';

describe('two fuzz runs into one corpus at once', () => {
  it('keep every finding of both runs', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'farma-concurrent-'));
    const corpus = join(tmp, 'corpus');
    // Two forged families over the three domains, two findings shrunk per cell: up to 12 findings
    // per run to append (a benign cell finds nothing against `none`, and each shrink costs time).
    const common = ['fuzz', '--guard', 'none', '--runs', '20', '--max-failures', '2', '--corpus', corpus, '--no-real', '--quiet', '--family', 'seed,naive'];
    const [a, b] = await Promise.all([
      spawnCli([...common, '--seed', '101', '--out', join(tmp, 'a')]),
      spawnCli([...common, '--seed', '202', '--out', join(tmp, 'b')]),
    ]);
    expect(a.code, a.stderr).toBe(1); // guard `none` fails the forgery property
    expect(b.code, b.stderr).toBe(1);
    const ids = (dir: string): string[] => (JSON.parse(readFileSync(join(tmp, dir, 'report.json'), 'utf8')) as { counterexamples: Array<{ id: string }> }).counterexamples.map((c) => c.id);
    const found = new Set([...ids('a'), ...ids('b')]);
    expect(found.size).toBeGreaterThan(5);
    const { records, issues } = loadRegressions(regressionFile(corpus, 'none'));
    expect(issues).toEqual([]);
    const stored = records.map((r) => r.value.id);
    expect(new Set(stored).size).toBe(stored.length);
    for (const id of found) expect(stored).toContain(id);
  }, 60_000);
});
