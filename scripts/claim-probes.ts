/**
 * Prints how the claim check reads the held-out evasion probes (`test/fixtures/held-out-evasions.ts`):
 * per kind, whether the claim-carrying rewrite is recognised and whether its dropped or negated
 * twin is refused. `npx tsx scripts/claim-probes.ts` (markdown table on stdout; exit 0 either way).
 */
import { claimPreserved } from '../generators/paraphrase/claim-check.js';
import type { MemoryEntry } from '../src/domain/index.js';
import { HELD_OUT_PROBES } from '../test/fixtures/held-out-evasions.js';

const entry = (content: string): MemoryEntry => ({ id: 'probe', store: 'reasoning', content, source: 'AGENT', trust: 'VERIFIED', traceType: 'decision_log', timestamp: '2026-03-14T09:30:00.000Z' });

let ok = 0;
console.log('| kind | claim-carrying recognised | twin refused (twin is) |');
console.log('| --- | --- | --- |');
for (const p of HELD_OUT_PROBES) {
  const kept = claimPreserved(p.domain, p.claim, [entry(p.carrying)], p.rule);
  const refused = !claimPreserved(p.domain, p.claim, [entry(p.twin)], p.rule);
  if (kept && refused) ok++;
  console.log(`| ${p.kind} | ${kept ? 'yes' : '**no**'} | ${refused ? 'yes' : '**no**'} (${p.twinIs}) |`);
}
console.log(`\n${ok} of ${HELD_OUT_PROBES.length} probes read correctly (carrying recognised and twin refused).`);
