/**
 * The replay command printed with every counterexample never carries the password
 * of a `--guard http://user:password@host/…` URL, even one too short for the general redaction.
 */
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
