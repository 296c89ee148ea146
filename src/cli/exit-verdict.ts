/**
 * What decides the exit code of `farma-fuzz fuzz`, and the closing lines that say so.
 *
 * - No gate (neither `--max-fpr` nor `--max-bypass`): 0 when every invariant held, else 1.
 * - A gate: the gate's verdict alone (Wilson 95% upper bounds against the limits);
 *   invariants that fail do not change the exit code unless `--require-invariants` is given,
 *   which also requires every invariant of every cell to hold.
 * - Whatever the gate: 4 (guard) when the guard never gave a verdict, every call of every cell
 *   answering `error` (an exec command that cannot start, an HTTP endpoint with nothing
 *   listening): nothing was judged, so there is no finding to report.
 * - Above everything: 130 (interrupted) when Ctrl-C stopped the run, whatever the partial
 *   results say (the shell convention 128 + SIGINT, which test runners follow too): a stopped run
 *   is neither a pass nor a complete verdict. The partial report is still written, and the lines
 *   say what had been found before the stop.
 *
 * - A shard (`fuzz --shard i/n`) is not a verdict: its cells are a part of the campaign, and
 *   `merge-reports` judges them all. A shard whose run finished exits 0 whether its own cells
 *   pass or fail (the lines still say what they alone would give); 4 and 130 are kept, since
 *   then the shard itself failed. So a CI matrix needs no `continue-on-error`, and the merge's
 *   exit code is the verdict.
 *
 * Invariants that fail are findings about the guard, never a crash of the fuzzer: the lines
 * say where the minimal counterexamples are. Error exit codes (usage, input, guard load) are
 * set elsewhere in `src/cli`.
 */
import path from 'node:path';
import type { GateResult, GateThresholds } from '../report/gate.js';
import type { ReportData } from '../report/model.js';
import { EXIT, exitCodeOfSignal, stopName, type StopSignal } from './exit-codes.js';
import { plural } from '../domain/plural.js';
import { judgedNothing } from '../fuzz/stats.js';

/** One check that took part in the decision. */
interface ExitCheck {
  /** `invariants`, `gate`, or `guard` (did the guard give any verdict at all). */
  name: 'invariants' | 'gate' | 'guard';
  pass: boolean;
  /** One line, e.g. `invariants: 12 of 15 cells failed (ehr/seed, …)`. */
  detail: string;
}

export interface ExitVerdict {
  /** 0 pass, 1 invariants or gate failed, 4 the guard never gave a verdict, 130 interrupted (Ctrl-C). */
  code: 0 | 1 | 4 | 129 | 130 | 143;
  /** The checks that decided `code` (the gate, the invariants, or both). */
  deciding: ExitCheck[];
  /** Closing lines for the console and the GitHub step summary, plain text. */
  lines: string[];
}

export interface ExitVerdictOptions {
  thresholds: GateThresholds;
  /** The config file (as shown) that set a limit, per key; a key without one came from its flag. */
  gateFrom?: Partial<Record<keyof GateThresholds, string>>;
  /** `--require-invariants`: with a gate, also require every invariant to hold. */
  requireInvariants?: boolean;
  /** Report folder, named in the finding line. */
  reportDir?: string;
  /** Ctrl-C stopped the run: the code is 130 whatever the partial results (see the file's doc). */
  interrupted?: boolean;
  /** The signal that stopped it (default SIGINT): the code is 128 + its number (130, 143 for SIGTERM, 129 for SIGHUP). */
  signal?: StopSignal;
  /** The run is shard `index` of `total`: a finished shard exits 0, the merge gives the verdict (see the file's doc). */
  shard?: { index: number; total: number };
}

function listCells(cells: readonly string[], max = 6): string {
  return cells.length <= max ? cells.join(', ') : `${cells.slice(0, max).join(', ')}, … (+${cells.length - max})`;
}

/**
 * Describes the limits that form the gate where they were set: as typed on the command line
 * (`--max-fpr 0.05`), or as the config file's key (`thresholds.maxFpr 0.05 in farma-fuzz.config.ts`).
 */
function gateFlags(t: GateThresholds, from: ExitVerdictOptions['gateFrom'] = {}): string {
  const parts: string[] = [];
  const one = (flag: string, key: keyof GateThresholds): void => {
    const v = t[key];
    if (v === undefined) return;
    const file = from[key];
    parts.push(file !== undefined ? `thresholds.${key} ${v} in ${file}` : `${flag} ${v}`);
  };
  one('--max-fpr', 'maxFpr');
  one('--max-bypass', 'maxBypass');
  return parts.join(', ');
}

