/**
 * JavaScript's own property names, refused as option and config keys.
 */

/**
 * Names no option may have: JavaScript's own property names. Setting them through a dotted key
 * reaches `Object.prototype` (`__proto__.polluted=1` polluted every object and was otherwise
 * ignored, with the same config hash); they are refused wherever options are written.
 */
export const RESERVED_OPTION_NAMES: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** The dotted path of the first reserved name among the own keys of `value`, at any depth, or undefined. */
export function reservedOptionPath(value: unknown, prefix = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) {
    const at = prefix ? `${prefix}.${key}` : key;
    if (RESERVED_OPTION_NAMES.includes(key)) return at;
    const inner = reservedOptionPath((value as Record<string, unknown>)[key], at);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

