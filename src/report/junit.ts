/**
 * JUnit XML rendering of a report, for CI test dashboards: one `<testsuite>` per domain,
 * one `<testcase>` per property × family, plus a gate suite when rate limits are given.
 * Names carry no seed, date or count, so a dashboard tracks the same test from run to run.
 * Built with xmlbuilder2 (https://github.com/oozcitak/xmlbuilder2); attacker-controlled
 * entry text goes in escaped, with characters illegal in XML 1.0 removed.
 */
import { queryProperties } from './queries.js';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { formatCounterexample } from './format-verdict.js';
import { formatGateCheck, gate, type GateThresholds } from './gate.js';
import { pct } from './percent.js';
import type { ReportCell, ReportData } from './model.js';
import { xmlSafe, xmlSafeLine } from './xml-text.js';
import { plural } from '../domain/plural.js';

/** Guard id as a class-name segment: anything but letters, digits, `_` and `-` becomes `_`. */
function segment(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]+/g, '_') || '_';
}

/** `farma-fuzz.<guard>.<domain>`: the class name of a cell's test case. */
function junitClassName(guard: string, domain: string): string {
  return `farma-fuzz.${segment(guard)}.${segment(domain)}`;
}

/** `<property> · <family>`: the name of a cell's test case. */
function junitTestName(property: string, family: string): string {
  return `${property} · ${family}`;
}

function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

/**
 * The failure type of a cell: `bypass` / `false-positive` when a clean finding (one that
 * reproduced on every re-check) or no finding at all backs the violations; `flaky` when every
 * finding of the cell is flaky; `guard-crash` when an input crashes the guard; else `guard-error`.
 */
function failureKind(c: ReportCell, cxs: readonly ReportData['counterexamples'][number][]): string {
  const clean = c.property === 'benign-admitted' ? 'false-positive' : 'bypass';
  if (cxs.some((x) => x.kind === clean)) return clean;
  if (cxs.some((x) => x.kind === 'crash')) return 'guard-crash';
  if (cxs.length > 0 && cxs.every((x) => x.kind === 'flaky')) return 'flaky';
  return c.violations === 0 ? 'guard-error' : clean;
}

function cellFailure(r: ReportData, c: ReportCell): { message: string; type: string; body: string } {
  const cxs = r.counterexamples.filter((x) => x.domain === c.domain && x.family === c.family && x.property === c.property);
  const rateName = c.property === 'benign-admitted' ? 'FPR' : 'bypass rate';
  const flaky = cxs.filter((x) => x.kind === 'flaky').length;
  const crashes = cxs.filter((x) => x.kind === 'crash').length;
  const head = `${plural(c.violations, 'violation')} and ${plural(c.errors, 'guard error')} in ${plural(c.runs, 'run')}; ${rateName} ${pct(c.violationRate)}; ${plural(cxs.length, 'minimal counterexample')}${flaky > 0 ? `, ${flaky} flaky` : ''}${crashes > 0 ? `, ${crashes} crashing the guard` : ''}`;
  const replays = cxs.map((x) => `replay ${x.id}: ${x.replay}`);
  const blocks = cxs.map((x) => formatCounterexample({ ...x, verdict: { ...x.verdict, elapsedUs: r.timing.counterexampleUs[x.id] ?? 0 } }));
  return {
    type: failureKind(c, cxs),
    message: xmlSafeLine([head, ...replays].join('; ')),
    body: xmlSafe([head, ...(blocks.length > 0 ? blocks : ['(no minimal counterexample was kept for this cell)'])].join('\n\n')),
  };
}

function addProperties(suite: XMLBuilder, r: ReportData): void {
  const props = suite.ele('properties');
  const c = r.config;
  const pairs: Array<[string, string]> = [
    ['guard', c.guard],
    ['guardConfigHash', c.guardConfigHash],
    ['seed', String(c.seed)],
    ['runsPerCell', String(c.runsPerCell)],
    ['phase', c.phase],
    ...Object.entries(c.versions).map(([k, v]): [string, string] => [`version.${k}`, v]),
    ...(r.timing.queries ? queryProperties(r.timing.queries) : []),
  ];
  for (const [name, value] of pairs) props.ele('property', { name: xmlSafeLine(name), value: xmlSafeLine(value) });
}

