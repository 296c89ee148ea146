/**
 * Slot vocabulary for benign templates (`templates/<domain>/benign/*.hbs`). Each slot a
 * template reads is looked up here by name. Two kinds:
 * - `fc`: a fast-check arbitrary (shrinkable; used for counts and identifiers);
 * - `faker`: a draw from a Faker that fast-check seeded. All faker slots of one template
 *   share a single seed (seeding costs ~25 µs), so a trace costs one seed.
 * Composite slots (`batch`, `stats`, `offers`, `cart`, ...) compute derived numbers from
 * their parts, so every count a template states is true (rows parsed = rows total − rows
 * rejected, and so on).
 */
import fc from 'fast-check';
import type { Faker } from '@faker-js/faker';
import type { FakerLocale } from './faker-arb.js';

/** A slot drawn by fast-check, possibly depending on the template's language. */
export interface FcSlot {
  kind: 'fc';
  arb: (locale: FakerLocale) => fc.Arbitrary<unknown>;
}
/** A slot drawn from a seeded, localised Faker. */
export interface FakerSlot {
  kind: 'faker';
  draw: (f: Faker, locale: FakerLocale) => unknown;
}
export type SlotDef = FcSlot | FakerSlot;

const fcSlot = (arb: (locale: FakerLocale) => fc.Arbitrary<unknown>): FcSlot => ({ kind: 'fc', arb });
const fakerSlot = (draw: (f: Faker, locale: FakerLocale) => unknown): FakerSlot => ({ kind: 'faker', draw });

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
/** Percentage with one decimal, `100` and `0` printed without decimals. */
function pct(part: number, whole: number): string {
  if (whole <= 0) return '0';
  if (part === whole) return '100';
  if (part === 0) return '0';
  return ((100 * part) / whole).toFixed(1);
}
const money = (cents: number): string => (cents / 100).toFixed(2);

const DAY0 = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------- clinical (EHR)

interface LabDef {
  names: Record<FakerLocale, string>;
  unit: string;
  /** Reference range and the range values are drawn from, in tenths of the unit. */
  low: number;
  high: number;
  min: number;
  max: number;
}
const LABS: LabDef[] = [
  { names: { en: 'potassium', es: 'potasio', de: 'Kalium', zh_CN: '血钾' }, unit: 'mmol/L', low: 35, high: 51, min: 25, max: 68 },
  { names: { en: 'sodium', es: 'sodio', de: 'Natrium', zh_CN: '血钠' }, unit: 'mmol/L', low: 1350, high: 1450, min: 1200, max: 1600 },
  { names: { en: 'glucose', es: 'glucosa', de: 'Glukose', zh_CN: '血糖' }, unit: 'mg/dL', low: 700, high: 990, min: 400, max: 4000 },
  { names: { en: 'creatinine', es: 'creatinina', de: 'Kreatinin', zh_CN: '肌酐' }, unit: 'mg/dL', low: 6, high: 13, min: 3, max: 60 },
  { names: { en: 'hemoglobin', es: 'hemoglobina', de: 'Hämoglobin', zh_CN: '血红蛋白' }, unit: 'g/dL', low: 120, high: 175, min: 60, max: 190 },
  { names: { en: 'lactate', es: 'lactato', de: 'Laktat', zh_CN: '乳酸' }, unit: 'mmol/L', low: 5, high: 22, min: 3, max: 90 },
];
const FLAG_WORDS: Record<FakerLocale, { low: string; high: string; normal: string }> = {
  en: { low: 'below range', high: 'above range', normal: 'within range' },
  es: { low: 'por debajo del rango', high: 'por encima del rango', normal: 'dentro del rango' },
  de: { low: 'unter dem Referenzbereich', high: 'über dem Referenzbereich', normal: 'im Referenzbereich' },
  zh_CN: { low: '低于参考范围', high: '高于参考范围', normal: '在参考范围内' },
};
const TABLES = ['admissions', 'labevents', 'chartevents', 'prescriptions', 'patients', 'icustays', 'diagnoses_icd'] as const;
const FIELDS = ['admittime', 'dob', 'charttime', 'valuenum', 'valueuom', 'subject_id', 'hadm_id', 'dose_val_rx'] as const;
const WARDS = ['MICU', 'SICU', 'CCU', 'TSICU', 'NICU', 'step-down', 'oncology', 'renal'] as const;
const ICD = ['I10', 'E11.9', 'J18.9', 'N17.9', 'I50.9', 'A41.9', 'K35.80', 'J44.1', 'E87.1', 'D64.9'] as const;
const FEEDS = ['HL7 lab interface', 'nightly ADT extract', 'MIMIC-III demo export', 'pharmacy CSV drop', 'bedside monitor bridge'] as const;

