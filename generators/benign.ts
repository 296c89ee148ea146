/**
 * Benign traces: what a genuine EHR, ReAct-QA or RAP shopping agent (paper §V-A), its
 * tools and its system policy write to memory. Used to measure false-positive rates
 * (paper §V-E: 26 hand-curated rationales + 300 captured traces) on generated data.
 *
 * One `oneof` branch per template in `templates/<domain>/benign/`, each a `record` of the
 * template's slot arbitraries (`generators/benign-slots.ts`) mapped through a pure render.
 * No `chain`, no hidden randomness: Faker is seeded by fast-check.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Faker } from '@faker-js/faker';
import { DOMAINS, TemplateError, isReasoningTraceType } from '../src/domain/index.js';
import type { DomainId, FuzzCase, MemoryEntry, Truth } from '../src/domain/index.js';
import { fakerValue, isFakerLocale } from './faker-arb.js';
import type { FakerLocale } from './faker-arb.js';
import { BENIGN_SLOTS, isBenignSlot } from './benign-slots.js';
import { defaultTemplates } from './templates.js';
import type { CompiledTemplate, TemplateSet } from './templates.js';

/** Family folder of benign templates. */
export const BENIGN_FAMILY = 'benign';

/** Timestamps of generated entries lie in [2024-01-01, 2026-06-30] UTC (seconds). */
const TS_MIN = Date.UTC(2024, 0, 1) / 1000;
const TS_MAX = Date.UTC(2026, 5, 30) / 1000;

/** Trust label implied by a declared source: AGENT/SYSTEM are VERIFIED, the rest UNVERIFIED. */
export function trustForSource(source: string): 'VERIFIED' | 'UNVERIFIED' {
  return source === 'AGENT' || source === 'SYSTEM' ? 'VERIFIED' : 'UNVERIFIED';
}

/** Deterministic entry id: a hash of the parts that make the entry (16 hex chars). */
export function benignEntryId(parts: readonly string[]): string {
  return `mem-${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16)}`;
}

/**
 * Renders one benign case from a template and its slot values (pure; no randomness).
 * - `store` follows the trace type: `reasoning` for decision_log / thought_chain /
 *   reflection / rationale, `general` otherwise.
 * - `source` from the template meta (default `AGENT`); trust from `trustForSource`.
 * - `timestampSec`: UNIX seconds, rendered as ISO 8601 UTC.
 * @throws TemplateError when a slot is missing (strict Handlebars).
 */
export function renderBenignCase(template: CompiledTemplate, domain: DomainId, slots: Record<string, unknown>, timestampSec: number): FuzzCase {
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
    hardNegatives: [...(meta.hardNegatives ?? [])],
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
export function benignTemplateArb(template: CompiledTemplate, domain: DomainId): fc.Arbitrary<FuzzCase> {
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
    return renderBenignCase(template, domain, slots, ts);
  });
}

export interface BenignOptions {
  /** Template set to draw from (default: the repository's templates). */
  templates?: TemplateSet;
}

const cache = new Map<DomainId, fc.Arbitrary<FuzzCase>>();

/**
 * Benign cases of one domain: one `oneof` branch per template of `templates/<domain>/benign/`
 * (sorted by name; shrinking moves toward the first). Truth: label and family `benign`,
 * operators `[]`, plus format, language and hard-negative tags from the template meta.
 * @throws TemplateError when the domain has no benign templates or a template is broken.
 * @example fc.sample(benignTrace('ehr'), { numRuns: 3, seed: 42 })
 */
export function benignTrace(domain: DomainId, options: BenignOptions = {}): fc.Arbitrary<FuzzCase> {
  if (!options.templates) {
    const hit = cache.get(domain);
    if (hit) return hit;
  }
  const templates = (options.templates ?? defaultTemplates()).of(domain, BENIGN_FAMILY);
  if (templates.length === 0) throw new TemplateError(`no benign templates for domain "${domain}"`);
  const arb = fc.oneof(...templates.map((t) => benignTemplateArb(t, domain)));
  if (!options.templates) cache.set(domain, arb);
  return arb;
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
 * A benign store history for one domain: distinct-id entries ordered by timestamp, for use
 * as `FuzzCase.setup` (e.g. the store an amplification chain is written into). Shrinks
 * toward fewer entries.
 */
export function benignHistory(domain: DomainId, options: BenignHistoryOptions = {}): fc.Arbitrary<MemoryEntry[]> {
  const { maxLength = 20, minLength = 0 } = options;
  const entry = benignTrace(domain, options.templates ? { templates: options.templates } : {}).map((c) => c.entry);
  return fc
    .uniqueArray(entry, { selector: (e) => e.id, minLength, maxLength })
    .map((list) => [...list].sort((x, y) => (x.timestamp < y.timestamp ? -1 : x.timestamp > y.timestamp ? 1 : 0)));
}
