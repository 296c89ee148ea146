/**
 * Structural operators: dilution in benign narrative, splitting one claim across two
 * entries, and re-formatting as JSON, a bullet list, `key: value` lines or a markdown table.
 */
import type { MemoryEntry } from '../../src/domain/index.js';
import { BENIGN_SNIPPETS } from './benign-snippets.js';
import { recoverClaim } from './claim-check.js';
import { ALL_TEXT, pick, withContent } from './operator.js';
import type { Operator } from './operator.js';
import { capitalise, claimSpans, domainOf, insideSpan, splitSentences, subjectNoun, subjectOf, terminate } from './text-utils.js';

const dilution: Operator = {
  id: 'dilution',
  group: 'structural',
  reading: 'natural',
  description: 'Buries the claim between benign sentences of the same domain (fixed snippet pool, chosen by `choice`).',
  preserves: ALL_TEXT,
  apply(entry, choice, ctx) {
    const pool = BENIGN_SNIPPETS[domainOf(entry, ctx)];
    const before = choice % 3; // 0..2 sentences before
    const after = 1 + (Math.floor(choice / 3) % 3); // 1..3 after
    const start = Math.floor(choice / 9);
    const take = (k: number, from: number): string[] => Array.from({ length: k }, (_, i) => pick(pool, from + i));
    const content = entry.content.trim();
    // A multi-line entry (a `key: value` record) keeps its lines, and a filler sentence never runs on
    // from an unterminated last line ("spec_comparison: inherited The shopper asked whether…" reads as one clause): both go on a line of their own.
    const own = /\n/.test(content) || !/[.!?]["'”)\]]*$/.test(content);
    const join = choice % 2 === 0 && !own ? ' ' : '\n';
    return withContent(entry, [...take(before, start), content, ...take(after, start + before)].join(join));
  },
};

const PART_RE = /-part[12]$/;

const splitEntries: Operator = {
  id: 'split-entries',
  group: 'structural',
  reading: 'natural',
  description: 'Splits one entry into two (ids `<id>-part1`, `<id>-part2`); each part names the subject, the checks and count are divided between them.',
  preserves: ['subject', 'checks', 'precedent', 'store', 'source', 'traceType', 'timestamp'],
  apply(entry, choice, ctx): MemoryEntry | MemoryEntry[] {
    if (PART_RE.test(entry.id)) return entry; // never split a part again
    const subject = subjectOf(entry, ctx);
    const sentences = splitSentences(entry.content).map(terminate);
    let a: string;
    let b: string;
    if (sentences.length >= 2) {
      const cut = 1 + (choice % (sentences.length - 1));
      a = sentences.slice(0, cut).join(' ');
      b = sentences.slice(cut).join(' ');
    } else {
      // One sentence: cut at a separator (| ; , —) or else a space, never inside a claim span.
      const text = entry.content;
      const spans = claimSpans(text, domainOf(entry, ctx));
      const at = (re: RegExp): number[] => [...text.matchAll(re)].map((m) => m.index).filter((i) => i > 8 && i < text.length - 8 && !insideSpan(i, spans));
      const seps = at(/ ?[|;,—] /g);
      const cuts = seps.length > 0 ? seps : at(/ /g);
      if (cuts.length === 0) return entry;
      // Encoded text hides phrases from claimSpans: take the first cut (from `choice` on) whose
      // two halves still carry every check and count the whole sentence carries.
      const whole = recoverClaim(domainOf(entry, ctx), text);
      const halves = (cut: number): [string, string] => [text.slice(0, cut).trim(), text.slice(cut).replace(/^ ?[|;,—]? /, '').trim()];
      const keepsAll = (cut: number): boolean => {
        const [x, y] = halves(cut).map((h) => recoverClaim(domainOf(entry, ctx), h));
        // A cut between a key and its value may set a word such as "none" before a check: neither half may negate what the whole does not.
        const negates = (r: typeof whole | undefined): boolean => !!r && (r.negatedChecks.some((c) => !whole.negatedChecks.includes(c)) || (r.negatedPrecedent && !whole.negatedPrecedent));
        return whole.checks.every((c) => x?.checks.includes(c) || y?.checks.includes(c)) && whole.precedents.every((n) => x?.precedents.includes(n) || y?.precedents.includes(n)) && !negates(x) && !negates(y);
      };
      const order = cuts.map((_, i) => cuts[(choice + i) % cuts.length] ?? 0);
      const cut = order.find(keepsAll);
      if (cut === undefined) return entry;
      [a, b] = halves(cut);
    }
    const noun = subjectNoun(domainOf(entry, ctx), choice);
    const tag = (t: string): string =>
      subject === undefined || t.toLowerCase().includes(subject.toLowerCase()) ? t : `${capitalise(noun)} ${subject}: ${t}`;
    return [
      { ...entry, id: `${entry.id}-part1`, content: tag(a) },
      { ...entry, id: `${entry.id}-part2`, content: tag(b) },
    ];
  },
};

const JSON_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['subject', 'note'],
  ['id', 'summary'],
  ['ref', 'text'],
  ['target', 'details'],
];

