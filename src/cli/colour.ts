/**
 * Colour on a terminal, through picocolors' `createColors` (https://github.com/alexeyraspopov/picocolors),
 * with the usual switches: `FORCE_COLOR` wins when set (`0` or `false` turns colour off, any other
 * value on), then `NO_COLOR` when set and not empty turns it off (https://no-color.org), then
 * colour only when the stream is a terminal whose `TERM` is not `dumb`. Files, pipes and CI
 * logs get plain text unless `FORCE_COLOR` asks.
 */
import pc from 'picocolors';

/** Whether `stream` gets colour under `env` (see the file comment). */
export function colourEnabled(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/**
 * Colours the verdict words of console lines for `stream`, or returns them unchanged without
 * colour: `✓` green, `✗` red, `RESULT:` lines and `exit N:` lines green for a pass and red
 * otherwise, `finding:` and `guard failure:` lines yellow. The text is otherwise the same.
 * @example
 * process.stdout.write(paint(process.stdout)(lines.join('\n')));
 */
export function paint(stream: { isTTY?: boolean }, env: Readonly<Record<string, string | undefined>> = process.env): (text: string) => string {
  if (!colourEnabled(stream, env)) return (text) => text;
  const c = pc.createColors(true);
  return (text) =>
    text
      .split('\n')
      .map((line) => {
        if (/^RESULT: every invariant held/.test(line) || /^exit 0:/.test(line)) return c.bold(c.green(line));
        if (/^RESULT: /.test(line) || /^exit \d+:/.test(line)) return c.bold(c.red(line));
        if (/^(finding|guard failure): /.test(line)) return c.yellow(line);
        return line.replace(/✓/g, c.green('✓')).replace(/✗/g, c.red('✗'));
      })
      .join('\n');
}
