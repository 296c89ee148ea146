/**
 * Benign entry sets for measuring false-positive rates on data nobody here generated
 * (DESIGN.md, "Measuring FPR"; paper §V-E measured FPR on 26 hand-curated rationales and
 * 300 captured traces):
 * - the ReAct few-shot prompts (ysymyth/ReAct, MIT) — real agent thoughts;
 * - the hand-written rationales in `corpora/benign/curated.jsonl`;
 * - any user's JSONL export of memory entries.
 * Loading returns good entries plus issues naming file and line; only an unreadable file
 * throws (`InputError`).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { InputError, packagePath } from '../domain/index.js';
import type { MemoryEntry } from '../domain/index.js';
import { readJsonl, validateMemoryEntry } from './jsonl.js';
import type { JsonlIssue } from './jsonl.js';
import { REAL_SET_SPECS, dedupeKey, type Extraction, type RealSetSpec } from './real-sets.js';

/** `<package>/corpora/benign` (bundled data, read from the installed package). */
const BENIGN_CORPUS_DIR = packagePath('corpora', 'benign');
/** Default folder of the ReAct prompt files. */
export const REACT_PROMPTS_DIR = path.join(BENIGN_CORPUS_DIR, 'react-prompts');
/** Default folder of the ExpeL WebShop prompt file. */
const EXPEL_PROMPTS_DIR = path.join(BENIGN_CORPUS_DIR, 'expel-prompts');
/** Default hand-curated benign rationales. */
const CURATED_BENIGN_FILE = path.join(BENIGN_CORPUS_DIR, 'curated.jsonl');

/** Timestamp given to every ExpeL WebShop entry (the prompts carry none): the upstream commit's era. */
const EXPEL_TIMESTAMP = '2023-08-01T00:00:00.000Z';

/** Timestamp given to every ReAct thought (the prompts carry none): the upstream commit's era. */
const REACT_TIMESTAMP = '2022-10-01T00:00:00.000Z';

/** Good entries plus line-numbered issues. */
export interface BenignEntries {
  entries: MemoryEntry[];
  issues: JsonlIssue[];
  /**
   * The issues of the lines that hold no measured entry: unreadable, empty content, or an id
   * taken by an earlier line (`loadBenignJsonl` only; also in `issues`). A gate counts them
   * against the guard, since their verdict is unknown.
   */
  skipped?: JsonlIssue[];
}

const REACT_SET_NAMES = ['hotpotqa', 'fever', 'alfworld'] as const;
type ReactSetName = (typeof REACT_SET_NAMES)[number];

export interface ReactThoughtSets {
  sets: Array<{ name: ReactSetName; entries: MemoryEntry[] }>;
  issues: JsonlIssue[];
}

/** Which file, which prompt keys, and which lines hold thoughts, per set. */
const REACT_SOURCES = {
  hotpotqa: { file: 'prompts_naive.json', keys: /^webthink_simple/, line: /^Thought \d+:\s*(.+)$/ },
  fever: { file: 'fever.json', keys: /^webthink_simple/, line: /^Thought \d+:\s*(.+)$/ },
  alfworld: { file: 'alfworld.json', keys: /^react_/, line: /^> think:\s*(.+)$/ },
} as const satisfies Record<ReactSetName, { file: string; keys: RegExp; line: RegExp }>;

/** A line that starts a new episode inside a ReAct prompt: a question, a claim, or a household task. */
const REACT_EPISODE_START = /^(?:Question|Claim):|^Your task is to:/;

/** 1-based line of character offset `pos` in `text`. */
function lineAt(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** 1-based line of the first line in `text` that contains `needle` (1 when absent). */
function lineOf(text: string, needle: string): number {
  const at = text.indexOf(needle);
  return at < 0 ? 1 : lineAt(text, at);
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (cause) {
    throw new InputError(`cannot read file: ${(cause as Error).message}`, { file }, { cause });
  }
}

/** V8 quotes this many characters before the error when it shortens the source (`..."`). */
const V8_CONTEXT_CHARS = 10;

/**
 * Best-effort 1-based line of a `JSON.parse` syntax error, from V8's message:
 * `(line L column C)` (Node 22+), `at position N`, end of input (last line), or the quoted
 * excerpt around the error (Node 20). Falls back to line 1.
 */
function syntaxErrorLine(text: string, msg: string): number {
  const lc = /line (\d+) column/.exec(msg);
  if (lc) return Number(lc[1]);
  const at = /position (\d+)/.exec(msg);
  if (at) return lineAt(text, Math.min(Number(at[1]), text.trimEnd().length));
  if (/end of JSON input/i.test(msg)) return lineAt(text, text.trimEnd().length);
  const ex = /(\.\.\.)?"([\s\S]*?)"(\.\.\.)? is not valid JSON/.exec(msg);
  const snippet = ex?.[2];
  if (ex && snippet) {
    const idx = text.indexOf(snippet);
    if (idx >= 0) return lineAt(text, idx + (ex[1] ? Math.min(V8_CONTEXT_CHARS, snippet.length - 1) : 0));
  }
  return 1;
}

/** Parses a whole-file JSON object, or returns an issue naming the line of the syntax error. */
function parseJsonObject(text: string, file: string): { ok: true; value: Record<string, unknown> } | { ok: false; issue: JsonlIssue } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    const msg = (cause as Error).message;
    return { ok: false, issue: { file, line: syntaxErrorLine(text, msg), message: `malformed JSON: ${msg.split('\n')[0]}` } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, issue: { file, line: 1, message: 'expected a JSON object of prompt strings' } };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 12);

