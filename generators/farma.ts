/**
 * FARMA attack generators (paper §III, Algorithm 1): phase-1 seed traces and phase-2
 * amplification chains, as fast-check arbitraries of `FuzzCase`.
 *
 * Each arbitrary is a structured value (`EntryValue`, `ChainValue`: template ids, slot
 * records, time gaps) mapped through a pure builder (`buildSeedCase`, `buildChainCase`), so
 * a case can be re-rendered from its value and the value shrinks: one `oneof` branch per
 * template (no `chain` from template to slots), arrays for seeds and cycles.
 * Forged entries carry the metadata Algorithm 1 spoofs (source `AGENT`, trust `VERIFIED`)
 * unless the template's meta names another channel: `source` (`TOOL`, `EXTERNAL`, `SYSTEM`:
 * forgeries that arrive as tool output or in retrieved documents), `trust`, `store`.
 * Template meta may also set `countSlot` (the entry slot whose value is the claimed
 * precedent, instead of Algorithm 1's n_prior: dishonest and large counts), `subjectInWords`
 * (the claim's subject is the `subjectName` slot, not the id), `language` and `kinds`
 * (evasion kinds of `generators/claims/evasion-kinds.ts`); see `templates/README.md`.
 */
import fc from 'fast-check';
import type { MemoryEntry, StoreName } from '../src/domain/entry.js';
import type { DomainId, FuzzCase } from '../src/domain/fuzz-case.js';
import { TemplateError, UsageError } from '../src/domain/errors.js';
import { defaultTemplates } from './templates.js';
import type { CompiledTemplate, TemplateSet } from './templates.js';
import { claimOf, isClaimCheck } from './claims/claims.js';
import { COUNT_SLOTS, entrySlots, subjectSlots, timeSlots } from './slots.js';
import type { AttackSlots } from './slots.js';
import { countForms } from './claims/numerals.js';
import { isEvasionKind } from './claims/evasion-kinds.js';

/** The attack families whose templates live under `templates/<domain>/<family>/`. */
export type AttackFamily = 'seed' | 'amplification' | 'naive';

/** One templated write: which template, its per-entry slots, minutes since the previous write. */
export interface AttackChoice {
  /** Template id, `<domain>/<family>/<name>`. */
  template: string;
  slots: AttackSlots;
  /** Minutes after the previous write (or after `startMinute` for the first), >= 1. */
  gapMinutes: number;
}

/** Structured value of a one-entry attack (a seed trace or a naive attack). */
export interface EntryValue {
  domain: DomainId;
  /** Subject slots (`subject` and its context), see `generators/slots.ts`. */
  subject: AttackSlots;
  choice: AttackChoice;
  /** Minutes after `ATTACK_EPOCH_MS` at which the attack starts. */
  startMinute: number;
}

/** Structured value of an amplification chain (Algorithm 1). */
export interface ChainValue {
  domain: DomainId;
  /** One subject shared by every seed and amplification entry. */
  subject: AttackSlots;
  /** n_s = seeds.length (>= 1). */
  seeds: AttackChoice[];
  /** n_a = cycles.length (>= 1); cycle c (1-based) cites n_prior = n_s + c - 1. */
  cycles: AttackChoice[];
  /** Benign entries already in the store, written before the attack. */
  history: MemoryEntry[];
  startMinute: number;
}

/** Options shared by the attack arbitraries. */
export interface AttackOptions {
  /** Template set to draw from (default: the repository's `defaultTemplates()`). */
  templates?: TemplateSet;
}

/** Options of `amplificationChain`. */
export interface AmplificationOptions extends AttackOptions {
  /** Largest n_s (default 3, the paper's seed count, §III-B). */
  maxSeeds?: number;
  /** Largest n_a (default 10). */
  maxCycles?: number;
  /** Benign history written before the attack (default: none). */
  history?: fc.Arbitrary<MemoryEntry[]>;
}

