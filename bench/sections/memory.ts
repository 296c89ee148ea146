/** Peak memory of a one-million-case campaign, measured in a child process (`bench/campaign-child.ts`). */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { ROOT, single, type BenchContext, type BenchSection } from '../lib.js';

async function run(ctx: BenchContext): Promise<void> {
  const total = ctx.quick ? 30_000 : 1_000_000;
  ctx.log(`peak memory of a ${total.toLocaleString('en')}-case campaign (naive family, SENTINEL, child process)`);
  const tsx = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const { stdout } = await promisify(execFile)(process.execPath, [tsx, path.join(ROOT, 'bench', 'campaign-child.ts'), String(total), 'naive', 'sentinel'], {
    cwd: ROOT,
    maxBuffer: 1 << 20,
  });
  const r = JSON.parse(stdout.trim().split('\n').pop() as string) as { cases: number; elapsedMs: number; maxRssBytes: number; sampledPeakRssBytes: number };
  ctx.row({
    id: 'memory.campaign',
    figure: `peak RSS of a ${r.cases.toLocaleString('en')}-case campaign (naive × ${DOMAINS.length} domains, SENTINEL, one thread)`,
    value: single(r.maxRssBytes / 1024 / 1024, 'MiB'),
    status: 'reported',
    note: `kernel high-water mark; ${(r.elapsedMs / 1000).toFixed(0)} s, ${((r.cases / r.elapsedMs) * 1000).toFixed(0)} cases/s; sampled RSS peak ${(r.sampledPeakRssBytes / 1024 / 1024).toFixed(0)} MiB`,
  });
}

export const memory: BenchSection = { id: 'memory', title: 'peak RSS of a 1M-case campaign (child process)', run };
