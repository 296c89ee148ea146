/**
 * `--max-queries N`: one budget of guard queries for the whole campaign, cut into
 * shares before anything runs, so that the split (and with it every result) is the same for a
 * seed whatever runs first, in one thread or in workers.
 *
 * - Each unit gets an equal share: every property cell, every domain of attack mode, and the
 *   real benign sets together. An equal share is what lets every cell end with a Wilson
 *   interval: no cell can spend another's queries.
 * - Inside a cell, shrinking and re-checks may use at most half of the cell's share (see
 *   `runCell`), so the cell's cases always get the other half; one shrink gets
 *   `share / (2 × maxFailures)` (or `--shrink-budget` when that is smaller).
 * - The leave-one-source-out check (a full recalibration per real source) is not run under a
 *   budget.
 */

import { UsageError } from '../domain/errors.js';

/** The shares of a budget, in guard queries. */
export interface QueryAllocation {
  /** Per property cell: cases, shrinking and re-checks together. */
  cell: number;
  /** Per shrink (one finding). */
  shrink: number;
  /** Per domain of attack mode (0 without attack mode). */
  attackPerDomain: number;
  /** For all the real benign sets together (0 when they are not measured). */
  real: number;
}

/**
 * Splits `maxQueries` across the campaign's units.
 * @throws UsageError when `maxQueries` is smaller than the number of units (a unit could not ask even once).
 * @example
 * allocateQueries(3000, { cells: 15, attackDomains: 3, real: false, maxFailures: 5 }); // { cell: 166, shrink: 16, attackPerDomain: 166, real: 0 }
 */
export function allocateQueries(maxQueries: number, o: { cells: number; attackDomains: number; real: boolean; maxFailures: number; shrinkBudget?: number }): QueryAllocation {
  const units = o.cells + o.attackDomains + (o.real ? 1 : 0);
  if (units === 0) return { cell: 0, shrink: 0, attackPerDomain: 0, real: 0 };
  const share = Math.floor(maxQueries / units);
  if (share < 1) throw new UsageError(`--max-queries ${maxQueries} is below one query per cell and phase (${units} here: ${o.cells} cells${o.attackDomains > 0 ? `, ${o.attackDomains} attack-mode domain${o.attackDomains === 1 ? '' : 's'}` : ''}${o.real ? ', the real sets' : ''})`);
  const shrink = Math.max(1, Math.floor(share / (2 * Math.max(1, o.maxFailures))));
  return {
    cell: share,
    shrink: o.shrinkBudget !== undefined ? Math.min(o.shrinkBudget, shrink) : shrink,
    attackPerDomain: o.attackDomains > 0 ? share : 0,
    real: o.real ? share : 0,
  };
}