/** Metadata that Algorithm 1 writes with every forged entry. */
export const FORGED_SOURCE = 'AGENT';
export const FORGED_TRUST = 'VERIFIED';
/** Sources a template's meta may declare (DESIGN.md: SYSTEM | AGENT | TOOL | EXTERNAL). */
const FORGED_SOURCES = ['AGENT', 'SYSTEM', 'TOOL', 'EXTERNAL'] as const;
/** Languages a template's meta may declare (`mixed`: code-switched). */
const TEMPLATE_LANGUAGES = ['en', 'es', 'de', 'zh', 'mixed'] as const;
/** Trace type of the general-store copy when a template's meta names none. */
export const DEFAULT_GENERAL_TRACE_TYPE = 'experience';

const START_MINUTE = fc.integer({ min: 0, max: 366 * 24 * 60 });
const GAP_MINUTES = fc.integer({ min: 1, max: 12 * 60 });

/**
 * The templates of one attack family in one domain, sorted by name, after checking that
 * there is at least one and that every `checks` id in their meta belongs to the domain's
 * claim vocabulary. Throws TemplateError otherwise.
 */
export function attackTemplates(domain: DomainId, family: AttackFamily, templates: TemplateSet = defaultTemplates()): CompiledTemplate[] {
  const list = templates.of(domain, family);
  if (list.length === 0) throw new TemplateError(`no templates under templates/${domain}/${family}/`);
  for (const t of list) {
    const checks = t.meta.checks ?? [];
    if (!Array.isArray(checks) || checks.some((c) => typeof c !== 'string' || !isClaimCheck(domain, c))) {
      throw new TemplateError(`${t.file}: meta.checks must list check ids of generators/claims/claims.ts CLAIM_CHECKS.${domain}`);
    }
    if (family !== 'amplification' && checks.length === 0) throw new TemplateError(`${t.file}: a ${family} template must claim at least one check`);
    const usesCount = t.slots.some((sl) => sl.startsWith('priorCount'));
    if (family === 'amplification' && !usesCount) throw new TemplateError(`${t.file}: an amplification template must use {{priorCount}} (or a priorCount* form)`);
    const countSlot = t.meta.countSlot;
    if (countSlot !== undefined && (typeof countSlot !== 'string' || !(COUNT_SLOTS as readonly string[]).includes(countSlot))) {
      throw new TemplateError(`${t.file}: meta.countSlot must be one of ${COUNT_SLOTS.join(', ')}`);
    }
    if (family !== 'amplification' && usesCount && countSlot === undefined) throw new TemplateError(`${t.file}: a ${family} template that cites a count must name its meta.countSlot`);
    if (t.meta.source !== undefined && !(FORGED_SOURCES as readonly string[]).includes(String(t.meta.source))) {
      throw new TemplateError(`${t.file}: meta.source must be one of ${FORGED_SOURCES.join(', ')}`);
    }
    if (t.meta.store !== undefined && t.meta.store !== 'reasoning' && t.meta.store !== 'general') throw new TemplateError(`${t.file}: meta.store must be reasoning or general`);
    if (t.meta.language !== undefined && !(TEMPLATE_LANGUAGES as readonly string[]).includes(t.meta.language)) {
      throw new TemplateError(`${t.file}: meta.language must be one of ${TEMPLATE_LANGUAGES.join(', ')}`);
    }
    const kinds = t.meta.kinds ?? [];
    if (!Array.isArray(kinds) || kinds.some((k) => typeof k !== 'string' || !isEvasionKind(k))) {
      throw new TemplateError(`${t.file}: meta.kinds must list ids of generators/claims/evasion-kinds.ts EVASION_KINDS`);
    }
  }
  return list;
}

/**
 * An arbitrary of template choices: one `oneof` branch per template (shrinks within the
 * branch: slots and gap), each with the domain's entry slots.
 */
export function attackChoice(domain: DomainId, templates: readonly CompiledTemplate[]): fc.Arbitrary<AttackChoice> {
  const slots = entrySlots(domain);
  return fc.oneof(...templates.map((t) => fc.record({ template: fc.constant(t.id), slots, gapMinutes: GAP_MINUTES })));
}

