/**
 * The built-in guard registry.
 */
import { describe, expect, it } from 'vitest';
import { GuardLoadError, UsageError } from '../../src/domain/index.js';
import { createGuard, GUARDS, isBuiltinGuardId, listGuards } from '../../src/guards/registry.js';

describe('guard registry', () => {
  it('builds each built-in guard under its own id', () => {
    for (const id of Object.keys(GUARDS)) {
      const g = createGuard(id);
      expect(g.id).toBe(id);
      expect(g.mode).toBe('sync');
    }
    expect(listGuards().map((g) => g.id)).toEqual(['sentinel', 'none', 'keyword', 'amemguard']);
    expect(listGuards().every((g) => g.description.length > 0)).toBe(true);
  });
  it('an unknown id throws GuardLoadError naming every known id', () => {
    expect(() => createGuard('sentinal')).toThrow(GuardLoadError);
    try {
      createGuard('sentinal');
    } catch (e) {
      const msg = (e as Error).message;
      expect(msg).toContain('sentinal');
      for (const id of Object.keys(GUARDS)) expect(msg).toContain(id);
    }
    expect(() => createGuard('toString')).toThrow(GuardLoadError);
    expect(isBuiltinGuardId('__proto__')).toBe(false);
  });
  it('passes options through and validates them', () => {
    const s = createGuard('sentinel', { layers: ['L5-reasoning-guard'], config: { tauGuard: 0.4 } }) as { config: { tauGuard: number; phaseLayers: { retrieve: string[] } } };
    expect(s.config.tauGuard).toBe(0.4);
    expect(s.config.phaseLayers.retrieve).toEqual(['L5-reasoning-guard']);
    expect(() => createGuard('sentinel', { layers: ['L7'] })).toThrow(UsageError);
    expect(() => createGuard('keyword', { keywords: 'skip' })).toThrow(UsageError);
    expect((createGuard('keyword', { keywords: ['halt'] }).config as { keywords: string[] }).keywords).toEqual(['halt']);
  });
});
