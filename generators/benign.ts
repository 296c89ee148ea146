/**
 * Benign traces: what a genuine EHR, ReAct-QA or RAP shopping agent (paper §V-A), its
 * tools and its system policy write to memory. Used to measure false-positive rates
 * (paper §V-E: 26 hand-curated rationales + 300 captured traces) on generated data.
 *
 * One `oneof` branch per template in `templates/<domain>/benign/`, each a `record` of the
 * template's slot arbitraries (`generators/benign-slots.ts`) mapped through a pure render.
 * No `chain`, no hidden randomness: Faker is seeded by fast-check.
 */
import { hash } from 'node:crypto';
import fc from 'fast-check';
import type { Faker } from '@faker-js/faker';
import { DOMAINS, TemplateError, isReasoningTraceType } from '../src/domain/index.js';
import type { DomainId, FuzzCase, MemoryEntry, Truth } from '../src/domain/index.js';
import { fakerValue, isFakerLocale } from './faker-arb.js';
import type { FakerLocale } from './faker-arb.js';
import { BENIGN_SLOTS, isBenignSlot } from './benign-slots.js';
import { defaultTemplates } from './templates.js';
import type { CompiledTemplate, TemplateSet } from './templates.js';
import { defaultCalibration, entryKind, type BenignKind, type Calibration, type CalibrationTemplate } from './calibration/index.js';

/** Family folder of benign templates. */
const BENIGN_FAMILY = 'benign';

/** Timestamps of generated entries lie in [2024-01-01, 2026-06-30] UTC (seconds). */
const TS_MIN = Date.UTC(2024, 0, 1) / 1000;
const TS_MAX = Date.UTC(2026, 5, 30) / 1000;

/** Trust label implied by a declared source: AGENT/SYSTEM are VERIFIED, the rest UNVERIFIED. */
export function trustForSource(source: string): 'VERIFIED' | 'UNVERIFIED' {
  return source === 'AGENT' || source === 'SYSTEM' ? 'VERIFIED' : 'UNVERIFIED';
}

/** Deterministic entry id: a hash of the parts that make the entry (16 hex chars). */
function benignEntryId(parts: readonly string[]): string {
  // One-shot digest: a case renders about twenty entries, and a Hash object per id was a tenth of rendering.
  return `mem-${hash('sha256', parts.join('\u0000'), 'hex').slice(0, 16)}`;
}

/**
 * Renders one benign case from a template and its slot values (pure; no randomness).
 * - `store` follows the trace type: `reasoning` for decision_log / thought_chain /
 *   reflection / rationale, `general` otherwise.
 * - `source` from the template meta (default `AGENT`); trust from `trustForSource`.
 * - `timestampSec`: UNIX seconds, rendered as ISO 8601 UTC.
 * - `kind`: the template's calibrated kind; `truth.hardNegatives` is `[kind]`, or `[]` for `ordinary`.
 * @throws TemplateError when a slot is missing (strict Handlebars).
 */
export function renderBenignCase(template: CompiledTemplate, domain: DomainId, slots: Record<string, unknown>, timestampSec: number, kind: BenignKind = 'ordinary'): FuzzCase {
  const content = template.render(slots);
  const meta = template.meta;
  const traceType = meta.traceType ?? 'observation';
  const source = meta.source ?? 'AGENT';
  const timestamp = new Date(timestampSec * 1000).toISOString();
  const entry: MemoryEntry = {
    id: benignEntryId([domain, template.id, timestamp, content]),
    store: isReasoningTraceType(traceType) ? 'reasoning' : 'general',
    content,
    source,
    trust: trustForSource(source),
    traceType,
    timestamp,
  };
  const truth: Truth = {
    label: 'benign',
    family: 'benign',
    domain,
    template: template.id,
    operators: [],
    format: meta.format ?? 'prose',
    language: meta.language ?? 'en',
    hardNegatives: kind === 'ordinary' ? [] : [kind],
  };
  return { entry, truth };
}

/** The locale a template's `language` meta names (default `en`). */
function localeOf(t: CompiledTemplate): FakerLocale {
  const lang = t.meta.language ?? 'en';
  if (!isFakerLocale(lang)) throw new TemplateError(`${t.file}: language "${lang}" is not one of en, es, de, zh_CN`);
  return lang;
}

