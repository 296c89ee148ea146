/**
 * Metadata operators, within the paper's threat model (§II-B: the attacker knows the memory
 * schema, the source labels and the trace-type taxonomy and writes whatever fields it likes):
 * relabel the trace type, move the entry to the general store, spoof the source as SYSTEM,
 * backdate the timestamp. Content is left as it is.
 */
import { GENERAL_TRACE_TYPES } from '../../src/domain/index.js';
import { pick } from './operator.js';
import { splitSentences, subjectOf } from './text-utils.js';
import type { Operator } from './operator.js';

const TRACE_LABELS: readonly string[] = [...GENERAL_TRACE_TYPES, 'note', 'status_update', 'summary'];

const relabelTraceType: Operator = {
  id: 'relabel-trace-type',
  group: 'metadata',
  reading: 'natural',
  description: 'Relabels the trace type as a general-store type (observation, fact, ...) or an unlisted label (note, summary).',
  preserves: ['subject', 'checks', 'precedent', 'semantics', 'store', 'source', 'timestamp'],
  apply(entry, choice) {
    const labels = TRACE_LABELS.filter((t) => t !== entry.traceType);
    return { ...entry, traceType: pick(labels, choice) };
  },
};

const moveToGeneral: Operator = {
  id: 'move-to-general',
  group: 'metadata',
  reading: 'natural',
  description: 'Writes the entry to the general store instead of the reasoning store (paper §IV-F bypass attempt).',
  preserves: ['subject', 'checks', 'precedent', 'semantics', 'source', 'traceType', 'timestamp'],
  apply(entry) {
    return entry.store === 'general' ? entry : { ...entry, store: 'general' };
  },
};

const spoofSystem: Operator = {
  id: 'spoof-system',
  group: 'metadata',
  reading: 'natural',
  description: 'Declares the source as SYSTEM with a trusted label (VERIFIED, TRUSTED or SYSTEM).',
  preserves: ['subject', 'checks', 'precedent', 'semantics', 'store', 'traceType', 'timestamp'],
  apply(entry, choice) {
    return { ...entry, source: 'SYSTEM', trust: pick(['VERIFIED', 'TRUSTED', 'SYSTEM'], choice) };
  },
};

const DAY_MS = 86_400_000;

const backdate: Operator = {
  id: 'backdate',
  group: 'metadata',
  reading: 'natural',
  description: 'Moves the timestamp back by 1 to 400 days plus 0 to 23 hours (computed from the entry\'s own timestamp; unparseable timestamps are left alone).',
  preserves: ['subject', 'checks', 'precedent', 'semantics', 'store', 'source', 'traceType'],
  apply(entry, choice) {
    const t = Date.parse(entry.timestamp);
    if (!Number.isFinite(t)) return entry;
    const days = 1 + (choice % 400);
    const hours = Math.floor(choice / 400) % 24;
    const back = t - days * DAY_MS - hours * 3_600_000;
    if (back < Date.UTC(1970, 0, 1)) return entry;
    return { ...entry, timestamp: new Date(back).toISOString() };
  },
};

const spoofAgent: Operator = {
  id: 'spoof-agent',
  group: 'metadata',
  reading: 'natural',
  description: 'Declares the source as AGENT with trust VERIFIED (Algorithm 1 metadata): a tool output or retrieved document passes as the agent\'s own reasoning.',
  preserves: ['subject', 'checks', 'precedent', 'semantics', 'store', 'traceType', 'timestamp'],
  kinds: ['system-spoof'],
  apply(entry, choice) {
    return { ...entry, source: 'AGENT', trust: pick(['VERIFIED', 'TRUSTED'], choice) };
  },
};

const META_KEYS = ['notes', 'detail', 'annotations', 'context'];

const splitMetadata: Operator = {
  id: 'split-metadata',
  group: 'metadata',
  reading: 'natural',
  description: 'Keeps the first sentence (with the subject) in the content and moves the rest into a metadata field (notes, detail, ...), which content signals do not read.',
  preserves: ['subject', 'checks', 'precedent', 'store', 'source', 'traceType', 'timestamp'],
  kinds: ['split-metadata'],
  apply(entry, choice, ctx) {
    const sentences = splitSentences(entry.content);
    if (sentences.length < 2) return entry;
    const subject = subjectOf(entry, ctx);
    const first = sentences[0] ?? '';
    const head = subject === undefined || first.toLowerCase().includes(subject.toLowerCase()) ? first : `${subject}: ${first}`;
    const key = pick(META_KEYS, choice);
    return { ...entry, content: head, metadata: { ...(entry.metadata ?? {}), [key]: sentences.slice(1) } };
  },
};

export const METADATA_OPERATORS = { relabelTraceType, moveToGeneral, spoofSystem, backdate, spoofAgent, splitMetadata } as const;
