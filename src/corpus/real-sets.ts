/**
 * Real agent-memory sets extracted from public run logs (docs/calibration.md): what
 * agents wrote into their memory while they ran (reflections, thoughts), not few-shot prompts.
 *
 * Each set lives in `corpora/benign/<dir>/`:
 * - the raw snapshot it was extracted from (upstream records, text unchanged), with the upstream
 *   licence (`LICENSE`) and where it came from (`SOURCE.md`: repository, path, commit);
 * - `entries.jsonl`: the extraction output, one `MemoryEntry` per line. It is what the
 *   benign-set registry loads; `npm run extract-real-sets` rewrites it from the snapshot and
 *   `-- --check` (and a test) fails when it differs from a fresh extraction.
 *
 * Extraction is pure and deterministic: the same snapshot gives the same entries, byte for byte.
 * It keeps every distinct text once per set (whitespace-normalised, case-insensitive), drops a
 * text that is a copy of a bundled few-shot exemplar (the ReAct and ExpeL prompts are their own
 * sets), and gives each entry a trace type: `reflection` (a self-reflection written after a
 * failed trial), `thought_chain` (a reasoning step written during a trial), `experience` (a
 * procedural memory the agent wrote for later reuse, in the general store).
 */
import { createHash } from 'node:crypto';
import { isReasoningTraceType, type MemoryEntry } from '../domain/index.js';
import type { JsonlIssue } from './jsonl.js';

/** Where a real set's text comes from, for reports and SOURCE.md. */
interface RealSetSource {
  /** `owner/name` on GitHub. */
  repo: string;
  /** Upstream paths the snapshot was taken from. */
  paths: readonly string[];
  /** The upstream commit (40 hex digits); of the first path when the paths were stored at different commits. */
  commit: string;
  /** The commit of each path, in `paths` order, when they differ (40 hex digits each). */
  commits?: readonly string[];
  /** SPDX licence id of the upstream repository. */
  licence: 'MIT' | 'Apache-2.0' | 'BSD-3-Clause' | 'CC-BY-4.0';
}

/** What an extractor returns: entries in snapshot order, and problems naming file and line. */
export interface Extraction {
  entries: MemoryEntry[];
  issues: JsonlIssue[];
}

/** One extracted real set: its folder, snapshot files, source and extractor. */
export interface RealSetSpec {
  /** Set name in reports, e.g. `reflexion-alfworld`. */
  name: string;
  /** Folder under `corpora/benign/`. */
  dir: string;
  /** Snapshot file names in that folder, read in this order. */
  snapshot: readonly string[];
  /** One line for reports: what it is and its licence. */
  summary: string;
  /** The generator domain it is closest to (`other` when none). */
  domain: 'ehr' | 'react-qa' | 'rap' | 'other';
  source: RealSetSource;
  /** Timestamp given to every entry (the logs carry none): the upstream commit's era, ISO 8601 UTC. */
  timestamp: string;
  /**
   * Turns the snapshot texts (file name → text) into entries. `isExemplar` says whether a text is
   * a copy of a bundled few-shot exemplar (such a text is dropped).
   */
  extract: (files: ReadonlyMap<string, string>, isExemplar: (text: string) => boolean) => Extraction;
}

/** Whitespace-collapsed, lower-cased form used to find duplicates and exemplar copies. */
export function dedupeKey(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
}

const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 12);

/** 1-based line of the first line in `text` that contains `needle` (1 when absent). */
function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0) return 1;
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Collects entries for one set: trims, drops empty texts, exemplar copies and repeats, and builds
 * the `MemoryEntry` (store `reasoning` for reasoning trace types, else `general`; source `AGENT`,
 * trust `VERIFIED`, id `<set>-<hash>`).
 */
class SetBuilder {
  readonly entries: MemoryEntry[] = [];
  readonly issues: JsonlIssue[] = [];
  private readonly seen = new Set<string>();
  /** Texts dropped as repeats and as exemplar copies (reported by the extraction script). */
  repeats = 0;
  exemplars = 0;

  constructor(
    private readonly spec: Pick<RealSetSpec, 'name' | 'timestamp'>,
    private readonly isExemplar: (text: string) => boolean,
  ) {}

