/**
 * The taxonomy of evasions (generators/claims/evasion-kinds.ts) and docs/adaptive.md agree
 * with the code: every kind is produced by an operator or an attack template, the operator
 * count the docs give is the registry's, and every operator of the held-out kinds and every
 * translate operator is named in the docs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { EVASION_KIND_IDS, isEvasionKind } from '../../generators/claims/evasion-kinds.js';
import { EVASION_OPERATORS } from '../../generators/paraphrase/evasion-operators.js';
import { OPERATOR_IDS, WITHHELD_OPERATORS, listOperators } from '../../generators/paraphrase/operators.js';
import { loadTemplates } from '../../generators/templates.js';
import type { Operator } from '../../generators/paraphrase/operator.js';

const DOC = readFileSync(new URL('../../docs/adaptive.md', import.meta.url), 'utf8');

describe('evasion taxonomy', () => {
  test('every kind is produced by at least one operator or attack template (or a built operator withheld from the registry, docs/catalog.md)', () => {
    const produced = new Set<string>([
      ...listOperators().flatMap((o) => o.kinds ?? []),
      ...(Object.values(WITHHELD_OPERATORS) as Operator[]).flatMap((o) => o.kinds ?? []),
      ...loadTemplates().all.flatMap((t) => ((t.meta.kinds as string[] | undefined) ?? [])),
    ]);
    for (const k of produced) expect(isEvasionKind(k), k).toBe(true);
    expect(EVASION_KIND_IDS.filter((k) => !produced.has(k))).toEqual([]);
  });

  test('docs/adaptive.md gives the registry size and names the held-out and translate operators', () => {
    expect(DOC).toContain(`There are ${OPERATOR_IDS.length}\noperators`);
    const named = [...Object.values(EVASION_OPERATORS).map((o) => o.id), ...OPERATOR_IDS.filter((id) => id.startsWith('translate-'))];
    for (const id of named) {
      const mentioned = DOC.includes(`\`${id}\``) || (id.startsWith('translate-') && DOC.includes('`translate-es|de|zh|fr|pt|it|ru|ja`'));
      expect(mentioned, id).toBe(true);
    }
  });
});
