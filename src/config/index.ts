export { defineConfig, DEFAULT_CONFIG } from './define-config.js';
export { loadConfigFile, validateConfig } from './load-config-file.js';
export { mergeConfig, givenFlags } from './merge-config.js';