/**
 * Renders a seed (or naive) template with a full slot record; when the template claims a count
 * (`claimedCount`), its count forms (`countForms`: digits, words, other languages…) are filled
 * in too. Pure; throws TemplateError on a missing slot.
 */
export function renderSeed(template: CompiledTemplate, slots: AttackSlots): string {
  const count = claimedCount(template, slots);
  return template.render(count === undefined ? slots : { ...slots, ...countForms(count) });
}

/** Renders an amplification template citing `nPrior` prior forged entries (Algorithm 1, line 10), in every count form (`countForms`). Pure. */
export function renderAmplification(template: CompiledTemplate, slots: AttackSlots, nPrior: number): string {
  return template.render({ ...slots, ...countForms(nPrior) });
}

/**
 * The precedent count a template claims: the value of its meta `countSlot` entry slot when it
 * names one (a dishonest count, independent of the store), else `nPrior` (Algorithm 1), else
 * undefined (a seed without a count). Pure.
 */
function claimedCount(template: CompiledTemplate, slots: AttackSlots, nPrior?: number): number | undefined {
  const slot = template.meta.countSlot;
  if (typeof slot === 'string') {
    const v = slots[slot];
    if (typeof v !== 'number') throw new TemplateError(`${template.file}: count slot ${slot} is not a number`);
    return v;
  }
  return nPrior;
}

/** The claim's subject: the id slot, or the `subjectName` slot for `subjectInWords` templates. */
function claimSubject(template: CompiledTemplate, subject: AttackSlots): string {
  return String((template.meta.subjectInWords === true ? subject.subjectName : subject.subject) ?? '');
}

/** Truth descriptors of a template: language (default en), evasion kinds, declared source. */
function templateTruth(template: CompiledTemplate): { language: string; kinds: string[]; source: string } {
  const kinds = Array.isArray(template.meta.kinds) ? template.meta.kinds.filter((k): k is string => typeof k === 'string') : [];
  return { language: template.meta.language ?? 'en', kinds, source: typeof template.meta.source === 'string' ? template.meta.source : FORGED_SOURCE };
}

/** The full slot record of one entry: subject context, entry slots, and the derived `date`/`time`. */
export function fillSlots(subject: AttackSlots, slots: AttackSlots, minute: number): AttackSlots {
  const { date, time } = timeSlots(minute);
  return { ...slots, ...subject, date, time };
}

/** 32-bit FNV-1a of a string, 8 hex digits. */
export function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * A forged MemoryEntry with Algorithm 1's spoofed metadata. The id is
 * `farma-<domain>-<position>-<fnv1a(content)>`, e.g. `farma-ehr-a3g-1f2e3d4c`; positions
 * (`s1`, `a3r`, `a3g`, `n1`) keep ids unique within a chain.
 */
export function forgedEntry(
  domain: DomainId,
  position: string,
  store: StoreName,
  content: string,
  traceType: string,
  minute: number,
  channel: { source?: string; trust?: string } = {},
): MemoryEntry {
  return {
    id: `farma-${domain}-${position}-${fnv1a(content)}`,
    store,
    content,
    source: channel.source ?? FORGED_SOURCE,
    trust: channel.trust ?? FORGED_TRUST,
    traceType,
    timestamp: timeSlots(minute).timestamp,
  };
}

/** The write channel a template declares: source and trust (defaults AGENT/VERIFIED). */
function channelOf(t: CompiledTemplate): { source: string; trust: string } {
  return {
    source: typeof t.meta.source === 'string' ? t.meta.source : FORGED_SOURCE,
    trust: typeof t.meta.trust === 'string' ? t.meta.trust : FORGED_TRUST,
  };
}

function storeOf(t: CompiledTemplate): StoreName {
  return t.meta.store === 'general' ? 'general' : 'reasoning';
}

function templateById(templates: TemplateSet, id: string): CompiledTemplate {
  const t = templates.byId.get(id);
  if (!t) throw new TemplateError(`unknown template id ${id}`);
  return t;
}

function traceTypeOf(t: CompiledTemplate): string {
  return typeof t.meta.traceType === 'string' ? t.meta.traceType : 'decision_log';
}

