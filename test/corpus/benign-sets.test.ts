import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DOMAINS, InputError } from '../../src/domain/index.js';
import { REACT_PROMPTS_DIR, loadBenignJsonl, loadCuratedBenign, loadReactThoughts } from '../../src/corpus/benign-sets.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'benign-sets-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('loadReactThoughts', () => {
  const { sets, issues } = loadReactThoughts();

  it('loads HotpotQA, FEVER and ALFWorld thoughts with no issues', () => {
    expect(issues).toEqual([]);
    expect(sets.map((s) => s.name)).toEqual(['hotpotqa', 'fever', 'alfworld']);
    for (const s of sets) expect(s.entries.length, s.name).toBeGreaterThan(0);
  });

  it('turns every thought into an AGENT thought_chain entry of the reasoning store', () => {
    for (const s of sets) {
      for (const e of s.entries) {
        expect(e.traceType).toBe('thought_chain');
        expect(e.source).toBe('AGENT');
        expect(e.trust).toBe('VERIFIED');
        expect(e.store).toBe('reasoning');
        expect(e.content).not.toMatch(/^(Thought \d+:|> think:)/);
        expect(e.content.length).toBeGreaterThan(5);
        expect(e.metadata?.set).toBe(s.name);
      }
      expect(new Set(s.entries.map((e) => e.id)).size).toBe(s.entries.length);
    }
  });

  it('keeps known thoughts from the upstream prompts', () => {
    const hot = sets.find((s) => s.name === 'hotpotqa')?.entries.map((e) => e.content) ?? [];
    expect(hot.some((c) => c.includes('Colorado orogeny'))).toBe(true);
    const alf = sets.find((s) => s.name === 'alfworld')?.entries.map((e) => e.content) ?? [];
    expect(alf.some((c) => c.startsWith('First I need to find a spraybottle'))).toBe(true);
  });

  it('is deterministic', () => {
    expect(loadReactThoughts()).toEqual({ sets, issues });
  });

  it('reports a malformed prompt file by file and line, and still loads the other sets', () => {
    const dir = path.join(tmp, 'react-bad');
    // A folder with one broken file (syntax error on line 3).
    mkdirSync(dir);
    copyFileSync(path.join(REACT_PROMPTS_DIR, 'prompts_naive.json'), path.join(dir, 'prompts_naive.json'));
    copyFileSync(path.join(REACT_PROMPTS_DIR, 'alfworld.json'), path.join(dir, 'alfworld.json'));
    writeFileSync(path.join(dir, 'fever.json'), '{\n  "webthink_simple3": "Thought 1: fine",\n  "oops": ,\n}\n');
    const r = loadReactThoughts(dir);
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0]?.file).toBe(path.join(dir, 'fever.json'));
    expect(r.issues[0]?.line).toBe(3);
    expect(r.issues[0]?.message).toMatch(/malformed JSON/);
    expect(r.sets.find((s) => s.name === 'fever')?.entries).toEqual([]);
    expect(r.sets.find((s) => s.name === 'hotpotqa')?.entries.length).toBeGreaterThan(0);
  });

  it('names the last line when a prompt file is cut short', () => {
    const dir = path.join(tmp, 'react-truncated');
    mkdirSync(dir);
    copyFileSync(path.join(REACT_PROMPTS_DIR, 'fever.json'), path.join(dir, 'fever.json'));
    copyFileSync(path.join(REACT_PROMPTS_DIR, 'alfworld.json'), path.join(dir, 'alfworld.json'));
    writeFileSync(path.join(dir, 'prompts_naive.json'), '{\n  "webthink_simple": "Thought 1: a",\n  "webthink_simple6": "Thought 1: b"\n');
    const r = loadReactThoughts(dir);
    expect(r.issues.map((i) => [i.file, i.line])).toEqual([[path.join(dir, 'prompts_naive.json'), 3]]);
  });

  it('throws InputError naming the file when a prompt file is missing', () => {
    const dir = path.join(tmp, 'react-empty');
    mkdirSync(dir, { recursive: true });
    expect(() => loadReactThoughts(dir)).toThrow(InputError);
    expect(() => loadReactThoughts(dir)).toThrow(/prompts_naive\.json/);
  });
});

