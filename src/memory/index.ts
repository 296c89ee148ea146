export { MemoryStore } from './memory-store.js';
export { toFtsQuery } from './fts-query.js';
export { probeStoreFile } from './probe.js';
