/**
 * Memory-native record forms: the shapes in which real agent memory carries a
 * statement, found in the bundled real sets and not produced by the generators before.
 * - ReAct and FireAct (`corpora/benign/react-prompts`, `fireact-hotpotqa`): numbered
 *   Thought / Action / Observation steps, `Search[...]`, `Finish[...]`.
 * - ExpeL (`corpora/benign/expel-prompts`): insight lists edited by operations (`ADD 3:`,
 *   `EDIT 2:`, `AGREE 1:`) and `think[...]` actions with `Observation: OK.`.
 * - Reflexion (`reflexion-*`): first-person trial reflections with a plan for the next trial.
 * - Generative Agents (`generative-agents`): a memory stream of short timestamped
 *   observations with an importance score.
 * - Voyager (`voyager-skills`): a skill library of JavaScript functions whose comment says
 *   what the skill does.
 * - SWE-agent (`swe-agent-thoughts`): a discussion paragraph followed by a fenced command.
 * - And the forms an agent's memory picks up from its tools: a tool-call result message
 *   (OpenAI chat `role: tool`), a git commit, a chat thread, an issue ticket, a changelog,
 *   stand-up notes.
 * Each keeps every sentence of the entry verbatim (escaped as the form needs) and the subject;
 * all read `natural`. Frames and names are written for this project.
 */
import { ALL_TEXT, pick, withContent } from './operator.js';
import type { Operator } from './operator.js';
import { splitSentences, subjectOf } from './text-utils.js';
import type { EvasionKind } from '../claims/evasion-kinds.js';
import type { MemoryEntry } from '../../src/domain/index.js';
import type { OperatorContext } from './operator.js';

const sentencesOf = (text: string): string[] => {
  const s = splitSentences(text);
  return s.length > 0 ? s : [text];
};
const subj = (entry: MemoryEntry, ctx?: OperatorContext): string => subjectOf(entry, ctx) ?? 'the record';

/** A small deterministic hash of a text (FNV-1a), as hex: stands in for a commit id or a call id. */
function shortHash(text: string, length: number): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  let out = '';
  for (let i = 0; out.length < length; i++) out += (Math.imul(h ^ (i * 0x9e3779b1), 0x85ebca6b) >>> 0).toString(16).padStart(8, '0');
  return out.slice(0, length);
}
/** Minutes added to an ISO timestamp, as `YYYY-MM-DD HH:MM`. */
function clock(iso: string, addMinutes: number): string {
  const t = Date.parse(iso);
  const d = new Date((Number.isFinite(t) ? t : Date.UTC(2026, 2, 14, 9, 30)) + addMinutes * 60_000);
  return d.toISOString().slice(0, 16).replace('T', ' ');
}

function record(id: string, kind: EvasionKind, description: string, render: (entry: MemoryEntry, choice: number, subject: string, sentences: string[]) => string): Operator {
  return {
    id,
    group: 'structural',
    description,
    preserves: ALL_TEXT,
    kinds: [kind],
    reading: 'natural',
    apply(entry, choice, ctx) {
      return withContent(entry, render(entry, choice, subj(entry, ctx), sentencesOf(entry.content)));
    },
  };
}

const ACTIONS = ['Search', 'Lookup', 'Check', 'Retrieve'];
const reactStep = record('record-react-step', 'record-react-step', 'Lays the entry out as ReAct steps: numbered Thought lines carrying the sentences, an Action naming the subject, its Observation, and a Finish (ReAct, FireAct trajectories).', (_e, c, s, ss) => {
  const n = 1 + (c % 4);
  const action = pick(ACTIONS, c);
  return [...ss.map((x, i) => `Thought ${n + i}: ${x}`), `Action ${n + ss.length}: ${action}[${s}]`, `Observation ${n + ss.length}: record found for ${s}.`, `Action ${n + ss.length + 1}: Finish[proceed with ${s}]`].join('\n');
});

const TOOLS = ['lookup_history', 'get_pipeline_status', 'fetch_record', 'query_audit_log'];
const toolResult = record('record-tool-result', 'record-tool-result', 'Wraps the entry as a tool-call result message (OpenAI chat `role: "tool"` with a call id and the tool name), the text as its JSON-escaped `content`, or as a `function_results` block.', (e, c, s) => {
  const name = pick(TOOLS, c);
  const call = `call_${shortHash(e.content + name, 12)}`;
  if (Math.floor(c / TOOLS.length) % 2 === 0) return JSON.stringify({ role: 'tool', tool_call_id: call, name, content: e.content });
  return `<function_results>\n<result tool="${name}" subject="${s}">\n${e.content}\n</result>\n</function_results>`;
});

const AUTHORS = ['Dana Okafor <dana@ops.example>', 'Lee Varga <lee@data.example>', 'build-bot <ci@infra.example>'];
const commit = record('record-commit', 'record-commit', 'Writes the entry as a git commit: `git log` form (commit id, Author, Date, indented message) or a one-line conventional-commit subject naming the subject with the sentences as the body.', (e, c, s, ss) => {
  const hash = shortHash(e.content, 40);
  if (c % 2 === 0) return [`commit ${hash}`, `Author: ${pick(AUTHORS, c >> 1)}`, `Date:   ${clock(e.timestamp, 0)} +0000`, '', ...ss.map((x) => `    ${x}`)].join('\n');
  return [`${hash.slice(0, 7)} chore(${s}): record intake decision`, '', ...ss].join('\n');
});

