/**
 * SQLite schema and statements of the memory store. Exported so a test can ask SQLite for
 * the query plan of every read a guard makes (they must be index searches, never scans).
 *
 * - `entries`: both parts of the memory store in one table, told apart by `store`
 *   (`reasoning` | `general`); `(store, id)` is unique.
 * - `entries_fts`: FTS5 index of `content` (external content = `entries`), for bm25.
 * - `key_counts`, `trace_counts`, `store_sizes`: counters maintained on every insert, so
 *   `countByKey`, `countByTraceType` and `size` are single index lookups.
 * - `rejected_writes`: the verdict of every write the guard did not admit.
 */

const SCHEMA_VERSION = 1;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS entries (
  rowid INTEGER PRIMARY KEY,
  store TEXT NOT NULL CHECK (store IN ('reasoning', 'general')),
  id TEXT NOT NULL,
  content TEXT NOT NULL,
  source TEXT NOT NULL,
  trust TEXT NOT NULL,
  trace_type TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  metadata TEXT,
  UNIQUE (store, id)
);
CREATE VIRTUAL TABLE IF NOT EXISTS entries_fts USING fts5(
  content, content = 'entries', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TABLE IF NOT EXISTS key_counts (
  key TEXT NOT NULL, store TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (key, store)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS trace_counts (
  trace_type TEXT NOT NULL, store TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (trace_type, store)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS store_sizes (store TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rejected_writes (
  seq INTEGER PRIMARY KEY,
  phase TEXT NOT NULL,
  guard TEXT NOT NULL,
  decision TEXT NOT NULL,
  store TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  entry TEXT NOT NULL,
  verdict TEXT NOT NULL
);
INSERT OR IGNORE INTO store_sizes (store, n) VALUES ('reasoning', 0), ('general', 0);
INSERT OR IGNORE INTO meta (k, v) VALUES ('schema_version', '${SCHEMA_VERSION}');
`;

/** The reads a guard can trigger through a StoreView, by method. */
export const VIEW_SQL = {
  sizeOne: 'SELECT n FROM store_sizes WHERE store = ?',
  sizeAll: 'SELECT COALESCE(SUM(n), 0) FROM store_sizes',
  keyOne: 'SELECT n FROM key_counts WHERE key = ? AND store = ?',
  keyAll: 'SELECT COALESCE(SUM(n), 0) FROM key_counts WHERE key = ?',
  traceOne: 'SELECT n FROM trace_counts WHERE trace_type = ? AND store = ?',
  traceAll: 'SELECT COALESCE(SUM(n), 0) FROM trace_counts WHERE trace_type = ?',
  searchOne: `SELECT e.id, e.store, e.content, e.source, e.trust, e.trace_type, e.timestamp, e.metadata
    FROM entries_fts f JOIN entries e ON e.rowid = f.rowid
    WHERE entries_fts MATCH ? AND e.store = ? ORDER BY f.rank LIMIT ?`,
  searchAll: `SELECT e.id, e.store, e.content, e.source, e.trust, e.trace_type, e.timestamp, e.metadata
    FROM entries_fts f JOIN entries e ON e.rowid = f.rowid
    WHERE entries_fts MATCH ? ORDER BY f.rank LIMIT ?`,
  // One term, newest first, no ranking: FTS5 walks the term's doclist and stops at the limit.
  termOne: `SELECT e.id, e.store, e.content, e.source, e.trust, e.trace_type, e.timestamp, e.metadata
    FROM entries_fts f JOIN entries e ON e.rowid = f.rowid
    WHERE entries_fts MATCH ? AND e.store = ? ORDER BY f.rowid DESC LIMIT ?`,
  termAll: `SELECT e.id, e.store, e.content, e.source, e.trust, e.trace_type, e.timestamp, e.metadata
    FROM entries_fts f JOIN entries e ON e.rowid = f.rowid
    WHERE entries_fts MATCH ? ORDER BY f.rowid DESC LIMIT ?`,
} as const;

/** Statements of the write side. */
export const WRITE_SQL = {
  insertEntry: `INSERT INTO entries (store, id, content, source, trust, trace_type, timestamp, metadata)
    VALUES (@store, @id, @content, @source, @trust, @traceType, @timestamp, @metadata)`,
  insertEntryIfNew: `INSERT INTO entries (store, id, content, source, trust, trace_type, timestamp, metadata)
    VALUES (@store, @id, @content, @source, @trust, @traceType, @timestamp, @metadata) ON CONFLICT (store, id) DO NOTHING`,
  insertFts: 'INSERT INTO entries_fts (rowid, content) VALUES (?, ?)',
  bumpKey: 'INSERT INTO key_counts (key, store, n) VALUES (?, ?, 1) ON CONFLICT (key, store) DO UPDATE SET n = n + 1',
  bumpTrace:
    'INSERT INTO trace_counts (trace_type, store, n) VALUES (?, ?, 1) ON CONFLICT (trace_type, store) DO UPDATE SET n = n + 1',
  bumpSize: 'UPDATE store_sizes SET n = n + 1 WHERE store = ?',
  logRejected: `INSERT INTO rejected_writes (phase, guard, decision, store, entry_id, entry, verdict)
    VALUES (?, ?, ?, ?, ?, ?, ?)`,
  listRejected: 'SELECT seq, phase, guard, decision, entry, verdict FROM rejected_writes ORDER BY seq',
  countRejected: 'SELECT COUNT(*) FROM rejected_writes',
  getEntry: `SELECT id, store, content, source, trust, trace_type, timestamp, metadata
    FROM entries WHERE store = ? AND id = ?`,
} as const;