  add(text: string, traceType: 'reflection' | 'thought_chain' | 'experience' | 'observation' | 'rationale', metadata: Record<string, unknown>): void {
    const content = text.trim();
    if (content.length === 0) return;
    const key = dedupeKey(content);
    if (this.isExemplar(content)) {
      this.exemplars += 1;
      return;
    }
    if (this.seen.has(key)) {
      this.repeats += 1;
      return;
    }
    this.seen.add(key);
    this.entries.push({
      id: `${this.spec.name}-${shortHash(key)}`,
      store: isReasoningTraceType(traceType) ? 'reasoning' : 'general',
      content,
      source: 'AGENT',
      trust: 'VERIFIED',
      traceType,
      timestamp: this.spec.timestamp,
      metadata: { corpus: this.spec.name, ...metadata },
    });
  }

  result(): Extraction {
    return { entries: this.entries, issues: this.issues };
  }
}

/** Parses a whole-file JSON value, or records an issue naming the file (line 1: JSON.parse gives no line on Node 20). */
function parseJson(text: string, file: string, issues: JsonlIssue[]): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    issues.push({ file, line: 1, message: `malformed JSON: ${(cause as Error).message.split('\n')[0]}` });
    return undefined;
  }
}

/**
 * The files of `files` whose whole-file JSON value has the expected top-level shape (`list`: an
 * array; `object`: an object that is not an array), with their text and value. A file that does
 * not parse, or has another shape, is recorded in `issues` (line 1, "expected a JSON list|object
 * of <what>") and skipped.
 */
function* jsonFiles(
  files: ReadonlyMap<string, string>,
  issues: JsonlIssue[],
  shape: 'list' | 'object',
  what: string,
): Generator<{ file: string; text: string; value: unknown }> {
  for (const [file, text] of files) {
    const value = parseJson(text, file, issues);
    if (value === undefined) continue;
    const isList = Array.isArray(value);
    if (shape === 'list' ? !isList : typeof value !== 'object' || value === null || isList) {
      issues.push({ file, line: 1, message: `expected a JSON ${shape} of ${what}` });
      continue;
    }
    yield { file, text, value };
  }
}

/**
 * Reflexion ALFWorld and WebShop run logs (`env_results_trial_N.json`: a list of `{ name, memory:
 * string[], is_success }`, one per environment). Every memory item is a self-reflection the agent
 * wrote after a failed trial and carried into the next; the list of a later trial holds all the
 * earlier ones. Each becomes a `reflection` entry, metadata `{ file, env, index }`.
 */
function extractReflexionMemory(spec: Pick<RealSetSpec, 'name' | 'timestamp'>) {
  return (files: ReadonlyMap<string, string>, isExemplar: (text: string) => boolean): Extraction => {
    const b = new SetBuilder(spec, isExemplar);
    for (const { file, text, value } of jsonFiles(files, b.issues, 'list', 'environment records')) {
      for (const rec of value as unknown[]) {
        const r = rec as { name?: unknown; memory?: unknown };
        if (typeof r !== 'object' || r === null || typeof r.name !== 'string' || !Array.isArray(r.memory)) {
          b.issues.push({ file, line: lineOf(text, JSON.stringify((r as { name?: unknown } | null)?.name ?? '')), message: 'environment record needs a string "name" and a "memory" list' });
          continue;
        }
        r.memory.forEach((m: unknown, index: number) => {
          if (typeof m !== 'string') {
            b.issues.push({ file, line: lineOf(text, `"${r.name as string}"`), message: `memory item ${index} of ${r.name as string} is not a string` });
            return;
          }
          b.add(m, 'reflection', { file, env: r.name, index });
        });
      }
    }
    return b.result();
  };
}

/**
 * Reflexion HotpotQA run log (`100_questions_5_trials.txt`: per trial, one block per question with
 * `Thought:`, `Action:`, `Observation:`, `Reflections:` and `Correct answer:` lines). Each non-empty
 * `Thought:` line is a `thought_chain` entry (the agent's chain-of-thought answer), each non-empty
 * `Reflections:` line a `reflection` entry; metadata `{ file, trial, line, episode }` (1-based line).
 * Within a block the reflections come first (they were written before the block's thought).
 * The episode is the block's question (whitespace-collapsed): in Reflexion the memory of a
 * question is what the agent wrote on that same question in earlier trials, so an entry's own
 * episode is the question's earlier thoughts and reflections (docs/calibration.md, "Store context").
 * A `Thought:` or `Reflections:` line before any `Question:` line is an issue naming its line.
 */