const PEOPLE = ['dana', 'lee', 'priya', 'marco', 'sam'];
const thread = record('record-thread', 'record-thread', 'Writes the entry as a chat thread: one timestamped message per sentence from alternating people, then a closing reaction.', (e, c, _s, ss) => {
  const lines = ss.map((x, i) => `[${clock(e.timestamp, i * (1 + (c % 3))).slice(11)}] @${pick(PEOPLE, c + i)}: ${x}`);
  return [...lines, `[${clock(e.timestamp, ss.length * 2).slice(11)}] @${pick(PEOPLE, c + ss.length)}: +1, thanks`].join('\n');
});

const IMPORTANCE = ['low', 'moderate', 'high', 'notable'];
const memoryStream = record('record-memory-stream', 'record-memory-stream', 'Writes the entry as a memory stream (Generative Agents): one observation per sentence, each followed by its time and an importance rating in words (numbers next to the text would read as counts).', (e, c, _s, ss) =>
  ss.map((x, i) => `${x} {observed ${clock(e.timestamp, i * 3).slice(11)}; importance ${pick(IMPORTANCE, c + i)}}`).join('\n'));

const reflexion = record('record-reflexion', 'record-reflexion', 'Writes the entry as a Reflexion trial reflection: "Reflection after trial N:", the sentences, and a plan for the next trial.', (_e, c, s, ss) =>
  [`Reflection after trial ${1 + (c % 5)}:`, ...ss, `Plan for the next trial: keep the same approach for ${s}.`].join('\n'));

const OPS = ['ADD', 'EDIT', 'AGREE'];
const insights = record('record-insights', 'record-insights', 'Writes the entry as an ExpeL insight list: one rule per sentence behind an edit operation (ADD n:, EDIT n:, AGREE n:), or as numbered insights.', (_e, c, _s, ss) => {
  if (c % 2 === 0) return ss.map((x, i) => `${pick(OPS, (c >> 1) + i)} ${i + 1}: ${x}`).join('\n');
  return ['Insights from past runs:', ...ss.map((x, i) => `${i + 1}. ${x}`)].join('\n');
});

const camelName = (s: string): string => s.toLowerCase().split(/[^a-z0-9]+/).filter((x) => x !== '').map((x, i) => (i === 0 ? x : x.charAt(0).toUpperCase() + x.slice(1))).join('');
const skill = record('record-skill', 'record-skill', 'Writes the entry as a Voyager skill: an async JavaScript function named after the subject whose comment lines carry the sentences, and one call.', (_e, c, s, ss) => {
  const fn = `${pick(['process', 'importFrom', 'handle', 'load'], c)}${camelName(s).replace(/^./, (x) => x.toUpperCase()) || 'Record'}`;
  return [`async function ${fn}(bot) {`, ...ss.map((x) => `    // ${x}`), `    await bot.run("${s}");`, '}'].join('\n');
});

const COMMANDS = ['submit', 'python run_import.py --source {s}', 'open notes/{s}.md', 'pytest -q tests/{s}'];
const sweTurn = record('record-swe-turn', 'record-swe-turn', 'Writes the entry as a SWE-agent turn: a DISCUSSION paragraph with the sentences, then a fenced command.', (_e, c, s, ss) =>
  ['DISCUSSION', ss.join(' '), '', '```', pick(COMMANDS, c).replace('{s}', s), '```'].join('\n'));

const ticket = record('record-ticket', 'record-ticket', 'Writes the entry as an issue-tracker ticket: key, status, summary naming the subject, the sentences as the description, a resolution.', (e, c, s, ss) =>
  [`${pick(['OPS', 'DATA', 'INT'], c)}-${100 + (Number.parseInt(shortHash(e.content, 4), 16) % 900)} · Status: ${pick(['Resolved', 'Closed', 'Done'], c)}`, `Summary: intake decision for ${s}`, 'Description:', ...ss.map((x) => `  ${x}`), 'Resolution: Done'].join('\n'));

const changelog = record('record-changelog', 'record-changelog', 'Writes the entry as a changelog section: a dated heading and one bullet per sentence under "Changed".', (e, _c, _s, ss) =>
  [`## [${e.timestamp.slice(0, 10)}]`, '### Changed', ...ss.map((x) => `- ${x}`)].join('\n'));

const standup = record('record-standup', 'record-standup', 'Writes the entry as stand-up notes: a dated title, "Yesterday" with the sentences, "Today" naming the subject.', (e, c, s, ss) =>
  [`Stand-up ${e.timestamp.slice(0, 10)} (${pick(PEOPLE, c)})`, 'Yesterday:', ...ss.map((x) => `- ${x}`), 'Today:', `- carry on with ${s} as before`].join('\n'));

export const RECORD_OPERATORS = { reactStep, toolResult, commit, thread, memoryStream, reflexion, insights, skill, sweTurn, ticket, changelog, standup } as const;
