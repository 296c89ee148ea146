/**
 * `farma-fuzz compare <reportA> <reportB>`: what changed from run A (before: version 1 of a
 * guard) to run B (after): each rate with Fisher's exact test, counterexamples new, fixed and
 * still open by signature, operators that started or stopped getting through
 * (`src/report/compare.ts`). Refuses reports of different configurations unless
 * `--allow-config-diff`, naming every field that differs.
 *
 * Exit codes: 0 compared, B not significantly worse in any rate; 1 B significantly worse in
 * at least one rate, or without a result for a rate A has (unless `--allow-missing`); 2 the configurations differ (without --allow-config-diff) or a bad flag;
 * 3 a report is missing, unreadable or not a farma-fuzz report.json.
 */
import type { Command } from 'commander';
import { UsageError } from '../../domain/errors.js';
import { EXIT } from '../exit-codes.js';
import { readReport } from '../report-input.js';
import { colourEnabled, paint } from '../colour.js';
import pc from 'picocolors';

/** The console colours (`colour.ts`): the closing exit line, and the verdict of each table row (better green, worse red). */
function paintComparison(stream: { isTTY?: boolean }): (text: string) => string {
  const base = paint(stream);
  if (!colourEnabled(stream)) return base;
  const c = pc.createColors(true);
  return (text) => base(text.replace(/\| better( +)\|$/gm, `| ${c.green('better')}$1|`).replace(/\| worse( +)\|$/gm, `| ${c.red('worse')}$1|`));
}

function parseAlpha(value: string): number {
  const n = value.trim() === '' ? Number.NaN : Number(value);
  if (!(n > 0 && n < 1)) throw new UsageError(`--alpha must be a significance level in (0,1), got "${value}"`);
  return n;
}

/** The refusal when configurations differ, naming each difference and the flag. */
function configRefusal(differences: ReadonlyArray<{ key: string; a: string; b: string }>, flag = '--allow-config-diff'): string {
  const lines = differences.map((d) => `  ${d.key}: ${d.a} in A, ${d.b} in B`);
  return `the two reports come from different configurations, so a change of rate may come from the configuration rather than the guard:\n${lines.join('\n')}\nPass ${flag} to compare them anyway (a guard author comparing two versions of a guard usually means to); the differences are then printed above the table.`;
}

/** Registers `compare` on the program. */
export function registerCompareCommand(program: Command, exit: (code: number) => void): Command {
  return program
    .command('compare')
    .description('compare two fuzz reports, A (before) and B (after): each rate with Fisher\'s exact test, counterexamples new, fixed and still open, operators that started or stopped getting through')
    .argument('<reportA>', 'report.json of the earlier run (or its report folder)')
    .argument('<reportB>', 'report.json of the later run (or its report folder)')
    .option('--allow-config-diff', 'compare reports whose configurations differ (guard, guard options, seed, runs, domains, families, versions); the differences are printed')
    .option('--alpha <p>', 'significance level on Holm-adjusted p-values for calling a rate better or worse', '0.05')
    .option('--allow-missing', 'do not fail when B has no result for a rate A has (a cell or real set B did not run); the closing line still counts them')
    .option('--json', 'print the comparison as one JSON object on stdout instead of the tables')
    .addHelpText(
      'after',
      `
Rates: each cell's bypass rate (forged families) or FPR (benign, benign-stress), each real
set's FPR, and the attack success rate in attack mode; lower is better for all. Guard errors
count against the guard, as in the CI gate (an error is neither a rejection nor an
admission), and a cell or set with errors on either side also gets an error rate row. Each
change is tested with Fisher's exact test (two-sided) on the two proportions, and called
better or worse when its Holm-adjusted p-value is below --alpha.

Exit codes of compare:
  0  compared: B is not significantly worse than A in any rate
  1  B is significantly worse than A in at least one rate, or B has no result for a rate A
     has (a cell or real set B did not run) without --allow-missing
  2  the configurations differ and --allow-config-diff was not given (each difference is named), or a bad flag
  3  a report is missing, unreadable, not JSON or not a farma-fuzz report.json (the file and key are named)

Example:
  farma-fuzz compare reports/v1/report.json reports/v2 --allow-config-diff`,
    )
    .action(async (fileA: string, fileB: string, opts: { allowConfigDiff?: boolean; allowMissing?: boolean; alpha: string; json?: boolean }) => {
      const alpha = parseAlpha(opts.alpha);
      const a = await readReport(fileA, 'report A');
      const b = await readReport(fileB, 'report B');
      const { compareReports, configDifferences, renderComparisonText } = await import('../../report/compare.js');
      const differences = configDifferences(a.report, b.report);
      if (differences.length > 0 && opts.allowConfigDiff !== true) throw new UsageError(`compare: ${configRefusal(differences)}`);
      const c = compareReports(a.report, b.report, { alpha, fileA: a.file, fileB: b.file });
      const v = c.verdict;
      const missing = v.missingInB.length > 0 && opts.allowMissing !== true;
      const code = v.regressed || missing ? EXIT.failed : EXIT.ok;
      const worse = c.rates.filter((r) => r.change === 'worse').map((r) => `${r.name} ${r.metric}`);
      const deciding = [...(v.regressed ? ['rates'] : []), ...(missing ? ['coverage'] : [])];
      const because = [
        ...(v.regressed ? [`B is significantly worse than A in ${worse.length > 8 ? `${worse.slice(0, 8).join(', ')}, … (${worse.length} rates in all)` : worse.join(', ')}`] : []),
        ...(missing ? [`B has no result for ${v.missingInB.length} of A's rates (${v.missingInB.slice(0, 6).join(', ')}${v.missingInB.length > 6 ? ', …' : ''}); run B on the same cells, or pass --allow-missing`] : []),
      ];
      const allowed = v.missingInB.length > 0 && !missing ? ` (${v.missingInB.length} of A's rates have no result in B: --allow-missing)` : '';
      const closing = code === EXIT.ok ? `exit 0: decided by rates: B is not significantly worse than A in any of the ${v.tested} rates tested${allowed}` : `exit 1: decided by ${deciding.join(' + ')}: ${because.join('; ')}`;
      if (opts.json === true) process.stdout.write(`${JSON.stringify({ ...c, exit: { code, deciding: deciding.length > 0 ? deciding.join('+') : 'rates', lines: [closing] } }, null, 2)}\n`);
      else process.stdout.write(`${paintComparison(process.stdout)(`${renderComparisonText(c)}\n\n${closing}`)}\n`);
      exit(code);
    });
}
