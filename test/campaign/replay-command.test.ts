/**
 * The replay command printed with every counterexample never carries the password
 * of a `--guard http://user:password@host/…` URL, even one too short for the general redaction.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayCommand } from '../../src/campaign/replay-command.js';

describe('replay commands drop a guard URL password', () => {
  it.each([
    ['http://farma:pw1@127.0.0.1:8080/check', "'http://farma:[redacted]@127.0.0.1:8080/check'"],
    ['https://u:a-long-password@host/v1/check?x=1', "'https://u:[redacted]@host/v1/check?x=1'"],
    ['http://justuser@host/check', 'http://justuser@host/check'],
    ['http://host/check', 'http://host/check'],
    ['sentinel', 'sentinel'],
  ])('%s', (spec, shown) => {
    const cmd = replayCommand(spec, 'abc123', 'corpora/regressions');
    expect(cmd).toContain(`replay --guard ${shown} --id abc123`);
    expect(cmd).not.toContain('pw1');
    expect(cmd).not.toContain('a-long-password');
  });
});

describe('replayCommand: the guard spec as a user would type it', () => {
  it('writes an absolute module path under the working folder as ./… (a config file makes its guard path absolute)', () => {
    const abs = path.join(process.cwd(), 'guards', 'my-guard.ts');
    const cmd = replayCommand(abs, 'abc123', 'corpora/regressions');
    expect(cmd).toContain('replay --guard ./guards/my-guard.ts --id abc123');
    expect(cmd).not.toContain(process.cwd());
  });

  it('keeps an absolute path outside the working folder, and built-in ids, as given', () => {
    const outside = path.resolve(process.cwd(), '..', 'elsewhere', 'g.mjs');
    expect(replayCommand(outside, 'x', 'corpora/regressions')).toContain(`--guard ${outside} --id x`);
    expect(replayCommand('exec:python3 g.py', 'x', 'corpora/regressions')).toContain(`--guard 'exec:python3 g.py' --id x`);
  });
});
