/**
 * `farma-fuzz import`: writes memory entries from a JSONL file into a SQLite memory store, directly (in
 * batches) or through a guard's write path. Exit 3 on bad lines, 4 on guard errors, else 0.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { MemoryEntry } from '../../domain/entry.js';
import { InputError } from '../../domain/errors.js';
import { readJsonlFile, validateMemoryEntry } from '../../corpus/jsonl.js';
import { printable, printableLine } from '../../report/format-verdict.js';
import { loadGuard } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { closeGuard, trackGuard } from '../guard-session.js';
import { parseTimeout, timeoutOption } from '../options.js';
import { plural } from '../../domain/plural.js';

/** Entries `import` commits per write transaction (without a guard). */
const IMPORT_BATCH = 500;


/** Registers `import` on the program; `exit` receives the exit code. */
export function registerImportCommand(program: Command, exit: (code: number) => void): Command {
  return program
    .command('import')
    .description('write memory entries from a JSONL file into a SQLite memory store (created when missing), directly or through a guard\'s write path')
    .requiredOption('--store <path>', 'SQLite memory store file (created when missing; a non-farma SQLite file is refused)')
    .requiredOption('-i, --input <file>', 'JSONL file of MemoryEntry-shaped objects')
    .option('-g, --guard <spec>', 'write through this guard: only admitted entries are committed (default: commit every entry)')
    .addOption(timeoutOption())
    .action(async (opts: Record<string, string | undefined>) => {
      const { MemoryStore, probeStoreFile } = await import('../../memory/index.js');
      const storePath = String(opts.store);
      const kind = existsSync(storePath) ? probeStoreFile(storePath) : 'missing';
      if (kind === 'foreign') throw new InputError('not a farma-fuzz memory store (refusing to add tables to it)', { file: storePath });
      if (kind === 'unreadable') throw new InputError('cannot open this memory store (check its permissions, and that its folder is writable)', { file: storePath });
      const timeoutMs = parseTimeout(opts.timeout);
      // Streamed: an export of any size, also larger than V8's longest string.
      const { records, issues, warnings = [] } = await readJsonlFile(String(opts.input), validateMemoryEntry);
      for (const i of issues) process.stderr.write(`error: ${printable(`${i.file}:${i.line}: ${i.message}`)}\n`);
      for (const w of warnings) process.stderr.write(`warning: ${printable(`${w.file}:${w.line}: ${w.message}`)}\n`);
      // Load the guard before creating the store, so a usage error leaves no empty store behind.
      const guard = opts.guard ? await loadGuard(opts.guard, timeoutMs) : undefined;
      if (guard) trackGuard(guard);
      const store = new MemoryStore(storePath);
      try {
        const counts = { committed: 0, rejected: 0, errors: 0, duplicates: 0 };
        const duplicate = (entry: MemoryEntry, line: number): void => {
          counts.duplicates += 1;
          process.stderr.write(`warning: ${String(opts.input)}:${line}: id "${printableLine(entry.id)}" is already in the ${entry.store} store; skipped\n`);
        };
        // Other processes may import into the same store at once: every commit skips a taken id
        // (with a warning) instead of failing, and waits for their write lock (busy timeout).
        if (!guard) {
          for (let i = 0; i < records.length; i += IMPORT_BATCH) {
            const batch = records.slice(i, i + IMPORT_BATCH);
            const lineOf = new Map(batch.map((r) => [r.value, r.line]));
            const r = store.insertNew(batch.map((x) => x.value));
            counts.committed += r.inserted.length;
            for (const e of r.duplicates) duplicate(e, lineOf.get(e) ?? 0);
          }
        } else {
          for (const { value: entry, line } of records) {
            if (store.get(entry.store, entry.id) !== undefined) {
              duplicate(entry, line);
              continue;
            }
            const r = await store.writeAsync(entry, guard, 'write', { skipDuplicate: true });
            if (r.committed) counts.committed += 1;
            else if (r.duplicate) duplicate(entry, line);
            else if (r.verdict.decision === 'error') counts.errors += 1;
            else counts.rejected += 1;
          }
        }
        process.stdout.write(
          `${storePath}: ${counts.committed} committed${guard ? `, ${counts.rejected} rejected, ${plural(counts.errors, 'guard error')}` : ''}, ${plural(counts.duplicates, 'duplicate')} skipped, ${plural(issues.length, 'bad line')}; the store now holds ${store.view.size('reasoning')} reasoning and ${plural(store.view.size('general'), 'general entry', 'general entries')}\n`,
        );
        exit(issues.length > 0 ? EXIT.input : counts.errors > 0 ? EXIT.guard : EXIT.ok);
      } finally {
        store.close();
        if (guard) await closeGuard(guard);
      }
    });
}
