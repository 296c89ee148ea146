/**
 * The replay command printed with every counterexample (`fuzz`, `replay --id`): names the
 * guard, its options, the id, the corpus when it is not the default one, and the phase.
 */
import path from 'node:path';
import type { Phase } from '../domain/guard.js';
import { guardOptionFlags } from '../guards/guard-options.js';
import { cliCommand } from './cli-command.js';

/** Command that replays one corpus record (or says how to keep it, when the corpus is off). */
export function replayCommand(guardSpec: string, id: string, corpusDir?: string, phase: Phase = 'write', guardOptions: Record<string, unknown> = {}): string {
  const shellQuote = (x: string): string => (/^[\w@%+=:,./-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`);
  const quoted = shellQuote(guardSpec) + guardOptionFlags(guardOptions).map((f) => ` --guard-option ${shellQuote(f)}`).join('');
  if (corpusDir === undefined) return `(not saved: --no-corpus was given; run again without it to keep this case as ${id})`;
  const corpus = path.resolve(corpusDir) !== path.resolve('corpora/regressions') ? ` --corpus ${corpusDir}` : '';
  return `${cliCommand()} replay --guard ${quoted} --id ${id}${corpus}${phase === 'retrieve' ? ' --phase retrieve' : ''}`;
}