const formatJson: Operator = {
  id: 'format-json',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats the text as a JSON object (subject field plus the text or its sentences as an array).',
  preserves: ALL_TEXT,
  apply(entry, choice, ctx) {
    const [k1, k2] = pick(JSON_KEYS, choice);
    const subject = subjectOf(entry, ctx) ?? '';
    const sentences = splitSentences(entry.content);
    const asList = Math.floor(choice / JSON_KEYS.length) % 2 === 1;
    const obj = { [k1]: subject, [k2]: asList ? sentences : entry.content };
    return withContent(entry, JSON.stringify(obj, null, Math.floor(choice / 8) % 2 === 1 ? 2 : undefined));
  },
};

const BULLETS = ['- ', '* ', '• ', '1. '];

const formatBullets: Operator = {
  id: 'format-bullets',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats the sentences as a bullet list, optionally under a heading line.',
  preserves: ALL_TEXT,
  apply(entry, choice) {
    const bullet = pick(BULLETS, choice);
    const lines = splitSentences(entry.content).map((s, i) => (bullet === '1. ' ? `${i + 1}. ${s}` : `${bullet}${s}`));
    const heading = Math.floor(choice / BULLETS.length) % 2 === 1 ? ['Notes:'] : [];
    return withContent(entry, [...heading, ...lines].join('\n'));
  },
};

const KV_KEYS = ['status', 'detail', 'history', 'note', 'outcome', 'remark'];

const formatKeyValue: Operator = {
  id: 'format-key-value',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats as `key: value` lines (or `key = value`), one sentence per line after a subject line.',
  preserves: ALL_TEXT,
  apply(entry, choice, ctx) {
    const sep = choice % 2 === 0 ? ': ' : ' = ';
    const subject = subjectOf(entry, ctx);
    const lines = splitSentences(entry.content).map((s, i) => `${pick(KV_KEYS, i + Math.floor(choice / 2))}${sep}${s}`);
    return withContent(entry, [...(subject ? [`subject${sep}${subject}`] : []), ...lines].join('\n'));
  },
};

const formatMarkdownTable: Operator = {
  id: 'format-markdown-table',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats as a two-column markdown table (field | value), one sentence per row.',
  preserves: ALL_TEXT,
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx);
    const [h1, h2] = pick([['field', 'value'], ['item', 'entry'], ['key', 'text']] as const, choice);
    const cell = (s: string): string => s.replace(/\|/g, '\\|');
    const rows = splitSentences(entry.content).map((s, i) => `| ${pick(KV_KEYS, i + choice)} | ${cell(s)} |`);
    const head = [`| ${h1} | ${h2} |`, '| --- | --- |', ...(subject ? [`| subject | ${subject} |`] : [])];
    return withContent(entry, [...head, ...rows].join('\n'));
  },
};

export const STRUCTURAL_OPERATORS = { dilution, splitEntries, formatJson, formatBullets, formatKeyValue, formatMarkdownTable } as const;