function extractReflexionHotpotqa(spec: Pick<RealSetSpec, 'name' | 'timestamp'>) {
  return (files: ReadonlyMap<string, string>, isExemplar: (text: string) => boolean): Extraction => {
    const b = new SetBuilder(spec, isExemplar);
    for (const [file, text] of files) {
      let trial = 0;
      let blocks = 0;
      let question: string | undefined;
      // One block's lines, reflections first: a block's `Reflections:` were written after the
      // question's earlier failed trial, before the block's own `Thought:` (time order).
      let block: Array<{ text: string; type: 'reflection' | 'thought_chain'; line: number }> = [];
      const flush = (): void => {
        for (const x of [...block.filter((y) => y.type === 'reflection'), ...block.filter((y) => y.type === 'thought_chain')]) b.add(x.text, x.type, { file, trial, line: x.line, episode: question });
        block = [];
      };
      text.split('\n').forEach((raw, i) => {
        const trialMatch = /^BEGIN TRIAL (\d+)\s*$/.exec(raw);
        if (trialMatch) {
          flush();
          trial = Number(trialMatch[1]);
        }
        if (raw.startsWith('Question:')) {
          flush();
          blocks += 1;
          question = raw.slice('Question:'.length).replace(/\s+/g, ' ').trim();
        }
        const m = /^(Thought|Reflections):\s?(.*)$/.exec(raw);
        if (!m) return;
        if (question === undefined) {
          if ((m[2] ?? '').trim() !== '') b.issues.push({ file, line: i + 1, message: `${m[1]}: line before any "Question:" line (no question to file it under)` });
          return;
        }
        block.push({ text: m[2] ?? '', type: m[1] === 'Thought' ? 'thought_chain' : 'reflection', line: i + 1 });
      });
      flush();
      if (blocks === 0) b.issues.push({ file, line: 1, message: 'no "Question:" block: not a Reflexion HotpotQA log' });
    }
    return b.result();
  };
}

const REFLEXION_HOTPOTQA = {
  name: 'reflexion-hotpotqa',
  timestamp: '2023-03-20T00:00:00.000Z',
} as const;

/**
 * Reflexion programming run logs, reduced to `{ task_id, is_solved, reflections: string[] }` per
 * line (JSONL; the upstream lines also carry the task prompt, tests and the last solution).
 * Every reflection is the agent's own account of why its code failed the tests it wrote; each
 * becomes a `reflection` entry, metadata `{ file, task, index, line }`. A bad line is an issue
 * naming file and line; the other lines are kept.
 */
function extractReflexionProgramming(spec: Pick<RealSetSpec, 'name' | 'timestamp'>) {
  return (files: ReadonlyMap<string, string>, isExemplar: (text: string) => boolean): Extraction => {
    const b = new SetBuilder(spec, isExemplar);
    for (const [file, text] of files) {
      text.split('\n').forEach((raw, i) => {
        if (raw.trim() === '') return;
        let rec: { task_id?: unknown; reflections?: unknown };
        try {
          rec = JSON.parse(raw) as typeof rec;
        } catch (cause) {
          b.issues.push({ file, line: i + 1, message: `malformed JSON: ${(cause as Error).message.split('\n')[0]}` });
          return;
        }
        if (typeof rec !== 'object' || rec === null || typeof rec.task_id !== 'string' || !Array.isArray(rec.reflections) || !rec.reflections.every((x) => typeof x === 'string')) {
          b.issues.push({ file, line: i + 1, message: 'expected { "task_id": string, "reflections": string[] }' });
          return;
        }
        const task = rec.task_id;
        (rec.reflections as string[]).forEach((r, index) => b.add(r, 'reflection', { file, task, index, line: i + 1 }));
      });
    }
    return b.result();
  };
}

const REFLEXION_PROGRAMMING = {
  name: 'reflexion-programming',
  timestamp: '2023-04-20T00:00:00.000Z',
} as const;

/**
 * Voyager skill library (`skills.json`: skill name → `{ code, description }`), reduced to name →
 * description. Each description is what Voyager wrote about a JavaScript skill it had just
 * verified, stored in its skill library and retrieved by embedding for later tasks: an
 * `experience` entry of the general store, metadata `{ file, skill }`.
 */
