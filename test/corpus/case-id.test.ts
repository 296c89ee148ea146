import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { InputError } from '../../src/domain/index.js';
import { caseId } from '../../src/corpus/case-id.js';

describe('caseId', () => {
  it('is 16 lower-case hex characters and ignores key order', () => {
    const id = caseId({ b: [1, { y: 2, x: 'é' }], a: null });
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(caseId({ a: null, b: [1, { x: 'é', y: 2 }] })).toBe(id);
  });

  it('tells different values apart', () => {
    expect(caseId({ a: 1 })).not.toBe(caseId({ a: 2 }));
    expect(caseId(['a', 'b'])).not.toBe(caseId(['b', 'a']));
    expect(caseId('1')).not.toBe(caseId(1));
  });

  it('ignores undefined fields, like JSON', () => {
    expect(caseId({ a: 1, b: undefined })).toBe(caseId({ a: 1 }));
  });

  it('accepts fuzzed text with lone surrogates and non-finite numbers', () => {
    expect(caseId('a\uD800b')).not.toBe(caseId('a\uDC00b'));
    expect(caseId(Number.NaN)).not.toBe(caseId(Number.POSITIVE_INFINITY));
  });

  it('throws InputError on a cycle', () => {
    const c: Record<string, unknown> = {};
    c.self = c;
    expect(() => caseId(c)).toThrow(InputError);
  });

  test.prop([fc.jsonValue()], { numRuns: 200 })('survives a JSON round trip', (v) => {
    expect(caseId(JSON.parse(JSON.stringify(v)))).toBe(caseId(v));
  });
});
