/** `farma-fuzz list guards|families|domains|operators [--catalog]`: what can be named on the command line, and the catalog coverage matrix. */
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
async function listText(what: string, opts: { catalog?: boolean } = {}): Promise<string> {
  if (opts.catalog === true && what !== 'operators') throw new UsageError(`list: --catalog goes with "operators" (got "${what}")`);
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
      if (opts.catalog === true) return catalogText();
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

/**
 * The catalog coverage matrix (`generators/paraphrase/catalog.ts`): counts per catalog, then
 * every entry with its operators or the reason it has none.
 */
async function catalogText(): Promise<string> {
  const { CATALOG, NOT_APPLICABLE_REASONS, catalogCounts, isWithheld } = await import('../../../generators/paraphrase/catalog.js');
  const ids = (list: readonly string[]): string => list.map((id) => (isWithheld(id) ? `${id} (withheld)` : id)).join(', ');
  const lines: string[] = ['Catalog coverage (PyRIT converters, garak encoding probes/badchars/buffs/phrasing, TextAttack transformations, promptfoo strategies)', ''];
  lines.push(`${'catalog'.padEnd(11)} ${'entries'.padStart(7)} ${'mapped'.padStart(6)} ${'withheld'.padStart(8)} ${'llm'.padStart(4)} ${'family'.padStart(6)} ${'gap'.padStart(4)} ${'n/a'.padStart(4)}  not applicable by reason`);
  for (const c of catalogCounts()) {
    const na = Object.entries(c.notApplicable);
    const naTotal = na.reduce((a, [, n]) => a + (n ?? 0), 0);
    lines.push(`${c.catalog.padEnd(11)} ${String(c.total).padStart(7)} ${String(c.mapped).padStart(6)} ${String(c.withheld).padStart(8)} ${String(c.llm).padStart(4)} ${String(c.family).padStart(6)} ${String(c.gap).padStart(4)} ${String(naTotal).padStart(4)}  ${na.map(([r, n]) => `${r} ${n}`).join(', ')}`);
  }
  lines.push('', 'mapped: a registered operator produces the kind; withheld: built, but withheld from the registry (a composition with another operator loses the claim, docs/catalog.md); llm: needs a model, the llm-paraphrase family covers it (operators listed are model-free stand-ins); family: a generator family covers it; gap: applicable, not built (why given).');
  lines.push('Reasons: ' + Object.entries(NOT_APPLICABLE_REASONS).map(([k, v]) => `${k} (${v})`).join('; ') + '.');
  for (const e of CATALOG) {
    const cov = e.coverage;
    const what =
      cov.status === 'mapped' ? `mapped: ${ids(cov.operators)}`
      : cov.status === 'llm' ? `llm${cov.operators ? ` (model-free: ${ids(cov.operators)})` : ''}`
      : cov.status === 'family' ? `family: ${cov.family}`
      : cov.status === 'gap' ? `gap: ${cov.why}`
      : `not applicable: ${cov.reason}`;
    lines.push(`${e.catalog.padEnd(11)} ${e.name.padEnd(44)} ${what}${e.note ? ` — ${e.note}` : ''}`);
  }
  return lines.join('\n');
}

/** Registers `list` on the program; `exit` receives the exit code. */
export function registerListCommand(program: Command, exit: (code: number) => void): Command {
  return program
    .command('list')
    .description(`list what can be named: ${LISTABLE.join(' | ')}`)
    .argument('<what>', LISTABLE.join(' | '))
    .option('--catalog', 'with "operators": the coverage matrix of the public red-team catalogs (PyRIT, garak, TextAttack, promptfoo)')
    .action(async (what: string, opts: { catalog?: boolean }) => {
      process.stdout.write(`${await listText(what, opts)}\n`);
      exit(0);
    });
}