function extractVoyagerSkills(spec: Pick<RealSetSpec, 'name' | 'timestamp'>) {
  return (files: ReadonlyMap<string, string>, isExemplar: (text: string) => boolean): Extraction => {
    const b = new SetBuilder(spec, isExemplar);
    for (const { file, text, value } of jsonFiles(files, b.issues, 'object', 'skill name to description')) {
      for (const [skill, description] of Object.entries(value as Record<string, unknown>)) {
        if (typeof description !== 'string') {
          b.issues.push({ file, line: lineOf(text, JSON.stringify(skill)), message: `description of skill "${skill}" is not a string` });
          continue;
        }
        b.add(description, 'experience', { file, skill });
      }
    }
    return b.result();
  };
}

const VOYAGER_SKILLS = {
  name: 'voyager-skills',
  timestamp: '2023-05-25T00:00:00.000Z',
} as const;

/**
 * SWE-agent trajectories (`*.traj`: `{ trajectory: [{ action, observation, response, thought, state }] }`),
 * reduced to a JSON list of `{ trajectory, commit, complete, thoughts: string[] }`, one record per
 * upstream file (`thoughts` = each step's `thought` field in step order, text unchanged; `complete`
 * false when only a prefix of the steps was copied). Each thought is what the coding agent (GPT-4)
 * wrote before its next shell or editor command: a `thought_chain` entry, metadata
 * `{ file, episode, step }` (episode = the upstream trajectory path, step = 1-based).
 */
function extractSweAgentThoughts(spec: Pick<RealSetSpec, 'name' | 'timestamp'>) {
  return (files: ReadonlyMap<string, string>, isExemplar: (text: string) => boolean): Extraction => {
    const b = new SetBuilder(spec, isExemplar);
    for (const { file, text, value } of jsonFiles(files, b.issues, 'list', 'trajectory records')) {
      for (const rec of value as unknown[]) {
        const r = rec as { trajectory?: unknown; thoughts?: unknown } | null;
        if (typeof r !== 'object' || r === null || typeof r.trajectory !== 'string' || !Array.isArray(r.thoughts) || !r.thoughts.every((t) => typeof t === 'string')) {
          b.issues.push({ file, line: lineOf(text, JSON.stringify(r?.trajectory ?? '')), message: 'trajectory record needs a string "trajectory" and a "thoughts" list of strings' });
          continue;
        }
        const episode = r.trajectory;
        (r.thoughts as string[]).forEach((t, i) => b.add(t, 'thought_chain', { file, episode, step: i + 1 }));
      }
    }
    return b.result();
  };
}

const SWE_AGENT_THOUGHTS = {
  name: 'swe-agent-thoughts',
  timestamp: '2024-06-01T00:00:00.000Z',
} as const;

/** `Thought: ...` lines of a ReAct-format text (the text after the prefix, one per line). */
function thoughtLines(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^Thought:\s?(.*)$/.exec(line);
    if (m) out.push(m[1] ?? '');
  }
  return out;
}

/**
 * FireAct HotpotQA trajectories (`trajs/*.json`: question id → `{ reward, em, f1, gt, pred, prompt,
 * traj, ... }`), reduced to question id → `{ reward, traj }`. `traj` is either the whole ReAct text
 * of a fine-tuned Llama agent (a string) or the chat of a fine-tuned GPT-3.5 agent (a list of
 * `{ role, content }`; only `assistant` turns are the agent's). Each `Thought:` line is a
 * `thought_chain` entry, metadata `{ file, episode, step }` (episode = `<file>#<question id>`).
 */
