export { MemoryStore } from './memory-store.js';
export type { WriteResult, WriteOptions, DroppedEntry, RetrieveResult, RetrieveOptions, RejectedWrite } from './memory-store.js';
export { toFtsQuery, MAX_QUERY_TERMS } from './fts-query.js';
export { probeStoreFile } from './probe.js';
export { DEFAULT_BUSY_TIMEOUT_MS } from './sqlite-open.js';
