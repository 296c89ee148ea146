/**
 * `farma-fuzz replay`: re-evaluates the regression corpus of one guard (`src/campaign/replay.ts`). Exit code 1
 * when a `fixed` record regressed, 4 when the guard answered error on a record (its status is unknown), 3 when corpus
 * lines could not be read, else 0.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { configFileIn } from '../../config/load-config-file.js';
import type { Command } from 'commander';
import { printable } from '../../report/format-verdict.js';
import { parsePhase } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { withGuardIn } from '../guard-session.js';
import { concurrencyOption, corpusOption, guardOption, guardOptionFlag, parseConcurrency, parseRecheck, parseTimeout, phaseOption, recheckOption, timeoutOption } from '../options.js';
import { plural } from '../../domain/plural.js';


/** Registers `replay` on the program; `exit` receives the exit code. */
export function registerReplayCommand(program: Command, exit: (code: number) => void): Command {
  return program
    .command('replay')
    .description('re-evaluate the regression corpus of a guard: open, now passing, fixed, regressed, flaky')
    .addOption(guardOption())
    .addOption(corpusOption())
    .option('--id <id>', 'replay one record (an id or a unique prefix), printed in full')
    .addOption(phaseOption())
    .option('--mark-fixed', 'mark open records that now pass (on every re-check) as fixed')
    .addOption(timeoutOption())
    .addOption(guardOptionFlag())
    .addOption(concurrencyOption())
    .addOption(recheckOption())
    .action(async (opts: Record<string, string | boolean | undefined>, cmd: Command) => {
      const [{ MemoryStore }, { runReplay }] = await Promise.all([import('../../memory/index.js'), import('../../campaign/replay.js')]);
      const guardSpec = String(opts.guard);
      // Only fuzz reads a config file: a guard set there is not the one replayed unless --guard names it.
      const config = cmd.getOptionValueSource('guard') === 'default' ? configFileIn() : undefined;
      if (config) process.stderr.write(`note: replay reads no config file (${path.basename(config)} is here): it replays the corpus of ${guardSpec}; pass --guard to replay another guard's\n`);
      const store = new MemoryStore(':memory:');
      try {
        const timeoutMs = parseTimeout(opts.timeout as string);
        const concurrency = parseConcurrency(opts.concurrency as string | undefined);
        const recheck = parseRecheck(opts.recheck as string | undefined);
        const guardOptions = (await import('../../guards/guard-options.js')).parseGuardOptionFlags((opts.guardOption as unknown as string[] | undefined) ?? []);
        await withGuardIn(guardSpec, timeoutMs, concurrency, async (guard) => {
          const r = await runReplay({
            guardOptions,
            timeoutMs,
            concurrency,
            recheck,
            guard,
            guardSpec,
            store,
            corpusDir: String(opts.corpus),
            ...(typeof opts.id === 'string' ? { id: opts.id } : {}),
            phase: parsePhase(String(opts.phase)),
            markFixed: opts.markFixed === true,
          });
          const flips = r.summary.results.filter((x) => x.flip);
          for (const issue of r.issues) process.stderr.write(`warning: ${printable(issue)}\n`);
          for (const d of r.duplicates) process.stderr.write(`warning: ${printable(d)}\n`);
          process.stdout.write(`${r.lines.join('\n')}\n`);
          const c = r.summary.counts;
          if (!existsSync(r.file)) process.stdout.write(`no corpus file yet for guard ${guard.id}: ${r.file} (fuzz writes it when it finds a counterexample)\n`);
          if (r.marked > 0) process.stdout.write(`marked ${plural(r.marked, 'record')} as fixed in ${r.file}\n`);
          process.stdout.write(
            `\n${plural(r.records.length, 'record')} from ${r.file}: ${c.open} open, ${c['now-passing']} now passing, ${c.fixed} fixed, ${c.regressed} regressed, ${c.flaky} flaky, ${plural(c.error, 'error')} (${r.summary.perSecond.toFixed(0)} entries/s)\n` +
              (flips.length > 0
                ? `${plural(flips.length, 'flip record')} (original + rewrite): ${['reproduced', 'original-admitted', 'rewrite-rejected', 'both-changed', 'error'].map((k) => `${flips.filter((x) => x.flip?.status === k).length} ${k}`).join(', ')}\n`
                : ''),
          );
          if (r.issues.length > 0) process.stderr.write(`error: ${plural(r.issues.length, 'corpus line')} ${r.issues.length === 1 ? 'could not be read and was' : 'could not be read and were'} not replayed (named above); fix or remove ${r.issues.length === 1 ? 'it' : 'them'}\n`);
          for (const other of r.otherConfigs) process.stdout.write(`note: ${printable(other)}\n`);
          // A record the guard could not judge is no pass: a replay gate against a dead or crashing guard must not go green.
          if (c.error > 0) process.stderr.write(`error: the guard answered error on ${plural(c.error, 'record')} of ${r.records.length} (reasons on the lines above): their regression status is unknown\n`);
          exit(c.regressed > 0 ? EXIT.failed : c.error > 0 ? EXIT.guard : r.issues.length > 0 ? EXIT.input : EXIT.ok);
        }, guardOptions);
      } finally {
        store.close();
      }
    });
}