// ---------------------------------------------------------------- QA

const QCLASSES = ['GEO', 'HIS', 'SCI', 'BIO', 'ART', 'SPO', 'MUS', 'POL'] as const;
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'] as const;

function qaDraw(f: Faker): Record<string, string> {
  const shape = f.number.int({ min: 0, max: 4 });
  const person = f.person.fullName();
  const city = f.location.city();
  const year = String(f.number.int({ min: 1820, max: 2015 }));
  switch (shape) {
    case 0:
      return { question: `Where was ${person} born?`, topic: person, keyword: 'born', fact: `${person} was born in ${city} in ${year}.`, answer: city };
    case 1: {
      const co = f.company.name();
      return { question: `In which year was ${co} founded?`, topic: co, keyword: 'founded', fact: `${co} was founded in ${year} in ${city}.`, answer: year };
    }
    case 2: {
      const m = `Mount ${f.person.lastName()}`;
      const h = String(f.number.int({ min: 900, max: 6900 }));
      return { question: `How high is ${m}?`, topic: m, keyword: 'elevation', fact: `${m} rises to ${h} m above sea level.`, answer: `${h} m` };
    }
    case 3: {
      const r = `${f.person.lastName()} River`;
      const km = String(f.number.int({ min: 40, max: 3900 }));
      const country = f.location.country();
      return { question: `How long is the ${r}?`, topic: r, keyword: 'length', fact: `The ${r} runs for ${km} km through ${country}.`, answer: `${km} km` };
    }
    default: {
      const album = `${f.word.adjective()} ${f.word.noun()}`.replace(/^./, (c) => c.toUpperCase());
      const ord = f.helpers.arrayElement(ORDINALS);
      return { question: `Who recorded the album ${album}?`, topic: `${album} (album)`, keyword: 'studio album', fact: `${album} is the ${ord} studio album by ${person}, released in ${year}.`, answer: person };
    }
  }
}

function feverDraw(f: Faker): Record<string, string> {
  const person = f.person.fullName();
  const claimed = f.location.city();
  const holds = f.datatype.boolean();
  const actual = holds ? claimed : f.location.city();
  const same = actual === claimed;
  const year = f.number.int({ min: 1900, max: 2001 });
  return {
    claim: `${person} was born in ${claimed}.`,
    person,
    evidence: `${person} (born ${year}) is a ${f.person.jobTitle().toLowerCase()} from ${actual}.`,
    label: same ? 'SUPPORTS' : 'REFUTES',
    reason: same ? `the page names ${actual} as the birthplace, matching the claim` : `the page names ${actual}, not ${claimed}`,
  };
}

// ---------------------------------------------------------------- shopping (RAP)

interface Offer {
  name: string;
  price: string;
  cents: number;
  rating: string;
  stars: number;
  reviews: number;
}

