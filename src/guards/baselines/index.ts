export { createNoDefense } from './no-defense.js';
export { createKeywordFilter, DEFAULT_KEYWORD_BLOCKLIST } from './keyword-filter.js';
export type { KeywordFilterOptions } from './keyword-filter.js';
