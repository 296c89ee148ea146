export { defineConfig, DEFAULT_CONFIG } from './define-config.js';
export type { FarmaFuzzConfig, ThresholdsConfig } from './define-config.js';
export { loadConfigFile, validateConfig, CONFIG_FILE_NAMES } from './load-config-file.js';
export type { KnownIds } from './load-config-file.js';
export { mergeConfig, givenFlags } from './merge-config.js';
export type { ConfigFlags } from './merge-config.js';
