/**
 * Turns a `--guard <spec>` string into a Guard: a built-in id, a module file, an HTTP
 * endpoint or a subprocess command. Spec forms are listed in `docs/guard-protocol.md`.
 */
import { GuardLoadError } from '../domain/index.js';
import { didYouMean } from '../domain/suggest.js';
import type { Guard } from '../domain/index.js';
import type { ExecGuardOptions, HttpGuardOptions, ModuleGuardOptions } from './adapters/index.js';

/** What a spec string names. */
export type GuardSpecKind = 'builtin' | 'module' | 'http' | 'exec';

/** The accepted spec forms, for help texts and error messages. */
export const GUARD_SPEC_FORMS = [
  '<id>                  a built-in guard',
  './path/guard.ts       a module (.ts, .mts, .cts, .js, .mjs, .cjs, or any path with a "/")',
  'http(s)://host/path   an HTTP endpoint',
  'exec:<command>        a subprocess speaking JSON lines',
] as const;

export interface ResolveGuardDeps {
  /** Builds a built-in guard by id (the lead wires the guard registry in here). */
  createBuiltin: (id: string) => Guard;
  /** The built-in ids, listed when a spec names none of them. */
  knownIds: readonly string[];
}

export interface ResolveGuardOptions {
  /** Per-entry time bound in ms for every adapter, unless the adapter's own options set one. */
  timeoutMs?: number;
  /**
   * Most checks in flight at once (the engine's `--concurrency`): the exec adapter's pool size
   * and the HTTP adapter's keep-alive connections, unless their own options set one. Module
   * and built-in guards ignore it (they run in this process). Default 8 (`DEFAULT_ADAPTER_CONCURRENCY`).
   */
  concurrency?: number;
  module?: ModuleGuardOptions;
  http?: HttpGuardOptions;
  exec?: ExecGuardOptions;
}

const MODULE_EXT = /\.(?:ts|mts|cts|js|mjs|cjs)$/i;

/**
 * Classifies a spec without loading anything.
 * `http://`/`https://` → http; `exec:` → exec; a module extension or a path separator → module;
 * anything else → builtin.
 */
export function guardSpecKind(spec: string): GuardSpecKind {
  if (/^https?:\/\//i.test(spec)) return 'http';
  if (spec.startsWith('exec:')) return 'exec';
  if (MODULE_EXT.test(spec) || spec.includes('/') || spec.includes('\\')) return 'module';
  return 'builtin';
}

/**
 * Resolves a guard spec (see {@link guardSpecKind}) to a ready Guard.
 *
 * @param spec e.g. `sentinel`, `./my-guard.ts`, `http://127.0.0.1:8787/check`, `exec:python3 guard.py`.
 * @throws GuardLoadError for an unknown built-in id (listing the known ids and the spec
 *   forms), an empty `exec:` command, a bad URL, or a module that cannot be loaded.
 * @example
 * const guard = await resolveGuard('exec:python3 examples/exec-guard.py', {
 *   createBuiltin: (id) => createGuard(id),
 *   knownIds: Object.keys(GUARDS),
 * });
 */
export async function resolveGuard(spec: string, deps: ResolveGuardDeps, options: ResolveGuardOptions = {}): Promise<Guard> {
  const timeout = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {};
  if (options.concurrency !== undefined && !(Number.isInteger(options.concurrency) && options.concurrency >= 1)) {
    throw new GuardLoadError(`guard ${spec}: concurrency must be an integer >= 1, got ${options.concurrency}`, { code: 'usage' });
  }
  const pool = options.concurrency !== undefined ? { concurrency: options.concurrency } : {};
  switch (guardSpecKind(spec)) {
    case 'http':
      // Adapters load on demand (they pull in zod and p-limit), so a CLI start stays light.
      return (await import('./adapters/index.js')).createHttpGuard(spec, { ...timeout, ...pool, ...options.http });
    case 'exec': {
      const command = spec.slice('exec:'.length).trim();
      if (!command) throw new GuardLoadError(`guard spec "${spec}" has no command after "exec:"`, { code: 'usage' });
      return (await import('./adapters/index.js')).createExecGuard(command, { ...timeout, ...pool, ...options.exec });
    }
    case 'module':
      return (await import('./adapters/index.js')).loadModuleGuard(spec, { ...timeout, ...options.module });
    case 'builtin':
      if (!deps.knownIds.includes(spec)) {
        throw new GuardLoadError(
          `unknown guard "${spec}"${didYouMean(spec, deps.knownIds)}. Built-in guards: ${deps.knownIds.join(', ') || '(none)'}. ` +
            `Accepted forms:\n  ${GUARD_SPEC_FORMS.join('\n  ')}`,
          { code: 'usage' },
        );
      }
      return deps.createBuiltin(spec);
  }
}
