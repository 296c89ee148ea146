/**
 * The guards the CLI has open and the fuzz campaign in progress, so Ctrl-C can stop the
 * campaign between batches and close every guard (no subprocess outlives the CLI).
 */
import { errorMessage } from '../domain/errors.js';
import type { Guard } from '../domain/guard.js';
import { redactSecrets } from '../domain/secrets.js';
import { loadGuard } from './context.js';
import type { StopSignal } from './exit-codes.js';

/** Guards open right now, closed on Ctrl-C. */
const openGuards = new Set<Guard>();

/**
 * The fuzz campaign in progress: the first Ctrl-C (or SIGTERM, SIGHUP) aborts it, see
 * `installProcessHandlers`; `stopSignal` is the signal that did. While `finishing` (the run is
 * over, its outputs are being written) a first signal waits for them to be written.
 */
export const session: { activeRun: AbortController | undefined; stopSignal: StopSignal | undefined; finishing: boolean } = { activeRun: undefined, stopSignal: undefined, finishing: false };

/** Remembers a guard opened outside {@link withGuard}, so Ctrl-C closes it too. */
export function trackGuard(guard: Guard): void {
  openGuards.add(guard);
}

/** How long a guard's `close()` may take before farma-fuzz goes on without it, ms. */
const CLOSE_LIMIT_MS = 5_000;

/**
 * Closes a guard (a failure to close is a warning on stderr, never an error). A `close()` that
 * has not settled within 5 s is left behind with a warning: a guard that never finishes closing
 * must not hang a run whose outputs are written, nor swallow Ctrl-C or SIGTERM.
 */
export async function closeGuard(guard: Guard): Promise<void> {
  openGuards.delete(guard);
  try {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((res) => {
      timer = setTimeout(() => res('late'), CLOSE_LIMIT_MS);
      timer.unref();
    });
    const r = await Promise.race([Promise.resolve(guard.close?.()).then(() => 'closed' as const), late]);
    clearTimeout(timer);
    if (r === 'late') process.stderr.write(`warning: guard ${redactSecrets(guard.id)} did not finish closing within ${CLOSE_LIMIT_MS / 1000} s; farma-fuzz goes on without waiting\n`);
  } catch (e) {
    process.stderr.write(`warning: guard ${guard.id} failed to close: ${redactSecrets(errorMessage(e))}\n`);
  }
}

/** Closes every open guard (Ctrl-C). */
export function closeOpenGuards(): Promise<void> {
  return Promise.all([...openGuards].map((g) => closeGuard(g))).then(() => undefined);
}

/**
 * Loads the guard `spec`, runs `fn` with it and closes it, also when `fn` throws.
 * `concurrency`: calls in flight (the HTTP/exec adapters size their pools to it).
 * @throws what `loadGuard` throws (UsageError for a bad spec or option, a guard error when it cannot start).
 */
export async function withGuard<T>(spec: string, timeoutMs: number | undefined, fn: (g: Guard) => Promise<T>, guardOptions?: Record<string, unknown>, concurrency?: number): Promise<T> {
  const guard = await loadGuard(spec, timeoutMs, guardOptions, concurrency);
  openGuards.add(guard);
  try {
    return await fn(guard);
  } finally {
    await closeGuard(guard);
  }
}

/** {@link withGuard} with `concurrency` calls in flight (the HTTP/exec adapters size their pools to it). */
export function withGuardIn<T>(spec: string, timeoutMs: number | undefined, concurrency: number, fn: (g: Guard) => Promise<T>, guardOptions?: Record<string, unknown>): Promise<T> {
  return withGuard(spec, timeoutMs, fn, guardOptions, concurrency);
}