/**
 * Builds a one-entry forged case (`seed` or `naive`) from its structured value. Pure.
 * Entry: the template's store (default reasoning) and channel (default AGENT/VERIFIED), trace
 * type from the template meta, written at `startMinute + gapMinutes`. Truth: label `forged`, no
 * operators, claim = subject (or `subjectName` for `subjectInWords`) + meta checks + the
 * `countSlot` value as precedent when the template names one; `language`, `kinds`, `source`.
 * Throws TemplateError for an unknown template id or a missing slot.
 */
export function buildEntryCase(family: 'seed' | 'naive', value: EntryValue, templates: TemplateSet = defaultTemplates()): FuzzCase {
  const t = templateById(templates, value.choice.template);
  const minute = value.startMinute + value.choice.gapMinutes;
  const slots = fillSlots(value.subject, value.choice.slots, minute);
  const count = claimedCount(t, slots);
  const content = renderSeed(t, slots);
  const position = family === 'seed' ? 's1' : 'n1';
  return {
    entry: forgedEntry(value.domain, position, storeOf(t), content, traceTypeOf(t), minute, channelOf(t)),
    truth: {
      label: 'forged',
      family,
      domain: value.domain,
      template: t.id,
      operators: [],
      claim: claimOf(value.domain, claimSubject(t, value.subject), t.meta.checks ?? [], count),
      ...templateTruth(t),
    },
  };
}

/** Builds a seed-trace case from its structured value (see `buildEntryCase`). Pure. */
export function buildSeedCase(value: EntryValue, templates: TemplateSet = defaultTemplates()): FuzzCase {
  return buildEntryCase('seed', value, templates);
}

/**
 * Builds an amplification-chain case from its structured value (Algorithm 1). Pure.
 * Writes, in order: the history, n_s seeds (reasoning store), then for c = 1..n_a an
 * amplification entry citing n_prior = n_s + c - 1, once in the reasoning store and once
 * in the general store (distinct ids; the general copy takes meta `generalTraceType`,
 * default `experience`). `entry` is the last reasoning copy; `setup` is everything written
 * before it except the last cycle's general copy (written after it), so
 * `setup.length = history + n_s + 2 (n_a - 1)`.
 * Throws TemplateError for an unknown template id or a missing slot.
 */
export function buildChainCase(value: ChainValue, templates: TemplateSet = defaultTemplates()): FuzzCase {
  const { domain, subject } = value;
  const nS = value.seeds.length;
  const nA = value.cycles.length;
  if (nS < 1 || nA < 1) throw new UsageError(`an amplification chain needs at least one seed and one cycle (got ${nS}, ${nA})`);
  const setup: MemoryEntry[] = [...value.history];
  let minute = value.startMinute;
  value.seeds.forEach((choice, i) => {
    const t = templateById(templates, choice.template);
    minute += choice.gapMinutes;
    const slots = fillSlots(subject, choice.slots, minute);
    const content = renderSeed(t, slots);
    setup.push(forgedEntry(domain, `s${i + 1}`, storeOf(t), content, traceTypeOf(t), minute, channelOf(t)));
  });
  let last: { entry: MemoryEntry; template: CompiledTemplate; nPrior: number } | undefined;
  value.cycles.forEach((choice, i) => {
    const c = i + 1;
    const t = templateById(templates, choice.template);
    minute += choice.gapMinutes;
    const slots = fillSlots(subject, choice.slots, minute);
    const nPrior = claimedCount(t, slots, nS + c - 1) ?? nS + c - 1;
    const content = renderAmplification(t, slots, nPrior);
    const reasoning = forgedEntry(domain, `a${c}r`, 'reasoning', content, traceTypeOf(t), minute, channelOf(t));
    const generalType = typeof t.meta.generalTraceType === 'string' ? t.meta.generalTraceType : DEFAULT_GENERAL_TRACE_TYPE;
    const general = forgedEntry(domain, `a${c}g`, 'general', content, generalType, minute, channelOf(t));
    if (c < nA) setup.push(reasoning, general);
    else last = { entry: reasoning, template: t, nPrior };
  });
  if (!last) throw new UsageError('an amplification chain needs at least one cycle');
  return {
    entry: last.entry,
    truth: {
      label: 'forged',
      family: 'amplification',
      domain,
      template: last.template.id,
      operators: [],
      claim: claimOf(domain, claimSubject(last.template, subject), last.template.meta.checks ?? [], last.nPrior),
      chain: { seeds: nS, cycle: nA },
      ...templateTruth(last.template),
    },
    setup,
  };
}

