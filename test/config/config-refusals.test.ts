/**
 * Config values that used to be accepted silently, only warned about, or that ended
 * in an internal error, are refused with exit 2 and a message naming where they were written:
 * - `--guard-option __proto__.polluted=1` (it was ignored with the same config hash; and it set
 *   `Object.prototype.polluted`), and `constructor`/`prototype` parts or JSON keys;
 * - a config file whose default export is a Promise (a rejected one ran on the defaults);
 * - a config file whose default export (or its `guardOptions`) is a Proxy (exit 5);
 * - `guardOptions.constructor` in a config file (reported as if from `--guard-option`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/index.js';
import { UsageError } from '../../src/domain/errors.js';
import { parseGuardOptionFlags } from '../../src/guards/guard-options.js';
import { runCli } from '../helpers/run-cli.js';
import { spawnCli } from '../helpers/spawn-cli.js';

const dirs: string[] = [];
function configFile(body: string): string {
  const d = mkdtempSync(path.join(tmpdir(), 'ff-config-refuse-'));
  dirs.push(d);
  const f = path.join(d, 'farma-fuzz.config.mjs');
  writeFileSync(f, body);
  return f;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  delete (Object.prototype as Record<string, unknown>)['polluted'];
});

async function refusal(file: string): Promise<UsageError> {
  const err = await loadConfigFile(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, file).toBeInstanceOf(UsageError);
  return err as UsageError;
}

describe('--guard-option with a reserved property name (22.14)', () => {
  it.each(['__proto__.polluted=1', 'constructor.x=1', 'weights.__proto__.s1=0.3', 'config.prototype=1', '__proto__=1'])('%s is refused and pollutes nothing', (flag) => {
    expect(() => parseGuardOptionFlags([flag])).toThrow(UsageError);
    expect(() => parseGuardOptionFlags([flag])).toThrow(/--guard-option .*is not an option name/);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a JSON value with a __proto__ key is refused', () => {
    expect(() => parseGuardOptionFlags(['weights={"__proto__":{"polluted":1}}'])).toThrow(/weights\.__proto__.*is not an option name/);
  });

  it('fuzz --guard-option __proto__.polluted=1 exits 2', async () => {
    const r = await runCli(['fuzz', '--guard', 'sentinel', '--guard-option', '__proto__.polluted=1', '--runs', '2', '--domain', 'ehr', '--family', 'seed', '--no-real', '--no-corpus', '-q']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/__proto__/);
  });
});

describe('config files that are refused, naming the file (22.14)', () => {
  it('a default export that is a rejected Promise', async () => {
    const f = configFile(`export default Promise.reject(new Error('no config today'));\n`);
    const e = await refusal(f);
    expect(e.message).toContain(f);
    expect(e.message).toMatch(/Promise/);
  });

  it('a default export that is a resolving Promise', async () => {
    const f = configFile(`export default Promise.resolve({ runs: 3 });\n`);
    expect((await refusal(f)).message).toMatch(new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*Promise`));
  });

  it('a default export that is a Proxy, even a harmless one', async () => {
    const f = configFile(`export default new Proxy({ runs: 3 }, {});\n`);
    const e = await refusal(f);
    expect(e.message).toContain(f);
    expect(e.message).toMatch(/Proxy/);
  });

  it('a Proxy whose traps throw', async () => {
    const f = configFile(`export default new Proxy({}, { ownKeys() { throw new Error('trap'); }, get() { throw new Error('trap'); } });\n`);
    expect((await refusal(f)).message).toContain(f);
  });

  it('guardOptions that are a Proxy', async () => {
    const f = configFile(`export default { guard: 'sentinel', guardOptions: new Proxy({ tauGuard: 0.4 }, {}) };\n`);
    const e = await refusal(f);
    expect(e.message).toMatch(/guardOptions.*Proxy/);
  });

  it.each(['constructor', '__proto__', 'prototype'])('guardOptions.%s names the file, not --guard-option', async (key) => {
    const f = configFile(`export default { guard: 'sentinel', guardOptions: JSON.parse('{"${key}": {"x": 1}}') };\n`);
    const e = await refusal(f);
    expect(e.message).toContain(`${f}: guardOptions.${key}`);
    expect(e.message).not.toMatch(/^--guard-option/);
  });

  it('fuzz with a rejected-Promise config exits 2 and does not run', async () => {
    const f = configFile(`export default Promise.reject(new Error('no config today'));\n`);
    const r = await runCli(['fuzz', '--config', f, '--runs', '2', '--domain', 'ehr', '--family', 'seed', '--no-real', '--no-corpus', '-q']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(f);
    expect(r.stdout).not.toMatch(/RESULT/);
  });
});

describe('fuzz --no-config', () => {
  it('reads no farma-fuzz.config.* of the folder: a broken one there stops a run without the flag, not with it', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'farma-no-config-'));
    try {
      writeFileSync(path.join(dir, 'farma-fuzz.config.mjs'), 'export default { runs: "many" };\n');
      const args = ['fuzz', '--guard', 'none', '--runs', '2', '--domain', 'ehr', '--family', 'seed', '--no-real', '--no-corpus', '--out', path.join(dir, 'out'), '-q'];
      const withFile = await spawnCli(args, { cwd: dir });
      expect(withFile.code, withFile.stderr).toBe(2);
      expect(withFile.stderr).toContain('farma-fuzz.config.mjs');
      const without = await spawnCli([...args, '--no-config'], { cwd: dir });
      expect(without.stderr).not.toContain('farma-fuzz.config.mjs');
      expect(without.code, without.stderr).toBe(1); // `none` admits the seed traces: the invariants fail, the run ran
      expect(without.stdout).not.toMatch(/\(config /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
