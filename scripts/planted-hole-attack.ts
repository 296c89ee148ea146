/**
 * The default attack of `fuzz` (attack mode: every registered operator, 200 bases per domain,
 * 30 queries per base, one transfer pool over the domains) against a planted-hole guard that
 * admits only entries carrying every given evasion kind at once (decision feedback only,
 * `test/fixtures/guards/planted-hole.ts`). Prints flipped / attacked, queries to flip (median,
 * p90), the queries to the first flip, flips from the pool against fresh search, and the pool's
 * top compositions.
 *
 *   npx tsx scripts/planted-hole-attack.ts [kinds=zero-width,system-spoof] [bases=200] [seed=1]
 *
 * kinds: comma-separated `zero-width`, `system-spoof`, `fmt-json`.
 */
import { ATTACK_DEFAULTS, runAttackMode } from '../src/campaign/attack-mode.js';
import { DOMAINS } from '../src/domain/fuzz-case.js';
import { MemoryStore } from '../src/memory/index.js';
import { CARRIES, plantedHoleGuard, type PlantedKind } from '../test/fixtures/guards/planted-hole.js';

const [kindsArg = 'zero-width,system-spoof', basesArg = String(ATTACK_DEFAULTS.bases), seedArg = '1'] = process.argv.slice(2);
const kinds = kindsArg.split(',') as PlantedKind[];
for (const k of kinds) if (!Object.hasOwn(CARRIES, k)) throw new Error(`planted-hole-attack: unknown kind '${k}' (argument 1); known: ${Object.keys(CARRIES).join(', ')}`);
const bases = Number(basesArg);
const seed = Number(seedArg);
if (!Number.isInteger(bases) || bases < 1) throw new Error(`planted-hole-attack: bases (argument 2) must be an integer >= 1, got '${basesArg}'`);
if (!Number.isInteger(seed)) throw new Error(`planted-hole-attack: seed (argument 3) must be an integer, got '${seedArg}'`);

const store = new MemoryStore(':memory:');
const r = await runAttackMode({ guard: plantedHoleGuard(kinds), store, phase: 'write', domains: DOMAINS, seed, bases, budget: ATTACK_DEFAULTS.budget, feedback: 'decision', maxFailures: 1 });
const a = r.report;
const line = (label: string, x: (typeof a)['overall']): string =>
  `${label.padEnd(9)} flipped ${x.flipped}/${x.flipped + x.held}` +
  (x.queriesPerFlip ? ` · queries to flip median ${x.queriesPerFlip.median}, p90 ${x.queriesPerFlip.p90}` : '') +
  ` · from the pool ${x.flipsBySource?.pool ?? 0}, fresh search ${x.flipsBySource?.search ?? 0}`;
process.stdout.write(`planted hole ${kinds.join(' + ')}, ${bases} bases per domain, budget ${a.budget}, seed ${seed}, decision feedback\n`);
for (const d of a.domains) process.stdout.write(`${line(d.domain, d)} · first flip after ${a.transfer?.domains.find((x) => x.domain === d.domain)?.firstFlipQueries ?? '-'} of its queries\n`);
process.stdout.write(`${line('all', a.overall)}\n`);
const t = a.transfer;
process.stdout.write(`queries to the first flip: ${t?.firstFlip ? `${t.firstFlip.queries} (${t.firstFlip.domain})` : 'none'}; pool ${t?.poolSize ?? 0}: ${(t?.pool ?? []).slice(0, 5).map((e) => `${e.composition} ${e.successes}/${e.tries}`).join('; ')}\n`);
store.close();