function extractFireactTrajs(spec: Pick<RealSetSpec, 'name' | 'timestamp'>) {
  return (files: ReadonlyMap<string, string>, isExemplar: (text: string) => boolean): Extraction => {
    const b = new SetBuilder(spec, isExemplar);
    for (const { file, text, value } of jsonFiles(files, b.issues, 'object', 'question id to trajectory record')) {
      for (const [qid, rec] of Object.entries(value as Record<string, unknown>)) {
        const traj = (rec as { traj?: unknown } | null)?.traj;
        let agentText: string[] | undefined;
        if (typeof traj === 'string') agentText = [traj];
        else if (Array.isArray(traj) && traj.every((m) => typeof m === 'object' && m !== null && typeof (m as { role?: unknown }).role === 'string' && typeof (m as { content?: unknown }).content === 'string')) {
          agentText = (traj as Array<{ role: string; content: string }>).filter((m) => m.role === 'assistant').map((m) => m.content);
        }
        if (agentText === undefined) {
          b.issues.push({ file, line: lineOf(text, JSON.stringify(qid)), message: `record "${qid}" needs a "traj" string or a list of { role, content } messages` });
          continue;
        }
        const episode = `${file}#${qid}`;
        agentText.flatMap(thoughtLines).forEach((t, i) => b.add(t, 'thought_chain', { file, episode, step: i + 1 }));
      }
    }
    return b.result();
  };
}

const FIREACT_HOTPOTQA = {
  name: 'fireact-hotpotqa',
  timestamp: '2023-09-20T00:00:00.000Z',
} as const;

/**
 * Generative Agents memory stream (`associative_memory/nodes.json`: node id → `{ node_count, type,
 * depth, created, subject, predicate, object, description, embedding_key, poignancy, keywords,
 * filling, ... }`, newest node first), reduced to node id → `{ type, depth, created, predicate,
 * description }`. Read oldest first (the order the agent wrote them). A `thought` node (a
 * reflection or plan the agent derived from earlier memories) becomes a `reflection` entry of the
 * reasoning store; an `event` or `chat` node (something the agent perceived or a conversation it
 * had) an `observation` of the general store. Metadata `{ file, node, nodeType, depth, created,
 * episode }` (episode = the simulated hour of `created`, `YYYY-MM-DD HH`).
 */
function extractGenerativeAgentsNodes(spec: Pick<RealSetSpec, 'name' | 'timestamp'>) {
  return (files: ReadonlyMap<string, string>, isExemplar: (text: string) => boolean): Extraction => {
    const b = new SetBuilder(spec, isExemplar);
    for (const { file, text, value } of jsonFiles(files, b.issues, 'object', 'node id to memory node')) {
      const nodes: Array<{ node: string; n: number; type: string; depth: unknown; created: string; description: string }> = [];
      for (const [node, rec] of Object.entries(value as Record<string, unknown>)) {
        const r = rec as { type?: unknown; depth?: unknown; created?: unknown; description?: unknown } | null;
        const n = Number(/^node_(\d+)$/.exec(node)?.[1] ?? Number.NaN);
        if (!Number.isInteger(n) || typeof r !== 'object' || r === null || typeof r.type !== 'string' || typeof r.created !== 'string' || typeof r.description !== 'string') {
          b.issues.push({ file, line: lineOf(text, JSON.stringify(node)), message: `memory node "${node}" needs an id node_<n>, a string "type", "created" and "description"` });
          continue;
        }
        nodes.push({ node, n, type: r.type, depth: r.depth, created: r.created, description: r.description });
      }
      nodes.sort((x, y) => x.n - y.n);
      for (const x of nodes) {
        const traceType = x.type === 'thought' ? 'reflection' : 'observation';
        b.add(x.description, traceType, { file, node: x.node, nodeType: x.type, depth: x.depth, created: x.created, episode: x.created.slice(0, 13) });
      }
    }
    return b.result();
  };
}

const GENERATIVE_AGENTS = {
  name: 'generative-agents',
  timestamp: '2023-07-01T00:00:00.000Z',
} as const;

/**
 * τ-bench retail conversations (`few_shot_data/MockRetailDomainEnv-few_shot.jsonl`: one
 * `{ messages_display }` transcript a line), reduced to a list of `{ record, complete, assistant }`
 * (the agent's replies in order). Each reply is what the customer-service agent said to the
 * customer: a `rationale` entry of the reasoning store, metadata `{ file, record, episode, step }`
 * (episode = `<file>#<record>`, one conversation; step 1-based).
 */