/**
 * Loads the real ReAct thoughts as reasoning-store entries.
 * - HotpotQA (`prompts_naive.json`, keys `webthink_simple*`) and FEVER (`fever.json`,
 *   `webthink_simple*`): each `Thought N: ...` line.
 * - ALFWorld (`alfworld.json`, keys `react_*`): each `> think: ...` line.
 * Each entry: content = the thought text (prefix removed), traceType `thought_chain`,
 * source `AGENT`, trust `VERIFIED`, store `reasoning`, id `react-<set>-<hash of text>`
 * (a thought repeated across prompts is kept once per set), metadata
 * `{ corpus: 'react-prompts', set, key, step }`.
 * A malformed file becomes an issue naming the file and line; its set is then empty.
 * Source: ysymyth/ReAct, commit 6bdb3a1fd38b8188fc7ba4102969fe483df8fdc9, MIT.
 * @throws InputError when a file cannot be read.
 * @example const { sets } = loadReactThoughts(); sets[0].entries.length // > 0
 */
export function loadReactThoughts(dir: string = REACT_PROMPTS_DIR): ReactThoughtSets {
  const sets: ReactThoughtSets['sets'] = [];
  const issues: JsonlIssue[] = [];
  for (const name of REACT_SET_NAMES) {
    const src = REACT_SOURCES[name];
    const file = path.join(dir, src.file);
    const text = readText(file);
    const parsed = parseJsonObject(text, file);
    const entries: MemoryEntry[] = [];
    sets.push({ name, entries });
    if (!parsed.ok) {
      issues.push(parsed.issue);
      continue;
    }
    const seen = new Set<string>();
    for (const [key, prompt] of Object.entries(parsed.value)) {
      if (!src.keys.test(key)) continue;
      if (typeof prompt !== 'string') {
        issues.push({ file, line: lineOf(text, JSON.stringify(key)), message: `prompt "${key}" is not a string` });
        continue;
      }
      let step = 0;
      let episode = 0;
      for (const raw of prompt.split('\n')) {
        if (REACT_EPISODE_START.test(raw.trim())) episode++;
        const m = src.line.exec(raw.trim());
        const thought = m?.[1]?.trim();
        if (!thought) continue;
        step++;
        if (seen.has(thought)) continue;
        seen.add(thought);
        entries.push({
          id: `react-${name}-${shortHash(thought)}`,
          store: 'reasoning',
          content: thought,
          source: 'AGENT',
          trust: 'VERIFIED',
          traceType: 'thought_chain',
          timestamp: REACT_TIMESTAMP,
          metadata: { corpus: 'react-prompts', set: name, key, step, episode: `${key}#${Math.max(1, episode)}` },
        });
      }
    }
  }
  return { sets, issues };
}

/**
 * Loads any JSONL export of memory entries (one entry per line; missing optional fields
 * take `validateMemoryEntry`'s defaults). Bad lines become issues naming file and line, and
 * so does an entry whose content is empty or blank (nothing to judge); `skipped` lists both. An
 * entry whose id is already taken in its store by an earlier line is skipped with an issue
 * naming both lines: a store holds one entry per id, and each entry is measured over the
 * others of its trajectory, so two of one id cannot be committed together. A line that repeats
 * an earlier one exactly (same id and fields) is measured once and named in `issues` only (its
 * verdict is known, so it is not in `skipped`).
 * @throws InputError when the file cannot be read.
 * @example const { entries, issues } = loadBenignJsonl('my-agent-export.jsonl')
 */