/** Where the minimal counterexamples are: the report, and the corpus when it grew. */
function where(report: ReportData, o: ExitVerdictOptions): string {
  const at = [o.reportDir ? `minimal counterexamples in ${path.join(o.reportDir, 'report.md')}` : 'minimal counterexamples in report.md'];
  if (report.corpus) at.push(`saved to ${report.corpus.file}`);
  return at.join(', ');
}

/** True when any gate limit is set. */
function hasGate(t: GateThresholds): boolean {
  return t.maxFpr !== undefined || t.maxBypass !== undefined;
}

/**
 * Decides the exit code of a fuzz run and writes the lines that explain it. Pure.
 * @param report the finished report.
 * @param gateResult `gate(report, thresholds)` (its checks are empty without a gate).
 * @example
 * const v = exitVerdict(report, gate(report, { maxFpr: 0.05 }), { thresholds: { maxFpr: 0.05 } });
 * process.stdout.write(v.lines.join('\n')); exit(v.code);
 */
export function exitVerdict(report: ReportData, gateResult: GateResult, o: ExitVerdictOptions): ExitVerdict {
  const v = completeVerdict(report, gateResult, o);
  if (!o.interrupted) return o.shard ? shardVerdict(v, o.shard) : v;
  const runs = report.cells.reduce((n, c) => n + c.runs, 0);
  const stopped = report.cells.filter((c) => c.interrupted).map((c) => `${c.domain}/${c.family}`);
  const so = v.code === EXIT.ok ? 'nothing had failed' : v.code === EXIT.guard ? 'the guard had answered error on every call' : `the partial run would exit ${v.code}`;
  const code = exitCodeOfSignal(o.signal ?? 'SIGINT');
  return {
    code,
    deciding: v.deciding,
    lines: [
      `interrupted (${stopName(o.signal ?? 'SIGINT')}) after ${plural(runs, 'case')}${stopped.length > 0 ? `, in ${listCells(stopped)}` : ''}: the report covers the cases run so far (${path.join(o.reportDir ?? '.', 'report.md')}); before the stop ${so}:`,
      ...v.lines.filter((l) => !l.startsWith('exit ')).map((l) => `  ${l}`),
      `exit ${code}: interrupted; a stopped run is not a verdict (run it again to the end, or with fewer --runs).`,
    ],
  };
}

/** A finished shard: 0 for a pass or a fail of its own cells (the merge judges them all); a guard failure stays 4. */
function shardVerdict(v: ExitVerdict, shard: { index: number; total: number }): ExitVerdict {
  if (v.code !== EXIT.ok && v.code !== EXIT.failed) return v;
  const last = v.lines[v.lines.length - 1] ?? '';
  const own = last.replace(/^exit (\d+): /, 'exit $1, ').replace(/\.$/, '');
  return {
    code: EXIT.ok,
    deciding: v.deciding,
    lines: [
      ...v.lines.slice(0, -1),
      `shard ${shard.index}/${shard.total}: its cells alone would give ${own}; a shard is a part of the campaign, not its verdict: merge-reports judges every shard's cells together.`,
      `exit 0: shard ${shard.index}/${shard.total} finished (the verdict is merge-reports').`,
    ],
  };
}

