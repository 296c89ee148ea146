/**
 * SentinelConfig: paper defaults, merging, validation, hashing, and that docs/sentinel.md
 * documents every constant.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/domain/index.js';
import { DEFAULT_SENTINEL_CONFIG, resolveSentinelConfig, sentinelConfigHash, createSentinel } from '../../src/guards/sentinel/index.js';

describe('SentinelConfig', () => {
  it('holds the paper values (§IV-B, §IV-E)', () => {
    const c = DEFAULT_SENTINEL_CONFIG;
    expect(c.weights).toEqual({ s1: 0.2, s2: 0.2, s3: 0.2, s4: 0.2, s5: 0.2 });
    expect(c.tauGuard).toBe(0.5);
    expect(c.s3Tiers).toEqual(expect.arrayContaining([{ minMatches: 3, score: 0.5 }, { minMatches: 4, score: 0.75 }, { minMatches: 6, score: 1 }]));
    expect(c.sourceTaint).toEqual({ SYSTEM: 0, AGENT: 0, TOOL: 0.4, EXTERNAL: 0.4 });
    expect(c.unknownSourceTaint).toBe(1);
    expect(c.phaseLayers.write).toEqual(['L1-keyword', 'L5-reasoning-guard']);
    expect(c.phaseLayers.retrieve).toHaveLength(5);
  });
  it('keeps direct TOOL taint admissible and makes any propagation step exceed tauTaint (paper §IV-B intent)', () => {
    const c = DEFAULT_SENTINEL_CONFIG;
    expect(c.sourceTaint.TOOL! > c.tauTaint).toBe(false);
    expect(c.sourceTaint.TOOL! + c.taintPropagation.increment > c.tauTaint).toBe(true);
  });
  it('merges plain objects one level deep and replaces arrays', () => {
    const c = resolveSentinelConfig({ sourceTaint: { TOOL: 0.3 } as never, keywords: ['halt'] });
    expect(c.sourceTaint).toEqual({ SYSTEM: 0, AGENT: 0, TOOL: 0.3, EXTERNAL: 0.4 });
    expect(c.keywords).toEqual(['halt']);
    expect(c.tauGuard).toBe(0.5);
  });
  it('rejects invalid values with UsageError', () => {
    expect(() => resolveSentinelConfig({ weights: { s1: 0.5, s2: 0.5, s3: 0.5, s4: 0, s5: 0 } })).toThrow(UsageError);
    expect(() => resolveSentinelConfig({ tauGuard: 1.5 })).toThrow(UsageError);
    expect(() => resolveSentinelConfig({ s3Tiers: [{ minMatches: 0, score: 0.5 }] })).toThrow(UsageError);
    expect(() => createSentinel({ config: { maliciousPatterns: ['(unclosed'] } })).toThrow(/maliciousPatterns/);
  });
  it('the hash is a stable sha256 hex and changes when any constant changes', () => {
    const h = sentinelConfigHash(DEFAULT_SENTINEL_CONFIG);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(sentinelConfigHash(resolveSentinelConfig({}))).toBe(h);
    expect(sentinelConfigHash(resolveSentinelConfig({ tauGuard: 0.45 }))).not.toBe(h);
    expect(sentinelConfigHash(resolveSentinelConfig({ largePrecedentCount: 51 }))).not.toBe(h);
    expect(sentinelConfigHash(resolveSentinelConfig({ forgeryPhrases: [...DEFAULT_SENTINEL_CONFIG.forgeryPhrases, 'x'] }))).not.toBe(h);
  });
  it('docs/sentinel.md has a row for every config key', () => {
    const doc = readFileSync(new URL('../../docs/sentinel.md', import.meta.url), 'utf8');
    for (const key of Object.keys(DEFAULT_SENTINEL_CONFIG)) expect(doc, key).toContain(`\`${key}`);
  });
});