export function loadBenignJsonl(file: string): BenignEntries {
  const { records, issues, warnings = [] } = readJsonl(file, validateMemoryEntry);
  const firstLine = new Map<string, { line: number; entry: MemoryEntry }>();
  const entries: MemoryEntry[] = [];
  const repeated: JsonlIssue[] = [];
  for (const { value, line } of records) {
    if (value.content.trim() === '') {
      repeated.push({ file, line, message: `field "content" is empty: there is nothing for a guard to judge, so this entry is skipped` });
      continue;
    }
    const key = `${value.store}\u0000${value.id}`;
    const first = firstLine.get(key);
    if (first !== undefined) {
      // The same entry again (an export that wrote a line twice): its verdict is the first one's, so it is measured once and is no unread line.
      if (isDeepStrictEqual(first.entry, value)) warnings.push({ file, line, message: `repeats line ${first.line} exactly (the same id and fields): measured once` });
      else repeated.push({ file, line, message: `id ${JSON.stringify(value.id)} is already taken in the ${value.store} store by line ${first.line}; this entry is skipped (give each entry its own id)` });
      continue;
    }
    firstLine.set(key, { line, entry: value });
    entries.push(value);
  }
  const byLine = (a: JsonlIssue, b: JsonlIssue): number => a.line - b.line;
  const kept = new Set(entries);
  const unknown = records.filter((r) => r.value.source === UNKNOWN_SOURCE && kept.has(r.value));
  // A note on the whole file comes first, so a list cut after its first few lines still shows it.
  const note: JsonlIssue[] = unknown.length > 0 ? [{ file, line: unknown[0]!.line, message: unknownSourceNote(unknown.length, entries.length) }] : [];
  return { entries, issues: [...note, ...[...issues, ...warnings, ...repeated].sort(byLine)], skipped: [...issues, ...repeated].sort(byLine) };
}

/** The source an entry without one is read as (`validateMemoryEntry`'s default, also when given as such). */
const UNKNOWN_SOURCE = 'UNKNOWN';

/**
 * One note for the measured entries of an export read with source UNKNOWN (no `source` field,
 * or "UNKNOWN" as given): a guard that weighs provenance distrusts that source (SENTINEL's taint
 * layer on the retrieve path, paper §IV-B: unknown taint 1.0), so a whole export without sources
 * can measure as all false positives there. Named once per file, at the first such line.
 */
function unknownSourceNote(n: number, of: number): string {
  const which = n === of ? `every one of the ${of} measured entries has` : `${n} of the ${of} measured entries have`;
  return `${which} source UNKNOWN (no "source" field, or "UNKNOWN" as given; this line is the first): a guard that weighs provenance distrusts it (SENTINEL rejects it on --phase retrieve at its taint layer), so these can measure as false positives for that reason alone; give each entry the source that wrote it: "AGENT" for the agent's own reasoning, "TOOL" for tool output, "EXTERNAL" for retrieved or user text, "SYSTEM"`;
}

/**
 * Loads the hand-curated benign rationales (`corpora/benign/curated.jsonl`), written for
 * this project in the manner of the paper's 26 hand-curated ones (§V-E).
 * @throws InputError when the file cannot be read.
 */
export function loadCuratedBenign(file: string = CURATED_BENIGN_FILE): BenignEntries {
  return loadBenignJsonl(file);
}

/**
 * Loads the real ExpeL WebShop trajectories (`webshop.json`: lists of few-shot prompt strings
 * under `FEWSHOTS`, `NEW_REFLECTION_FEWSHOTS`, `ACT_REFLECTION_FEWSHOTS`, `REFLECTION_FEWSHOTS`).
 * - each `Action: think[...]` step becomes a `thought_chain` entry (the bracketed text);
 * - each `Next plan: ...` line becomes a `reflection` entry.
 * A text repeated across prompts is kept once. Source `AGENT`, trust `VERIFIED`, store
 * `reasoning`, id `expel-webshop-<hash of text>`, metadata `{ corpus: 'expel-prompts', set:
 * 'webshop', key, index, step }`. A malformed file becomes an issue naming file and line.
 * Source: LeapLabTHU/ExpeL, commit e41ec9a24823e7b560c561ab191441b56d9bcefc, Apache-2.0.
 * @throws InputError when the file cannot be read.
 * @example loadExpelWebshop().entries.length // 20
 */
function loadExpelWebshop(dir: string = EXPEL_PROMPTS_DIR): BenignEntries {
  const file = path.join(dir, 'webshop.json');
  const text = readText(file);
  const parsed = parseJsonObject(text, file);
  if (!parsed.ok) return { entries: [], issues: [parsed.issue] };
  const entries: MemoryEntry[] = [];
  const issues: JsonlIssue[] = [];
  const seen = new Set<string>();
  for (const [key, list] of Object.entries(parsed.value)) {
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) {
      issues.push({ file, line: lineOf(text, JSON.stringify(key)), message: `"${key}" is not a list of prompt strings` });
      continue;
    }
    list.forEach((prompt: string, index) => {
      let step = 0;
      for (const raw of prompt.split('\n')) {
        const line = raw.trim();
        const think = /^Action:\s*think\[(.+)\]$/.exec(line)?.[1]?.trim();
        const plan = /^Next plan:\s*(.+)$/.exec(line)?.[1]?.trim();
        const content = think ?? plan;
        if (!content) continue;
        step++;
        if (seen.has(content)) continue;
        seen.add(content);
        entries.push({
          id: `expel-webshop-${shortHash(content)}`,
          store: 'reasoning',
          content,
          source: 'AGENT',
          trust: 'VERIFIED',
          traceType: think !== undefined ? 'thought_chain' : 'reflection',
          timestamp: EXPEL_TIMESTAMP,
          metadata: { corpus: 'expel-prompts', set: 'webshop', key, index, step, episode: `${key}#${index}` },
        });
      }
    });
  }
  return { entries, issues };
}