/**
 * Renders the report as JUnit XML (the Ant/Surefire dialect GitHub, GitLab and Jenkins read).
 *
 * - Suite per domain, named `farma-fuzz.<guard>.<domain>`; test case per cell with
 *   `classname` the suite name and `name` `<property> · <family>` (e.g.
 *   `forgery-rejected · seed`).
 * - A cell that broke its invariant gets one `<failure>`: `type` is `bypass`,
 *   `false-positive`, `flaky` (every finding of the cell is flaky), `guard-crash` or `guard-error`; the `message` attribute (one line) gives the counts,
 *   the rate and every replay command; the element text holds each minimal counterexample
 *   as `formatCounterexample` prints it. A cell with 0 runs is `<skipped>`.
 * - With `thresholds`, a suite `farma-fuzz.<guard>.gate` holds one test case per
 *   {@link gate} check (named e.g. `maxFpr ehr/benign`), failing when the Wilson upper bound
 *   is above the limit.
 * - `time` attributes are seconds; properties record the seed, run count and versions.
 *
 * Pure: returns the XML text (UTF-8, with declaration).
 * @throws RangeError when a threshold is not in [0,1] (see {@link gate}).
 * @example
 * await writeFile('junit.xml', renderJunit(report, { maxFpr: 0.05 }));
 */
export function renderJunit(r: ReportData, thresholds?: GateThresholds): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' });
  const guard = r.config.guard;
  const root = doc.ele('testsuites', { name: 'farma-fuzz' });
  let totalTests = 0;
  let totalFailures = 0;
  let totalSkipped = 0;
  const domains = [...r.config.domains, ...new Set(r.cells.map((c) => c.domain).filter((d) => !r.config.domains.includes(d)))];
  for (const domain of domains) {
    const cells = r.cells.filter((c) => c.domain === domain);
    if (cells.length === 0) continue;
    const className = junitClassName(guard, domain);
    const times = cells.map((c) => r.timing.perCell.find((p) => p.domain === c.domain && p.family === c.family)?.elapsedMs ?? 0);
    const failures = cells.filter((c) => c.runs > 0 && !c.holds).length;
    const skipped = cells.filter((c) => c.runs === 0).length;
    const suite = root.ele('testsuite', {
      name: className,
      tests: String(cells.length),
      failures: String(failures),
      errors: '0',
      skipped: String(skipped),
      time: seconds(times.reduce((a, b) => a + b, 0)),
    });
    addProperties(suite, r);
    cells.forEach((c, i) => {
      const tc = suite.ele('testcase', { classname: className, name: xmlSafeLine(junitTestName(c.property, c.family)), time: seconds(times[i]) });
      if (c.runs === 0) {
        tc.ele('skipped', { message: 'no case ran (time limit reached before this cell started)' });
      } else if (!c.holds) {
        const f = cellFailure(r, c);
        tc.ele('failure', { message: f.message, type: f.type }).txt(f.body);
      }
      const rates = [`runs ${c.runs}${c.interrupted ? ' (stopped by the time limit)' : ''}`, `violation rate ${pct(c.violationRate)}`, `error rate ${pct(c.errorRate)}`];
      if (c.detectionRate) rates.push(`detection rate ${pct(c.detectionRate)}`);
      tc.ele('system-out').txt(xmlSafe(rates.join('\n')));
    });
    totalTests += cells.length;
    totalFailures += failures;
    totalSkipped += skipped;
  }
  if (thresholds && (thresholds.maxFpr !== undefined || thresholds.maxBypass !== undefined)) {
    const g = gate(r, thresholds);
    const className = `farma-fuzz.${segment(guard)}.gate`;
    const failures = g.checks.filter((c) => !c.pass).length;
    const suite = root.ele('testsuite', { name: className, tests: String(g.checks.length), failures: String(failures), errors: '0', skipped: '0', time: '0.000' });
    for (const c of g.checks) {
      const tc = suite.ele('testcase', { classname: className, name: xmlSafeLine(c.name), time: '0.000' });
      const line = xmlSafeLine(formatGateCheck(c));
      if (!c.pass) tc.ele('failure', { message: line, type: 'threshold' }).txt(`${line}\nThe gate judges the upper bound of the Wilson 95% interval, so a small sample cannot pass by luck.`);
      else tc.ele('system-out').txt(line);
    }
    totalTests += g.checks.length;
    totalFailures += failures;
  }
  root.att({ tests: String(totalTests), failures: String(totalFailures), errors: '0', skipped: String(totalSkipped), time: seconds(r.timing.elapsedMs) });
  return `${doc.end({ prettyPrint: true })}\n`;
}
