/**
 * The report of `farma-fuzz search` (`search.md`): the search summary of `src/report/adaptive.ts`
 * under a header naming the guard, phase, start families, domains, seed and versions, and the
 * LLM paraphrase family's counts when it ran (or why it was off).
 */
import { renderSearchSummary, type SearchSummary } from './adaptive.js';
import { pct } from './markdown.js';
import { interval } from './model.js';

/** One domain's LLM family result (counts of `generators/llm-paraphrase.ts`). */
export interface LlmFamilyRow {
  domain: string;
  counts: { total: number; kept: number; discarded: number; discardedByRule: number; discardedByJudge: number; bypassed: number; llmErrors: number };
}

/** What `search.md` and `search.json` hold. */
export interface SearchReportInput {
  summary: SearchSummary;
  phase: string;
  families: readonly string[];
  domains: readonly string[];
  versions: Record<string, string>;
  /** The LLM family, when it was asked for: its mode and rows, or why it was off. */
  llm?: { mode: string; rows: LlmFamilyRow[]; off?: string };
}

function llmMarkdown(rows: LlmFamilyRow[], mode: string, off?: string): string {
  if (off !== undefined) return `### LLM paraphrase family\n\n${off}\n`;
  const out = [`### LLM paraphrase family (${mode})`, '', '| domain | drawn | kept | discarded (rule / judge) | model errors | bypass rate among kept [Wilson 95%] |', '| --- | ---: | ---: | --- | ---: | --- |'];
  for (const r of rows) {
    const c = r.counts;
    out.push(`| ${r.domain} | ${c.total} | ${c.kept} | ${c.discarded} (${c.discardedByRule} / ${c.discardedByJudge}) | ${c.llmErrors} | ${pct(interval(c.bypassed, c.kept))} |`);
  }
  out.push('', 'Rewrites that lost the forged claim are discarded and counted, never reported as bypasses.', '');
  return out.join('\n');
}

/** `search.md`. Pure. */
export function renderSearchMarkdown(r: SearchReportInput): string {
  const s = r.summary;
  return [
    `# farma-fuzz search: ${s.guard}`,
    '',
    `Guard \`${s.guard}\`, phase ${r.phase}, start families ${r.families.join(', ')}, domains ${r.domains.join(', ')}, seed ${s.seed}.`,
    `Versions: ${Object.entries(r.versions).map(([k, v]) => `${k} ${v}`).join(', ')}.`,
    '',
    'A query is one candidate entry evaluated by the guard (its attacker setup writes included). A bypass needs the entry and every attacker write of the candidate admitted.',
    '',
    renderSearchSummary(s),
    ...(r.llm ? [llmMarkdown(r.llm.rows, r.llm.mode, r.llm.off)] : []),
  ].join('\n');
}