/** One bundled real benign set: traces nobody on this project wrote. */
export interface RealBenignSet {
  /** Set name as shown in reports: `react-hotpotqa`, `react-fever`, `react-alfworld`, `expel-webshop`, then the extracted run-log sets (`REAL_SET_SPECS`). */
  name: string;
  /** Where it comes from and its licence, one line. */
  source: string;
  /** The generator domain it is closest to (`other` when none: ALFWorld's household tasks). */
  domain: 'ehr' | 'react-qa' | 'rap' | 'other';
  entries: MemoryEntry[];
}

/** Folder of an extracted real set (`corpora/benign/<dir>`). */
export function realSetDir(spec: RealSetSpec): string {
  return path.join(BENIGN_CORPUS_DIR, spec.dir);
}

/**
 * A test for "this text is a copy of a bundled few-shot exemplar": the ReAct thoughts and the
 * ExpeL WebShop steps, compared whitespace-normalised and case-insensitive. Run logs quote their
 * few-shot prompts; those copies belong to the prompt sets, not to the run-log sets.
 * @throws InputError when a prompt file cannot be read.
 */
export function bundledExemplarTest(dirs: { react?: string; expel?: string } = {}): (text: string) => boolean {
  const keys = new Set<string>();
  for (const s of loadReactThoughts(dirs.react).sets) for (const e of s.entries) keys.add(dedupeKey(e.content));
  for (const e of loadExpelWebshop(dirs.expel).entries) keys.add(dedupeKey(e.content));
  return (text) => keys.has(dedupeKey(text));
}

/**
 * Extracts one real set from its raw snapshot (`spec.snapshot` files in `dir`), the same way
 * `npm run extract-real-sets` does. Deterministic.
 * @throws InputError when a snapshot file cannot be read.
 */
export function extractRealSet(spec: RealSetSpec, dir: string = realSetDir(spec), isExemplar: (text: string) => boolean = bundledExemplarTest()): Extraction {
  const files = new Map<string, string>();
  for (const f of spec.snapshot) files.set(f, readText(path.join(dir, f)));
  const out = spec.extract(files, isExemplar);
  // Issues name the snapshot file by its path, like every other loader here.
  return { entries: out.entries, issues: out.issues.map((i) => ({ ...i, file: path.join(dir, i.file) })) };
}

/** Name of the extraction output in a real set's folder. */
export const REAL_SET_ENTRIES_FILE = 'entries.jsonl';

/**
 * Every bundled real benign set, in a fixed order: the three ReAct sets (MIT), ExpeL WebShop
 * (Apache-2.0), then the sets extracted from public run logs (`REAL_SET_SPECS`, each read from
 * its `entries.jsonl`). These are the sources `npm run calibrate` measures and the sets the
 * realism gap and the leave-one-source-out check compare with. The hand-written rationales
 * are not among them (they are ours, not real).
 * @throws InputError when a file cannot be read.
 */
export function loadRealBenignSets(dirs: { react?: string; expel?: string; extracted?: string } = {}): { sets: RealBenignSet[]; issues: JsonlIssue[] } {
  const react = loadReactThoughts(dirs.react);
  const expel = loadExpelWebshop(dirs.expel);
  const reactDomain = { hotpotqa: 'react-qa', fever: 'react-qa', alfworld: 'other' } as const;
  const sets: RealBenignSet[] = react.sets.map((s) => ({ name: `react-${s.name}`, source: 'ReAct prompts, MIT', domain: reactDomain[s.name], entries: s.entries }));
  sets.push({ name: 'expel-webshop', source: 'ExpeL WebShop prompts, Apache-2.0', domain: 'rap', entries: expel.entries });
  const issues = [...react.issues, ...expel.issues];
  for (const spec of REAL_SET_SPECS) {
    const dir = dirs.extracted !== undefined ? path.join(dirs.extracted, spec.dir) : realSetDir(spec);
    const loaded = loadBenignJsonl(path.join(dir, REAL_SET_ENTRIES_FILE));
    sets.push({ name: spec.name, source: spec.summary, domain: spec.domain, entries: loaded.entries });
    issues.push(...loaded.issues);
  }
  return { sets, issues };
}
