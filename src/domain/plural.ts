/**
 * Counted nouns in the text users read ("1 record", "3 records", "0 cells"): one helper, so no
 * line says "1 records" or hedges with "record(s)". English plural categories from
 * `Intl.PluralRules`; the number is printed as given (no grouping), so figures stay greppable.
 */
const EN = new Intl.PluralRules('en-US');

/**
 * `n` followed by the singular or plural form of a noun.
 * @param many the plural form when it is not `one` + "s" (e.g. `plural(n, 'family', 'families')`).
 * @example
 * plural(1, 'record'); // '1 record'
 * plural(0, 'entry', 'entries'); // '0 entries'
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${EN.select(n) === 'one' ? one : many}`;
}
