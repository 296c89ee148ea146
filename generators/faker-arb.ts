/**
 * Faker driven by fast-check (DESIGN.md, "No hidden randomness"): the seed comes from a
 * shrinkable fast-check integer, never from Math.random or a global seed. Rendered values,
 * not seeds, are what corpora store.
 */
import fc from 'fast-check';
import { Faker, base, de, en, es, zh_CN } from '@faker-js/faker';

/** Faker locales the generators use; each falls back to English, then to Faker's base data. */
export const FAKER_LOCALES = ['en', 'es', 'de', 'zh_CN'] as const;
export type FakerLocale = (typeof FAKER_LOCALES)[number];

const LOCALE_DEFS = { en, es, de, zh_CN } as const satisfies Record<FakerLocale, unknown>;

const instances = new Map<FakerLocale, Faker>();

/** One shared Faker per locale (re-seeded before every use, so sharing is safe). */
function fakerFor(locale: FakerLocale): Faker {
  let f = instances.get(locale);
  if (!f) {
    f = locale === 'en' ? new Faker({ locale: [en, base] }) : new Faker({ locale: [LOCALE_DEFS[locale], en, base] });
    instances.set(locale, f);
  }
  return f;
}

export interface FakerValueOptions {
  /** Locale of the generated names, places, products (default `en`). */
  locale?: FakerLocale;
}

/** True when `s` names a locale `fakerValue` supports. */
export function isFakerLocale(s: string): s is FakerLocale {
  return (FAKER_LOCALES as readonly string[]).includes(s);
}

/**
 * An arbitrary of values produced by `fn` from a Faker seeded by fast-check.
 * Shrinks toward seed 0. `fn` must be synchronous and deterministic given the Faker.
 * Seeding costs about 25 µs, so draw several values in one `fn` where you can.
 * @example fakerValue((f) => f.person.fullName())
 * @example fakerValue((f) => f.person.fullName(), { locale: 'de' })
 */
export function fakerValue<T>(fn: (f: Faker) => T, options: FakerValueOptions = {}): fc.Arbitrary<T> {
  const faker = fakerFor(options.locale ?? 'en');
  return fc.integer({ min: 0, max: 0x7fffffff }).map((seed) => {
    faker.seed(seed);
    return fn(faker);
  });
}