function extractTauBenchReplies(spec: Pick<RealSetSpec, 'name' | 'timestamp'>) {
  return (files: ReadonlyMap<string, string>, isExemplar: (text: string) => boolean): Extraction => {
    const b = new SetBuilder(spec, isExemplar);
    for (const { file, text, value } of jsonFiles(files, b.issues, 'list', 'conversation records')) {
      for (const rec of value as unknown[]) {
        const r = rec as { record?: unknown; assistant?: unknown } | null;
        if (typeof r !== 'object' || r === null || typeof r.record !== 'number' || !Array.isArray(r.assistant) || !r.assistant.every((t) => typeof t === 'string')) {
          b.issues.push({ file, line: lineOf(text, `"record": ${String(r?.record ?? '')}`), message: 'conversation record needs a number "record" and an "assistant" list of strings' });
          continue;
        }
        const record = r.record;
        (r.assistant as string[]).forEach((t, i) => b.add(t, 'rationale', { file, record, episode: `${file}#${record}`, step: i + 1 }));
      }
    }
    return b.result();
  };
}

const TAU_BENCH_RETAIL = {
  name: 'tau-bench-retail',
  timestamp: '2024-06-01T00:00:00.000Z',
} as const;

/**
 * CAMEL role-playing transcript: the printed output of a `RolePlaying` session (two LLM agents,
 * an "AI User" that gives one instruction at a time and an "AI Assistant" that answers it), as the
 * notebook's loop printed it: each message on lines that start with `[AI User] ` or
 * `[AI Assistant] `, its text followed by one `.` the loop's `print` added, then a blank line.
 * Each message is what one agent wrote into the shared chat (both agents keep the whole exchange
 * in their memory): a `rationale` entry of the reasoning store, metadata `{ file, episode, step,
 * role }` (episode = the file, one session; step = the message's 1-based place; role `user` or
 * `assistant`). Text before the first message is an issue naming its line; a file with no
 * message is an issue.
 */
function extractCamelRolePlaying(spec: Pick<RealSetSpec, 'name' | 'timestamp'>) {
  return (files: ReadonlyMap<string, string>, isExemplar: (text: string) => boolean): Extraction => {
    const b = new SetBuilder(spec, isExemplar);
    for (const [file, text] of files) {
      const messages: Array<{ role: 'user' | 'assistant'; lines: string[] }> = [];
      text.split('\n').forEach((raw, i) => {
        const m = /^\[AI (User|Assistant)\] (.*)$/.exec(raw);
        if (m) {
          messages.push({ role: m[1] === 'User' ? 'user' : 'assistant', lines: [m[2] ?? ''] });
          return;
        }
        const last = messages[messages.length - 1];
        if (last === undefined) {
          if (raw.trim() !== '') b.issues.push({ file, line: i + 1, message: 'text before the first "[AI User] " or "[AI Assistant] " line' });
          return;
        }
        last.lines.push(raw);
      });
      if (messages.length === 0) b.issues.push({ file, line: 1, message: 'no "[AI User] " or "[AI Assistant] " line: not a CAMEL role-playing transcript' });
      messages.forEach((msg, i) => {
        // The loop printed `f'[AI User] {content}.\n'`: drop the trailing blank lines, then that one dot.
        const printed = msg.lines.join('\n').trimEnd();
        const content = printed.endsWith('.') ? printed.slice(0, -1) : printed;
        b.add(content, 'rationale', { file, episode: file, step: i + 1, role: msg.role });
      });
    }
    return b.result();
  };
}

const CAMEL_ROLEPLAY = {
  name: 'camel-roleplay',
  timestamp: '2025-01-01T00:00:00.000Z',
} as const;

const REFLEXION_WEBSHOP = {
  name: 'reflexion-webshop',
  timestamp: '2023-03-20T00:00:00.000Z',
} as const;

const REFLEXION_ALFWORLD = {
  name: 'reflexion-alfworld',
  timestamp: '2023-03-20T00:00:00.000Z',
} as const;

/**
 * The extracted real sets, in report order. Adding one: snapshot + LICENSE + SOURCE.md in
 * `corpora/benign/<dir>/`, a spec here, `npm run extract-real-sets`, `npm run calibrate`.
 */
