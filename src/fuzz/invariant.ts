/**
 * Invariant checks for users' own test suites (`test.prop` with @fast-check/vitest):
 * evaluate one generated case against a guard and say whether its invariant held.
 *
 * @example
 * import { test } from '@fast-check/vitest';
 * import { seedTrace } from 'farma-fuzz/generators';
 * import { checkInvariant, createMemoryStore } from 'farma-fuzz';
 * const store = createMemoryStore();
 * test.prop([seedTrace('ehr')])('my guard rejects FARMA seeds', async (c) => {
 *   const r = await checkInvariant(myGuard, c, { store });
 *   expect(r.judgement).toBe('holds');
 * });
 */
import type { FuzzCase } from '../domain/fuzz-case.js';
import type { Guard, Phase } from '../domain/guard.js';
import type { Verdict } from '../domain/verdict.js';
import { evaluateAsync, evaluateSync, type ScratchStore } from './evaluate.js';
import { judge, propertyFor, type Judgement, type PropertyId } from './oracle.js';

/** The property a case is judged by, the judgement, and the guard's verdict. */
export interface InvariantResult {
  property: PropertyId;
  judgement: Judgement;
  verdict: Verdict;
}

/** Sync variant for guards with `mode: 'sync'`. */
export function checkInvariantSync(guard: Guard, c: FuzzCase, options: { store: ScratchStore; phase?: Phase }): InvariantResult {
  const verdict = evaluateSync(guard, c, options.store, options.phase ?? 'write');
  return { property: propertyFor(c.truth), judgement: judge(c.truth, verdict), verdict };
}

/** Evaluates `c` (its setup in a scratch store that is rolled back) and judges it by its truth. */
export async function checkInvariant(guard: Guard, c: FuzzCase, options: { store: ScratchStore; phase?: Phase }): Promise<InvariantResult> {
  const verdict = await evaluateAsync(guard, c, options.store, options.phase ?? 'write');
  return { property: propertyFor(c.truth), judgement: judge(c.truth, verdict), verdict };
}