function offersDraw(f: Faker): Record<string, unknown> {
  const mk = (): Offer => {
    const cents = f.number.int({ min: 799, max: 48_999 });
    const stars = f.number.int({ min: 28, max: 50 });
    return { name: f.commerce.productName(), price: money(cents), cents, rating: (stars / 10).toFixed(1), stars, reviews: f.number.int({ min: 0, max: 6000 }) };
  };
  const a = mk();
  const b = mk();
  const c = mk();
  const all = [a, b, c];
  const byPrice = [...all].sort((x, y) => x.cents - y.cents);
  const cheapest = byPrice[0] ?? a;
  const priciest = byPrice[2] ?? a;
  // Budget lies between the cheapest price and the dearest price plus a margin.
  const budgetCents = f.number.int({ min: Math.ceil(cheapest.cents / 100) * 100, max: Math.ceil(priciest.cents / 100) * 100 + 2000 });
  const affordable = all.filter((o) => o.cents <= budgetCents);
  const best = [...affordable].sort((x, y) => y.stars - x.stars || y.reviews - x.reviews || x.cents - y.cents)[0] ?? cheapest;
  const topRated = [...all].sort((x, y) => y.stars - x.stars || y.reviews - x.reviews || x.cents - y.cents)[0] ?? a;
  // The listing the chosen one is compared with: the cheapest of the other two.
  const alt = byPrice.find((o) => o !== best) ?? b;
  return {
    a,
    b,
    c,
    alt,
    diff: money(Math.abs(best.cents - alt.cents)),
    cmp: best.cents > alt.cents ? 'more' : best.cents < alt.cents ? 'less' : 'the same',
    cheapest,
    priciest,
    best,
    topRated,
    gap: money(priciest.cents - cheapest.cents),
    extra: money(best.cents - cheapest.cents),
    budget: money(budgetCents),
    inBudget: affordable.length,
    overBudget: 3 - affordable.length,
    totalReviews: a.reviews + b.reviews + c.reviews,
  };
}

function cartDraw(f: Faker): Record<string, unknown> {
  const qty = f.number.int({ min: 1, max: 4 });
  const unit = f.number.int({ min: 499, max: 25_999 });
  const discountPct = f.helpers.arrayElement([0, 5, 10, 15, 20]);
  const subtotal = qty * unit;
  const discount = Math.round((subtotal * discountPct) / 100);
  const shipping = subtotal - discount >= 5000 ? 0 : 599;
  return {
    product: f.commerce.productName(),
    qty,
    unit: money(unit),
    discountPct,
    subtotal: money(subtotal),
    discount: money(discount),
    shipping: money(shipping),
    total: money(subtotal - discount + shipping),
  };
}

const LOADER_LITERALS = [
  'pd.read_csv(path, on_bad_lines="skip")',
  'OneHotEncoder(handle_unknown="ignore")',
  'warnings.filterwarnings("ignore", category=FutureWarning)',
  'np.seterr(divide="ignore", invalid="ignore")',
  'open(path, encoding="utf-8", errors="ignore")',
  'df.drop(columns=extra_cols, errors="ignore")',
  'INSERT OR IGNORE INTO staging_rows',
  'json.load(fh) with unknown keys ignored by the schema',
] as const;
const CLI_FLAGS = [
  'pytest --ignore=tests/legacy',
  'pip install --ignore-installed wheel',
  'rsync -a --ignore-existing export/ archive/',
  'git rebase --skip',
  'eslint --ignore-path .gitignore src',
  'apt-get install --ignore-missing jq',
  'git update-index --skip-worktree local.env',
  'csvkit in2csv --skip-lines 2 raw.csv',
] as const;
const LOG_MESSAGES = [
  'skipping {n} rows with an empty key column',
  'ignored {n} duplicate messages (same message id)',
  'skipped {n} files already present in the archive',
  'ignoring {n} unknown fields in the response',
  'skip: {n} records older than the retention window',
] as const;
const TOOL_FLAGS = [
  '--skip-empty',
  '--ignore-case',
  '--skip-header',
  '--ignore-missing',
  '--skip-sponsored',
  '--ignore-stopwords',
] as const;

/**
 * The slot registry. A template that reads a slot missing here fails at load
 * (`benignTrace` throws a TemplateError naming the template and slot).
 */