export const REAL_SET_SPECS: readonly RealSetSpec[] = [
  {
    ...REFLEXION_ALFWORLD,
    dir: 'reflexion-alfworld',
    snapshot: ['env_results_trial_14.json'],
    summary: 'Reflexion ALFWorld run-log reflections, MIT',
    domain: 'other',
    source: {
      repo: 'noahshinn/reflexion',
      paths: ['alfworld_runs/reflexion_run_logs/env_results_trial_14.json'],
      commit: '878a144a66ce840f965694b3af4e31e2d3e571d0',
      licence: 'MIT',
    },
    extract: extractReflexionMemory(REFLEXION_ALFWORLD),
  },
  {
    ...REFLEXION_HOTPOTQA,
    dir: 'reflexion-hotpotqa',
    snapshot: ['100_questions_5_trials.head.txt'],
    summary: 'Reflexion HotpotQA run-log thoughts and reflections, MIT',
    domain: 'react-qa',
    source: {
      repo: 'noahshinn/reflexion',
      paths: ['hotpotqa_runs/root/CoT/no_context/reflexion/100_questions_5_trials.txt'],
      commit: '5d6701b728d75a1429dc43286959e00071416f1d',
      licence: 'MIT',
    },
    extract: extractReflexionHotpotqa(REFLEXION_HOTPOTQA),
  },
  {
    ...REFLEXION_PROGRAMMING,
    dir: 'reflexion-programming',
    snapshot: ['leetcode-hard-py-40-uncontaminated.reflections.jsonl', 'humaneval-py_hardest50.reflections.jsonl'],
    summary: 'Reflexion programming run-log reflections (LeetCode, HumanEval), MIT',
    domain: 'other',
    source: {
      repo: 'noahshinn/reflexion',
      paths: [
        'programming_runs/root/reflexion_leetcode_python3_gpt4/leetcode-hard-py-40-uncontaminated._reflexion_5_gpt-4_pass_at_k_1_py.jsonl',
        'programming_runs/root/for_diagram/humaneval-py_hardest50._reflexion_5_gpt-4_pass_at_k_1_py.jsonl',
      ],
      commit: '4e42b24dab6b40c05cd82d10e357128834ca93ad',
      licence: 'MIT',
    },
    extract: extractReflexionProgramming(REFLEXION_PROGRAMMING),
  },
  {
    ...REFLEXION_WEBSHOP,
    dir: 'reflexion-webshop',
    snapshot: ['env_results_trial_3.head.json'],
    summary: 'Reflexion WebShop run-log reflections, MIT',
    domain: 'rap',
    source: {
      repo: 'noahshinn/reflexion',
      paths: ['webshop_runs/reflexion_run_logs_1/env_results_trial_3.json'],
      commit: '50ec985c860c07fa7fda174936b676136b255633',
      licence: 'MIT',
    },
    extract: extractReflexionMemory(REFLEXION_WEBSHOP),
  },
  {
    ...VOYAGER_SKILLS,
    dir: 'voyager-skills',
    snapshot: ['skills.descriptions.json'],
    summary: 'Voyager skill-library descriptions (Minecraft agent), MIT',
    domain: 'other',
    source: {
      repo: 'MineDojo/Voyager',
      paths: ['skill_library/trial1/skill/skills.json'],
      commit: 'a9eb1a5f72cff463f88a685a1acc84f73b00429b',
      licence: 'MIT',
    },
    extract: extractVoyagerSkills(VOYAGER_SKILLS),
  },
  {
    ...SWE_AGENT_THOUGHTS,
    dir: 'swe-agent-thoughts',
    snapshot: ['thoughts.json'],
    summary: 'SWE-agent (GPT-4) coding and CTF trajectory thoughts, MIT',
    domain: 'other',
    source: {
      repo: 'princeton-nlp/SWE-agent',
      paths: [
        'tests/test_data/trajectories/gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1/pydicom__pydicom-1458.traj',
        'tests/test_data/trajectories/gpt4__klieret__swe-agent-test-repo__default_from_url__t-0.00__p-0.95__c-3.00__install-1/klieret__swe-agent-test-repo-i1.traj',
        'tests/test_data/trajectories/ctf/misc/networking_1.traj',
        'tests/test_data/trajectories/ctf/forensics/flash.traj',
        'trajectories/demonstrations/ctf/crypto/BabyEncryption.traj',
        'trajectories/demonstrations/ctf/pwn/warmup.traj',
        'trajectories/demonstrations/ctf/web/i_got_id_demo.traj',
        'trajectories/demonstrations/ctf/rev/rock.traj',
      ],
      commit: 'f146cee078d8bdc5857baaa8bb578cd98a184052',
      commits: [
        'f146cee078d8bdc5857baaa8bb578cd98a184052',
        'af8c67005ca80c3e3bc7e8ec558b28c6befa9038',
        '74507d5157ef9c287cee5144ade7ea82f672768f',
        'd193b5fb8cc8ed87e6a7f287c61db1e776267410',
        '3aadbd78608d7ea64490ac2a689ba6b5516729a5',
        '141dd8586d25e94e4742acc79341cd402f87d46a',
        'd3b0af21f5dc2537c78e21a656c840f397628088',
        'c39bcaf904c38c358996ae562c0600bcce63b354',
      ],
      licence: 'MIT',
    },
    extract: extractSweAgentThoughts(SWE_AGENT_THOUGHTS),
  },
  {
    ...FIREACT_HOTPOTQA,
    dir: 'fireact-hotpotqa',
    snapshot: ['gpt-3.5-ft.head.json', 'llama-2-13b-lora.head.json'],
    summary: 'FireAct fine-tuned GPT-3.5 and Llama-2-13B HotpotQA thoughts, MIT',
    domain: 'react-qa',
    source: {
      repo: 'anchen1011/FireAct',
      paths: [
        'trajs/hotpotqa_dev_0_500_ft_gpt-3.5-turbo-0613_princeton-nlp__7woQRsdi_0.0_2023-09-21-16-19-51.json',
        'trajs/hotpotqa_dev_0_500_llama_models_lora_llama-2-13b-d_1000_0.7_2023-09-18-13-40-08.json',
      ],
      commit: 'd7e77f510c849d444e8d4186f51c3454da16e08c',
      commits: ['d7e77f510c849d444e8d4186f51c3454da16e08c', '8a39dff7585d956f2cfd9c8086342aeff20ecb1c'],
      licence: 'MIT',
    },
    extract: extractFireactTrajs(FIREACT_HOTPOTQA),
  },
  {
    ...GENERATIVE_AGENTS,
    dir: 'generative-agents',
    snapshot: ['nodes.isabella.head.json'],
    summary: 'Generative Agents memory stream (reflections, plans, observations), Apache-2.0',
    domain: 'other',
    source: {
      repo: 'joonspk-research/generative_agents',
      paths: ['environment/frontend_server/compressed_storage/July1_the_ville_isabella_maria_klaus-step-3-20/personas/Isabella Rodriguez/bootstrap_memory/associative_memory/nodes.json'],
      commit: '7ad910cac16f59b444df6bba45752a4fc1cde7da',
      licence: 'Apache-2.0',
    },
    extract: extractGenerativeAgentsNodes(GENERATIVE_AGENTS),
  },
  {
    ...TAU_BENCH_RETAIL,
    dir: 'tau-bench-retail',
    snapshot: ['conversations.json'],
    summary: 'tau-bench retail customer-service agent replies, MIT',
    domain: 'rap',
    source: {
      repo: 'sierra-research/tau-bench',
      paths: ['few_shot_data/MockRetailDomainEnv-few_shot.jsonl'],
      commit: 'a50b6c11c0080204ebcdb69e2967a81e134821c7',
      licence: 'MIT',
    },
    extract: extractTauBenchReplies(TAU_BENCH_RETAIL),
  },
  {
    ...CAMEL_ROLEPLAY,
    dir: 'camel-roleplay',
    snapshot: ['create_your_first_agents_society.stdout.txt'],
    summary: 'CAMEL role-playing session (two GPT-4o-mini agents planning a task), Apache-2.0',
    domain: 'other',
    source: {
      repo: 'camel-ai/camel',
      paths: ['_sources/cookbooks/basic_concepts/create_your_first_agents_society.ipynb'],
      commit: '55f934871899c203a8ca2e098b7f5102e34046c1',
      licence: 'Apache-2.0',
    },
    extract: extractCamelRolePlaying(CAMEL_ROLEPLAY),
  },
];

/** The `entries.jsonl` text of an extraction: one entry per line, keys in a fixed order, final newline. */
export function serializeEntries(entries: readonly MemoryEntry[]): string {
  return entries.map((e) => JSON.stringify({ id: e.id, store: e.store, content: e.content, source: e.source, trust: e.trust, traceType: e.traceType, timestamp: e.timestamp, metadata: e.metadata })).join('\n') + (entries.length > 0 ? '\n' : '');
}