/**
 * The arbitrary of one template: a tuple of its slots (all Faker slots share one seed)
 * plus a timestamp, mapped through `renderBenignCase`.
 * @throws TemplateError naming the template when it reads a slot the vocabulary lacks.
 */
export function benignTemplateArb(template: CompiledTemplate, domain: DomainId, kind: BenignKind = 'ordinary'): fc.Arbitrary<FuzzCase> {
  const locale = localeOf(template);
  const fcNames: string[] = [];
  const fcArbs: Array<fc.Arbitrary<unknown>> = [];
  const fakerDraws: Array<[string, (f: Faker) => unknown]> = [];
  for (const name of template.slots) {
    if (!isBenignSlot(name)) throw new TemplateError(`${template.file}: unknown benign slot "${name}"`);
    const def = BENIGN_SLOTS[name];
    if (def.kind === 'fc') {
      fcNames.push(name);
      fcArbs.push(def.arb(locale));
    } else fakerDraws.push([name, (f) => def.draw(f, locale)]);
  }
  const fakerArb: fc.Arbitrary<Record<string, unknown>> =
    fakerDraws.length === 0
      ? fc.constant({})
      : fakerValue((f) => {
          const out: Record<string, unknown> = {};
          for (const [name, draw] of fakerDraws) out[name] = draw(f);
          return out;
        }, { locale, rng: 'xoroshiro' });
  // A tuple (cheaper to generate than a record), turned into named slots by the map.
  return fc.tuple(fc.integer({ min: TS_MIN, max: TS_MAX }), fakerArb, ...fcArbs).map(([ts, fake, ...plain]) => {
    const slots: Record<string, unknown> = { ...fake };
    fcNames.forEach((name, i) => {
      slots[name] = plain[i];
    });
    const c = renderBenignCase(template, domain, slots, ts, kind);
    RENDERED.set(c.entry, { template, domain, slots, ts, kind });
    return c;
  });
}

/** What each rendered benign entry was made from (a side table keyed by the entry object; entries are values and never mutated). */
const RENDERED = new WeakMap<MemoryEntry, { template: CompiledTemplate; domain: DomainId; slots: Record<string, unknown>; ts: number; kind: BenignKind }>();

/**
 * An *entity-sharing reframe* of `root` (docs/calibration.md, "Store structure"): `other`'s
 * template rendered with `other`'s slot values, except that every slot both templates use takes
 * `root`'s value. The same names, ids and numbers in another sentence frame, the way a real
 * agent's search step and its answer name the same entity. Pure. `undefined` when either case
 * was not rendered from a template here (a long reflection), both share a template, `other` is
 * not an ordinary template, or the two templates have no slot in common.
 */
export function entityReframe(root: FuzzCase, other: FuzzCase): FuzzCase | undefined {
  const r = RENDERED.get(root.entry);
  const o = RENDERED.get(other.entry);
  if (!r || !o || r.template.id === o.template.id || o.kind !== 'ordinary') return undefined;
  const shared = o.template.slots.filter((k) => Object.prototype.hasOwnProperty.call(r.slots, k));
  if (shared.length === 0) return undefined;
  const slots: Record<string, unknown> = { ...o.slots };
  for (const k of shared) slots[k] = r.slots[k];
  const c = renderBenignCase(o.template, o.domain, slots, o.ts, o.kind);
  RENDERED.set(c.entry, { ...o, slots });
  return c;
}


export interface BenignOptions {
  /** Template set to draw from (default: the repository's templates). */
  templates?: TemplateSet;
  /** Calibration to weight the natural mix with (default: the checked-in `weights.json`). */
  calibration?: Calibration;
}

/** Id of the code-built long multi-paragraph reflection of a domain (not an `.hbs` file). */
export function longReflectionId(domain: DomainId): string {
  return `${domain}/benign/long-reflection`;
}

/** Renders per template that `templateKindOf` classifies. */
const KIND_SAMPLES = 24;

