/** Unknown names on the command line get a "did you mean" (guard ids, list values, list kinds, flags, commands), and only a close one. */
import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean } from '../../src/domain/suggest.js';
import { runCli } from '../helpers/run-cli.js';

describe('closestNames', () => {
  const GUARDS = ['sentinel', 'none', 'keyword', 'amemguard'];
  it('finds a typo, a case or separator difference and a prefix, closest first', () => {
    expect(closestNames('sentinal', GUARDS)).toEqual(['sentinel']);
    expect(closestNames('SENTINEL', GUARDS)).toEqual(['sentinel']);
    expect(closestNames('thought-chain', ['decision_log', 'thought_chain'])).toEqual(['thought_chain']);
    expect(closestNames('amem', GUARDS)).toEqual(['amemguard']);
    expect(closestNames('reflexion', ['rationale', 'reflection'])).toEqual(['reflection']);
  });
  it('suggests nothing far away, and never the name itself', () => {
    expect(closestNames('foo', GUARDS)).toEqual([]);
    expect(closestNames('x', GUARDS)).toEqual([]);
    expect(closestNames('SUPER', ['VERIFIED', 'UNVERIFIED'])).toEqual([]);
    expect(closestNames('none', GUARDS)).toEqual([]);
    expect(didYouMean('zzz', GUARDS)).toBe('');
  });
  it('joins several candidates with "or"', () => {
    expect(didYouMean('ab', ['abc', 'abd'])).toBe(' (did you mean "abc" or "abd"?)');
  });
});

describe('the command line suggests the name meant', () => {
  it.each([
    [['fuzz', '--guard', 'sentinal'], 'unknown guard "sentinal" (did you mean "sentinel"?)'],
    [['check', '--guard', 'keywrd', '--input', '/dev/null'], 'unknown guard "keywrd" (did you mean "keyword"?)'],
    [['fuzz', '--domain', 'ehr,raps'], '--domain: unknown value "raps" (did you mean "rap"?)'],
    [['fuzz', '--family', 'seeds'], '--family: unknown value "seeds" (did you mean "seed"?)'],
    [['list', 'gaurds'], 'list: unknown kind "gaurds" (did you mean "guards"?)'],
    [['fuzz', '--gaurd', 'sentinel'], "unknown option '--gaurd'\n(Did you mean --guard?)"],
    [['fuz'], "unknown command 'fuz'\n(Did you mean fuzz?)"],
  ])('%j exits 2 with the suggestion', async (argv, message) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
  it('an unknown guard far from every id gets the list, not a guess', async () => {
    const r = await runCli(['fuzz', '--guard', 'xyzzy']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown guard "xyzzy". Built-in guards: sentinel, none, keyword, amemguard');
  });
});

describe('a case-only difference', () => {
  it('is the one suggestion, even when another name is near', () => {
    expect(closestNames('verified', ['VERIFIED', 'UNVERIFIED'])).toEqual(['VERIFIED']);
    expect(closestNames('unverfied', ['VERIFIED', 'UNVERIFIED'])).toEqual(['UNVERIFIED']);
  });
});

describe('--guard-option keys', () => {
  it('an unknown key names the closest valid one before the list', async () => {
    const r = await runCli(['fuzz', '--guard-option', 'tauGaurd=0.2', '--runs', '1', '--no-real', '--no-corpus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--guard-option tauGaurd: unknown key for guard sentinel (did you mean "tauGuard"?); valid keys: layers, config');
  });
});
