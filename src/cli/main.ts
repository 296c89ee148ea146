#!/usr/bin/env node
/**
 * farma-fuzz command line: the composition root. It alone reads argv, writes stdout and
 * sets exit codes: 0 every invariant held, 1 a property failed (or a fixed regression
 * came back), 2 a usage or input error.
 */
import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { FarmaError } from '../domain/errors.js';
import type { Guard } from '../domain/guard.js';
import { DOMAINS, type DomainId } from '../domain/fuzz-case.js';
import { MemoryStore } from '../memory/index.js';
import { FAMILY_IDS } from '../../generators/families.js';
import { GUARD_SPEC_FORMS } from '../guards/resolve.js';
import { loadGuard, parseList, parsePhase, parseSeed, positiveInt, REPO_ROOT } from './context.js';
import { createProgress } from './progress.js';
import { runFuzz, summaryText } from './commands/fuzz.js';
import { checkFile } from './commands/check.js';
import { runReplay } from './commands/replay.js';
import { listText, LISTABLE } from './list.js';

const GUARD_HELP = `guard to test: ${GUARD_SPEC_FORMS.map((f) => f.trim().replace(/\s{2,}/g, ' = ')).join('; ')}`;

async function withGuard<T>(spec: string, timeoutMs: number | undefined, fn: (g: Guard) => Promise<T>): Promise<T> {
  const guard = await loadGuard(spec, timeoutMs);
  try {
    return await fn(guard);
  } finally {
    await guard.close?.();
  }
}

function defaultRunId(guardId: string, seed: number, date: Date): string {
  const stamp = date.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return `${stamp}-${guardId.replace(/[^\w.-]+/g, '_').slice(0, 40)}-${seed}`;
}

