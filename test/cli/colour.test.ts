/**
 * Colour at a terminal (src/cli/colour.ts): FORCE_COLOR wins (0/false off), then NO_COLOR
 * (set and not empty: off), then only a terminal whose TERM is not dumb; plain text elsewhere,
 * so logs, pipes and the tests read the same words.
 */
import { describe, expect, it } from 'vitest';
import { colourEnabled, paint } from '../../src/cli/colour.js';
import { runCli } from '../helpers/run-cli.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };
const ESC = '\u001b[';

describe('colourEnabled', () => {
  it.each([
    [tty, {}, true],
    [pipe, {}, false],
    [tty, { NO_COLOR: '1' }, false],
    [tty, { NO_COLOR: '' }, true],
    [tty, { TERM: 'dumb' }, false],
    [pipe, { FORCE_COLOR: '1' }, true],
    [pipe, { FORCE_COLOR: '' }, true],
    [tty, { FORCE_COLOR: '0' }, false],
    [tty, { FORCE_COLOR: 'false' }, false],
    [pipe, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
  ] as const)('%j with %j: %s', (stream, env, want) => {
    expect(colourEnabled(stream, env)).toBe(want);
  });
});

describe('paint', () => {
  it('colours the verdict marks and the exit line, keeping the words', () => {
    const text = '    ✓ benign  FPR 0.0%\n    ✗ naive   bypass 60.0%\nexit 1: decided by invariants FAIL.';
    const out = paint(tty, {})(text);
    expect(out).toContain(`${ESC}31m✗`);
    expect(out).toContain(`${ESC}32m✓`);
    expect(out).toMatch(/\u001b\[1m\u001b\[31mexit 1: decided by invariants FAIL\./);
    expect(out.replace(/\u001b\[\d+m/g, '')).toBe(text);
    expect(paint(pipe, {})(text)).toBe(text);
  });

  it('a fuzz run prints colour when FORCE_COLOR asks and plain text with NO_COLOR', async () => {
    const args = ['fuzz', '--guard', 'none', '-d', 'ehr', '-f', 'benign', '-n', '5', '-s', '1', '--no-real', '--no-corpus', '--no-html', '-q', '--out', `${process.env.TMPDIR ?? '/tmp'}/ff-colour-${process.pid}`];
    const saved = { force: process.env.FORCE_COLOR, no: process.env.NO_COLOR };
    try {
      process.env.FORCE_COLOR = '1';
      const coloured = await runCli(args);
      expect(coloured.stdout).toContain(`${ESC}32m✓`);
      delete process.env.FORCE_COLOR;
      process.env.NO_COLOR = '1';
      const plain = await runCli(args);
      expect(plain.stdout).not.toContain(ESC);
      expect(plain.stdout).toContain('exit 0: decided by invariants pass.');
    } finally {
      if (saved.force === undefined) delete process.env.FORCE_COLOR;
      else process.env.FORCE_COLOR = saved.force;
      if (saved.no === undefined) delete process.env.NO_COLOR;
      else process.env.NO_COLOR = saved.no;
    }
  });
});