/** The verdict of a run that was not interrupted. */
function completeVerdict(report: ReportData, gateResult: GateResult, o: ExitVerdictOptions): ExitVerdict {
  const failing = report.summary.failingCells;
  const cells = report.cells.length;
  const invariants: ExitCheck = {
    name: 'invariants',
    pass: report.summary.held,
    detail: report.summary.held ? `every invariant held (${plural(cells, 'cell')})` : `invariants failed in ${failing.length} of ${plural(cells, 'cell')} (${listCells(failing)})`,
  };
  const runs = report.cells.reduce((n, c) => n + c.runs, 0);
  if (judgedNothing(report.cells)) {
    // Not one verdict: the guard never answered (an exec command that cannot start, an HTTP endpoint down).
    const kinds = [...new Set(report.cells.flatMap((c) => Object.keys(c.errorKinds)))].sort().join(', ');
    // In attack mode an adaptive cell's runs are attacked bases, and a base counts as an error when
    // its own check or any query of an attack that did not flip it answered error: the guard may
    // have judged some queries, so say bases, not calls.
    const onlyBases = report.attack !== undefined && report.cells.every((c) => c.family === 'adaptive');
    const detail = onlyBases
      ? `every one of the ${runs} attacked bases of ${report.config.guard} ended in an error verdict (${kinds || 'error'}: on the base itself or during its attack), so no base was judged`
      : `every one of the ${runs} cases of ${report.config.guard} got an error verdict (${kinds || 'error'}), none was judged`;
    const guard: ExitCheck = { name: 'guard', pass: false, detail };
    return {
      code: EXIT.guard,
      deciding: [guard],
      lines: [
        `guard failure: ${guard.detail}: ${onlyBases ? 'check the guard\'s error rate (report.md gives the kinds)' : `check that the guard starts and is reachable${/\btimeout\b/.test(kinds) ? ', or give it a larger --timeout (a guard that answers, only slower than the bound, times out on every call)' : ''}`}; each counterexample's verdict gives the reason (${where(report, o)}).`,
        `exit ${EXIT.guard}: decided by guard FAIL (no invariant${hasGate(o.thresholds) ? ' and no gate check' : ''} could be judged).`,
      ],
    };
  }
  const gated = hasGate(o.thresholds);
  const lines: string[] = [];
  let deciding: ExitCheck[];
  if (!gated) {
    deciding = [invariants];
    lines.push(`no gate set: the exit code follows the invariants; ${invariants.detail}.`);
  } else {
    const above = gateResult.checks.filter((c) => !c.pass);
    const gateCheck: ExitCheck = {
      name: 'gate',
      pass: gateResult.pass,
      detail: gateResult.pass
        ? `CI gate (${gateFlags(o.thresholds, o.gateFrom)}) passed: ${plural(gateResult.checks.length, 'check')}, every Wilson 95% upper bound within its limit`
        : `CI gate (${gateFlags(o.thresholds, o.gateFrom)}) failed: ${above.length} of ${plural(gateResult.checks.length, 'check')} above the limit (${listCells(above.map((c) => c.name))})`,
    };
    deciding = o.requireInvariants ? [gateCheck, invariants] : [gateCheck];
    lines.push(`${gateCheck.detail}.`);
    if (o.requireInvariants) lines.push(`--require-invariants: ${invariants.detail}.`);
    else if (!invariants.pass) lines.push(`${invariants.detail}; under a gate they do not decide the exit code (add --require-invariants to make them).`);
  }
  const code: 0 | 1 = deciding.every((c) => c.pass) ? 0 : 1;
  if (!invariants.pass) {
    // "not a crash" is about farma-fuzz; when the guard itself failed on inputs, say so beside it.
    const found = report.summary.findings ?? {};
    const failed = (['crash', 'guard-error'] as const).filter((k) => (found[k] ?? 0) > 0).map((k) => `${found[k]} ${k}`);
    const own = failed.length > 0 ? ` of farma-fuzz; the guard itself failed on some inputs (${failed.join(', ')} findings; an error verdict is never a rejection)` : '';
    lines.push(`finding: guard ${report.config.guard} breaks its invariants; this is a result of the fuzzing, not a crash${own} (${where(report, o)}).`);
  }
  const by = deciding.map((c) => `${c.name} ${c.pass ? 'pass' : 'FAIL'}`).join(' + ');
  lines.push(`exit ${code}: decided by ${by}.`);
  return { code, deciding, lines };
}

/** `fuzz --help`: what decides the exit code (the same as README "What decides the exit code of fuzz"). */
export const FUZZ_EXIT_HELP = `
What decides the exit code of fuzz:
  no gate                               0 when every invariant held, else 1
  --max-fpr and/or --max-bypass         the gate alone: 0 when every check passed, else 1
                                        (failing invariants are reported as findings, not counted)
  a gate and --require-invariants       0 only when the gate passed and every invariant held
  any of these                          4 when every guard call answered error (the guard never
                                        started or is unreachable): nothing was judged
  Ctrl-C                                130 whatever the partial results; the partial report
                                        and corpus are written and the lines say what failed
  --shard i/n                           0 once the shard finished, whatever its own cells give
                                        (4 and 130 as above): merge-reports gives the verdict
The last lines of the run say which checks decided and why.`;
