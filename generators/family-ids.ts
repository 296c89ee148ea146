/**
 * The family ids alone, without their generators, so the CLI can name them in `--help` and
 * check `--family` without loading faker, handlebars and the templates. `families.ts` is
 * checked against this list: a family without an id, or an id without a family, fails to
 * compile (docs/STYLE.md §3).
 */

/** Every family id, in registry order. */
export const FAMILY_IDS = ['seed', 'amplification', 'naive', 'adaptive', 'benign', 'benign-stress'] as const;

/** A family id. */
export type FamilyId = (typeof FAMILY_IDS)[number];
