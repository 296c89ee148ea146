export * from './entry.js';
export * from './verdict.js';
export * from './verdict-schema.js';
export * from './guard.js';
export * from './fuzz-case.js';
export * from './errors.js';
export * from './keys.js';
export * from './package-root.js';
