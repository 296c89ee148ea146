/**
 * `parseVerdict` takes a fast path (no zod) for plain, well-formed verdict objects. It must give
 * exactly what the zod schema gives (`parseVerdictBySchema`): the same verdict, with the same
 * keys in the same order, or the same error message. Checked on generated verdict-shaped values,
 * valid and off-shape, and on the verdicts of every built-in guard over generated cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/domain/fuzz-case.js';
import { parseVerdict, parseVerdictBySchema } from '../../src/domain/verdict-schema.js';
import { createGuard, GUARDS } from '../../src/guards/registry.js';
import { MemoryStore } from '../../src/memory/index.js';
import { FAMILY_IDS, FAMILY_REGISTRY } from '../../generators/families.js';

/** Both paths, compared by value and by serialised form (key order included). */
function expectSame(value: unknown): void {
  const fast = parseVerdict(value);
  const slow = parseVerdictBySchema(value);
  expect(fast).toStrictEqual(slow);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
}

/** A value of a field: mostly the right type, sometimes not. */
const oddValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(Number.NaN),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant(-1),
  fc.constant(-0),
  fc.string({ maxLength: 4 }),
  fc.constantFrom('', 'PASS', 'admit ', 'skip', 'reject'),
  fc.double(),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 3 }),
);

const strings = fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 });
const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e6 });

/** A well-formed verdict, optional fields present or not. */
const validVerdict = fc.record(
  {
    decision: fc.constantFrom('admit', 'reject', 'error'),
    layer: fc.constantFrom('L1-keyword', 'L5-reasoning-guard', ''),
    trace: fc.array(
      fc.record({ layer: fc.constantFrom('L1-keyword', 'L5-reasoning-guard'), outcome: fc.constantFrom('pass', 'reject', 'skip'), value: finite, reasons: strings }, { requiredKeys: ['layer', 'outcome'] }),
      { minLength: 1, maxLength: 3 },
    ),
    signals: fc.dictionary(fc.constantFrom('s1', 's2', 's3', 'toString', 'constructor'), finite, { minKeys: 1, maxKeys: 4 }),
    score: finite,
    reasons: strings,
    elapsedUs: finite,
    error: fc.record({ kind: fc.constantFrom('threw', 'timeout', 'malformed', 'crashed', 'unavailable', 'other'), message: fc.string({ maxLength: 6 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: ['decision'] },
);

/** Where one odd value may be put into a valid verdict. */
const PLACES = [
  ['decision'],
  ['layer'],
  ['trace'],
  ['signals'],
  ['score'],
  ['reasons'],
  ['elapsedUs'],
  ['error'],
  ['unknownField'],
  ['trace', 0],
  ['trace', 0, 'layer'],
  ['trace', 0, 'outcome'],
  ['trace', 0, 'value'],
  ['trace', 0, 'reasons'],
  ['trace', 0, 'extra'],
  ['signals', 's1'],
  ['signals', '__proto__'],
  ['error', 'kind'],
  ['error', 'message'],
  ['error', 'extra'],
  ['reasons', 0],
] as const;

/** A valid verdict, or one with one or two of its fields replaced by an odd value. */
const verdictLike = fc
  .tuple(validVerdict, fc.array(fc.tuple(fc.constantFrom(...PLACES), oddValue), { maxLength: 2 }))
  .map(([v, edits]) => {
    const out = structuredClone(v) as Record<string | number, unknown>;
    for (const [place, odd] of edits) {
      let at: Record<string | number, unknown> = out;
      for (const key of place.slice(0, -1)) {
        const next = at[key];
        if (typeof next !== 'object' || next === null) break;
        at = next as Record<string | number, unknown>;
      }
      const last = place[place.length - 1] as string | number;
      if (last === '__proto__') Object.defineProperty(at, last, { value: odd, enumerable: true, configurable: true, writable: true });
      else at[last] = odd;
    }
    return out;
  });

describe('parseVerdict fast path = the zod schema', () => {
  it('on generated verdict-shaped values, valid and off-shape', () => {
    let ok = 0;
    let refused = 0;
    fc.assert(
      fc.property(verdictLike, (v) => {
        expectSame(v);
        if (parseVerdict(v).ok) ok += 1;
        else refused += 1;
      }),
      { numRuns: 8000, seed: 12 },
    );
    // Both kinds of input were generated: some verdicts parse, some do not.
    expect(ok).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  it('on values the fast path must leave to the schema', () => {
    class Box {
      decision = 'admit';
    }
    const withGetter = Object.defineProperty({ reasons: [] }, 'decision', { get: () => 'admit', enumerable: true });
    const throwing = Object.defineProperty({}, 'decision', {
      get: () => {
        throw new Error('no');
      },
      enumerable: true,
    });
    const nullProto = Object.assign(Object.create(null) as object, { decision: 'reject' });
    const sym = { decision: 'admit', [Symbol('x')]: 1 };
    const protoSignal = JSON.parse('{"decision":"admit","signals":{"__proto__":0.5}}') as unknown;
    for (const v of [new Box(), withGetter, throwing, nullProto, sym, protoSignal, { decision: 'admit', layer: undefined }, { decision: 'admit', trace: [{ layer: 'a', outcome: 'pass', value: undefined }] }]) {
      expectSame(v);
    }
  });

  it("on every built-in guard's verdicts over generated cases (both paths)", () => {
    const store = new MemoryStore(':memory:');
    try {
      let n = 0;
      for (const id of Object.keys(GUARDS)) {
        const guard = createGuard(id);
        for (const family of FAMILY_IDS) {
          const cases = fc.sample(FAMILY_REGISTRY[family].arbitrary(DOMAINS[n % DOMAINS.length]!), { seed: 5 + n, numRuns: 8 });
          for (const c of cases) {
            for (const phase of ['write', 'retrieve'] as const) {
              expectSame(guard.check(c.entry, { phase, store: store.view }));
              n += 1;
            }
          }
        }
      }
      expect(n).toBeGreaterThan(100);
    } finally {
      store.close();
    }
  }, 60_000);
});
