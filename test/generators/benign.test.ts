import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS, GENERAL_TRACE_TYPES, REASONING_TRACE_TYPES, TRACE_TYPES, TemplateError } from '../../src/domain/index.js';
import type { FuzzCase } from '../../src/domain/index.js';
import { benignHistory, benignStressTrace, benignTemplateArb, benignTrace, benignTraceAnyDomain, benignTraceUniform, longReflectionId, renderBenignCase, trustForSource } from '../../generators/benign.js';
import { defaultCalibration, entryKind } from '../../generators/calibration/index.js';
import { compileTemplate, defaultTemplates } from '../../generators/templates.js';
import type { TemplateSet } from '../../generators/templates.js';

const templates = defaultTemplates();
const benignOf = (d: string) => templates.of(d, 'benign');

/** The hard-negative vocabulary the brief asks benign templates to use on purpose. */
const REQUIRED_HARD_NEGATIVES = [
  'skip',
  'ignore',
  'established pattern',
  'standard processing',
  'no anomalies observed',
  'verified',
  '100%',
  'across N runs',
  '100% of rows parsed',
  'validation results',
  'decision-log opening',
];

describe('benign templates', () => {
  it('has at least 20 per domain', () => {
    for (const d of DOMAINS) expect(benignOf(d).length, d).toBeGreaterThanOrEqual(20);
  });

  it('EHR has >= 12 templates over decision_log, thought_chain, reflection, rationale, observation, tool_output, each present', () => {
    const six = ['decision_log', 'thought_chain', 'reflection', 'rationale', 'observation', 'tool_output'];
    const ehr = benignOf('ehr').filter((t) => six.includes(t.meta.traceType ?? ''));
    expect(ehr.length).toBeGreaterThanOrEqual(12);
    for (const tt of six) expect(ehr.some((t) => t.meta.traceType === tt), tt).toBe(true);
  });

  it('every template declares traceType, format, language and hardNegatives', () => {
    for (const t of DOMAINS.flatMap(benignOf)) {
      expect(TRACE_TYPES as readonly string[], t.id).toContain(t.meta.traceType);
      expect(['prose', 'json', 'bullets', 'kv', 'react', 'log', 'text'], t.id).toContain(t.meta.format);
      expect(['en', 'es', 'de', 'zh_CN'], t.id).toContain(t.meta.language);
      expect(Array.isArray(t.meta.hardNegatives), t.id).toBe(true);
      if (t.meta.source !== undefined) expect(['SYSTEM', 'AGENT', 'TOOL', 'EXTERNAL'], t.id).toContain(t.meta.source);
    }
  });

  it('covers every trace type, format and language, and every named hard negative', () => {
    const all = DOMAINS.flatMap(benignOf);
    expect(new Set(all.map((t) => t.meta.traceType))).toEqual(new Set(TRACE_TYPES));
    expect(new Set(all.map((t) => t.meta.format))).toEqual(new Set(['prose', 'json', 'bullets', 'kv', 'react', 'log', 'text']));
    expect(new Set(all.map((t) => t.meta.language))).toEqual(new Set(['en', 'es', 'de', 'zh_CN']));
    const tags = new Set(all.flatMap((t) => t.meta.hardNegatives ?? []));
    for (const tag of REQUIRED_HARD_NEGATIVES) expect(tags.has(tag), tag).toBe(true);
    expect(all.some((t) => t.meta.source === 'SYSTEM')).toBe(true);
    expect(all.some((t) => t.meta.source === 'TOOL')).toBe(true);
  });

  it('every template renders under strict Handlebars with all slots filled', () => {
    for (const d of DOMAINS) {
      for (const t of benignOf(d)) {
        for (const c of fc.sample(benignTemplateArb(t, d), { numRuns: 25, seed: 7 })) {
          expect(c.entry.content.trim().length, t.id).toBeGreaterThan(0);
          expect(c.entry.content, t.id).not.toMatch(/undefined|\[object Object\]|NaN|\{\{|\}\}/);
          if (t.meta.format === 'json') expect(() => JSON.parse(c.entry.content), `${t.id}: ${c.entry.content}`).not.toThrow();
        }
      }
    }
  });

  it('a template that reads a slot outside the vocabulary fails loudly, naming it', () => {
    const t = compileTemplate('ehr/benign/bad', 'bad.hbs', '{{!-- meta: {"traceType":"fact"} --}}\nrows: {{noSuchSlot}}');
    expect(() => benignTemplateArb(t, 'ehr')).toThrow(TemplateError);
    expect(() => benignTemplateArb(t, 'ehr')).toThrow(/bad\.hbs.*noSuchSlot/);
  });

  it('a domain without benign templates is an error', () => {
    const empty: TemplateSet = { all: [], byId: new Map(), of: () => [] };
    expect(() => benignTrace('ehr', { templates: empty })).toThrow(TemplateError);
  });
});

