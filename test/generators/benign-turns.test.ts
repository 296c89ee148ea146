import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/domain/index.js';
import { allTemplatedTurns, templatedTurnGroup, templatedTurnId } from '../../generators/benign-turns.js';
import { contentWords, entityTokens, entryKind, isEntityFree, lexicalOverlap, SHORT_WORDS } from '../../generators/calibration/index.js';

describe('entity-free templated turns', () => {
  it('every turn of every domain names no entity, uses no guard vocabulary and is longer than a short observation', () => {
    for (const d of DOMAINS) {
      const turns = allTemplatedTurns(d);
      expect(turns.length).toBeGreaterThan(50);
      for (const t of turns) {
        expect(entityTokens(t), `${d}: ${t}`).toEqual(new Set());
        expect(entryKind(t), `${d}: ${t}`).toBe('ordinary');
        expect(contentWords(t).size, `${d}: ${t}`).toBeGreaterThan(SHORT_WORDS);
        expect(isEntityFree(t)).toBe(true);
      }
    }
  });

  it('a group shares its frame: its turns are drawn from one frame, and are deterministic per seed', () => {
    const groups = fc.sample(templatedTurnGroup('rap', 3), { seed: 5, numRuns: 60 });
    expect(fc.sample(templatedTurnGroup('rap', 3), { seed: 5, numRuns: 60 })).toEqual(groups);
    let within = 0;
    let across = 0;
    for (const [i, g] of groups.entries()) {
      expect(g).toHaveLength(3);
      for (const c of g) {
        expect(c.truth.template).toBe(templatedTurnId('rap'));
        expect(c.truth.label).toBe('benign');
        expect(c.entry.traceType).toBe((g[0] as (typeof g)[0]).entry.traceType);
      }
      const other = groups[(i + 1) % groups.length] as typeof g;
      within += lexicalOverlap((g[0] as (typeof g)[0]).entry.content, (g[1] as (typeof g)[0]).entry.content);
      across += lexicalOverlap((g[0] as (typeof g)[0]).entry.content, (other[1] as (typeof g)[0]).entry.content);
    }
    // Turns of one frame share more words (a recurring reply) than turns of two groups, which are often of other frames.
    expect(within).toBeGreaterThan(across * 1.3);
  });

  it('isEntityFree: a short observation and a text naming an id are not entity-free turns', () => {
    expect(isEntityFree('desk is idle')).toBe(false);
    expect(isEntityFree('I found your order W2378156 and it has not been shipped yet, so it can still change.')).toBe(false);
    expect(isEntityFree('I found your order and it has not been shipped yet, so the delivery address can still change before dispatch.')).toBe(true);
  });
});
