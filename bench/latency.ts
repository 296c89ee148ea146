/**
 * `npm run bench:latency` (or `node --import tsx bench/latency.ts`): the speed-up of N calls in flight over one, for out-of-process guards.
 * Runs one small fuzz campaign (the CLI, as a user would) against two fixture guards that
 * take 20 ms per entry, an HTTP guard (`test/fixtures/guards/slow-http-guard.mjs`) and an
 * exec guard (`test/fixtures/guards/slow-exec-guard.py`), at `--concurrency 1` and at
 * `--concurrency 8`, and prints per guard:
 * - the campaign time at N = 1 and at N = 8 (report.json `timing.elapsedMs`, s), and the
 *   speed-up (budget >= 4x); the whole CLI process's wall time too (start-up included);
 * - whether report.json less `timing` and `generatedAt` (and less the run folder's path) is IDENTICAL.
 * The order of the runs alternates (1, 8, 8, 1, ...) over `--repeat` rounds (default 1) and
 * the medians are reported, since one timing on a shared machine means little.
 * Writes `reports/bench-latency.json`. Exit code 0 even when a budget is missed: budgets are
 * reported, never asserted; 1 only when a campaign fails to run or the reports differ.
 *
 * Flags: `--runs N` (cases per cell, default 300), `--delay-ms N` (guard cost per entry,
 * default 20), `--repeat K`, `--only http|exec`.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '300' },
    'delay-ms': { type: 'string', default: '20' },
    repeat: { type: 'string', default: '1' },
    only: { type: 'string' },
  },
});
const RUNS = Number(flags.runs);
const DELAY_MS = Number(flags['delay-ms']);
const REPEAT = Number(flags.repeat);
for (const [flag, v] of [['--runs', RUNS], ['--delay-ms', DELAY_MS], ['--repeat', REPEAT]] as const) {
  if (!Number.isInteger(v) || v < (flag === '--delay-ms' ? 0 : 1)) throw new Error(`bench/latency.ts: ${flag} must be a positive integer, got ${v}`);
}
if (flags.only !== undefined && flags.only !== 'http' && flags.only !== 'exec') throw new Error(`bench/latency.ts: --only must be http or exec, got ${flags.only}`);

const SEED = 4242;
/** The campaign: one domain, a single-entry family, a chain family and the benign family. */
const CAMPAIGN = ['--domain', 'ehr', '--family', 'seed,amplification,benign', '--runs', String(RUNS), '--seed', String(SEED), '--max-failures', '2', '--no-corpus', '--no-real', '--no-html', '--quiet', '--timeout', '30000'];
const LEVELS = [1, 8] as const;

function startHttpFixture(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'test/fixtures/guards/slow-http-guard.mjs'), '--port', '0', '--delay-ms', String(DELAY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (c: string) => {
      out += c;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/check)/.exec(out);
      if (m?.[1]) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`slow-http-guard exited early with ${code}`)));
  });
}

/**
 * Runs one campaign through the CLI; resolves to the campaign time the report records
 * (`timing.elapsedMs`, s), the CLI process's wall time (s, start-up included) and report.json
 * less `timing` and `generatedAt` (the date of the run), with the run folder's path replaced.
 */
