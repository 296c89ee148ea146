/**
 * Built-in guards are trusted in-process code: their `check` returns a typed `Verdict` built by
 * this repository, not an answer from across an edge. The registry marks each guard object it
 * creates; the fuzz engine skips the verdict schema (`checkedVerdict`) for marked objects only,
 * and keeps it for everything else (module, HTTP and exec adapters, LLM judges, any guard object
 * a caller builds, including a copy or a wrapper of a built-in guard). A WeakSet, so the mark
 * cannot be claimed by a field a guard sets on itself.
 * `test/guards/trusted-verdicts.test.ts` checks that every built-in guard's verdict already is
 * what the schema would make of it.
 */
import type { Guard } from './guard.js';

const TRUSTED = new WeakSet<Guard>();

/** Marks a built-in guard object as trusted (called by the guard registry only); returns it. */
export function markTrustedGuard<G extends Guard>(guard: G): G {
  TRUSTED.add(guard);
  return guard;
}

/** True for a guard object the built-in registry created (its verdicts skip the schema). */
export function isTrustedGuard(guard: Guard): boolean {
  return TRUSTED.has(guard);
}
