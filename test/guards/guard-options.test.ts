import path from 'node:path';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GUARD_OPTION_SCHEMAS, SENTINEL_CONFIG_SCHEMA, guardOptionFlags, parseGuardOptionFlags, validateGuardOptions } from '../../src/guards/guard-options.js';
import { DEFAULT_SENTINEL_CONFIG } from '../../src/guards/sentinel/config.js';
import { createGuard, GUARDS } from '../../src/guards/registry.js';
import { runCli } from '../helpers/run-cli.js';

describe('--guard-option parsing and validation', () => {
  it('parses JSON values, plain strings and dotted keys; later flags win; the base is not changed', () => {
    const base = { tauGuard: 0.5 };
    const o = parseGuardOptionFlags(['tauGuard=0.25', 'layers=["L1-keyword","L5-reasoning-guard"]', 'weights.s1=0.2', 'precedentCountStore=all', 'weights.s2=0.2'], base);
    expect(o).toEqual({ tauGuard: 0.25, layers: ['L1-keyword', 'L5-reasoning-guard'], weights: { s1: 0.2, s2: 0.2 }, precedentCountStore: 'all' });
    expect(base).toEqual({ tauGuard: 0.5 });
    expect(() => parseGuardOptionFlags(['tauGuard'])).toThrow(/expected key=value/);
    expect(() => parseGuardOptionFlags(['a..b=1'])).toThrow(/empty part/);
  });

  it('guardOptionFlags is the inverse of parseGuardOptionFlags', () => {
    const o = { config: { tauGuard: 0.25, weights: { s1: 0.3 } }, layers: ['L1-keyword'] };
    expect(parseGuardOptionFlags(guardOptionFlags(o))).toEqual(o);
  });

  it('SENTINEL: top-level config fields go into config; the guard is built with them', () => {
    const o = validateGuardOptions('sentinel', { tauGuard: 0.25, layers: ['L1-keyword', 'L5-reasoning-guard'] });
    expect(o).toEqual({ layers: ['L1-keyword', 'L5-reasoning-guard'], config: { tauGuard: 0.25 } });
    const g = createGuard('sentinel', o) as unknown as { config: typeof DEFAULT_SENTINEL_CONFIG };
    expect(g.config.tauGuard).toBe(0.25);
    expect(g.config.phaseLayers.retrieve).toEqual(['L1-keyword', 'L5-reasoning-guard']);
    // No default changes when no option is given.
    expect((createGuard('sentinel') as unknown as { config: typeof DEFAULT_SENTINEL_CONFIG }).config).toEqual(DEFAULT_SENTINEL_CONFIG);
  });

  it('the SENTINEL config schema knows every config field and accepts the defaults', () => {
    expect(Object.keys(SENTINEL_CONFIG_SCHEMA.shape).sort()).toEqual(Object.keys(DEFAULT_SENTINEL_CONFIG).sort());
    expect(SENTINEL_CONFIG_SCHEMA.safeParse(DEFAULT_SENTINEL_CONFIG).success).toBe(true);
    expect(Object.keys(GUARD_OPTION_SCHEMAS).sort()).toEqual(Object.keys(GUARDS).sort());
  });

  it.each([
    ['sentinel', { tauGuardx: 0.2 }, /--guard-option tauGuardx: unknown key for guard sentinel \(did you mean "tauGuard"\?\); valid keys: layers, config, weights, tauGuard/],
    ['sentinel', { weights: { s9: 0.2 } }, /--guard-option weights.s9: unknown key .*valid keys under weights: s1, s2, s3, s4, s5/],
    ['sentinel', { tauGuard: 2 }, /^--guard-option tauGuard=2: expected a number at most 1, got the number 2 \(guard sentinel\)$/],
    ['sentinel', { layers: ['L9'] }, /--guard-option layers.0="L9": expected one of "L1-keyword", .*got the string "L9"/],
    ['keyword', { foo: 1 }, /--guard-option foo: unknown key for guard keyword; valid keys: keywords, extraKeywords/],
    ['none', { x: 1 }, /valid keys: \(none\)/],
    ['amemguard', { k: 'many' }, /^--guard-option k="many": expected a number, got the string "many" \(guard amemguard\)$/],
    ['amemguard', { store: 'x' }, /--guard-option store="x": expected one of "reasoning", "general", got the string "x"/],
  ] as const)('%s %j is a usage error naming the key', (id, options, message) => {
    expect(() => validateGuardOptions(id, options as Record<string, unknown>)).toThrow(message);
  });
});

describe('--guard-option on the command line', () => {
  afterEach(() => vi.restoreAllMocks());
  const run = runCli;

  it('a wrong key exits 2 and lists the valid keys', async () => {
    const r = await run(['fuzz', '--guard', 'sentinel', '--guard-option', 'tauGard=0.25', '--no-corpus', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/tauGard: unknown key .* tauGuard/);
  });

  it('a value of the wrong type exits 2 echoing the key, the value and the expected type', async () => {
    const r = await run(['fuzz', '--guard', 'sentinel', '--guard-option', 'tauGuard=high', '--no-corpus', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--guard-option tauGuard="high": expected a number, got the string "high"');
    const list = await run(['fuzz', '--guard', 'sentinel', '--guard-option', 'layers=["L1-keyword","L9"]', '--no-corpus', '-q']);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('--guard-option layers=["L1-keyword","L9"]: layers.1: expected one of "L1-keyword"');
    expect(list.stderr).toContain('got the string "L9"');
  });

  it('a bad value in the config file names the file and the key; a flag that overrides it wins', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-gopt-cfg-'));
    const file = path.join(dir, 'farma-fuzz.config.mjs');
    writeFileSync(file, "export default { guardOptions: { tauGuard: 'high', weights: { s2: -1 } } };\n");
    const r = await run(['fuzz', '--config', file, '--guard-option', 'weights.s2=0.2', '--no-corpus', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path.relative(process.cwd(), file)}: guardOptions.tauGuard: expected a number, got the string "high"`);
    const flag = await run(['fuzz', '--config', file, '--guard-option', 'tauGuard=7', '--guard-option', 'weights.s2=0.2', '--no-corpus', '-q']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--guard-option tauGuard=7: expected a number at most 1, got the number 7');
  });

  it('a module guard refuses guard options with exit 2', async () => {
    const r = await run(['fuzz', '--guard', './test/fixtures/guards/default-guard.mjs', '--guard-option', 'x=1', '--no-corpus', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/applies to the built-in guards/);
  });

  it('options reach the guard and are hashed into the report with the replay command carrying them', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'farma-gopt-'));
    const args = ['fuzz', '--guard', 'sentinel', '--domain', 'ehr', '--family', 'seed', '--runs', '20', '--seed', '3', '--no-corpus', '--no-real', '--no-html', '-q'];
    await run([...args, '--out', path.join(out, 'a')]);
    await run([...args, '--out', path.join(out, 'b'), '--guard-option', 'tauGuard=0.25']);
    const a = JSON.parse(readFileSync(path.join(out, 'a', 'report.json'), 'utf8'));
    const b = JSON.parse(readFileSync(path.join(out, 'b', 'report.json'), 'utf8'));
    expect(b.config.guardOptions).toEqual({ tauGuard: 0.25 });
    expect(a.config.guardOptions).toBeUndefined();
    expect(b.config.guardConfigHash).not.toBe(a.config.guardConfigHash);
    // tau 0.25 rejects seed traces that tau 0.5 admits.
    expect(b.cells[0].violations).toBeLessThan(a.cells[0].violations);
  });
});
