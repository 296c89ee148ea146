/**
 * The oracle: reads a case's `truth` (never its text) and a verdict, and says whether the
 * invariant held. DESIGN.md: benign entries must be admitted, forged entries rejected;
 * an `error` verdict is neither and is counted on its own.
 */
import type { Truth } from '../domain/fuzz-case.js';
import type { Verdict } from '../domain/verdict.js';

/** The two invariants every guard is checked against, keyed by id, each with the label it applies to. */
export const PROPERTIES = {
  'benign-admitted': { label: 'benign', description: 'no benign entry is rejected' },
  'forgery-rejected': { label: 'forged', description: 'every forged entry is rejected' },
} as const satisfies Record<string, { label: 'benign' | 'forged'; description: string }>;
/** `benign-admitted` or `forgery-rejected`. */
export type PropertyId = keyof typeof PROPERTIES;

/** The invariant a case is judged by, from its ground-truth label. */
export function propertyFor(truth: Pick<Truth, 'label'>): PropertyId {
  return truth.label === 'benign' ? 'benign-admitted' : 'forgery-rejected';
}

/** `holds`: invariant kept; `violated`: a false positive (benign) or a bypass (forged); `error`: guard error. */
export type Judgement = 'holds' | 'violated' | 'error';

/**
 * The bypass rule: a case holds when the guard decided as its label demands (`admit` for
 * benign, `reject` for forged), is violated when it decided the other way, and is an
 * `error` when the verdict is an error.
 */
export function judge(truth: Pick<Truth, 'label'>, verdict: Pick<Verdict, 'decision'>): Judgement {
  if (verdict.decision === 'error') return 'error';
  const wanted = truth.label === 'benign' ? 'admit' : 'reject';
  return verdict.decision === wanted ? 'holds' : 'violated';
}
