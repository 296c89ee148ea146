/** `farma-fuzz list guards|families|domains`: what can be named on the command line. */
import type { Command } from 'commander';
import { DOMAINS } from '../../domain/fuzz-case.js';
import { UsageError } from '../../domain/errors.js';
import { didYouMean } from '../../domain/suggest.js';
import { GUARDS } from '../../guards/registry.js';

const LISTABLE = ['guards', 'families', 'domains', 'operators'] as const;

/**
 * The text of `farma-fuzz list <what>`. Families and operators load the generators on
 * demand, so `list guards` and `list domains` start fast.
 * @throws UsageError for an unknown kind.
 */
async function listText(what: string): Promise<string> {
  switch (what) {
    case 'guards':
      return Object.entries(GUARDS)
        .map(([id, g]) => `${id.padEnd(12)} ${g.description}`)
        .join('\n');
    case 'families': {
      const { FAMILY_REGISTRY } = await import('../../../generators/families.js');
      return Object.entries(FAMILY_REGISTRY)
        .map(([id, f]) => `${id.padEnd(14)} ${f.label.padEnd(7)} ${f.description}`)
        .join('\n');
    }
    case 'domains':
      return DOMAINS.join('\n');
    case 'operators': {
      const { listOperators } = await import('../../../generators/paraphrase/index.js');
      const ops = listOperators();
      const pad = ' '.repeat(46);
      const rows = ops.map(
        (o) => `${o.id.padEnd(24)} ${o.group.padEnd(11)} ${o.reading.padEnd(8)} preserves: ${o.preserves.join(', ')}\n${pad}${o.description}${o.kinds && o.kinds.length > 0 ? `\n${pad}kinds: ${o.kinds.join(', ')}` : ''}`,
      );
      return [`${ops.length} paraphrase/mutation operators (id, group, reading, what each keeps, evasion kinds)`, ...rows].join('\n');
    }
    default:
      throw new UsageError(`list: unknown kind "${what}"${didYouMean(what, LISTABLE)} (known: ${LISTABLE.join(', ')})`);
  }
}

/** Registers `list` on the program; `exit` receives the exit code. */
export function registerListCommand(program: Command, exit: (code: number) => void): Command {
  return program
    .command('list')
    .description(`list what can be named: ${LISTABLE.join(' | ')}`)
    .argument('<what>', LISTABLE.join(' | '))
    .action(async (what: string) => {
      process.stdout.write(`${await listText(what)}\n`);
      exit(0);
    });
}