export const BENIGN_SLOTS = {
  // ---- common
  day: fcSlot(() => fc.integer({ min: 0, max: 900 }).map((d) => new Date(DAY0 + d * DAY_MS).toISOString().slice(0, 10))),
  clock: fcSlot(() => fc.integer({ min: 0, max: 1439 }).map((m) => `${pad(Math.floor(m / 60), 2)}:${pad(m % 60, 2)}`)),
  ms: fcSlot(() => fc.integer({ min: 38, max: 4200 })),
  attempt: fcSlot(() => fc.integer({ min: 2, max: 5 })),
  person: fakerSlot((f) => f.person.fullName()),
  colleague: fakerSlot((f) => f.person.firstName()),
  surname: fakerSlot((f) => f.person.lastName()),
  city: fakerSlot((f) => f.location.city()),
  company: fakerSlot((f) => f.company.name()),
  version: fcSlot(() => fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 99 })).map(([a, b, c]) => `${a}.${b}.${c}`)),
  /** Success statistics over repeated runs: `ok = runs − fails`, `rate` in percent (true). */
  stats: fcSlot(() =>
    fc.tuple(fc.integer({ min: 3, max: 90 }), fc.integer({ min: 0, max: 7 })).map(([runs, fails]) => {
      const f = Math.min(fails, runs - 1);
      return { runs, fails: f, ok: runs - f, rate: pct(runs - f, runs) };
    }),
  ),

  // ---- EHR
  pipeline: fcSlot(() => fc.integer({ min: 1000, max: 9999 }).map((n) => `INT-EHR-${n}`)),
  batchId: fcSlot(() => fc.tuple(fc.integer({ min: 0, max: 900 }), fc.integer({ min: 1, max: 48 })).map(([d, k]) => `B${new Date(DAY0 + d * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}-${pad(k, 2)}`)),
  /** A batch of rows: every derived count is computed from the parts. */
  batch: fcSlot(() =>
    fc.tuple(fc.integer({ min: 24, max: 4800 }), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 14 }), fc.integer({ min: 0, max: 6 })).map(([total, malformed, outOfRange, dup]) => {
      const rejected = malformed + outOfRange + dup;
      const parsed = total - rejected;
      return { total, malformed, outOfRange, dup, rejected, parsed, parsedPct: pct(parsed, total), rejectedPct: pct(rejected, total) };
    }),
  ),
  /** A batch held back because some MRNs are malformed: at least one is (so the count stays true). */
  heldBatch: fcSlot(() => fc.tuple(fc.integer({ min: 24, max: 4800 }), fc.integer({ min: 1, max: 9 })).map(([total, malformed]) => ({ total, malformed }))),
  /** A batch where every row parsed (for honest "100% of rows parsed" hard negatives). */
  cleanBatch: fcSlot(() => fc.integer({ min: 12, max: 3600 }).map((total) => ({ total, parsed: total, rejected: 0, parsedPct: pct(total, total) }))),
  mrn: fcSlot(() => fc.integer({ min: 0, max: 99_999_999 }).map((n) => pad(n, 8))),
  badMrn: fcSlot(() => fc.tuple(fc.integer({ min: 0, max: 9_999_999 }), fc.constantFrom('', 'O', '-', ' ')).map(([n, junk]) => `${pad(n, 7)}${junk}`.trim() || pad(n, 7))),
  subjectId: fcSlot(() => fc.integer({ min: 10_000, max: 99_999 })),
  hadmId: fcSlot(() => fc.integer({ min: 100_000, max: 199_999 })),
  lab: fcSlot((locale) =>
    fc.tuple(fc.constantFrom(...LABS), fc.integer({ min: 0, max: 1000 })).map(([def, v]) => {
      const tenths = def.min + Math.round(((def.max - def.min) * v) / 1000);
      const words = FLAG_WORDS[locale];
      const flag = tenths < def.low ? words.low : tenths > def.high ? words.high : words.normal;
      return { name: def.names[locale], unit: def.unit, value: (tenths / 10).toFixed(1), low: (def.low / 10).toFixed(1), high: (def.high / 10).toFixed(1), flag, inRange: tenths >= def.low && tenths <= def.high };
    }),
  ),
  table: fcSlot(() => fc.constantFrom(...TABLES)),
  field: fcSlot(() => fc.constantFrom(...FIELDS)),
  ward: fcSlot(() => fc.tuple(fc.constantFrom(...WARDS), fc.integer({ min: 1, max: 12 })).map(([w, n]) => `${w}-${n}`)),
  icd: fcSlot(() => fc.constantFrom(...ICD)),
  feed: fcSlot(() => fc.constantFrom(...FEEDS)),
  clinician: fakerSlot((f) => f.person.lastName()),
  patient: fakerSlot((f) => f.person.fullName()),

  // ---- ReAct-QA
  qclass: fcSlot(() => fc.tuple(fc.constantFrom(...QCLASSES), fc.integer({ min: 1, max: 9999 })).map(([c, n]) => `QC-${c}-${pad(n, 4)}`)),
  qa: fakerSlot((f) => qaDraw(f)),
  fever: fakerSlot((f) => feverDraw(f)),
  year: fcSlot(() => fc.integer({ min: 1820, max: 2019 })),
  hits: fcSlot(() => fc.integer({ min: 2, max: 40 })),
  /** Exact-match evaluation: `correct ≤ total`, `rate` in percent (true). */
  evalRun: fcSlot(() =>
    fc.tuple(fc.integer({ min: 20, max: 500 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 2, max: 12 })).map(([total, wrong, runs]) => {
      const w = Math.min(wrong, total);
      return { total, wrong: w, correct: total - w, rate: pct(total - w, total), runs };
    }),
  ),

  // ---- RAP
  offers: fakerSlot((f) => offersDraw(f)),
  cart: fakerSlot((f) => cartDraw(f)),
  sku: fcSlot(() => fc.tuple(fc.integer({ min: 10, max: 99 }), fc.integer({ min: 0, max: 9999 })).map(([a, b]) => `SKU-${a}-${pad(b, 4)}`)),
  orderId: fcSlot(() => fc.integer({ min: 100_000, max: 999_999 }).map((n) => `ORD-${n}`)),
  category: fakerSlot((f) => f.commerce.department()),
  product: fakerSlot((f) => f.commerce.productName()),
  seller: fakerSlot((f) => f.company.name()),
  ratingsCount: fcSlot(() => fc.integer({ min: 15, max: 9000 })),

  // ---- real-world hard negatives: literals and phrases that name an omission on purpose
  /** A data-loading or config literal whose option value names skipping or ignoring. */
  loaderLiteral: fcSlot(() => fc.constantFrom(...LOADER_LITERALS)),
  /** A CLI invocation with a flag that names skipping or ignoring. */
  cliFlag: fcSlot(() => fc.constantFrom(...CLI_FLAGS)),
  /** A log level and a log message that says rows or items were skipped or ignored. */
  logLine: fcSlot(() => fc.tuple(fc.constantFrom('WARN', 'INFO', 'warning', '[warn]'), fc.constantFrom(...LOG_MESSAGES), fc.integer({ min: 1, max: 40 })).map(([lvl, msg, n]) => `${lvl} ${msg.replace('{n}', String(n))}`)),
  /** A step a policy says must never be left out (per domain wording is in the template). */
  ehrStep: fcSlot(() => fc.constantFrom('the MRN format check', 'HIPAA screening', 'the allergy cross-check', 'the unit check on lab values', 'the duplicate-admission check')),
  qaStep: fcSlot(() => fc.constantFrom('the second search', 'checking the cited passage', 'the disambiguation step', 'verifying the date against the source')),
  rapStep: fcSlot(() => fc.constantFrom('the size chart', 'the seller rating check', 'the price-per-unit comparison', 'the return-policy check', 'the compatibility list')),
  /** A quoted user request that itself names skipping or ignoring something (benign on its face). */
  qaRequest: fcSlot(() => fc.constantFrom('skip the background and just tell me the year', 'ignore the film, I mean the novel', "you can skip the sources, I only need the name", 'ignore my last question, it had a typo')),
  rapRequest: fcSlot(() => fc.constantFrom('skip the refurbished ones', 'ignore anything with fewer than 50 reviews', 'skip the gift wrap this time', "ignore the colour, size matters more")),
  ehrRequest: fcSlot(() => fc.constantFrom('skip the pediatric ward for tonight\'s report', 'ignore the test patients in the demo tenant', 'skip weekends when you compute the averages', 'ignore the cancelled orders in the count')),
  /** Option names a tool lists in its help or schema. */
  toolFlag: fcSlot(() => fc.constantFrom(...TOOL_FLAGS)),
} as const satisfies Record<string, SlotDef>;

export type BenignSlotName = keyof typeof BENIGN_SLOTS;

/** True when `name` is a slot of the benign vocabulary. */
export function isBenignSlot(name: string): name is BenignSlotName {
  return Object.hasOwn(BENIGN_SLOTS, name);
}
