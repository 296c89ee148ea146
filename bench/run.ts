/**
 * `npm run bench`: the performance figures of DESIGN.md "Budgets", measured with tinybench.
 * Each figure is a median with its spread (p25–p75, MAD); each budget is marked met or
 * missed (or `not measured` when its section was skipped), never hidden. Writes
 * `reports/bench.json` and `reports/bench.md` and prints the markdown tables. Budgets are
 * reported here, never asserted by timed tests.
 *
 * Flags: `--quick` (smaller samples, for a smoke run), `--only a,b` / `--skip a,b` (section ids,
 * see `--help`), `--no-memory` and `--no-parallel` (same as `--skip memory` / `--skip workers`).
 * The sections live in `bench/sections/`, one file each.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { budgetStatus } from './budgets.js';
import { ROOT, type BenchContext, type BenchRow } from './lib.js';
import { SECTIONS } from './sections/index.js';
import { formatFigure } from './summary.js';

export type { BenchRow } from './lib.js';

const argv = process.argv.slice(2);
const log = (s: string): void => void process.stderr.write(`${s}\n`);

function listFlag(name: string): Set<string> | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const value = argv[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a comma-separated list of section ids (${SECTIONS.map((s) => s.id).join(', ')})`);
  const ids = new Set(value.split(',').map((s) => s.trim()).filter(Boolean));
  for (const id of ids) if (!SECTIONS.some((s) => s.id === id)) throw new Error(`${name}: unknown section "${id}" (known: ${SECTIONS.map((s) => s.id).join(', ')})`);
  return ids;
}

function fmt(x: number, unit: string): string {
  if (!Number.isFinite(x)) return '–';
  if (unit === '×') return x.toFixed(2);
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en');
  return x >= 100 ? x.toFixed(0) : x.toFixed(2);
}

/** The markdown table: figure, median, p25–p75, budget, met/missed. */
export function benchTable(list: readonly BenchRow[]): string {
  const lines = ['| figure | median | p25–p75 | n | budget | status |', '|---|---:|---:|---:|---|---|'];
  for (const r of list) {
    const v = r.value;
    const spread = v.n > 1 ? `${fmt(v.p25, v.unit)}–${fmt(v.p75, v.unit)}` : '–';
    const status = r.status === 'met' ? 'met' : r.status === 'missed' ? '**missed**' : '–';
    lines.push(`| ${r.figure}${r.note ? ` — ${r.note}` : ''} | ${fmt(v.median, v.unit)} ${v.unit} | ${spread} | ${v.n} | ${r.budget ?? '–'} | ${status} |`);
  }
  return lines.join('\n');
}

/** One line per budget of bench/budgets.ts: met / missed / not measured, with the rows. */
export function budgetTable(list: readonly BenchRow[]): string {
  const lines = ['| budget | status | rows |', '|---|---|---|'];
  for (const b of budgetStatus(list)) {
    const s = b.status === 'missed' ? '**missed**' : b.status;
    const rowsNote = b.status === 'missed' ? `missed: ${b.missed.join(', ')}` : b.measured.join(', ') || '–';
    lines.push(`| ${b.budget.text} | ${s} | ${rowsNote} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (argv.includes('--help')) {
    process.stdout.write(
      `npm run bench -- [--quick] [--only ids] [--skip ids] [--no-memory] [--no-parallel]\n\nsections:\n${SECTIONS.map((s) => `  ${s.id.padEnd(14)} ${s.title}${s.optIn ? ' (only with --only)' : ''}`).join('\n')}\n`,
    );
    return;
  }
  const only = listFlag('--only');
  const skip = listFlag('--skip') ?? new Set<string>();
  if (argv.includes('--no-memory')) skip.add('memory');
  if (argv.includes('--no-parallel')) skip.add('workers');
  const chosen = SECTIONS.filter((s) => (only ? only.has(s.id) : !s.optIn && !skip.has(s.id)));
  const quick = argv.includes('--quick');
  const started = performance.now();
  const env = {
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    loadAverageAtStart: os.loadavg()[0],
    quick,
    sections: chosen.map((s) => s.id),
    date: new Date().toISOString(),
  };
  const rows: BenchRow[] = [];
  const ctx: BenchContext = {
    quick,
    args: new Set(argv),
    log,
    row: (r) => {
      rows.push(r);
      log(`  ${r.figure}: ${formatFigure(r.value, 2)}${r.budget ? ` [budget ${r.budget}: ${r.status}]` : ''}`);
    },
  };
  for (const section of chosen) {
    log(`[${section.id}] ${section.title}`);
    await section.run(ctx);
  }
  const missed = budgetStatus(rows).filter((b) => b.status === 'missed');
  const md = [
    '# farma-fuzz bench',
    '',
    `${env.date} · Node ${env.node} · ${env.platform} · ${env.cpus} CPUs (${env.cpuModel}) · load average ${env.loadAverageAtStart?.toFixed(2)} at start${quick ? ' · QUICK run (small samples)' : ''} · sections: ${env.sections.join(', ')}`,
    '',
    '## Budgets',
    '',
    budgetTable(rows),
    '',
    missed.length === 0 ? 'No measured budget was missed.' : `Budgets missed (${missed.length}): ${missed.map((b) => b.budget.id).join(', ')}.`,
    '',
    '## Figures',
    '',
    benchTable(rows),
    '',
  ].join('\n');
  const outDir = path.join(ROOT, 'reports');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'bench.json'), `${JSON.stringify({ env, elapsedS: (performance.now() - started) / 1000, budgets: budgetStatus(rows).map((b) => ({ id: b.budget.id, text: b.budget.text, status: b.status, rows: b.measured, missed: b.missed })), rows }, null, 2)}\n`);
  writeFileSync(path.join(outDir, 'bench.md'), md);
  process.stdout.write(`${md}\n`);
  log(`bench finished in ${((performance.now() - started) / 1000).toFixed(0)} s; wrote reports/bench.json and reports/bench.md`);
}

await main();
