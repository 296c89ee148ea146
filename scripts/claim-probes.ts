/**
 * Prints how the claim check reads the held-out evasion probes (`test/fixtures/held-out-evasions.ts`):
 * per kind, whether the claim-carrying rewrite is recognised and whether its dropped or negated
 * twin is refused; then, for every catalog operator, how it reads the probe texts of
 * `test/fixtures/catalog-probes.ts` and their negated, supposed and unticked twins.
 * `npx tsx scripts/claim-probes.ts` (markdown tables on stdout; exit 0 either way).
 */
import { claimPreserved } from '../generators/paraphrase/claim-check.js';
import type { MemoryEntry } from '../src/domain/index.js';
import { HELD_OUT_PROBES } from '../test/fixtures/held-out-evasions.js';
import { probeBasesFor } from '../test/fixtures/catalog-probes.js';
import { CIPHER_OPERATORS } from '../generators/paraphrase/cipher-operators.js';
import { NOISE_OPERATORS } from '../generators/paraphrase/noise-operators.js';
import { RECORD_OPERATORS } from '../generators/paraphrase/record-operators.js';
import { SCRIPT_OPERATORS } from '../generators/paraphrase/script-operators.js';
import { WORD_OPERATORS } from '../generators/paraphrase/word-operators.js';
import type { Operator } from '../generators/paraphrase/operator.js';

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

// Catalog operators: each applied (choices 0..3) to the probe texts of
// `test/fixtures/catalog-probes.ts` (the Chinese ones for the Chinese character swaps) and to their negated, supposed and unticked twins.
const CATALOG_OPS: Operator[] = [...Object.values(CIPHER_OPERATORS), ...Object.values(NOISE_OPERATORS), ...Object.values(RECORD_OPERATORS), ...Object.values(SCRIPT_OPERATORS), ...Object.values(WORD_OPERATORS)];
let catalogOk = 0;
console.log('\n| operator | reading | kept (of 8) | negated refused | supposed refused | unticked refused |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const op of CATALOG_OPS) {
  const rule = op.preserves.includes('precedent') ? 'exact' : 'count';
  const tally = { kept: 0, negated: 0, hypothetical: 0, unticked: 0 };
  const bases = probeBasesFor(op);
  for (const b of bases) {
    for (let choice = 0; choice < 4; choice++) {
      const run = (text: string): MemoryEntry[] => {
        const out = op.apply(entry(text), choice, { domain: b.domain, claim: b.claim });
        return Array.isArray(out) ? out : [out];
      };
      if (claimPreserved(b.domain, b.claim, run(b.carrying), rule)) tally.kept++;
      for (const k of ['negated', 'hypothetical', 'unticked'] as const) if (!claimPreserved(b.domain, b.claim, run(b.twins[k]), rule, { original: b.carrying })) tally[k]++;
    }
  }
  const n = bases.length * 4;
  if (tally.kept === n && tally.negated === n && tally.hypothetical === n && tally.unticked === n) catalogOk++;
  console.log(`| ${op.id} | ${op.reading ?? '-'} | ${tally.kept}/${n} | ${tally.negated}/${n} | ${tally.hypothetical}/${n} | ${tally.unticked}/${n} |`);
}
console.log(`\n${catalogOk} of ${CATALOG_OPS.length} catalog operators read correctly on every probe (kept, and every twin refused).`);
