/**
 * Layer 2 labelling and the taint model shared by Layers 3 and 4 (paper §IV-B..D).
 * Layer 2 never rejects: it only labels. Propagation is a reconstruction (see config).
 */
import type { MemoryEntry } from '../../domain/index.js';
import type { IntegrityLabel, RiskTransform, SentinelConfig } from './config.js';
import { roundScore } from './signals.js';

export interface Provenance {
  label: IntegrityLabel;
  /** Taint of the declared source alone, in [0,1]. */
  baseTaint: number;
  /** Propagation hops counted from the entry's metadata. */
  hops: number;
  /** Final taint after propagation, in [0,1]. */
  taint: number;
}

function hopsOf(meta: Record<string, unknown> | undefined, config: SentinelConfig): number {
  if (meta === undefined) return 0;
  const p = config.taintPropagation;
  const depth = Object.hasOwn(meta, p.depthKey) ? meta[p.depthKey] : undefined;
  if (typeof depth === 'number' && Number.isInteger(depth) && depth >= 0) return depth;
  for (const k of p.parentKeys) {
    const v = Object.hasOwn(meta, k) ? meta[k] : undefined;
    if ((typeof v === 'string' && v.length > 0) || (Array.isArray(v) && v.length > 0)) return 1;
  }
  return 0;
}

/**
 * Labels an entry from its declared source and computes its taint.
 * - label: `sourceLabel[source]`, else `Poisoned`; base taint: `sourceTaint[source]`, else
 *   `unknownSourceTaint` (paper §IV-B; sources match exactly, case-sensitive).
 * - taint = min(1, max(base, parentTaint) + increment × hops) (reconstruction).
 */
export function assessProvenance(entry: MemoryEntry, config: SentinelConfig): Provenance {
  const src = entry.source;
  const label: IntegrityLabel = Object.hasOwn(config.sourceLabel, src) ? (config.sourceLabel[src] as IntegrityLabel) : 'Poisoned';
  const baseTaint = Object.hasOwn(config.sourceTaint, src) ? (config.sourceTaint[src] as number) : config.unknownSourceTaint;
  const meta = entry.metadata;
  const hops = hopsOf(meta, config);
  let start = baseTaint;
  const pk = config.taintPropagation.parentTaintKey;
  if (meta !== undefined && Object.hasOwn(meta, pk)) {
    const pt = meta[pk];
    if (typeof pt === 'number' && pt >= 0 && pt <= 1 && pt > start) start = pt;
  }
  const raw = start + config.taintPropagation.increment * hops;
  // Round away float noise (0.4 + 0.1 must be 0.5, not 0.5000000000000001).
  const taint = Math.min(1, roundScore(raw, config.scoreDecimals));
  return { label, baseTaint, hops, taint };
}

/**
 * Layer 4 risk: a nonlinear map of taint in [0,1] into [0,1] (reconstruction: power 2 by
 * default; logistic `1 / (1 + e^(-steepness (taint - midpoint)))` as an option), rounded to
 * `decimals` places (the config's `scoreDecimals`).
 */
export function riskFromTaint(taint: number, transform: RiskTransform, decimals = 9): number {
  if (transform.kind === 'power') return roundScore(Math.pow(taint, transform.exponent), decimals);
  const { steepness, midpoint } = transform;
  return roundScore(1 / (1 + Math.exp(-steepness * (taint - midpoint))), decimals);
}
