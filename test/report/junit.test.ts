import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit.js';
import type { ReportData } from '../../src/report/model.js';
import { xmlSafe } from '../../src/report/xml-text.js';
import { HOSTILE, cell, handReport, toyReport } from './fixture.js';

interface Case {
  classname: string;
  name: string;
  failure?: { message: string; type: string; '#text'?: string };
  skipped?: unknown;
}
interface Suite {
  name: string;
  tests: string;
  failures: string;
  testcase: Case[];
}

/** Parses JUnit XML the way CI reporters do: attributes kept, suites and cases always arrays. */
function parse(xml: string): { tests: number; failures: number; suites: Suite[] } {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`invalid XML: ${JSON.stringify(valid.err)}`);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'property' }).parse(xml) as {
    testsuites: { tests: string; failures: string; testsuite: Suite[] };
  };
  return { tests: Number(doc.testsuites.tests), failures: Number(doc.testsuites.failures), suites: doc.testsuites.testsuite };
}

describe('renderJunit', () => {
  let a: ReportData;
  let b: ReportData;
  beforeAll(async () => {
    a = await toyReport(42, 30);
    b = await toyReport(7, 30);
  });

  it('parses back with one test case per property × family × domain, and counts that match the report', () => {
    const x = parse(renderJunit(a));
    expect(x.tests).toBe(a.cells.length);
    const failing = a.cells.filter((c) => !c.holds).length;
    expect(failing).toBeGreaterThan(0);
    expect(x.failures).toBe(failing);
    const cases = x.suites.flatMap((s) => s.testcase);
    expect(cases).toHaveLength(a.cells.length);
    expect(cases.filter((c) => c.failure !== undefined)).toHaveLength(failing);
    for (const s of x.suites) expect(Number(s.tests)).toBe(s.testcase.length);
    expect(x.suites.map((s) => s.name)).toEqual(['farma-fuzz.toy-scored.toy', 'farma-fuzz.toy-scored.toy2']);
    expect(cases[1]).toMatchObject({ classname: 'farma-fuzz.toy-scored.toy', name: 'forgery-rejected · seed' });
  });

  it('keeps the same suite and test names for two different seeds', () => {
    const names = (r: ReportData): string[] => parse(renderJunit(r)).suites.flatMap((s) => s.testcase.map((c) => `${c.classname} ${c.name}`));
    expect(names(a)).toEqual(names(b));
    expect(names(a).join('\n')).not.toMatch(/42|2026/);
  });

  it('puts the replay command in the failure message and the minimal counterexample in the failure text', () => {
    const cases = parse(renderJunit(a)).suites.flatMap((s) => s.testcase);
    const failed = cases.find((c) => c.failure)!;
    const cx = a.counterexamples.find((x) => failed.name === `${x.property} · ${x.family}` && failed.classname.endsWith(`.${x.domain}`))!;
    expect(failed.failure?.type).toBe('bypass');
    expect(failed.failure?.message).toContain(cx.replay);
    expect(failed.failure?.['#text']).toContain(`id ${cx.id}`);
    expect(failed.failure?.['#text']).toContain(xmlSafe(cx.case.entry.content).slice(0, 40));
  });

  it('stays valid XML with hostile entry text (markup, ]]>, NUL, a lone surrogate)', () => {
    const xml = renderJunit(a);
    expect(a.counterexamples.some((x) => x.case.entry.content.includes(HOSTILE))).toBe(true);
    expect(xml).not.toContain('\u0000');
    expect(xml).not.toMatch(/[\uD800-\uDFFF]/);
    expect(xml).not.toContain('<script>');
    const text = parse(xml).suites.flatMap((s) => s.testcase).map((c) => c.failure?.['#text'] ?? '').join('\n');
    expect(text).toContain('<script>alert("pwned")</script>');
  });

  it('adds gate checks as test cases when thresholds are given', () => {
    const r = handReport([cell('ehr', 'benign', 0, 20), cell('ehr', 'seed', 0, 2000)]);
    const x = parse(renderJunit(r, { maxFpr: 0.1, maxBypass: 0.01 }));
    const gateSuite = x.suites.find((s) => s.name === 'farma-fuzz.hand.gate')!;
    expect(gateSuite.testcase.map((c) => c.name)).toEqual(['maxFpr ehr/benign', 'maxBypass ehr/seed']);
    expect(gateSuite.testcase[0]?.failure?.type).toBe('threshold');
    expect(gateSuite.testcase[1]?.failure).toBeUndefined();
    expect(x.tests).toBe(4);
    expect(x.failures).toBe(1);
    expect(parse(renderJunit(r)).suites.some((s) => s.name.endsWith('.gate'))).toBe(false);
  });

  it('marks a cell with no runs as skipped', () => {
    const x = parse(renderJunit(handReport([cell('ehr', 'benign', 0, 0)])));
    expect(x.suites[0]?.testcase[0]?.skipped).toBeDefined();
    expect(x.failures).toBe(0);
  });
});

describe('xmlSafe', () => {
  it('removes only characters XML 1.0 forbids', () => {
    expect(xmlSafe('a\u0000b\u0008c\uD800d\uFFFEe')).toBe('abcde');
    expect(xmlSafe('tab\tnl\ncr\r é 😀 \uE000')).toBe('tab\tnl\ncr\r é 😀 \uE000');
  });
});
