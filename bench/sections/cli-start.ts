/**
 * CLI start-up (DESIGN.md "Budgets": `list guards` within 3× a bare `node` start). The
 * installed command runs the compiled build (`bin/farma-fuzz.js` → `dist/`), so this section
 * builds it when missing. Bare `node -e 0` and `farma-fuzz list guards` are spawned
 * alternately in the same run, so machine load weighs on both; the budget is the ratio of
 * the two medians. The source path (`npm run cli`, through tsx) is reported for comparison.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ratioOf, ROOT, status, type BenchContext, type BenchSection } from '../lib.js';
import { summarize } from '../summary.js';

/** Wall time of one spawn, ms; throws when the command fails (a failing start is no start-up figure). */
function spawnMs(args: readonly string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

async function run(ctx: BenchContext): Promise<void> {
  const bin = path.join(ROOT, 'bin', 'farma-fuzz.js');
  if (!existsSync(path.join(ROOT, 'dist', 'src', 'cli', 'main.js'))) {
    ctx.log('  dist/ missing: npm run build');
    const b = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('npm run build failed');
  }
  ctx.log('CLI start-up: node -e 0 vs farma-fuzz list guards (alternating spawns)');
  const rounds = ctx.quick ? 8 : 30;
  const commands = {
    node: ['-e', '0'],
    compiled: [bin, 'list', 'guards'],
    source: ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'main.ts'), 'list', 'guards'],
  } as const;
  const samples: Record<keyof typeof commands, number[]> = { node: [], compiled: [], source: [] };
  for (const args of Object.values(commands)) spawnMs(args); // warm the file cache
  for (let i = 0; i < rounds; i++) {
    for (const [k, args] of Object.entries(commands) as Array<[keyof typeof commands, readonly string[]]>) {
      if (k === 'source' && i % 3 !== 0) continue; // the slow path needs fewer samples
      samples[k].push(spawnMs(args));
    }
  }
  const node = summarize(samples.node, 'ms');
  const compiled = summarize(samples.compiled, 'ms');
  const source = summarize(samples.source, 'ms');
  ctx.row({ id: 'start.node', figure: 'bare `node -e 0` start', value: node, status: 'reported' });
  ctx.row({ id: 'start.list-guards', figure: '`farma-fuzz list guards` (bin → compiled dist/)', value: compiled, status: 'reported' });
  ctx.row({ id: 'start.source', figure: '`npm run cli -- list guards` path (tsx, from source)', value: source, status: 'reported', note: 'development only' });
  const ratio = ratioOf(compiled, node);
  ctx.row({
    id: 'cli.list-guards-ratio',
    figure: '`farma-fuzz list guards` start / bare `node -e 0` start',
    value: ratio,
    budget: '<= 3×',
    status: status(ratio.median <= 3),
    note: `medians of ${samples.compiled.length} alternating spawns each, same run`,
  });
}

export const cliStart: BenchSection = { id: 'cli-start', title: 'CLI start-up: list guards vs bare node (compiled build)', run };