export function buildProgram(exit: (code: number) => void): Command {
  const program = new Command();
  program
    .name('farma-fuzz')
    .description('Property-based adversarial fuzzer for LLM-agent memory guards (FARMA attacks vs SENTINEL and baselines).')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  program
    .command('fuzz')
    .description('fuzz a guard: benign-admitted and forgery-rejected properties per domain × family; writes report.md/json, grows the regression corpus')
    .option('-g, --guard <spec>', GUARD_HELP, 'sentinel')
    .option('-d, --domain <list>', `domains, comma-separated or "all" (${DOMAINS.join(', ')})`, 'all')
    .option('-f, --family <list>', `families, comma-separated or "all" (${FAMILY_IDS.join(', ')})`, 'all')
    .option('-n, --runs <n>', 'cases per domain × family (not counting shrinks)', '1000')
    .option('-t, --time <seconds>', 'wall-clock budget for the whole campaign; cells share it evenly (runs then acts as a ceiling)')
    .option('-s, --seed <n>', 'fast-check seed (default: derived from the clock, and printed)')
    .option('-o, --out <dir>', 'report directory (default: reports/<date>-<guard>-<seed>)')
    .option('-c, --corpus <dir>', 'regression corpus directory', 'corpora/regressions')
    .option('--no-corpus', 'do not read or grow the regression corpus')
    .option('--benign <file>', 'also measure FPR on this JSONL export of benign memory entries')
    .option('--no-real', 'skip the FPR measurement on the bundled real ReAct thoughts')
    .addOption(new Option('--phase <phase>', 'guard path to test').choices(['write', 'retrieve']).default('write'))
    .option('--max-failures <k>', 'distinct failure signatures to shrink per cell', '5')
    .option('--timeout <ms>', 'per-entry time bound for module, http and exec guards', '5000')
    .option('-q, --quiet', 'no progress output')
    .action(async (opts: Record<string, string | boolean | undefined>) => {
      const guardSpec = String(opts.guard);
      const seed = parseSeed(opts.seed as string | undefined);
      const runs = positiveInt('--runs', opts.runs as string, 1000);
      const timeS = opts.time !== undefined ? positiveInt('--time', opts.time as string, 0) : undefined;
      const domains = parseList<DomainId>('--domain', String(opts.domain), DOMAINS);
      const families = parseList('--family', String(opts.family), FAMILY_IDS);
      const maxFailures = positiveInt('--max-failures', opts.maxFailures as string, 5);
      const timeoutMs = positiveInt('--timeout', opts.timeout as string, 5000);
      const now = new Date();
      const store = new MemoryStore(':memory:');
      try {
        await withGuard(guardSpec, timeoutMs, async (guard) => {
          const outDir = path.resolve(typeof opts.out === 'string' ? opts.out : path.join(REPO_ROOT, 'reports', defaultRunId(guard.id, seed, now)));
          const progress = createProgress(!opts.quiet);
          process.stderr.write(`farma-fuzz: guard ${guard.id}, seed ${seed}, ${domains.length} domain(s) × ${families.length} famil${families.length === 1 ? 'y' : 'ies'}, ${timeS !== undefined ? `up to ${runs} runs per cell within ${timeS} s` : `${runs} runs per cell`}\n`);
          const result = await runFuzz(
            {
              guardSpec,
              guard,
              store,
              domains,
              families,
              runs: timeS !== undefined && opts.runs === '1000' ? 1_000_000_000 : runs,
              ...(timeS !== undefined ? { timeLimitMs: timeS * 1000 } : {}),
              seed,
              phase: parsePhase(String(opts.phase)),
              maxFailures,
              outDir,
              ...(opts.corpus !== false ? { corpusDir: String(opts.corpus) } : {}),
              ...(typeof opts.benign === 'string' ? { benignFile: opts.benign } : {}),
              realData: opts.real !== false,
              generatedAt: now.toISOString(),
            },
            progress,
          );
          process.stdout.write(`${summaryText(result, { maxCounterexamples: 12 })}\n`);
          exit(result.report.summary.held ? 0 : 1);
        });
      } finally {
        store.close();
      }
    });

  program
    .command('replay')
    .description('re-evaluate the regression corpus of a guard: open, now-passing, fixed, regressed')
    .option('-g, --guard <spec>', GUARD_HELP, 'sentinel')
    .option('-c, --corpus <dir>', 'regression corpus directory', 'corpora/regressions')
    .option('--id <id>', 'replay one record (an id or a unique prefix), printed in full')
    .addOption(new Option('--phase <phase>', 'guard path').choices(['write', 'retrieve']).default('write'))
    .option('--mark-fixed', 'mark open records that now pass as fixed')
    .option('--timeout <ms>', 'per-entry time bound for module, http and exec guards', '5000')
    .action(async (opts: Record<string, string | boolean | undefined>) => {
      const guardSpec = String(opts.guard);
      const store = new MemoryStore(':memory:');
      try {
        await withGuard(guardSpec, positiveInt('--timeout', opts.timeout as string, 5000), async (guard) => {
          const r = await runReplay({
            guard,
            guardSpec,
            store,
            corpusDir: String(opts.corpus),
            ...(typeof opts.id === 'string' ? { id: opts.id } : {}),
            phase: parsePhase(String(opts.phase)),
            markFixed: opts.markFixed === true,
          });
          for (const issue of r.issues) process.stderr.write(`warning: ${issue}\n`);
          process.stdout.write(`${r.lines.join('\n')}\n`);
          const c = r.summary.counts;
          process.stdout.write(
            `\n${r.records.length} records from ${r.file}: ${c.open} open, ${c['now-passing']} now passing, ${c.fixed} fixed, ${c.regressed} regressed, ${c.error} errors (${r.summary.perSecond.toFixed(0)} entries/s)\n`,
          );
          exit(c.regressed > 0 ? 1 : 0);
        });
      } finally {
        store.close();
      }
    });

  program
    .command('check')
    .description('print one verdict JSON per line of a JSONL file of memory entries, in order')
    .option('-g, --guard <spec>', GUARD_HELP, 'sentinel')
    .requiredOption('-i, --input <file>', 'JSONL file of MemoryEntry-shaped objects ({id, content, source, trust, traceType, store})')
    .option('--store <path>', 'SQLite memory store to check against (default: an empty store)')
    .addOption(new Option('--phase <phase>', 'guard path').choices(['write', 'retrieve']).default('write'))
    .option('--timeout <ms>', 'per-entry time bound for module, http and exec guards', '5000')
    .action(async (opts: Record<string, string | undefined>) => {
      const store = new MemoryStore(opts.store ?? ':memory:');
      try {
        await withGuard(String(opts.guard), positiveInt('--timeout', opts.timeout, 5000), async (guard) => {
          const lines = await checkFile(String(opts.input), guard, store, parsePhase(String(opts.phase)));
          let bad = 0;
          for (const l of lines) {
            process.stdout.write(`${JSON.stringify(l.output)}\n`);
            if (l.error) {
              bad += 1;
              process.stderr.write(`error: ${l.error}\n`);
            }
          }
          exit(bad > 0 ? 2 : 0);
        });
      } finally {
        store.close();
      }
    });

  program
    .command('list')
    .description(`list what can be named: ${LISTABLE.join(' | ')}`)
    .argument('<what>', LISTABLE.join(' | '))
    .action((what: string) => {
      process.stdout.write(`${listText(what)}\n`);
      exit(0);
    });

  return program;
}

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = buildProgram((c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Help and version exit 0; commander already printed its message.
      return e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : 2;
    }
    if (e instanceof FarmaError) {
      process.stderr.write(`farma-fuzz: ${e.name}: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`farma-fuzz: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 2;
  }
}

const isEntry = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isEntry) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`farma-fuzz: ${String(e)}\n`);
      process.exitCode = 2;
    },
  );
}

