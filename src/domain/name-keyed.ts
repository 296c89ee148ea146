/**
 * Tallies keyed by names that come from outside farma-fuzz: a guard's signal, layer and
 * error-kind names, an entry's trace type, a template id read from a blob. On a plain `{}` the
 * names `constructor`, `toString` or `hasOwnProperty` read as Object.prototype's members (a
 * count becomes `function Object() …1`), and writing `__proto__` is dropped or replaces the
 * prototype. These helpers count every name as a name.
 */

/**
 * An empty tally keyed by names from outside (a guard's signal, layer and error-kind names,
 * an entry's trace type): it has no prototype, so `constructor`, `toString` or `__proto__` are
 * names like any other (on a `{}` they read as Object.prototype's members, and a `__proto__`
 * write is dropped or replaces the prototype). JSON and structured clone keep every key.
 */
export function nameKeyed<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** Adds `by` to `map[key]`, reading only own keys (safe on a map that has a prototype, e.g. after JSON or structured clone). */
export function addCount(map: Record<string, number>, key: string, by = 1): void {
  const prev = Object.hasOwn(map, key) ? map[key]! : 0;
  if (Object.getPrototypeOf(map) === null) map[key] = prev + by;
  else Object.defineProperty(map, key, { value: prev + by, writable: true, enumerable: true, configurable: true });
}

/** The own value of `map[key]`, never an inherited member. */
export function ownValue<V>(map: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

