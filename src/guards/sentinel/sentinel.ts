/**
 * SENTINEL, reconstructed from the paper (§IV): five layers run coarse to fine, stopping at
 * the first rejection. The write path runs the keyword layer and the Reasoning Guard; the
 * retrieve path runs all five (paper §IV, Fig. 2).
 */
import type { GuardContext, LayerResult, MemoryEntry, SyncGuard, Verdict } from '../../domain/index.js';
import { UsageError } from '../../domain/index.js';
import { LAYER_IDS, resolveSentinelConfig, type LayerId, type SentinelConfig } from './config.js';
import { compileSentinelConfig, type CompiledSentinel } from './compiled-config.js';
import { looksLikeReasoningNormalized } from './looks-like-reasoning.js';
import { assessProvenance, riskFromTaint, type Provenance } from './provenance.js';
import { computeSignals, forgeryScore } from './signals.js';
import { firstMatch, normalizeText } from '../text/text-match.js';

export interface SentinelOptions {
  /** Overrides merged over `DEFAULT_SENTINEL_CONFIG` (see `resolveSentinelConfig`). */
  config?: Partial<SentinelConfig>;
  /**
   * Enables only these layers (ablation). The phase's layer list is intersected with it, so
   * `['L3-taint']` runs nothing on the write path. Folded into `config.phaseLayers`, so the
   * config hash names the ablation.
   */
  layers?: readonly LayerId[];
}

export interface SentinelGuard extends SyncGuard {
  readonly id: 'sentinel';
  /** The resolved configuration, ablation included. */
  readonly config: SentinelConfig;
}

const fmt = (x: number): string => (Math.round(x * 1000) / 1000).toString();

function nowUs(): number {
  return performance.now() * 1000;
}

function runCheck(entry: MemoryEntry, ctx: GuardContext, compiled: CompiledSentinel): Verdict {
  const t0 = nowUs();
  const c = compiled.config;
  const layers = c.phaseLayers[ctx.phase];
  const text = normalizeText(entry.content);
  const trace: LayerResult[] = [];
  let prov: Provenance | null = null;
  const provenance = (): Provenance => (prov ??= assessProvenance(entry, c));

  let rejectedBy: LayerResult | null = null;
  let signals: Record<string, number> | undefined;
  let score: number | undefined;

  for (const layer of layers) {
    let r: LayerResult;
    switch (layer) {
      case 'L1-keyword': {
        const hit = firstMatch(compiled.keywordRe, text);
        r = hit === null ? { layer, outcome: 'pass', reasons: [] } : { layer, outcome: 'reject', reasons: [`blocklisted keyword "${hit}"`] };
        break;
      }
      case 'L2-provenance': {
        const p = provenance();
        r = { layer, outcome: 'pass', value: p.taint, reasons: [`${p.label} (source ${entry.source}, taint ${fmt(p.taint)}, hops ${p.hops})`] };
        break;
      }
      case 'L3-taint': {
        const p = provenance();
        r =
          p.taint > c.tauTaint
            ? { layer, outcome: 'reject', value: p.taint, reasons: [`taint ${fmt(p.taint)} > tauTaint ${fmt(c.tauTaint)} (${p.label} source ${entry.source})`] }
            : { layer, outcome: 'pass', value: p.taint, reasons: [] };
        break;
      }
      case 'L4-pattern-risk': {
        const p = provenance();
        const risk = riskFromTaint(p.taint, c.riskTransform, c.scoreDecimals);
        const hit = firstMatch(compiled.maliciousRe, text);
        const reasons: string[] = [];
        if (hit !== null) reasons.push(`malicious pattern "${hit}"`);
        if (risk > c.tauRisk) reasons.push(`risk ${fmt(risk)} > tauRisk ${fmt(c.tauRisk)}`);
        r = { layer, outcome: reasons.length > 0 ? 'reject' : 'pass', value: risk, reasons };
        break;
      }
      case 'L5-reasoning-guard': {
        if (entry.store !== 'reasoning' && !looksLikeReasoningNormalized(entry.traceType, text, compiled)) {
          r = { layer, outcome: 'skip', reasons: ['general-store entry does not look like reasoning'] };
          break;
        }
        const label = provenance().label;
        const s = computeSignals(entry, text, label, ctx.store, compiled);
        const f = forgeryScore(s.signals, c.weights, c.scoreDecimals);
        signals = s.signals;
        score = f;
        r =
          f > c.tauGuard
            ? { layer, outcome: 'reject', value: f, reasons: [`F ${fmt(f)} > tauGuard ${fmt(c.tauGuard)}`, ...s.reasons] }
            : { layer, outcome: 'pass', value: f, reasons: [`F ${fmt(f)} <= tauGuard ${fmt(c.tauGuard)}`, ...s.reasons] };
        break;
      }
    }
    trace.push(r);
    if (r.outcome === 'reject') {
      rejectedBy = r;
      break;
    }
  }

  const last = trace[trace.length - 1];
  const decider = rejectedBy ?? last;
  // Keys in the verdict schema's order (src/domain/verdict-schema.ts): the engine takes a
  // built-in guard's verdict as it is, so it must already be what the schema would give.
  const verdict: Verdict = {
    decision: rejectedBy === null ? 'admit' : 'reject',
    ...(decider !== undefined ? { layer: decider.layer } : {}),
    trace,
    ...(signals !== undefined ? { signals } : {}),
    ...(score !== undefined ? { score } : {}),
    reasons: rejectedBy !== null ? rejectedBy.reasons : [],
    elapsedUs: 0,
  };
  verdict.elapsedUs = Math.max(0, nowUs() - t0);
  return verdict;
}

/**
 * Builds the reconstructed SENTINEL guard (id `sentinel`, synchronous).
 *
 * The verdict carries the deciding layer, a per-layer trace (pass/reject/skip, value,
 * reasons), the signals s1..s5 and F when the Reasoning Guard ran, and `elapsedUs` (µs).
 * `ctx.phase` picks the layer list: `write` (keyword + Reasoning Guard) or `retrieve`
 * (all five). A check does not throw for a well-formed entry; a store that throws propagates.
 *
 * @throws UsageError at construction for an invalid config or an unknown layer id.
 * @example
 *   const guard = createSentinel({ layers: ['L5-reasoning-guard'] });
 *   guard.check(entry, { phase: 'write', store: EMPTY_STORE }).decision; // 'admit' | 'reject'
 */
export function createSentinel(options: SentinelOptions = {}): SentinelGuard {
  let config = resolveSentinelConfig(options.config);
  if (options.layers !== undefined) {
    const enabled = new Set<string>(options.layers);
    for (const l of enabled) {
      if (!(LAYER_IDS as readonly string[]).includes(l)) {
        throw new UsageError(`sentinel: unknown layer ${JSON.stringify(l)}; known layers: ${LAYER_IDS.join(', ')}`);
      }
    }
    config = {
      ...config,
      phaseLayers: {
        write: config.phaseLayers.write.filter((l) => enabled.has(l)),
        retrieve: config.phaseLayers.retrieve.filter((l) => enabled.has(l)),
      },
    };
  }
  const compiled = compileSentinelConfig(config);
  return {
    id: 'sentinel',
    mode: 'sync',
    config,
    check: (entry: MemoryEntry, ctx: GuardContext): Verdict => runCheck(entry, ctx, compiled),
  };
}
