/**
 * The reading label of every operator: required by the `Operator` type, one of
 * `READINGS`, and the encoded ones are the schemes a reader must decode.
 */
import { describe, expect, test } from 'vitest';
import { READINGS, type Operator } from '../../generators/paraphrase/operator.js';
import { listOperators } from '../../generators/paraphrase/operators.js';

describe('operator reading label', () => {
  test('every registered operator is labelled natural or encoded', () => {
    for (const o of listOperators()) expect(READINGS, o.id).toContain(o.reading);
  });

  test('the encoded operators are the decode-first schemes; translations and record forms are natural', () => {
    const encoded = listOperators().filter((o) => o.reading === 'encoded').map((o) => o.id).sort();
    expect(encoded).toEqual(expect.arrayContaining(['base64-payload', 'bidi-override', 'escape-sequences', 'html-entities', 'leetspeak', 'rot13-payload', 'unicode-tags', 'url-encoding']));
    for (const o of listOperators().filter((x) => x.group === 'language' || x.group === 'metadata' || x.id.startsWith('format-'))) expect(o.reading, o.id).toBe('natural');
  });

  test('an operator without a reading does not compile', () => {
    // @ts-expect-error: `reading` is required (npm run typecheck fails if it becomes optional)
    const unlabelled: Operator = { id: 'x', group: 'lexical', description: '', preserves: [], apply: (e) => e };
    expect(unlabelled.id).toBe('x');
  });
});