function campaign(guard: string, concurrency: number): Promise<{ seconds: number; processSeconds: number; report: string; exitCode: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `farma-latency-${concurrency}-`));
  const out = path.join(dir, 'report');
  const args = ['--import', 'tsx', path.join(ROOT, 'src/cli/main.ts'), 'fuzz', '--guard', guard, '--concurrency', String(concurrency), '--out', out, ...CAMPAIGN];
  const t0 = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (err, _stdout, stderr) => {
      const processSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const exitCode = err && typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : err ? -1 : 0;
      // Exit 1 means an invariant failed (a finding), which this campaign expects; anything else is a failure to run.
      if (exitCode !== 0 && exitCode !== 1) return reject(new Error(`fuzz --guard ${guard} --concurrency ${concurrency} exited ${exitCode}:\n${stderr}`));
      try {
        const json = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8').replaceAll(out, '<out>')) as Record<string, unknown>;
        const seconds = Number((json['timing'] as { elapsedMs?: unknown } | undefined)?.elapsedMs) / 1000;
        delete json['timing'];
        delete json['generatedAt'];
        resolve({ seconds, processSeconds, report: JSON.stringify(json), exitCode });
      } catch (e) {
        reject(e);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

interface LatencyRow {
  guard: string;
  /** Campaign time from report.json `timing.elapsedMs`, s, per run. */
  seconds: Record<string, number[]>;
  medianSeconds: Record<string, number>;
  /** Wall time of the whole CLI process (start-up, store, report writing included), s. */
  processSeconds: Record<string, number[]>;
  processSpeedup: number;
  speedup: number;
  budget: '>= 4x';
  status: 'met' | 'missed';
  identical: boolean;
}

async function measure(label: string, spec: string): Promise<LatencyRow> {
  const seconds: Record<string, number[]> = { '1': [], '8': [] };
  const processSeconds: Record<string, number[]> = { '1': [], '8': [] };
  const reports = new Set<string>();
  for (let r = 0; r < REPEAT; r++) {
    const order = r % 2 === 0 ? LEVELS : [...LEVELS].reverse();
    for (const n of order) {
      const res = await campaign(spec, n);
      seconds[String(n)]?.push(res.seconds);
      processSeconds[String(n)]?.push(res.processSeconds);
      reports.add(res.report);
      process.stderr.write(`  ${label} --concurrency ${n}: campaign ${res.seconds.toFixed(2)} s, process ${res.processSeconds.toFixed(2)} s (exit ${res.exitCode})\n`);
    }
  }
  const m1 = median(seconds['1'] ?? []);
  const m8 = median(seconds['8'] ?? []);
  const speedup = m1 / m8;
  const processSpeedup = median(processSeconds['1'] ?? []) / median(processSeconds['8'] ?? []);
  return { guard: label, seconds, medianSeconds: { '1': m1, '8': m8 }, processSeconds, processSpeedup, speedup, budget: '>= 4x', status: speedup >= 4 ? 'met' : 'missed', identical: reports.size === 1 };
}

const rows: LatencyRow[] = [];
const http = flags.only === 'exec' ? undefined : await startHttpFixture();
try {
  process.stderr.write(`bench latency: ${CAMPAIGN.join(' ')}; guard cost ${DELAY_MS} ms per entry; ${os.cpus().length} cores\n`);
  if (http) rows.push(await measure(`http (${DELAY_MS} ms/entry)`, http.url));
  if (flags.only !== 'http') rows.push(await measure(`exec (${DELAY_MS} ms/entry)`, `exec:python3 ${path.join(ROOT, 'test/fixtures/guards/slow-exec-guard.py')} --delay-ms ${DELAY_MS}`));
} finally {
  http?.child.kill('SIGTERM');
}

const lines = [
  '| guard | campaign at N=1 | at N=8 | speed-up [budget >= 4x] | whole CLI process, speed-up | report.json less timing |',
  '| --- | ---: | ---: | ---: | ---: | --- |',
  ...rows.map(
    (r) =>
      `| ${r.guard} | ${r.medianSeconds['1']?.toFixed(2)} s | ${r.medianSeconds['8']?.toFixed(2)} s | ${r.speedup.toFixed(2)}x (${r.status}) | ` +
      `${median(r.processSeconds['1'] ?? []).toFixed(2)} s → ${median(r.processSeconds['8'] ?? []).toFixed(2)} s, ${r.processSpeedup.toFixed(2)}x | ${r.identical ? 'IDENTICAL' : 'DIFFERENT'} |`,
  ),
];
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(path.join(ROOT, 'reports'), { recursive: true });
writeFileSync(path.join(ROOT, 'reports', 'bench-latency.json'), `${JSON.stringify({ campaign: CAMPAIGN, delayMs: DELAY_MS, repeat: REPEAT, cores: os.cpus().length, rows }, null, 2)}\n`);
process.exitCode = rows.every((r) => r.identical) ? 0 : 1;
