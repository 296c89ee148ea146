/**
 * `farma-fuzz check`: one verdict JSON per input line, in order (`src/campaign/check.ts`). A malformed line
 * prints `{"line":N,"error":"..."}` in its place (and the same message on stderr) and the run carries on.
 * Exit code 3 (input) when any line was bad, 4 (guard) when a verdict was a guard error, else 0.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { InputError, UsageError } from '../../domain/errors.js';
import { printable } from '../../report/format-verdict.js';
import { parsePhase } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { withGuardIn } from '../guard-session.js';
import { concurrencyOption, guardOption, parseConcurrency, parseTimeout, phaseOption, timeoutOption } from '../options.js';


/** Registers `check` on the program; `exit` receives the exit code. */
export function registerCheckCommand(program: Command, exit: (code: number) => void): Command {
  return program
    .command('check')
    .description('print one verdict JSON per line of a JSONL file of memory entries, in order')
    .addOption(guardOption())
    .requiredOption('-i, --input <file>', 'JSONL file of MemoryEntry-shaped objects: id and content required; source, trust, traceType, store, timestamp optional (defaults in the README)')
    .option('--store <path>', 'SQLite memory store to check against (default: an empty store)')
    .addOption(phaseOption())
    .addOption(timeoutOption())
    .addOption(concurrencyOption())
    .action(async (opts: Record<string, string | undefined>) => {
      const [{ MemoryStore, probeStoreFile }, { checkFile }] = await Promise.all([import('../../memory/index.js'), import('../../campaign/check.js')]);
      if (opts.store !== undefined) {
        const kind = existsSync(opts.store) ? probeStoreFile(opts.store) : 'missing';
        if (kind === 'missing') throw new UsageError(`--store ${opts.store}: no such memory store`);
        if (kind === 'foreign') throw new InputError(`not a farma-fuzz memory store (check only reads stores that import wrote)`, { file: opts.store });
      }
      // check only reads: the store is opened read-only (nothing written, no -wal/-shm left behind).
      const store = opts.store !== undefined ? new MemoryStore(opts.store, { readonly: true }) : new MemoryStore(':memory:');
      try {
        const concurrency = parseConcurrency(opts.concurrency);
        await withGuardIn(String(opts.guard), parseTimeout(opts.timeout), concurrency, async (guard) => {
          const lines = await checkFile(String(opts.input), guard, store, parsePhase(String(opts.phase)), concurrency);
          let bad = 0;
          for (const l of lines) {
            process.stdout.write(`${JSON.stringify(l.output)}\n`);
            for (const w of l.warnings ?? []) process.stderr.write(`warning: ${printable(w)}\n`);
            if (l.error) {
              bad += 1;
              process.stderr.write(`error: ${printable(l.error)}\n`);
            }
          }
          const errors = lines.filter((l) => l.output.decision === 'error').length;
          if (lines.length === 0) process.stderr.write(`warning: ${String(opts.input)} holds no entries\n`);
          if (errors > 0) process.stderr.write(`${errors} of ${lines.length} verdicts ${errors === 1 ? 'is a guard error' : 'are guard errors'} (never counted as rejections)\n`);
          exit(bad > 0 ? EXIT.input : errors > 0 ? EXIT.guard : EXIT.ok);
        });
      } finally {
        store.close();
      }
    });
}
