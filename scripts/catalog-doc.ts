/**
 * Prints the catalog coverage matrix (`generators/paraphrase/catalog.ts`) as the markdown
 * tables of `docs/catalog.md`: `npx tsx scripts/catalog-doc.ts > /tmp/t.md`, then paste the
 * tables over the old ones. `test/generators/catalog-operators.test.ts` checks that the doc
 * lists every entry.
 */
import { CATALOG, NOT_APPLICABLE_REASONS, catalogCounts, isWithheld } from '../generators/paraphrase/catalog.js';
import { OPERATORS, WITHHELD_OPERATORS } from '../generators/paraphrase/operators.js';

const out: string[] = ['| catalog | entries | mapped | withheld | llm family | generator family | gap | not applicable |', '| --- | --- | --- | --- | --- | --- | --- | --- |'];
for (const c of catalogCounts()) {
  const na = Object.entries(c.notApplicable).map(([r, n]) => `${r} ${n}`).join(', ');
  const naTotal = Object.values(c.notApplicable).reduce((a, n) => a + (n ?? 0), 0);
  out.push(`| ${c.catalog} | ${c.total} | ${c.mapped} | ${c.withheld} | ${c.llm} | ${c.family} | ${c.gap} | ${naTotal}${na ? ` (${na})` : ''} |`);
}
out.push('', '| reason | meaning |', '| --- | --- |', ...Object.entries(NOT_APPLICABLE_REASONS).map(([k, v]) => `| ${k} | ${v} |`));
out.push('', '| catalog | name | coverage | operators (reading) or why | note |', '| --- | --- | --- | --- | --- |');
const ALL = { ...OPERATORS, ...WITHHELD_OPERATORS } as Record<string, { reading?: string }>;
const withReading = (id: string): string => `\`${id}\`${ALL[id]?.reading ? ` (${ALL[id]?.reading})` : ''}${isWithheld(id) ? ' **withheld**' : ''}`;
for (const e of CATALOG) {
  const c = e.coverage;
  const what = c.status === 'mapped' ? c.operators.map(withReading).join(', ') : c.status === 'llm' ? `llm-paraphrase family${c.operators ? `; model-free: ${c.operators.map(withReading).join(', ')}` : ''}` : c.status === 'family' ? c.family : c.status === 'gap' ? c.why : c.reason;
  out.push(`| ${e.catalog} | ${e.name} | ${c.status} | ${what} | ${e.note ?? ''} |`);
}
console.log(out.join('\n'));