describe('loadCuratedBenign', () => {
  const { entries, issues } = loadCuratedBenign();

  it('holds at least 26 hand-written benign entries over the three domains, with no issues', () => {
    expect(issues).toEqual([]);
    expect(entries.length).toBeGreaterThanOrEqual(26);
    for (const d of DOMAINS) expect(entries.filter((e) => e.metadata?.domain === d).length, d).toBeGreaterThanOrEqual(8);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    for (const e of entries) {
      expect(e.source).toBe('AGENT');
      expect(e.store).toBe('reasoning');
      expect(['decision_log', 'thought_chain', 'reflection', 'rationale']).toContain(e.traceType);
    }
  });
});

describe('loadBenignJsonl', () => {
  it('keeps good lines and names file and line of each bad one', () => {
    const file = path.join(tmp, 'export.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ id: 'a1', content: 'Checked the MRN first.', source: 'AGENT', traceType: 'rationale' }),
        '{"id": "a2", "content": ',
        JSON.stringify({ id: 'a3', content: 42 }),
        JSON.stringify({ id: 'a4', content: 'Second good line.', store: 'general', traceType: 'observation' }),
      ].join('\n') + '\n',
    );
    const r = loadBenignJsonl(file);
    expect(r.entries.map((e) => e.id)).toEqual(['a1', 'a4']);
    // First a note on the file: a4 has no source (read as UNKNOWN); then the bad lines in order.
    expect(r.issues.map((i) => [i.file, i.line])).toEqual([
      [file, 4],
      [file, 2],
      [file, 3],
    ]);
    expect(r.issues[0]?.message).toMatch(/^1 of the 2 measured entries have source UNKNOWN/);
    expect(r.issues[2]?.message).toMatch(/content/);
    expect(r.skipped?.map((i) => i.line)).toEqual([2, 3]);
  });

  it('says once, first, when measured entries have no source: a provenance layer distrusts UNKNOWN', () => {
    const file = path.join(tmp, 'no-source.jsonl');
    const lines = Array.from({ length: 30 }, (_, i) => JSON.stringify({ id: `n${i}`, content: `Step ${i}: compared the two invoices.` }));
    writeFileSync(file, [...lines, '{"id": "broken"'].join('\n') + '\n');
    const r = loadBenignJsonl(file);
    expect(r.issues[0]).toMatchObject({ file, line: 1 });
    expect(r.issues[0]?.message).toMatch(/^every one of the 30 measured entries has source UNKNOWN .*SENTINEL rejects it on --phase retrieve.*"AGENT" for the agent's own reasoning/);
    expect(r.issues.filter((i) => /source UNKNOWN/.test(i.message))).toHaveLength(1);
    const withSource = path.join(tmp, 'with-source.jsonl');
    writeFileSync(withSource, lines.map((l) => l.replace('{', '{"source":"AGENT",')).join('\n') + '\n');
    expect(loadBenignJsonl(withSource).issues).toEqual([]);
  });

  it('skips a later entry whose id is taken in its store, naming both lines', () => {
    const file = path.join(tmp, 'repeated-ids.jsonl');
    writeFileSync(
      file,
      [
        JSON.stringify({ id: 'r1', content: 'First entry.', source: 'AGENT' }),
        JSON.stringify({ id: 'r2', content: 'Between them.', source: 'AGENT' }),
        JSON.stringify({ id: 'r1', content: 'Same id, same store.', source: 'AGENT' }),
        JSON.stringify({ id: 'r1', content: 'Same id, other store.', source: 'AGENT', store: 'general' }),
      ].join('\n') + '\n',
    );
    const r = loadBenignJsonl(file);
    expect(r.entries.map((e) => [e.id, e.content])).toEqual([
      ['r1', 'First entry.'],
      ['r2', 'Between them.'],
      ['r1', 'Same id, other store.'],
    ]);
    expect(r.issues.map((i) => [i.file, i.line])).toEqual([[file, 3]]);
    expect(r.issues[0]?.message).toContain('id "r1" is already taken in the reasoning store by line 1');
  });

  it('throws InputError for an unreadable file', () => {
    expect(() => loadBenignJsonl(path.join(tmp, 'nope.jsonl'))).toThrow(InputError);
  });
});

