/**
 * Runs the CLI in-process (`main(argv)`) with stdout and stderr captured, for the CLI tests.
 * Returns the exit code `main` gives and everything written to each stream.
 */
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

export async function runCli(argv: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  try {
    return { code: await main(argv), stderr, stdout };
  } finally {
    vi.restoreAllMocks();
  }
}
