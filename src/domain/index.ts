export * from './entry.js';
export * from './verdict.js';
// verdict-schema.ts (zod) is imported by path where a verdict is parsed, so that loading
// the domain types does not load zod: it would cost every CLI start ~40 ms.
export * from './guard.js';
export * from './fuzz-case.js';
export * from './store-context.js';
export * from './errors.js';
export * from './keys.js';
export * from './package-root.js';
