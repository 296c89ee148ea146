/**
 * Faker driven by fast-check (DESIGN.md, "No hidden randomness"): the seed comes from a
 * shrinkable fast-check integer, never from Math.random or a global seed. Rendered values,
 * not seeds, are what corpora store.
 */
import fc from 'fast-check';
import { Faker, base, de, en, es, zh_CN } from '@faker-js/faker';
import type { Randomizer } from '@faker-js/faker';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Faker locales the generators use; each falls back to English, then to Faker's base data. */
const FAKER_LOCALES = ['en', 'es', 'de', 'zh_CN'] as const;
export type FakerLocale = (typeof FAKER_LOCALES)[number];

const LOCALE_DEFS = { en, es, de, zh_CN } as const satisfies Record<FakerLocale, unknown>;

/**
 * Random sources for Faker: its default Mersenne Twister, or pure-rand's xoroshiro128+,
 * whose seeding is about 10x cheaper (a Mersenne seed costs ~25 µs).
 */
const FAKER_RNGS = ['mersenne', 'xoroshiro'] as const;
type FakerRng = (typeof FAKER_RNGS)[number];

/** A Faker randomizer backed by pure-rand's xoroshiro128+ (values in [0, 1), 32-bit steps). */
function xoroshiroRandomizer(): Randomizer {
  let g = xoroshiro128plus(0);
  return {
    seed: (seed) => {
      g = xoroshiro128plus(Array.isArray(seed) ? (seed[0] ?? 0) : seed);
    },
    next: () => (g.next() >>> 0) / 4_294_967_296,
  };
}

const instances = new Map<string, Faker>();

/** One shared Faker per locale and rng (re-seeded before every use, so sharing is safe). */
function fakerFor(locale: FakerLocale, rng: FakerRng): Faker {
  const key = `${locale}/${rng}`;
  let f = instances.get(key);
  if (!f) {
    const chain = locale === 'en' ? [en, base] : [LOCALE_DEFS[locale], en, base];
    f = rng === 'xoroshiro' ? new Faker({ locale: chain, randomizer: xoroshiroRandomizer() }) : new Faker({ locale: chain });
    instances.set(key, f);
  }
  return f;
}

export interface FakerValueOptions {
  /** Locale of the generated names, places, products (default `en`). */
  locale?: FakerLocale;
  /** Random source (default `mersenne`, Faker's own; `xoroshiro` seeds ~10x faster). */
  rng?: FakerRng;
}

/** True when `s` names a locale `fakerValue` supports. */
export function isFakerLocale(s: string): s is FakerLocale {
  return (FAKER_LOCALES as readonly string[]).includes(s);
}

/**
 * An arbitrary of values produced by `fn` from a Faker seeded by fast-check.
 * Shrinks toward seed 0. `fn` must be synchronous and deterministic given the Faker.
 * Seeding the default Mersenne Twister costs about 25 µs: draw several values in one `fn`,
 * or pass `rng: 'xoroshiro'`.
 * @example fakerValue((f) => f.person.fullName())
 * @example fakerValue((f) => f.person.fullName(), { locale: 'de' })
 */
export function fakerValue<T>(fn: (f: Faker) => T, options: FakerValueOptions = {}): fc.Arbitrary<T> {
  const faker = fakerFor(options.locale ?? 'en', options.rng ?? 'mersenne');
  return fc.integer({ min: 0, max: 0x7fffffff }).map((seed) => {
    faker.seed(seed);
    return fn(faker);
  });
}