/**
 * The kind of a template: `other-language` when its meta declares a language other than
 * English; otherwise measured as calibration measures real text: `KIND_SAMPLES` renders
 * (seed 1) are classified by `entryKind`; the most frequent non-ordinary kind wins when at
 * least a fifth of the renders carry it, else `ordinary`. Deterministic.
 */
function templateKindOf(template: CompiledTemplate, domain: DomainId): BenignKind {
  // The declared language is ground truth for a template (the text detector is for real text).
  if ((template.meta.language ?? 'en') !== 'en') return 'other-language';
  const counts = new Map<BenignKind, number>();
  for (const c of fc.sample(benignTemplateArb(template, domain), { seed: 1, numRuns: KIND_SAMPLES })) {
    const k = entryKind(c.entry.content, c.entry.traceType);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  let best: BenignKind = 'ordinary';
  let bestN = 0;
  for (const [k, n] of [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (k !== 'ordinary' && n > bestN) {
      best = k;
      bestN = n;
    }
  }
  return bestN * 5 >= KIND_SAMPLES ? best : 'ordinary';
}

/** Openings of a long reflection, per domain (written for this project). */
const LONG_OPENINGS: Readonly<Record<DomainId, readonly string[]>> = {
  ehr: [
    'Notes to myself after a long import shift, kept so the next run starts from what I learned.',
    'End-of-week review of the intake pipeline work, written up from my own trace.',
    'A longer look back over today\'s batches, paragraph by paragraph.',
  ],
  'react-qa': [
    'Looking back over this question session in some detail before the next one starts.',
    'A longer review of how the last few questions went, written from my own trace.',
    'Notes from the session, kept together so the next attempt can reuse them.',
  ],
  rap: [
    'Looking back over this shopping session in detail, from search to cart.',
    'A longer review of the last few orders, kept so the next session starts better.',
    'Notes from today\'s comparisons, written up from my own trace.',
  ],
};

/** Trace types whose ordinary English prose may serve as a paragraph of a long reflection. */
const PIECE_TYPES = new Set(['thought_chain', 'reflection', 'rationale', 'observation', 'experience']);

/**
 * A long multi-paragraph reflection (2–5k characters by default, from the calibration): an
 * opening line, then whole paragraphs rendered from the domain's ordinary English prose
 * templates, taken in order until the target length is reached. Every piece is an ordinary
 * benign trace on its own. Trace type `reflection`, source `AGENT`, format `prose`.
 * @throws TemplateError when the domain has no ordinary prose template.
 */
function longReflectionArb(domain: DomainId, pieces: readonly CompiledTemplate[], calibration: Calibration): fc.Arbitrary<FuzzCase> {
  if (pieces.length === 0) throw new TemplateError(`no ordinary prose templates for the long reflections of domain "${domain}"`);
  const { minChars, maxChars } = calibration.longReflection;
  const openings = LONG_OPENINGS[domain];
  const piece = fc.oneof(...pieces.map((t) => benignTemplateArb(t, domain)));
  return fc
    .tuple(fc.integer({ min: TS_MIN, max: TS_MAX }), fc.integer({ min: minChars, max: maxChars }), fc.nat(openings.length - 1), fc.array(piece, { minLength: 16, maxLength: 40 }))
    .map(([ts, target, o, parts]) => {
      const paragraphs = [openings[o] ?? ''];
      let length = paragraphs[0]!.length;
      for (const p of parts) {
        if (length >= target) break;
        paragraphs.push(p.entry.content);
        length += p.entry.content.length + 2;
      }
      const content = paragraphs.join('\n\n');
      const timestamp = new Date(ts * 1000).toISOString();
      const id = longReflectionId(domain);
      return {
        entry: { id: benignEntryId([domain, id, timestamp, content]), store: 'reasoning', content, source: 'AGENT', trust: 'VERIFIED', traceType: 'reflection', timestamp },
        truth: { label: 'benign', family: 'benign', domain, template: id, operators: [], format: 'prose', language: 'en', hardNegatives: ['long-reflection'] },
      } satisfies FuzzCase;
    });
}

interface DomainArbs {
  /** Template id → arbitrary, for every benign template and the long reflection. */
  byId: Map<string, fc.Arbitrary<FuzzCase>>;
  kinds: Record<string, BenignKind>;
}

function domainArbs(domain: DomainId, templates: TemplateSet, calibration: Calibration): DomainArbs {
  const list = templates.of(domain, BENIGN_FAMILY);
  if (list.length === 0) throw new TemplateError(`no benign templates for domain "${domain}"`);
  const kinds: Record<string, BenignKind> = {};
  const byId = new Map<string, fc.Arbitrary<FuzzCase>>();
  for (const t of list) {
    const kind = calibration.templateKinds[t.id];
    if (kind === undefined) throw new TemplateError(`${t.file}: template ${t.id} is not in generators/calibration/weights.json; run \`npm run calibrate\``);
    kinds[t.id] = kind;
    byId.set(t.id, benignTemplateArb(t, domain, kind));
  }
  const pieces = list.filter((t) => kinds[t.id] === 'ordinary' && (t.meta.language ?? 'en') === 'en' && (t.meta.format ?? 'prose') === 'prose' && PIECE_TYPES.has(t.meta.traceType ?? 'observation'));
  const longId = longReflectionId(domain);
  kinds[longId] = 'long-reflection';
  byId.set(longId, longReflectionArb(domain, pieces, calibration));
  return { byId, kinds };
}

const naturalCache = new Map<DomainId, fc.Arbitrary<FuzzCase>>();
const stressCache = new Map<DomainId, fc.Arbitrary<FuzzCase>>();
const naturalGroupCache = new Map<string, fc.Arbitrary<FuzzCase[]>>();
const stressGroupCache = new Map<string, fc.Arbitrary<FuzzCase[]>>();

/** The weighted branches of a domain's natural mix (sorted by id) or of its hard negatives (equal weights). */
function mixBranches(domain: DomainId, options: BenignOptions, stress: boolean): Array<{ arbitrary: fc.Arbitrary<FuzzCase>; weight: number }> {
  const calibration = options.calibration ?? defaultCalibration();
  const { byId, kinds } = domainArbs(domain, options.templates ?? defaultTemplates(), calibration);
  if (stress) return [...byId.keys()].sort().filter((id) => kinds[id] !== 'ordinary').map((id) => ({ arbitrary: byId.get(id)!, weight: 1 }));
  const weights = calibration.templateWeights[domain];
  if (!weights) throw new TemplateError(`generators/calibration/weights.json has no weights for domain "${domain}"; run \`npm run calibrate\``);
  const branches: Array<{ arbitrary: fc.Arbitrary<FuzzCase>; weight: number }> = [];
  for (const id of [...byId.keys()].sort()) {
    const weight = weights[id];
    if (weight === undefined) throw new TemplateError(`generators/calibration/weights.json has no weight for ${id}; run \`npm run calibrate\``);
    branches.push({ arbitrary: byId.get(id)!, weight });
  }
  return branches;
}

function cachedMix<T, K>(cache: Map<K, fc.Arbitrary<T>>, key: K, options: BenignOptions, build: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  const shared = !options.templates && !options.calibration;
  const hit = shared ? cache.get(key) : undefined;
  if (hit) return hit;
  const arb = build();
  if (shared) cache.set(key, arb);
  return arb;
}

/**
 * The natural benign mix of one domain: the FPR estimate (`benign` family, `fpr`, the CI
 * gate). One weighted `oneof` branch per template of `templates/<domain>/benign/` plus the
 * long reflection, weighted by the calibration's `templateWeights[domain]` (sorted by id;
 * shrinking moves toward the first). Truth: label and family `benign`, operators `[]`,
 * format, language, and `hardNegatives` = `[kind]` for a hard-negative template.
 * @throws TemplateError when the domain has no benign templates, a template is broken, or the
 *   calibration does not match the templates (run `npm run calibrate`).
 * @example fc.sample(benignTrace('ehr'), { numRuns: 3, seed: 42 })
 */
export function benignTrace(domain: DomainId, options: BenignOptions = {}): fc.Arbitrary<FuzzCase> {
  return cachedMix(naturalCache, domain, options, () => fc.oneof(...mixBranches(domain, options, false)));
}

/**
 * The hard negatives of one domain (`benign-stress` family): every template whose calibrated
 * kind is not `ordinary`, plus the long reflection, each with the same weight. It hunts
 * false-positive counterexamples and is reported apart; it is never the FPR estimate.
 * @throws TemplateError as `benignTrace`.
 */
export function benignStressTrace(domain: DomainId, options: BenignOptions = {}): fc.Arbitrary<FuzzCase> {
  return cachedMix(stressCache, domain, options, () => fc.oneof(...mixBranches(domain, options, true)));
}

/**
 * `benignTrace` (or, with `stress`, `benignStressTrace`) drawn as a group of `size` independent
 * renders of one template (the later ones are *twins* of the first: the same step said again
 * with fresh slot values). The first of the group has the distribution of the single-case
 * arbitrary. Used to build near-repeat groups in generated trajectories
 * (`generators/benign-trajectory.ts`) without a `chain`.
 * @throws TemplateError as `benignTrace`; RangeError when `size` is not an integer >= 1.
 */
export function benignTraceGroup(domain: DomainId, size: number, options: BenignOptions & { stress?: boolean } = {}): fc.Arbitrary<FuzzCase[]> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`benignTraceGroup: size must be an integer >= 1, got ${size}`);
  const stress = options.stress === true;
  const { stress: _s, ...rest } = options;
  return cachedMix(stress ? stressGroupCache : naturalGroupCache, `${domain}/${size}`, rest, () =>
    fc.oneof(...mixBranches(domain, rest, stress).map((b) => ({ arbitrary: fc.array(b.arbitrary, { minLength: size, maxLength: size }), weight: b.weight }))),
  );
}

