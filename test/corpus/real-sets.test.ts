/**
 * The bundled real sets extracted from public run logs (src/corpus/real-sets.ts): every set in
 * the registry loads, carries its licence and source, and its `entries.jsonl` is exactly what
 * the extractor makes of its raw snapshot (so neither can be edited by hand unnoticed).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, TRACE_TYPES, isReasoningTraceType } from '../../src/domain/index.js';
import { REAL_SET_ENTRIES_FILE, bundledExemplarTest, extractRealSet, loadReactThoughts, loadRealBenignSets, realSetDir } from '../../src/corpus/benign-sets.js';
import { REAL_SET_SPECS, dedupeKey, serializeEntries } from '../../src/corpus/real-sets.js';
import { episodeOf } from '../../src/domain/store-context.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'real-sets-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the benign-set registry', () => {
  const { sets, issues } = loadRealBenignSets();

  it('loads every bundled real set, prompt sets first, with no issues', () => {
    expect(issues).toEqual([]);
    expect(sets.map((s) => s.name)).toEqual(['react-hotpotqa', 'react-fever', 'react-alfworld', 'expel-webshop', ...REAL_SET_SPECS.map((s) => s.name)]);
    for (const s of sets) expect(s.entries.length, s.name).toBeGreaterThan(0);
    expect(new Set(sets.map((s) => s.name)).size).toBe(sets.length);
  });

  it('holds several hundred real entries, most of them from run logs rather than prompts', () => {
    const total = sets.reduce((a, s) => a + s.entries.length, 0);
    const extracted = sets.filter((s) => REAL_SET_SPECS.some((x) => x.name === s.name)).reduce((a, s) => a + s.entries.length, 0);
    expect(total).toBeGreaterThanOrEqual(250);
    expect(extracted).toBeGreaterThan(total / 2);
  });

  it('is what `npm run calibrate` measured: weights.json lists every registered set with its size', () => {
    const weights = JSON.parse(readFileSync(path.join(ROOT, 'generators', 'calibration', 'weights.json'), 'utf8')) as { sources: Array<{ name: string; n: number }> };
    expect(weights.sources.map((x) => [x.name, x.n])).toEqual(sets.map((x) => [x.name, x.entries.length]));
  });

  it('gives every entry a unique id within its set, a known trace type and the store of that trace type', () => {
    for (const s of sets) {
      expect(new Set(s.entries.map((e) => e.id)).size, s.name).toBe(s.entries.length);
      for (const e of s.entries) {
        expect(TRACE_TYPES).toContain(e.traceType);
        expect(e.store).toBe(isReasoningTraceType(e.traceType) ? 'reasoning' : 'general');
        expect(e.source).toBe('AGENT');
        expect(e.content.trim()).toBe(e.content);
        expect(e.content.length).toBeGreaterThan(0);
      }
    }
  });
});

describe.each(REAL_SET_SPECS.map((s) => [s.name, s] as const))('extracted real set %s', (_name, spec) => {
  const dir = realSetDir(spec);

  it('has its upstream licence, a SOURCE.md naming repository, paths and commit, and its snapshot', () => {
    const licence = readFileSync(path.join(dir, 'LICENSE'), 'utf8');
    if (spec.source.licence === 'MIT') expect(licence).toMatch(/^MIT License/);
    if (spec.source.licence === 'Apache-2.0') expect(licence).toMatch(/Apache License\s+Version 2\.0/);
    const source = readFileSync(path.join(dir, 'SOURCE.md'), 'utf8');
    expect(source).toContain(spec.source.repo);
    expect(source).toContain(spec.source.commit);
    for (const p of spec.source.paths) expect(source).toContain(p);
    expect(spec.source.commit).toMatch(/^[0-9a-f]{40}$/);
    if (spec.source.commits !== undefined) {
      expect(spec.source.commits).toHaveLength(spec.source.paths.length);
      expect(spec.source.commits[0]).toBe(spec.source.commit);
      for (const c of spec.source.commits) expect(source).toContain(c);
    }
    for (const f of spec.snapshot) expect(existsSync(path.join(dir, f)), f).toBe(true);
    expect(readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain(spec.name);
  });

  it('bundles exactly what the extractor makes of the snapshot (entries.jsonl is never edited by hand)', () => {
    const out = extractRealSet(spec);
    expect(out.issues).toEqual([]);
    expect(readFileSync(path.join(dir, REAL_SET_ENTRIES_FILE), 'utf8')).toBe(serializeEntries(out.entries));
  });

  it('is deterministic', () => {
    expect(serializeEntries(extractRealSet(spec).entries)).toBe(serializeEntries(extractRealSet(spec).entries));
  });

  it('keeps each distinct text once and no copy of a bundled few-shot exemplar', () => {
    const { entries } = extractRealSet(spec);
    const keys = entries.map((e) => dedupeKey(e.content));
    expect(new Set(keys).size).toBe(keys.length);
    const isExemplar = bundledExemplarTest();
    for (const e of entries) expect(isExemplar(e.content), e.content.slice(0, 80)).toBe(false);
  });

  it('names each entry after its set and keeps where in the snapshot it came from', () => {
    for (const e of extractRealSet(spec).entries) {
      expect(e.id.startsWith(`${spec.name}-`)).toBe(true);
      expect(e.metadata?.corpus).toBe(spec.name);
      expect(spec.snapshot).toContain(e.metadata?.file);
    }
  });
});

describe('extraction rules', () => {
  const alf = REAL_SET_SPECS.find((s) => s.name === 'reflexion-alfworld')!;

  it('drops repeats (whitespace and case aside) and copies of a few-shot exemplar', () => {
    const react = loadReactThoughts().sets.find((s) => s.name === 'alfworld')!.entries[0]!.content;
    const snapshot = JSON.stringify([
      { name: 'env_1', memory: [' I should have opened the drawer first.', 'I should have  opened the DRAWER first.', `  ${react}`], is_success: false },
      { name: 'env_2', memory: [' I will look in cabinet 2 next time.'], is_success: true },
    ]);
    const out = alf.extract(new Map([['t.json', snapshot]]), bundledExemplarTest());
    expect(out.issues).toEqual([]);
    expect(out.entries.map((e) => e.content)).toEqual(['I should have opened the drawer first.', 'I will look in cabinet 2 next time.']);
    expect(out.entries.map((e) => e.traceType)).toEqual(['reflection', 'reflection']);
    expect(out.entries[1]?.metadata).toEqual({ corpus: 'reflexion-alfworld', file: 't.json', env: 'env_2', index: 0 });
  });

  it('reads Thought: and non-empty Reflections: lines of a Reflexion HotpotQA log, with trial, line and the question as episode', () => {
    const hot = REAL_SET_SPECS.find((s) => s.name === 'reflexion-hotpotqa')!;
    const log = [
      'BEGIN TRIAL 1', 'Question: Q1?', 'Thought: D.', 'Reflections: ', 'Question:  Q2 ', 'Thought: E.', 'Reflections: ',
      'BEGIN TRIAL 2', 'Context: ', 'Question: Q1?', "Thought: Let's think step by step. A is B.", 'Action: Finish[B]', 'Reflections: ', 'Correct answer: B', '', 'Question: Q2', 'Thought: C.', 'Reflections: My reasoning failed because I assumed C.',
    ].join('\n');
    const out = hot.extract(new Map([['log.txt', log]]), () => false);
    expect(out.issues).toEqual([]);
    // A block's reflection was written before its thought (after the question's failed trial), so it comes first.
    expect(out.entries.map((e) => [e.traceType, e.content, e.metadata?.trial, e.metadata?.line, e.metadata?.episode])).toEqual([
      ['thought_chain', 'D.', 1, 3, 'Q1?'],
      ['thought_chain', 'E.', 1, 6, 'Q2'],
      ['thought_chain', "Let's think step by step. A is B.", 2, 11, 'Q1?'],
      ['reflection', 'My reasoning failed because I assumed C.', 2, 18, 'Q2'],
      ['thought_chain', 'C.', 2, 17, 'Q2'],
    ]);
    // One episode per question: the store context of a trial-2 entry starts with that question's trial-1 entries.
    expect(new Set(out.entries.map((e) => episodeOf(e))).size).toBe(2);
    expect(hot.extract(new Map([['x.txt', 'just text']]), () => false).issues[0]?.message).toMatch(/not a Reflexion HotpotQA log/);
    expect(hot.extract(new Map([['y.txt', 'Thought: orphan.\nQuestion: Q?']]), () => false).issues).toEqual([{ file: 'y.txt', line: 1, message: 'Thought: line before any "Question:" line (no question to file it under)' }]);
  });

  it('reads the reflections of each reduced programming-run record and names a bad line', () => {
    const prog = REAL_SET_SPECS.find((s) => s.name === 'reflexion-programming')!;
    const text = [
      JSON.stringify({ task_id: 't1', is_solved: false, reflections: ['The loop should be `for i in range(l, r+1)`.', 'The dfs function overcounts.'] }),
      '{"task_id": "t2", "reflections": [',
      JSON.stringify({ task_id: 't3', is_solved: true, reflections: [] }),
      JSON.stringify({ task_id: 't4', reflections: [7] }),
    ].join('\n');
    const out = prog.extract(new Map([['p.jsonl', text]]), () => false);
    expect(out.entries.map((e) => [e.content, e.metadata?.task, e.metadata?.index, e.metadata?.line])).toEqual([
      ['The loop should be `for i in range(l, r+1)`.', 't1', 0, 1],
      ['The dfs function overcounts.', 't1', 1, 1],
    ]);
    expect(out.issues.map((i) => [i.file, i.line])).toEqual([
      ['p.jsonl', 2],
      ['p.jsonl', 4],
    ]);
  });

  it('reads a Voyager skill library reduced to name and description as general-store experiences', () => {
    const voy = REAL_SET_SPECS.find((s) => s.name === 'voyager-skills')!;
    const text = '{\n"mineLog": "async function mineLog(bot) {\\n    // Mines one log.\\n}",\n"broken": 3\n}';
    const out = voy.extract(new Map([['s.json', text]]), () => false);
    expect(out.entries.map((e) => [e.content, e.traceType, e.store, e.metadata?.skill])).toEqual([['async function mineLog(bot) {\n    // Mines one log.\n}', 'experience', 'general', 'mineLog']]);
    expect(out.issues).toEqual([{ file: 's.json', line: 3, message: 'description of skill "broken" is not a string' }]);
  });

  it('reads the thoughts of reduced SWE-agent trajectories in step order, one episode per trajectory, and drops empty thoughts', () => {
    const swe = REAL_SET_SPECS.find((s) => s.name === 'swe-agent-thoughts')!;
    const text = JSON.stringify([
      { trajectory: 'a.traj', commit: 'x', complete: true, thoughts: ['Let me open `setup.py` first.\n\n', '\n', "The fix is in `numpy_handler.py`; let's edit line 293.\n"] },
      { trajectory: 'b.traj', thoughts: 'not a list' },
      { trajectory: 'c.traj', thoughts: ['Let me open `setup.py` first.'] },
    ]);
    const out = swe.extract(new Map([['t.json', text]]), () => false);
    expect(out.entries.map((e) => [e.content, e.traceType, e.store, e.metadata?.episode, e.metadata?.step])).toEqual([
      ['Let me open `setup.py` first.', 'thought_chain', 'reasoning', 'a.traj', 1],
      ["The fix is in `numpy_handler.py`; let's edit line 293.", 'thought_chain', 'reasoning', 'a.traj', 3],
    ]);
    expect(out.issues).toHaveLength(1);
    expect(out.issues[0]?.message).toMatch(/"thoughts" list of strings/);
  });

  it('reads the Thought: lines of FireAct trajectories, from a ReAct text or from the assistant turns of a chat only', () => {
    const fire = REAL_SET_SPECS.find((s) => s.name === 'fireact-hotpotqa')!;
    const chat = JSON.stringify({
      q1: { reward: true, traj: [{ role: 'user', content: 'Thought: not the agent' }, { role: 'assistant', content: 'Thought: A is B.\nAction: finish[B]' }] },
      q2: { reward: false, traj: 7 },
    });
    const react = JSON.stringify({ q1: { reward: false, traj: '### Response:\nThought: I need to search A.\nAction: search[A]\nObservation: A is C.\nThought: So C.\nAction: finish[C]\n' } });
    const out = fire.extract(new Map([['chat.json', chat], ['react.json', react]]), () => false);
    expect(out.entries.map((e) => [e.content, e.metadata?.episode, e.metadata?.step])).toEqual([
      ['A is B.', 'chat.json#q1', 1],
      ['I need to search A.', 'react.json#q1', 1],
      ['So C.', 'react.json#q1', 2],
    ]);
    expect(out.issues.map((i) => [i.file, i.line])).toEqual([['chat.json', 1]]);
    expect(out.issues[0]?.message).toMatch(/record "q2"/);
  });

  it('reads a Generative Agents memory stream oldest node first: thoughts as reflections, events and chats as observations, episode = simulated hour', () => {
    const ga = REAL_SET_SPECS.find((s) => s.name === 'generative-agents')!;
    const text = JSON.stringify({
      node_12: { type: 'thought', depth: 2, created: '2023-02-13 20:17:10', predicate: 'be', description: 'Isabella is excited about the party' },
      node_11: { type: 'event', depth: 0, created: '2023-02-13 19:03:10', predicate: 'is', description: 'bed is idle' },
      node_10: { type: 'event', depth: 0, created: '2023-02-13 18:45:20', predicate: 'is', description: 'Bed is  idle' },
      node_x: { type: 'event', created: '2023-02-13 18:00:00', description: 'no number' },
    });
    const out = ga.extract(new Map([['n.json', text]]), () => false);
    expect(out.entries.map((e) => [e.content, e.traceType, e.store, e.metadata?.node, e.metadata?.episode])).toEqual([
      ['Bed is  idle', 'observation', 'general', 'node_10', '2023-02-13 18'],
      ['Isabella is excited about the party', 'reflection', 'reasoning', 'node_12', '2023-02-13 20'],
    ]);
    expect(out.issues).toEqual([{ file: 'n.json', line: 1, message: 'memory node "node_x" needs an id node_<n>, a string "type", "created" and "description"' }]);
  });

  it('reads a CAMEL role-playing transcript message by message, without the dot the loop printed, and names stray text by line', () => {
    const camel = REAL_SET_SPECS.find((s) => s.name === 'camel-roleplay')!;
    const text = '[AI User] Instruction: Plan the trip.  \nInput: None.\n\n[AI Assistant] Solution: Step one.\n\n- pack\n\nNext request..\n\n[AI User] <CAMEL_TASK_DONE>.\n\n';
    const out = camel.extract(new Map([['t.txt', text]]), () => false);
    expect(out.issues).toEqual([]);
    expect(out.entries.map((e) => [e.content, e.traceType, e.store, e.metadata?.role, e.metadata?.step, e.metadata?.episode])).toEqual([
      ['Instruction: Plan the trip.  \nInput: None', 'rationale', 'reasoning', 'user', 1, 't.txt'],
      ['Solution: Step one.\n\n- pack\n\nNext request.', 'rationale', 'reasoning', 'assistant', 2, 't.txt'],
      ['<CAMEL_TASK_DONE>', 'rationale', 'reasoning', 'user', 3, 't.txt'],
    ]);
    expect(camel.extract(new Map([['u.txt', '\nstray\n[AI User] Go.\n']]), () => false).issues).toEqual([{ file: 'u.txt', line: 2, message: 'text before the first "[AI User] " or "[AI Assistant] " line' }]);
    expect(camel.extract(new Map([['v.txt', 'nothing here']]), () => false).issues.map((i) => [i.line, i.message])).toEqual([
      [1, 'text before the first "[AI User] " or "[AI Assistant] " line'],
      [1, 'no "[AI User] " or "[AI Assistant] " line: not a CAMEL role-playing transcript'],
    ]);
  });

  it('reports a malformed snapshot by file and a bad record by line, and keeps the good records', () => {
    const bad = alf.extract(new Map([['bad.json', '[{"name": "env_1", ']]), () => false);
    expect(bad.entries).toEqual([]);
    expect(bad.issues[0]).toMatchObject({ file: 'bad.json', line: 1 });
    expect(bad.issues[0]?.message).toMatch(/malformed JSON/);
    const text = '[\n{"name": "env_1", "memory": ["Looked in drawer 1."]},\n{"name": "env_2", "memory": [42]}\n]';
    const mixed = alf.extract(new Map([['mixed.json', text]]), () => false);
    expect(mixed.entries.map((e) => e.content)).toEqual(['Looked in drawer 1.']);
    expect(mixed.issues).toEqual([{ file: 'mixed.json', line: 3, message: 'memory item 0 of env_2 is not a string' }]);
  });

  it('names the snapshot path when a snapshot file is missing', () => {
    const dir = path.join(tmp, 'empty');
    mkdirSync(dir);
    expect(() => extractRealSet(alf, dir)).toThrow(InputError);
    expect(() => extractRealSet(alf, dir)).toThrow(/env_results_trial_14\.json/);
  });

  it('`npm run extract-real-sets -- --check` exits 0 on the checked-in files and lists every set', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/extract-real-sets.ts', '--check'], { cwd: ROOT, encoding: 'utf8' });
    for (const s of REAL_SET_SPECS) expect(out).toMatch(new RegExp(`^${s.name}: \\d+ entries .* up to date$`, 'm'));
  });
});