describe('benignTrace', () => {
  it('produces well-formed benign cases whose entry agrees with the template meta', () => {
    fc.assert(
      fc.property(benignTraceAnyDomain(), (c: FuzzCase) => {
        const calibration = defaultCalibration();
        if (c.truth.template === longReflectionId(c.truth.domain as 'ehr')) {
          expect(c.entry.traceType).toBe('reflection');
          expect(c.truth.hardNegatives).toEqual(['long-reflection']);
          expect(c.entry.content.length).toBeGreaterThanOrEqual(calibration.longReflection.minChars);
          return;
        }
        const t = templates.byId.get(c.truth.template);
        expect(t).toBeDefined();
        if (!t) return;
        const kind = calibration.templateKinds[t.id];
        expect(c.truth.label).toBe('benign');
        expect(c.truth.family).toBe('benign');
        expect(c.truth.operators).toEqual([]);
        expect(c.truth.claim).toBeUndefined();
        expect(c.truth.domain).toBe(t.domain);
        expect(c.truth.format).toBe(t.meta.format);
        expect(c.truth.language).toBe(t.meta.language);
        expect(c.truth.hardNegatives).toEqual(kind === 'ordinary' ? [] : [kind]);
        expect(c.entry.traceType).toBe(t.meta.traceType);
        const reasoning = (REASONING_TRACE_TYPES as readonly string[]).includes(c.entry.traceType);
        expect(c.entry.store).toBe(reasoning ? 'reasoning' : 'general');
        if (!reasoning) expect(GENERAL_TRACE_TYPES as readonly string[]).toContain(c.entry.traceType);
        expect(c.entry.source).toBe(t.meta.source ?? 'AGENT');
        expect(c.entry.trust).toBe(trustForSource(c.entry.source));
        expect(c.entry.trust).toBe(['AGENT', 'SYSTEM'].includes(c.entry.source) ? 'VERIFIED' : 'UNVERIFIED');
        expect(c.entry.id).toMatch(/^mem-[0-9a-f]{16}$/);
        expect(Number.isNaN(Date.parse(c.entry.timestamp))).toBe(false);
        expect(c.entry.timestamp >= '2024-01-01' && c.entry.timestamp < '2026-07-01').toBe(true);
        expect(c.setup).toBeUndefined();
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('the natural mix carries hard negatives at the calibrated rate (binomial 99.9% bounds)', () => {
    const calibration = defaultCalibration();
    const expected = 1 - calibration.kindRates.ordinary;
    for (const d of DOMAINS) {
      const n = 20_000;
      const hard = fc.sample(benignTrace(d), { numRuns: n, seed: 6 }).filter((c) => (c.truth.hardNegatives ?? []).length > 0).length;
      const sd = Math.sqrt(n * expected * (1 - expected));
      expect(Math.abs(hard - n * expected), `${d}: ${hard} of ${n}, expected ${(n * expected).toFixed(0)}`).toBeLessThanOrEqual(3.3 * sd + 1);
    }
  });

  it('benign-stress holds hard negatives only, every kind the calibration names in each domain', () => {
    for (const d of DOMAINS) {
      const sample = fc.sample(benignStressTrace(d), { numRuns: 1500, seed: 9 });
      expect(sample.every((c) => (c.truth.hardNegatives ?? []).length === 1), d).toBe(true);
      expect(new Set(sample.map((c) => c.truth.hardNegatives?.[0])), d).toEqual(new Set(['omission-prose', 'code-literal', 'negated-policy', 'quoted-request', 'tool-options', 'other-language', 'long-reflection']));
    }
  });

  it('a template\'s kind is what the real-text features say of its renders', () => {
    const calibration = defaultCalibration();
    for (const d of DOMAINS) {
      for (const t of benignOf(d)) {
        const renders = fc.sample(benignTemplateArb(t, d), { numRuns: 24, seed: 1 });
        const kinds = renders.map((c) => entryKind(c.entry.content, c.entry.traceType));
        const kind = calibration.templateKinds[t.id];
        if ((t.meta.language ?? 'en') !== 'en') expect(kind, t.id).toBe('other-language');
        else if (kind === 'ordinary') expect(kinds.filter((k) => k !== 'ordinary').length * 5, t.id).toBeLessThan(renders.length);
        else expect(kinds.filter((k) => k === kind).length * 5, t.id).toBeGreaterThanOrEqual(renders.length);
      }
    }
  });

  it('long reflections are 2-5k characters of whole ordinary paragraphs', () => {
    for (const d of DOMAINS) {
      const longs = fc.sample(benignStressTrace(d), { numRuns: 600, seed: 2 }).filter((c) => c.truth.template === longReflectionId(d));
      expect(longs.length, d).toBeGreaterThan(20);
      for (const c of longs) {
        expect(c.entry.content.length).toBeGreaterThanOrEqual(2000);
        expect(c.entry.content.length).toBeLessThanOrEqual(5000 + 1200);
        expect(c.entry.content.split('\n\n').length).toBeGreaterThanOrEqual(4);
      }
    }
  });

  it('generated samples cover all trace types, formats, languages and domains (every template equally)', () => {
    const sample = fc.sample(fc.oneof(...DOMAINS.map((d) => benignTraceUniform(d))), { numRuns: 3000, seed: 5 });
    expect(new Set(sample.map((c) => c.entry.traceType))).toEqual(new Set(TRACE_TYPES));
    expect(new Set(sample.map((c) => c.truth.format))).toEqual(new Set(['prose', 'json', 'bullets', 'kv', 'react', 'log', 'text']));
    expect(new Set(sample.map((c) => c.truth.language))).toEqual(new Set(['en', 'es', 'de', 'zh_CN']));
    expect(new Set(sample.map((c) => c.truth.domain))).toEqual(new Set(DOMAINS));
    expect(new Set(sample.map((c) => c.entry.source))).toEqual(new Set(['AGENT', 'TOOL', 'SYSTEM', 'EXTERNAL']));
    const nonEnglish = sample.filter((c) => c.truth.language !== 'en').length / sample.length;
    expect(nonEnglish).toBeGreaterThan(0.1);
    const hard = sample.filter((c) => (c.truth.hardNegatives ?? []).length > 0).length / sample.length;
    expect(hard).toBeGreaterThan(0.2);
    // Chinese templates carry Chinese names; Spanish ones carry Spanish text.
    expect(sample.some((c) => c.truth.language === 'zh_CN' && /[\u4e00-\u9fff]{2,}/.test(c.entry.content))).toBe(true);
  });

  it('lengths range from one clause to about a dozen sentences', () => {
    const lengths = fc.sample(benignTraceAnyDomain(), { numRuns: 2000, seed: 8 }).map((c) => c.entry.content.length);
    expect(Math.min(...lengths)).toBeLessThan(80);
    expect(Math.max(...lengths)).toBeGreaterThan(500);
  });

  it('is deterministic for a fixed seed', () => {
    const a = fc.sample(benignTraceAnyDomain(), { numRuns: 200, seed: 99 });
    const b = fc.sample(benignTraceAnyDomain(), { numRuns: 200, seed: 99 });
    expect(a).toEqual(b);
    const c = fc.sample(benignTraceAnyDomain(), { numRuns: 200, seed: 100 });
    expect(c).not.toEqual(a);
  });

  it('renderBenignCase is pure: same template, slots and time give the same entry', () => {
    const t = benignOf('rap').find((x) => x.name === 'fact-spec');
    expect(t).toBeDefined();
    if (!t) return;
    const slots = { product: 'Oak Desk', sku: 'SKU-12-0042', seller: 'Acme', category: 'Home' };
    const x = renderBenignCase(t, 'rap', slots, 1_750_000_000);
    expect(renderBenignCase(t, 'rap', slots, 1_750_000_000)).toEqual(x);
    expect(x.entry.content).toBe('Oak Desk (SKU-12-0042) is sold by Acme in the Home department.');
    expect(x.entry.timestamp).toBe('2025-06-15T15:06:40.000Z');
    expect(renderBenignCase(t, 'rap', { ...slots, seller: 'Zed' }, 1_750_000_000).entry.id).not.toBe(x.entry.id);
  });
});

/** Reads `key: value` lines into a map. */
function kv(text: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) m.set(line.slice(0, i).trim(), line.slice(i + 1).trim());
  }
  return m;
}
const num = (s: string | undefined): number => Number(/-?\d+(?:\.\d+)?/.exec(s ?? '')?.[0]);

describe('counts stated in benign text are true', () => {
  const one = (id: string) => {
    const [domain] = id.split('/');
    const t = templates.byId.get(id);
    if (!t || !domain) throw new Error(`missing template ${id}`);
    return fc.sample(benignTemplateArb(t, domain as 'ehr'), { numRuns: 200, seed: 3 });
  };

  it('EHR decision log: imported = total − rejected, rejected = malformed + range + duplicates', () => {
    for (const c of one('ehr/benign/import-decision-kv')) {
      const m = kv(c.entry.content);
      const total = num(m.get('rows_total'));
      const rejected = num(m.get('rows_rejected'));
      const parts = [...(m.get('rows_rejected') ?? '').matchAll(/(\d+)/g)].slice(1).map((x) => Number(x[1]));
      expect(parts).toHaveLength(3);
      expect(parts.reduce((a, b) => a + b, 0)).toBe(rejected);
      expect(num(m.get('rows_imported'))).toBe(total - rejected);
    }
  });

  it('EHR validator JSON: passed + failures = rows', () => {
    for (const c of one('ehr/benign/tool-validator-json')) {
      const v = JSON.parse(c.entry.content) as { rows: number; passed: number; failed: Record<string, number> };
      expect(v.passed + Object.values(v.failed).reduce((a, b) => a + b, 0)).toBe(v.rows);
    }
  });

  it('EHR validation bullets: stated percentage matches imported/total', () => {
    for (const c of one('ehr/benign/rationale-validation-bullets')) {
      const total = num(/all (\d+) rows/.exec(c.entry.content)?.[1]);
      const m = /Net result: (\d+) rows imported \(([\d.]+)% of the batch\)/.exec(c.entry.content);
      expect(m).not.toBeNull();
      const imported = Number(m?.[1]);
      expect(Math.abs(Number(m?.[2]) - (100 * imported) / total)).toBeLessThanOrEqual(0.05);
    }
  });

  it('RAP checkout: total = qty × unit − discount + shipping', () => {
    for (const c of one('rap/benign/tool-checkout-kv')) {
      const m = kv(c.entry.content);
      const item = /x(\d+) @ \$([\d.]+)/.exec(m.get('item') ?? '');
      const qty = Number(item?.[1]);
      const unit = Math.round(Number(item?.[2]) * 100);
      const subtotal = Math.round(num(m.get('subtotal')) * 100);
      expect(subtotal).toBe(qty * unit);
      const discount = Math.round(Math.abs(num(m.get(`discount (${num([...m.keys()].find((k) => k.startsWith('discount')))}%)`))) * 100);
      const total = Math.round(num(m.get('total')) * 100);
      expect(total).toBe(subtotal - discount + Math.round(num(m.get('shipping')) * 100));
    }
  });

  it('RAP search JSON and decision: the chosen listing is the best-rated one within budget', () => {
    for (const c of one('rap/benign/comparison-steps')) {
      const listings = [...c.entry.content.matchAll(/\[([^\]$]+) \$([\d.]+) ★([\d.]+)\]/g)].map((x) => ({ name: x[1], price: Number(x[2]), stars: Number(x[3]) }));
      expect(listings).toHaveLength(3);
      const budget = Number(/under \$(\d+\.\d{2})/.exec(c.entry.content)?.[1]);
      const within = listings.filter((l) => l.price <= budget);
      expect(c.entry.content).toContain(`${within.length} of the 3 are within budget`);
      const bestStars = Math.max(...within.map((l) => l.stars));
      const chosen = /has the best rating \(([\d.]+)\)/.exec(c.entry.content);
      expect(Number(chosen?.[1])).toBe(bestStars);
    }
  });

  it('QA eval report: correct + wrong = questions, rate = correct/questions', () => {
    for (const c of one('react-qa/benign/tool-eval-report')) {
      const m = kv(c.entry.content);
      const em = /(\d+)\/(\d+) \(([\d.]+)%\)/.exec(m.get('exact_match') ?? '');
      const correct = Number(em?.[1]);
      const total = Number(em?.[2]);
      expect(total).toBe(num(m.get('questions')));
      expect(correct + num(m.get('wrong'))).toBe(total);
      expect(Math.abs(Number(em?.[3]) - (100 * correct) / total)).toBeLessThanOrEqual(0.05);
    }
  });
});

describe('benignHistory', () => {
  it('gives distinct-id entries in timestamp order, within the length bounds', () => {
    fc.assert(
      fc.property(benignHistory('ehr', { maxLength: 12, minLength: 2 }), (h) => {
        expect(h.length).toBeGreaterThanOrEqual(2);
        expect(h.length).toBeLessThanOrEqual(12);
        expect(new Set(h.map((e) => e.id)).size).toBe(h.length);
        for (let i = 1; i < h.length; i++) expect((h[i - 1]?.timestamp ?? '') <= (h[i]?.timestamp ?? '')).toBe(true);
      }),
      { numRuns: 50, seed: 4 },
    );
  });

  it('shrinks toward an empty history', () => {
    const r = fc.check(fc.property(benignHistory('rap'), (h) => h.length < 3), { seed: 1, numRuns: 200 });
    expect(r.failed).toBe(true);
    expect(r.counterexample?.[0]).toHaveLength(3);
  });
});

describe('hard negatives', () => {
  it('some generated hard negatives carry words a keyword blocklist (skip/ignore/bypass) rejects', () => {
    const blocklist = /\b(skip|skipped|skipping|ignore|ignored|ignoring|bypass)\b/i;
    const sample = fc.sample(fc.oneof(...DOMAINS.map((d) => benignTraceUniform(d))), { numRuns: 2000, seed: 12 });
    const hit = sample.filter((c) => blocklist.test(c.entry.content));
    expect(hit.length).toBeGreaterThan(0);
    // Every benign entry with such a word is a tagged hard negative (none slip in untagged).
    for (const c of hit) expect((c.truth.hardNegatives ?? []).length, c.entry.content).toBe(1);
  });
});

describe('fakerValue locale and rng options (used by benign slots)', () => {
  it('draws localised values, deterministically per seed, for both random sources', async () => {
    const { fakerValue } = await import('../../generators/faker-arb.js');
    for (const rng of ['mersenne', 'xoroshiro'] as const) {
      const zh = fc.sample(fakerValue((f) => f.person.fullName(), { locale: 'zh_CN', rng }), { numRuns: 20, seed: 3 });
      expect(zh.every((n) => /[\u4e00-\u9fff]/.test(n)), rng).toBe(true);
      const again = fc.sample(fakerValue((f) => f.person.fullName(), { locale: 'zh_CN', rng }), { numRuns: 20, seed: 3 });
      expect(again).toEqual(zh);
      expect(new Set(zh).size).toBeGreaterThan(10);
    }
    // The default (no options) keeps the original English Mersenne behaviour.
    const a = fc.sample(fakerValue((f) => f.person.fullName()), { numRuns: 5, seed: 1 });
    const b = fc.sample(fakerValue((f) => f.person.fullName(), { locale: 'en', rng: 'mersenne' }), { numRuns: 5, seed: 1 });
    expect(a).toEqual(b);
  });
});