/** Benign cases of any of the three domains (EHR first, so shrinking moves toward it). */
export function benignTraceAnyDomain(options: BenignOptions = {}): fc.Arbitrary<FuzzCase> {
  return fc.oneof(...DOMAINS.map((d) => benignTrace(d, options)));
}

export interface BenignHistoryOptions extends BenignOptions {
  /** Largest number of entries (default 20). */
  maxLength?: number;
  /** Smallest number of entries (default 0). */
  minLength?: number;
}

/**
 * A benign store history for one domain, from the natural mix: distinct-id entries ordered by
 * timestamp, for use as `FuzzCase.setup` (e.g. the store an amplification chain is written
 * into). Shrinks toward fewer entries.
 */
export function benignHistory(domain: DomainId, options: BenignHistoryOptions = {}): fc.Arbitrary<MemoryEntry[]> {
  const { maxLength = 20, minLength = 0 } = options;
  const { maxLength: _a, minLength: _b, ...rest } = options;
  const entry = benignTrace(domain, rest).map((c) => c.entry);
  return fc
    .uniqueArray(entry, { selector: (e) => e.id, minLength, maxLength })
    .map((list) => [...list].sort((x, y) => (x.timestamp < y.timestamp ? -1 : x.timestamp > y.timestamp ? 1 : 0)));
}

