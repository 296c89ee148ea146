/**
 * Runs the CLI in-process (`main(argv)`) with stdout and stderr captured, for the CLI tests.
 * Returns the exit code `main` gives and everything written to each stream. A test about the
 * process itself (its real streams, signals, start-up) spawns it instead (`test/helpers/spawn-cli.ts`).
 */
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

/**
 * `env`, when given, is set in `process.env` for the call (a value of `undefined` removes the
 * variable) and put back as it was afterwards, as a spawned CLI would see it in its environment.
 */
export async function runCli(argv: string[], o: { env?: Record<string, string | undefined> } = {}): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  const saved = Object.entries(o.env ?? {}).map(([k]) => [k, process.env[k]] as const);
  for (const [k, v] of Object.entries(o.env ?? {})) setVar(k, v);
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  try {
    return { code: await main(argv), stderr, stdout };
  } finally {
    vi.restoreAllMocks();
    for (const [k, v] of saved) setVar(k, v);
  }
}

function setVar(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
