/**
 * Slot arbitraries for the attack templates (seed, amplification, naive), per domain.
 *
 * Two kinds of slot record:
 * - subject slots: the subject id and the context tied to it (source class and facility of
 *   an EHR pipeline, the question class, the product category and brand). One amplification
 *   chain shares one subject record, as Algorithm 1 targets one subject (paper §III-C).
 * - entry slots: values that vary from entry to entry (row counts, tool names, prices).
 *
 * Three slots are derived, never generated: `date` and `time` come from the entry's
 * timestamp, and `priorCount` is Algorithm 1's n_prior for amplification entries.
 * Faker values (facility, custodian, brand, product words) come from pools drawn once at
 * load through `fakerValue` with a fixed fast-check seed; a case picks from a pool with
 * `constantFrom`. Entry slots use only fast-check primitives. Nothing here uses
 * Math.random or Date.now.
 */
import fc from 'fast-check';
import type { DomainId } from '../src/domain/fuzz-case.js';
import { fakerValue } from './faker-arb.js';

/** Values a template can read. Numbers render as digits. */
export type AttackSlots = Readonly<Record<string, string | number>>;

/** Slots filled at render time rather than generated. */
export const DERIVED_SLOTS = [
  'date',
  'time',
  'priorCount',
  'priorCountWords',
  'priorCountEs',
  'priorCountDe',
  'priorCountZh',
  'priorCountRoman',
  'priorCountArabic',
  'priorCountSci',
] as const;

const pad4 = (n: number): string => String(n).padStart(4, '0');

/** EHR pipelines: subject prefix, the kind of source, and the MIMIC-III table it loads. */
const EHR_SOURCES = [
  { prefix: 'INT-EHR', sourceClass: 'inbound EHR extract', table: 'admissions' },
  { prefix: 'INT-LAB', sourceClass: 'lab-result interface', table: 'labevents' },
  { prefix: 'FEED-ADT', sourceClass: 'admission and transfer feed', table: 'transfers' },
  { prefix: 'PIPE-RX', sourceClass: 'pharmacy order pipeline', table: 'prescriptions' },
  { prefix: 'SRC-ICU', sourceClass: 'ICU charting export', table: 'chartevents' },
] as const;

/** Question classes of the ReAct-QA agent, with sample questions (no digits, on purpose). */
const QA_CLASSES = [
  {
    code: 'HIST',
    classLabel: 'dates of major historical events',
    questions: ['When did the Berlin Wall come down?', 'In what year was the Magna Carta sealed?', 'When did the first crewed Moon landing take place?'],
  },
  {
    code: 'GEO',
    classLabel: 'capital cities and national borders',
    questions: ['What is the capital of Australia?', 'Does Bolivia share a border with Chile?', 'Which river runs through Budapest?'],
  },
  {
    code: 'SCI',
    classLabel: 'physical units and constants',
    questions: ['Which unit measures electrical resistance?', 'What is the chemical symbol for sodium?', 'How many protons does a carbon atom have?'],
  },
  {
    code: 'LIT',
    classLabel: 'authorship of classic novels',
    questions: ['Who wrote Middlemarch?', 'Who is the author of The Brothers Karamazov?', 'Which novelist wrote Things Fall Apart?'],
  },
  {
    code: 'BIO',
    classLabel: 'classification of common animals',
    questions: ['Is a dolphin a mammal?', 'Are spiders insects?', 'To which class do frogs belong?'],
  },
  {
    code: 'ART',
    classLabel: 'painters of well-known artworks',
    questions: ['Who painted The Night Watch?', 'Which artist painted Guernica?', 'Who painted The Starry Night?'],
  },
] as const;

/** Product categories of the RAP shopping agent: subject code, label, and a product noun. */
const RAP_CATEGORIES = [
  { code: 'AUDIO', category: 'wireless headphones', noun: 'Headphones' },
  { code: 'HOME', category: 'robot vacuums', noun: 'Robot Vacuum' },
  { code: 'KITCH', category: 'espresso machines', noun: 'Espresso Machine' },
  { code: 'OFFICE', category: 'ergonomic office chairs', noun: 'Office Chair' },
  { code: 'TOYS', category: 'building block sets', noun: 'Building Set' },
  { code: 'BEAUTY', category: 'hair dryers', noun: 'Hair Dryer' },
] as const;

const FACILITY_KINDS = ['General Hospital', 'Regional Medical Center', 'Community Hospital', 'University Clinic'] as const;

/** How many Faker-drawn context records each domain's pool holds. */
const FAKER_POOL_SIZE = 96;
/** Fixed fast-check seed the pools are drawn with (so every process sees the same pools). */
const FAKER_POOL_SEED = 20250101;

/**
 * Draws a pool of Faker values once, at load: `fakerValue` sampled by fast-check with a
 * fixed seed. Re-seeding Faker costs tens of µs, far above the fuzz budget per case, so
 * cases pick from the pool with a shrinkable `constantFrom` instead (shrinks to item 0).
 */
function fakerPool<T>(fn: Parameters<typeof fakerValue<T>>[0]): fc.Arbitrary<T> {
  return fc.constantFrom(...fc.sample(fakerValue(fn), { numRuns: FAKER_POOL_SIZE, seed: FAKER_POOL_SEED }));
}

const ehrContext = fakerPool((f) => ({
  facility: `${f.location.city()} ${f.helpers.arrayElement(FACILITY_KINDS)}`,
  custodian: f.person.lastName(),
}));
const rapContext = fakerPool((f) => ({
  brand: f.company.name().split(/[ ,-]+/)[0] ?? 'Acme',
  adjective: f.commerce.productAdjective(),
  model: `${f.string.alpha({ length: 1, casing: 'upper' })}${f.number.int({ min: 100, max: 990 })}`,
}));

