/**
 * More formats for the structural group: YAML, XML, CSV, markdown headings, code comments,
 * an e-mail with headers, structured log lines and a unified diff. Each keeps every sentence
 * of the entry verbatim (escaped for the format) and names the subject.
 */
import { ALL_TEXT, pick, withContent } from './operator.js';
import type { Operator } from './operator.js';
import { splitSentences, subjectOf } from './text-utils.js';

const xmlEscape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const sentencesOf = (text: string): string[] => {
  const s = splitSentences(text);
  return s.length > 0 ? s : [text];
};

const formatYaml: Operator = {
  id: 'format-yaml',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats as a YAML document: a subject key and the sentences as a list of quoted strings (or a block scalar).',
  preserves: ALL_TEXT,
  kinds: ['fmt-yaml'],
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx) ?? 'n/a';
    const key = pick(['subject', 'pipeline', 'target', 'ref'], choice);
    const block = Math.floor(choice / 4) % 2 === 1;
    const body = block
      ? ['notes: |', ...entry.content.split('\n').map((l) => `  ${l}`)]
      : ['notes:', ...sentencesOf(entry.content).map((s) => `  - "${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)];
    return withContent(entry, [`${key}: ${subject}`, ...body].join('\n'));
  },
};

const formatXml: Operator = {
  id: 'format-xml',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats as an XML element tree: a subject attribute and one <note> element per sentence (entities escaped).',
  preserves: ALL_TEXT,
  kinds: ['fmt-xml'],
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx) ?? 'n/a';
    const [root, child] = pick([['record', 'note'], ['entry', 'line'], ['memo', 'item']] as const, choice);
    const rows = sentencesOf(entry.content).map((s) => `  <${child}>${xmlEscape(s)}</${child}>`);
    return withContent(entry, [`<${root} subject="${xmlEscape(subject)}">`, ...rows, `</${root}>`].join('\n'));
  },
};

const formatCsv: Operator = {
  id: 'format-csv',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats as CSV rows (subject, field, text), quotes doubled.',
  preserves: ALL_TEXT,
  kinds: ['fmt-csv'],
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx) ?? 'n/a';
    const sep = choice % 2 === 0 ? ',' : ';';
    const rows = sentencesOf(entry.content).map((s, i) => [subject, `note${i + 1}`, `"${s.replace(/"/g, '""')}"`].join(sep));
    return withContent(entry, [['subject', 'field', 'text'].join(sep), ...rows].join('\n'));
  },
};

const formatMarkdownHeadings: Operator = {
  id: 'format-markdown-headings',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats as markdown under headings: a title with the subject, then one section per sentence.',
  preserves: ALL_TEXT,
  kinds: ['fmt-markdown-heading'],
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx) ?? 'Notes';
    const titles = ['Status', 'Checks', 'Background', 'Next step', 'History'];
    const parts = sentencesOf(entry.content).flatMap((s, i) => [`### ${pick(titles, i + choice)}`, s, '']);
    return withContent(entry, [`## ${subject}`, '', ...parts].join('\n').trimEnd());
  },
};

const COMMENT_STYLES: ReadonlyArray<readonly [string, string]> = [['// ', ''], ['# ', ''], ['-- ', ''], ['/* ', ' */']];

const formatCodeComment: Operator = {
  id: 'format-code-comment',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats as code: the sentences as comments (//, #, --, /* */) above a call naming the subject.',
  preserves: ALL_TEXT,
  kinds: ['fmt-code-comment'],
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx) ?? 'target';
    const [open, close] = pick(COMMENT_STYLES, choice);
    const lines = sentencesOf(entry.content).map((s) => `${open}${close ? s.replace(/\*\//g, '* /') : s}${close}`);
    return withContent(entry, [...lines, `process("${subject}")`].join('\n'));
  },
};

const formatEmail: Operator = {
  id: 'format-email',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats as an e-mail: From/To/Subject/Date headers naming the subject, the text as the body.',
  preserves: ALL_TEXT,
  kinds: ['fmt-email'],
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx) ?? 'status';
    const from = pick(['ops-lead@partner.example', 'integration@sender.example', 'noreply@status.example'], choice);
    const date = entry.timestamp.slice(0, 10);
    return withContent(entry, [`From: ${from}`, 'To: agent-memory@local', `Subject: RE: ${subject}`, `Date: ${date}`, '', entry.content].join('\n'));
  },
};

const formatLogLines: Operator = {
  id: 'format-log-lines',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats as structured log lines: timestamp, level, logger, subject and one quoted message per sentence (quotes, backslashes and line breaks inside it escaped with backslashes, as logfmt and Go slog write them; or one JSON object per line).',
  preserves: ALL_TEXT,
  kinds: ['fmt-log-line'],
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx) ?? '-';
    const level = pick(['INFO', 'NOTICE', 'DEBUG'], choice);
    const json = Math.floor(choice / 3) % 2 === 1;
    const lines = sentencesOf(entry.content).map((s) =>
      json ? JSON.stringify({ ts: entry.timestamp, level, subject, msg: s }) : `${entry.timestamp} ${level} memory.writer subject=${subject} msg=${JSON.stringify(s)}`,
    );
    return withContent(entry, lines.join('\n'));
  },
};

const formatDiff: Operator = {
  id: 'format-diff',
  group: 'structural',
  reading: 'natural',
  description: 'Re-formats as a unified diff that adds the sentences to a notes file named after the subject.',
  preserves: ALL_TEXT,
  kinds: ['fmt-diff'],
  apply(entry, choice, ctx) {
    const subject = subjectOf(entry, ctx) ?? 'notes';
    const file = `${pick(['notes', 'runbooks', 'pipelines'], choice)}/${subject}.md`;
    const added = sentencesOf(entry.content).map((s) => `+${s}`);
    return withContent(entry, [`--- a/${file}`, `+++ b/${file}`, `@@ -0,0 +1,${added.length} @@`, ...added].join('\n'));
  },
};

export const FORMAT_OPERATORS = { formatYaml, formatXml, formatCsv, formatMarkdownHeadings, formatCodeComment, formatEmail, formatLogLines, formatDiff } as const;
