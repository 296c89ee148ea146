/**
 * The replay command printed with every counterexample (`fuzz`, `replay --id`): names the
 * guard, its options, the id, the corpus when it is not the default one, and the phase.
 */
import path from 'node:path';
import type { Phase } from '../domain/guard.js';
import { guardOptionFlags } from '../guards/guard-options.js';
import { cliCommand } from './cli-command.js';

/**
 * `spec` with the password of an http(s) URL's `user:password@` replaced by `[redacted]`, whatever
 * its length (a printed command must not carry it; the longer ones are also hidden
 * by the general redaction, which leaves out values under 6 characters).
 */
function withoutPassword(spec: string): string {
  if (!/^https?:\/\//i.test(spec)) return spec;
  const m = /^(https?:\/\/[^/@:]*:)([^/@]*)@/i.exec(spec);
  return m && m[2] !== '' ? `${m[1]}[redacted]@${spec.slice(m[0].length)}` : spec;
}

/**
 * A guard module path as a user would type it: an absolute path under the working folder
 * (a config file's `guard: './my-guard.ts'` arrives made absolute) becomes `./…`, so the
 * printed command still works after the project folder moves; any other spec is unchanged.
 */
function typedGuardSpec(guardSpec: string, cwd: string): string {
  if (!path.isAbsolute(guardSpec)) return guardSpec;
  const rel = path.relative(cwd, guardSpec);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return guardSpec;
  return `./${rel.split(path.sep).join('/')}`;
}

/** Command that replays one corpus record (or says how to keep it, when the corpus is off). */
export function replayCommand(guardSpec: string, id: string, corpusDir?: string, phase: Phase = 'write', guardOptions: Record<string, unknown> = {}): string {
  const shellQuote = (x: string): string => (/^[\w@%+=:,./-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`);
  const quoted = shellQuote(typedGuardSpec(withoutPassword(guardSpec), process.cwd())) + guardOptionFlags(guardOptions).map((f) => ` --guard-option ${shellQuote(f)}`).join('');
  if (corpusDir === undefined) return `(not saved: --no-corpus was given; run again without it to keep this case as ${id})`;
  const corpus = path.resolve(corpusDir) !== path.resolve('corpora/regressions') ? ` --corpus ${corpusDir}` : '';
  return `${cliCommand()} replay --guard ${quoted} --id ${id}${corpus}${phase === 'retrieve' ? ' --phase retrieve' : ''}`;
}
