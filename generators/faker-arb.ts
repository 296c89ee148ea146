/**
 * Faker driven by fast-check (DESIGN.md, "No hidden randomness"): the seed comes from a
 * shrinkable fast-check integer, never from Math.random or a global seed. Rendered values,
 * not seeds, are what corpora store.
 */
import fc from 'fast-check';
import { Faker, en } from '@faker-js/faker';

const shared = new Faker({ locale: [en] });

/**
 * An arbitrary of values produced by `fn` from a Faker seeded by fast-check.
 * Shrinks toward seed 0. `fn` must be synchronous and deterministic given the Faker.
 * @example fakerValue((f) => f.person.fullName())
 */
export function fakerValue<T>(fn: (f: Faker) => T): fc.Arbitrary<T> {
  return fc.integer({ min: 0, max: 0x7fffffff }).map((seed) => {
    shared.seed(seed);
    return fn(shared);
  });
}
