// Agent Threat Rules (npm `agent-threat-rules`, MIT; 785 detection rules) as a farma-fuzz guard.
//   npm run fuzz -- --guard ./examples/atr-guard.mjs --seed 1 --no-real
// Every memory write is scanned with the package's own engine and its shipped rule set, as a
// deployment would scan text about to enter an agent's context: entries from a tool or an
// outside source as a tool response, the rest as model input. Any rule match rejects the entry.
// The rules are used as shipped: never edit them to make a property pass (a forged entry ATR
// admits is a finding about ATR). The engine is synchronous, about 30 ms per call on a quiet
// core, so this is the "slow sync guard" case the fuzzer's budgets are made for.
import { readFileSync } from 'node:fs';
import { ATREngine } from 'agent-threat-rules';

/** Builds the guard once its rules are loaded (the module adapter awaits this factory). */
export async function createGuard() {
  const engine = new ATREngine();
  const loaded = await engine.loadRules();
  // The engine compiles its patterns on first use (seconds on a loaded machine): do it here, once
  // per event type, so the first fuzz case is not the one that pays (and times out).
  for (const type of ['llm_input', 'tool_response']) engine.evaluate({ type, timestamp: '2026-01-01T00:00:00.000Z', content: 'warm-up' });
  // The package does not export its package.json: read it beside the resolved entry point.
  const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('agent-threat-rules')), 'utf8')).version;
  return {
    id: 'atr',
    mode: 'sync',
    config: { package: 'agent-threat-rules', version, rules: loaded, decision: 'reject on any rule match' },
    check(entry) {
      const started = performance.now();
      const type = entry.source === 'TOOL' || entry.source === 'EXTERNAL' ? 'tool_response' : 'llm_input';
      // A fixed timestamp: the verdict depends on the entry, not on the clock.
      const matches = engine.evaluate({ type, timestamp: '2026-01-01T00:00:00.000Z', content: entry.content, metadata: { store: entry.store, traceType: entry.traceType } });
      const elapsedUs = Math.round((performance.now() - started) * 1000);
      if (matches.length === 0) return { decision: 'admit', trace: [{ layer: 'atr', outcome: 'pass', reasons: [] }], reasons: [], elapsedUs };
      const top = Math.min(1, Math.max(0, ...matches.map((m) => (Number.isFinite(m.confidence) ? m.confidence : 0))));
      return {
        decision: 'reject',
        layer: 'atr',
        score: top,
        trace: [{ layer: 'atr', outcome: 'reject', value: top, reasons: [] }],
        reasons: matches.slice(0, 5).map((m) => `${m.rule.id} (${m.rule.severity}): ${m.rule.title}`),
        elapsedUs,
      };
    },
  };
}