/** Store entries each benign entry is checked after (docs/calibration.md, "Store context"). */
export { HISTORY_ENTRIES } from './calibration/index.js';

/**
 * What calibration needs of every benign template of every domain (and of each domain's long
 * reflection): id, domain, kind (`templateKindOf`) and trace type. Sorted by id.
 */
export function calibrationTemplates(templates: TemplateSet = defaultTemplates()): CalibrationTemplate[] {
  const out: CalibrationTemplate[] = [];
  for (const domain of DOMAINS) {
    for (const t of templates.of(domain, BENIGN_FAMILY)) out.push({ id: t.id, domain, kind: templateKindOf(t, domain), traceType: t.meta.traceType ?? 'observation' });
    out.push({ id: longReflectionId(domain), domain, kind: 'long-reflection', traceType: 'reflection' });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Every benign template of one domain (and its long reflection) with the same weight: no
 * calibration. For coverage and diversity checks of the templates themselves; never an FPR
 * estimate.
 */
export function benignTraceUniform(domain: DomainId, options: BenignOptions = {}): fc.Arbitrary<FuzzCase> {
  const { byId } = domainArbs(domain, options.templates ?? defaultTemplates(), options.calibration ?? defaultCalibration());
  return fc.oneof(...[...byId.keys()].sort().map((id) => byId.get(id)!));
}