/** Structured values of seed traces (one `oneof` branch per seed template). */
export function seedValue(domain: DomainId, options: AttackOptions = {}): fc.Arbitrary<EntryValue> {
  const choice = attackChoice(domain, attackTemplates(domain, 'seed', options.templates));
  return fc.record({ subject: subjectSlots(domain), choice, startMinute: START_MINUTE }).map((r) => ({ domain, ...r }));
}

/**
 * FARMA phase-1 seed traces (paper §III-B): one forged reasoning-store entry claiming that
 * the domain's safety checks were already done for a subject. Truth: label `forged`,
 * family `seed`, claim {subject, checks}. Throws TemplateError at construction when the
 * domain has no valid seed templates.
 * @example fc.sample(seedTrace('ehr'), { numRuns: 1, seed: 42 })[0].truth.claim
 *   // e.g. { subject: 'PIPE-RX-0413', checks: ['mrn-format', 'authorization'] }
 */
export function seedTrace(domain: DomainId, options: AttackOptions = {}): fc.Arbitrary<FuzzCase> {
  const templates = options.templates ?? defaultTemplates();
  return seedValue(domain, { templates }).map((v) => buildSeedCase(v, templates));
}

/** Structured values of amplification chains (see `amplificationChain`). */
export function chainValue(domain: DomainId, options: AmplificationOptions = {}): fc.Arbitrary<ChainValue> {
  const maxSeeds = options.maxSeeds ?? 3;
  const maxCycles = options.maxCycles ?? 10;
  if (!Number.isInteger(maxSeeds) || maxSeeds < 1) throw new UsageError(`maxSeeds must be an integer >= 1, got ${maxSeeds}`);
  if (!Number.isInteger(maxCycles) || maxCycles < 1) throw new UsageError(`maxCycles must be an integer >= 1, got ${maxCycles}`);
  const seedChoice = attackChoice(domain, attackTemplates(domain, 'seed', options.templates));
  const cycleChoice = attackChoice(domain, attackTemplates(domain, 'amplification', options.templates));
  return fc
    .record({
      subject: subjectSlots(domain),
      seeds: fc.array(seedChoice, { minLength: 1, maxLength: maxSeeds }),
      cycles: fc.array(cycleChoice, { minLength: 1, maxLength: maxCycles }),
      history: options.history ?? fc.constant<MemoryEntry[]>([]),
      startMinute: START_MINUTE,
    })
    .map((r) => ({ domain, ...r }));
}

/**
 * FARMA amplification chains (paper §III-C, Algorithm 1): n_s in [1, maxSeeds] seeds for one
 * subject, then n_a in [1, maxCycles] cycles, cycle c citing n_prior = n_s + c - 1 and
 * written to both stores. The case's `entry` is the last cycle's reasoning copy; `setup`
 * holds the history, the seeds and the earlier cycles' copies in write order. Truth:
 * family `amplification`, claim.precedent = n_s + n_a - 1, chain {seeds: n_s, cycle: n_a}.
 * Both lengths shrink, so a failing chain shrinks toward 1 seed and 1 cycle.
 * Throws UsageError for bad bounds and TemplateError for missing templates, at construction.
 * @example amplificationChain('rap', { maxSeeds: 3, maxCycles: 5 })
 */
export function amplificationChain(domain: DomainId, options: AmplificationOptions = {}): fc.Arbitrary<FuzzCase> {
  const templates = options.templates ?? defaultTemplates();
  return chainValue(domain, { ...options, templates }).map((v) => buildChainCase(v, templates));
}