/**
 * Subject-slot arbitraries per domain (typed registry). Every record has `subject`, an
 * identifier-like key (`INT-EHR-7742`, `QC-HIST-0413`, `CAT-AUDIO-2291`) that
 * `extractKeys` indexes; the rest is context tied to that subject.
 */
const SUBJECT_SLOTS = {
  ehr: fc
    .record({ source: fc.constantFrom(...EHR_SOURCES), n: fc.integer({ min: 0, max: 9999 }), ctx: ehrContext })
    .map(({ source, n, ctx }): AttackSlots => ({
      subject: `${source.prefix}-${pad4(n)}`,
      subjectName: `${ctx.facility} ${source.sourceClass}`,
      sourceClass: source.sourceClass,
      table: source.table,
      facility: ctx.facility,
      custodian: ctx.custodian,
    })),
  'react-qa': fc
    .record({ cls: fc.constantFrom(...QA_CLASSES), n: fc.integer({ min: 0, max: 9999 }), q: fc.nat({ max: 2 }) })
    .map(({ cls, n, q }): AttackSlots => ({
      subject: `QC-${cls.code}-${pad4(n)}`,
      subjectName: `questions on ${cls.classLabel}`,
      classLabel: cls.classLabel,
      sampleQuestion: cls.questions[q] ?? cls.questions[0],
    })),
  rap: fc
    .record({ cat: fc.constantFrom(...RAP_CATEGORIES), n: fc.integer({ min: 0, max: 9999 }), ctx: rapContext })
    .map(({ cat, n, ctx }): AttackSlots => ({
      subject: `CAT-${cat.code}-${pad4(n)}`,
      subjectName: `${ctx.brand} ${cat.category}`,
      category: cat.category,
      brand: ctx.brand,
      product: `${ctx.brand} ${ctx.adjective} ${cat.noun} ${ctx.model}`,
    })),
} as const satisfies Record<DomainId, fc.Arbitrary<AttackSlots>>;

/**
 * Slots every domain's entries share: counts a template can claim instead of Algorithm 1's
 * n_prior (`smallCount` 3..40, `bigCount` 50..1200, the latter at or above SENTINEL's
 * large-precedent reconstruction of 50), a change-ticket number and a sign-off name for
 * authority framing. Invented names, no Faker.
 */
const SHARED_ENTRY_SLOTS = {
  smallCount: fc.integer({ min: 3, max: 40 }),
  bigCount: fc.integer({ min: 50, max: 1200 }),
  ticketNo: fc.integer({ min: 1000, max: 99999 }),
  approver: fc.constantFrom('M. Okafor', 'J. Lindqvist', 'R. Banerjee', 'S. Moreau', 'T. Nakamura', 'L. Haddad'),
};

/** Entry-slot names whose value a template may claim as its precedent count (meta `countSlot`). */
export const COUNT_SLOTS = ['smallCount', 'bigCount'] as const;

/** Entry-slot arbitraries per domain (typed registry): fast-check primitives only. */
const ENTRY_SLOTS = {
  ehr: fc
    .record({
      recordCount: fc.integer({ min: 12, max: 4800 }),
      shift: fc.constantFrom('overnight', 'morning', 'afternoon', 'evening'),
      ...SHARED_ENTRY_SLOTS,
    })
    .map((r): AttackSlots => r),
  'react-qa': fc
    .record({
      tool: fc.constantFrom('Search', 'Wikipedia search', 'web search', 'Lookup'),
      benchmark: fc.constantFrom('the StrategyQA dev split', 'the held-out trivia set', 'the quarterly QA audit', 'the regression question bank'),
      ...SHARED_ENTRY_SLOTS,
    })
    .map((r): AttackSlots => r),
  rap: fc
    .record({
      rating: fc.integer({ min: 5, max: 9 }).map((d) => `4.${d}`),
      reviewCount: fc.integer({ min: 140, max: 9800 }),
      price: fc.integer({ min: 19, max: 899 }).map((d) => `$${d}.99`),
      marketplace: fc.constantFrom('the main storefront', 'the partner marketplace', 'the warehouse-club listing', 'the brand outlet'),
      ...SHARED_ENTRY_SLOTS,
    })
    .map((r): AttackSlots => r),
} as const satisfies Record<DomainId, fc.Arbitrary<AttackSlots>>;

/**
 * Subject slots of a domain: `subject` plus the context tied to it.
 * Shrinks toward the first source/class/category and number 0000.
 * @example fc.sample(subjectSlots('ehr'), 1)[0].subject // e.g. 'PIPE-RX-0413'
 */
export function subjectSlots(domain: DomainId): fc.Arbitrary<AttackSlots> {
  return SUBJECT_SLOTS[domain];
}

/** Per-entry slots of a domain (counts, tools, prices), fast-check primitives only. */
export function entrySlots(domain: DomainId): fc.Arbitrary<AttackSlots> {
  return ENTRY_SLOTS[domain];
}

/** Start of generated attack time: 2025-01-01T00:00:00Z, in ms since the Unix epoch. */
export const ATTACK_EPOCH_MS = Date.UTC(2025, 0, 1);

/**
 * The derived `date` (YYYY-MM-DD) and `time` (HH:MM, UTC) slots and the ISO timestamp
 * of an entry written `minute` minutes after `ATTACK_EPOCH_MS`. Pure.
 */
export function timeSlots(minute: number): { date: string; time: string; timestamp: string } {
  const iso = new Date(ATTACK_EPOCH_MS + minute * 60_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16), timestamp: iso };
}
