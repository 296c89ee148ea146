/**
 * The memory store: both parts (`reasoning`, `general`) in one SQLite database through
 * better-sqlite3 12 (DESIGN.md, "Real parts"), with FTS5 bm25 retrieval, indexed counts for
 * guards, a guarded write path and a guarded retrieve path (paper §II-A, §IV: a guard runs
 * before a write commits and before a retrieved entry reaches the agent).
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StoreError, errorVerdict, extractKeys, isStoreName, errorMessage } from '../domain/index.js';
import { checkedVerdict } from '../domain/verdict-schema.js';
import type { Guard, MemoryEntry, Phase, StoreName, StoreView, SyncGuard, Verdict } from '../domain/index.js';
import { redactWith, secretValues } from '../domain/secrets.js';
import { DEFAULT_BUSY_TIMEOUT_MS, openReadOnly } from './sqlite-open.js';
import { queryTerms, toFtsQuery } from './fts-query.js';
import { SCHEMA_SQL, VIEW_SQL, WRITE_SQL } from './schema.js';
import { StoreOverlay, type OverlayBase } from './store-overlay.js';

type Statement = Database.Statement<unknown[], unknown>;
type Statements = Record<keyof typeof VIEW_SQL | keyof typeof WRITE_SQL, Statement>;

/** A row of `entries` as SQLite returns it. */
interface EntryRow {
  id: string;
  store: StoreName;
  content: string;
  source: string;
  trust: string;
  trace_type: string;
  timestamp: string;
  metadata: string | null;
}

/** Outcome of a guarded write. `committed` is true only when the verdict was `admit`. */
export interface WriteResult {
  committed: boolean;
  verdict: Verdict;
  /** With `skipDuplicate`: the guard admitted the entry but its id was already taken (another writer won). */
  duplicate?: boolean;
}

/** Options of a guarded write. */
export interface WriteOptions {
  /** An admitted entry whose id is already taken is skipped (`duplicate: true`) instead of throwing. */
  skipDuplicate?: boolean;
}

/** An entry the guard kept from the agent on the retrieve path, with the verdict. */
interface DroppedEntry {
  entry: MemoryEntry;
  verdict: Verdict;
}

/** Outcome of a retrieval: the entries the agent may see (best first) and the ones dropped. */
export interface RetrieveResult {
  entries: MemoryEntry[];
  dropped: DroppedEntry[];
}

export interface RetrieveOptions {
  /** Search one part of the store; both when absent. */
  store?: StoreName;
  /** Guard applied to each retrieved entry; none when absent. */
  guard?: Guard;
  /** Phase passed to the guard (default `retrieve`). */
  phase?: Phase;
}

/** One logged write that was not committed (`reject` or `error`). */
export interface RejectedWrite {
  seq: number;
  phase: Phase;
  guard: string;
  decision: 'reject' | 'error';
  entry: MemoryEntry;
  verdict: Verdict;
}

function reason(err: unknown): string {
  return errorMessage(err);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * SQLite stores text as UTF-8, and a lone surrogate has no UTF-8 form: written as is, it becomes
 * bytes other readers cannot decode. Each one is stored escaped instead, as the six characters
 * `\uD800` (the same spelling JSON uses), so the file stays valid UTF-8 and the text is kept.
 */
function escapeLoneSurrogates(text: string): string {
  LONE_SURROGATE.lastIndex = 0;
  if (!LONE_SURROGATE.test(text)) return text;
  return text.replace(LONE_SURROGATE, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function toEntry(row: EntryRow): MemoryEntry {
  const entry: MemoryEntry = {
    id: row.id,
    store: row.store,
    content: row.content,
    source: row.source,
    trust: row.trust,
    traceType: row.trace_type,
    timestamp: row.timestamp,
  };
  if (row.metadata !== null) entry.metadata = JSON.parse(row.metadata) as Record<string, unknown>;
  return entry;
}

/** Runs a guard check synchronously; a throw or a returned Promise becomes an `error` verdict. */
function checkSync(guard: Guard, entry: MemoryEntry, phase: Phase, store: StoreView): Verdict {
  try {
    const out = guard.check(entry, { phase, store });
    if (out instanceof Promise) {
      out.catch(() => undefined);
      return errorVerdict('malformed', `guard ${guard.id} declared mode 'sync' but returned a Promise`);
    }
    return checkedVerdict(out, `guard ${guard.id}`);
  } catch (err) {
    return errorVerdict('threw', `guard ${guard.id} threw: ${reason(err)}`);
  }
}

async function checkAsync(guard: Guard, entry: MemoryEntry, phase: Phase, store: StoreView): Promise<Verdict> {
  try {
    return checkedVerdict(await guard.check(entry, { phase, store }), `guard ${guard.id}`);
  } catch (err) {
    return errorVerdict('threw', `guard ${guard.id} threw: ${reason(err)}`);
  }
}

/**
 * A SQLite-backed memory store with both parts of the memory (paper §II-A).
 *
 * - Files use WAL; `':memory:'` gives a private in-memory database.
 * - Every read a guard makes through {@link MemoryStore.view} is one index lookup: the
 *   cost of a check does not grow with the number of entries.
 * - {@link MemoryStore.scratch} runs a check on top of temporary entries and rolls them
 *   back, so one connection serves thousands of stateful fuzz cases.
 * - Entry ids are unique within a store part; inserting a taken id is a `StoreError`.
 *
 * Errors: every SQLite failure is rethrown as `StoreError` whose message starts with the
 * database path (`cause` kept).
 *
 * @example
 * const store = new MemoryStore(':memory:');
 * store.insertMany(history);
 * const { committed, verdict } = store.writeSync(candidate, sentinel);
 * const { entries, dropped } = store.retrieve('INT-EHR-7742 validation', 5, { guard: sentinel });
 * store.close();
 */
export class MemoryStore {
  /** The database path given to the constructor (`':memory:'` for in-memory). */
  readonly path: string;
  /** The read-only view guards receive. */
  readonly view: StoreView;

  readonly #db: Database.Database;
  readonly #q: Statements;
  /** `true` when opened with `readonly: true`: every write throws StoreError. */
  readonly readonly: boolean;

  readonly #insertBatch: (entries: readonly MemoryEntry[]) => void;
  readonly #insertNewBatch: Database.Transaction<(entries: readonly MemoryEntry[]) => { inserted: MemoryEntry[]; duplicates: MemoryEntry[] }>;
  #savepoints = 0;
  /** Whether the committed store is empty, as last read; dropped by every insert and rollback. */
  #emptyMemo: boolean | undefined;
  #overlayBase: OverlayBase | undefined;
  #secretList: readonly string[] | undefined;
  #asyncQueue: Promise<unknown> = Promise.resolve();

  /**
   * Opens (creating if needed) a store at `path`, or an in-memory one for `':memory:'`.
   *
   * - `readonly: true` opens an existing store without writing anything: no schema, no
   *   journal-mode change, no `-wal`/`-shm` file left behind (works on a read-only folder or
   *   mount). Writes then throw a StoreError that says the store is read-only.
   * - File stores use WAL while open and wait up to `busyTimeoutMs` (default 10 000 ms) for
   *   another process's write lock; the last writer to close leaves the file in
   *   rollback-journal mode, so read-only opens need no side files.
   * @throws StoreError naming the path when the database cannot be opened or migrated, when a
   *   read-only store is missing, unreadable, or not a farma-fuzz memory store.
   */
  constructor(path = ':memory:', options: { readonly?: boolean; busyTimeoutMs?: number } = {}) {
    this.path = path;
    this.readonly = options.readonly === true;
    const timeout = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    const file = path !== ':memory:' && path !== '';
    try {
      if (this.readonly) {
        if (!file) throw new StoreError(`${path}: an in-memory store cannot be opened read-only`);
        if (!existsSync(path)) throw new StoreError(`${path}: no such memory store`);
        try {
          this.#db = openReadOnly(path, timeout);
        } catch (err) {
          if ((err as { code?: unknown }).code === 'SQLITE_CANTOPEN') {
            throw new StoreError(
              `${path}: cannot open the memory store read-only (${errorMessage(err)}). Check that the file is readable; a store in WAL mode on a read-only mount also needs its -wal and -shm files to exist, so copy it to a writable folder or close its writer first`,
              { cause: err },
            );
          }
          throw err;
        }
        const tables = new Set((this.#db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").all() as Array<{ name: string }>).map((r) => r.name));
        for (const t of ['meta', 'entries', 'entries_fts', 'key_counts', 'trace_counts', 'store_sizes', 'rejected_writes']) {
          if (!tables.has(t)) throw new StoreError(`${path}: not a farma-fuzz memory store (no table "${t}")`);
        }
      } else {
        this.#db = new Database(path, { timeout });
        if (file) {
          this.#db.pragma('journal_mode = WAL');
          this.#db.pragma('synchronous = NORMAL');
        }
        this.#db.exec(SCHEMA_SQL);
      }
      const q = {} as Record<string, Statement>;
      for (const [name, sql] of Object.entries({ ...VIEW_SQL, ...WRITE_SQL })) q[name] = this.#db.prepare(sql);
      this.#q = q as Statements;
    } catch (err) {
      throw this.#error('cannot open the memory store', err);
    }
    for (const name of ['sizeOne', 'sizeAll', 'keyOne', 'keyAll', 'traceOne', 'traceAll', 'countRejected'] as const) {
      this.#q[name].pluck();
    }
    this.#insertBatch = this.#db.transaction((entries: readonly MemoryEntry[]) => {
      for (const e of entries) this.#insertOne(e);
    });
    this.#insertNewBatch = this.#db.transaction((entries: readonly MemoryEntry[]) => {
      const inserted: MemoryEntry[] = [];
      const duplicates: MemoryEntry[] = [];
      for (const e of entries) (this.#insertOne(e, true) ? inserted : duplicates).push(e);
      return { inserted, duplicates };
    });
    this.view = this.#makeView();
  }

  /** Secrets of the environment, read once per store (see `secretValues`). */
  #secrets(): readonly string[] {
    return (this.#secretList ??= secretValues());
  }

  #error(what: string, err: unknown): StoreError {
    if (err instanceof StoreError) return err;
    if (this.readonly && String((err as { code?: unknown }).code ?? '').startsWith('SQLITE_READONLY')) {
      return new StoreError(`${this.path}: ${what}: the store was opened read-only (as \`check --store\` does); nothing can be written to it`, { cause: err });
    }
    return new StoreError(`${this.path}: ${what}: ${reason(err)}`, { cause: err });
  }

  #makeView(): StoreView {
    const q = this.#q;
    const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
    return {
      size: (store?: StoreName): number => {
        try {
          return num(store === undefined ? q.sizeAll.get() : q.sizeOne.get(store));
        } catch (err) {
          throw this.#error('size failed', err);
        }
      },
      countByKey: (key: string, store?: StoreName): number => {
        const k = key.toLowerCase();
        try {
          return num(store === undefined ? q.keyAll.get(k) : q.keyOne.get(k, store));
        } catch (err) {
          throw this.#error('countByKey failed', err);
        }
      },
      countByTraceType: (traceType: string, store?: StoreName): number => {
        try {
          return num(store === undefined ? q.traceAll.get(traceType) : q.traceOne.get(traceType, store));
        } catch (err) {
          throw this.#error('countByTraceType failed', err);
        }
      },
      search: (query: string, k: number, store?: StoreName): MemoryEntry[] => this.search(query, k, store),
      termMatches: (query: string, perTerm: number, store?: StoreName): MemoryEntry[] => this.termMatches(query, perTerm, store),
    };
  }

  /** Inserts one entry; with `skipDuplicate`, a taken id returns `false` instead of throwing. */
  #insertOne(e: MemoryEntry, skipDuplicate = false): boolean {
    this.#emptyMemo = undefined;
    if (!isStoreName(e.store)) throw new StoreError(`${this.path}: entry ${JSON.stringify(e.id)} has an unknown store ${JSON.stringify(e.store)}`);
    const q = this.#q;
    let rowid: number | bigint;
    try {
      const run = (skipDuplicate ? q.insertEntryIfNew : q.insertEntry).run({
        store: e.store,
        id: escapeLoneSurrogates(e.id),
        content: escapeLoneSurrogates(e.content),
        source: escapeLoneSurrogates(e.source),
        trust: escapeLoneSurrogates(e.trust),
        traceType: escapeLoneSurrogates(e.traceType),
        timestamp: escapeLoneSurrogates(e.timestamp),
        metadata: e.metadata === undefined ? null : JSON.stringify(e.metadata),
      });
      if (run.changes === 0) return false;
      rowid = run.lastInsertRowid;
    } catch (err) {
      if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new StoreError(`${this.path}: entry id ${JSON.stringify(e.id)} is already in the ${e.store} store`, { cause: err });
      }
      throw err;
    }
    q.insertFts.run(rowid, escapeLoneSurrogates(e.content));
    for (const key of extractKeys(e.content)) q.bumpKey.run(key, e.store);
    q.bumpTrace.run(escapeLoneSurrogates(e.traceType), e.store);
    q.bumpSize.run(e.store);
    return true;
  }

  /**
   * Commits the entries whose `(store, id)` is not taken yet, in one write transaction that
   * takes the write lock up front (so concurrent writers in other processes queue, within the
   * busy timeout, instead of failing). A taken id, in the store or earlier in the batch, is
   * skipped and returned in `duplicates`; nothing else is skipped. For `import`.
   * @throws StoreError when SQLite fails (then nothing of the batch is committed).
   */
  insertNew(entries: readonly MemoryEntry[]): { inserted: MemoryEntry[]; duplicates: MemoryEntry[] } {
    if (entries.length === 0) return { inserted: [], duplicates: [] };
    try {
      return this.#savepoints > 0 ? this.#insertNewBatch(entries) : this.#insertNewBatch.immediate(entries);
    } catch (err) {
      throw this.#error('insert failed', err);
    }
  }

  /**
   * Commits one entry directly, with no guard (for setup and benign history).
   * @throws StoreError when the id is taken in that store part, or SQLite fails.
   */
  insert(entry: MemoryEntry): void {
    this.insertMany([entry]);
  }

  /**
   * Commits entries in one transaction, with no guard: all or nothing.
   * @throws StoreError naming the id when two entries of the batch share a store and id, or
   *   one is already stored; nothing of the batch is then committed.
   */
  insertMany(entries: readonly MemoryEntry[]): void {
    if (entries.length === 0) return;
    const seen = new Set<string>();
    for (const e of entries) {
      const k = `${e.store}\u0000${e.id}`;
      if (seen.has(k)) throw new StoreError(`${this.path}: entry id ${JSON.stringify(e.id)} appears twice in one insert batch (${e.store} store)`);
      seen.add(k);
    }
    try {
      this.#insertBatch(entries);
    } catch (err) {
      throw this.#error('insert failed', err);
    }
  }

  /** Reads one stored entry by store part and id. */
  get(store: StoreName, id: string): MemoryEntry | undefined {
    try {
      const row = this.#q.getEntry.get(store, escapeLoneSurrogates(id)) as EntryRow | undefined;
      return row === undefined ? undefined : toEntry(row);
    } catch (err) {
      throw this.#error('get failed', err);
    }
  }

  #afterCheck(entry: MemoryEntry, guard: Guard, phase: Phase, verdict: Verdict, options: WriteOptions = {}): WriteResult {
    if (verdict.decision === 'admit') {
      if (options.skipDuplicate) return this.insertNew([entry]).inserted.length === 1 ? { committed: true, verdict } : { committed: false, verdict, duplicate: true };
      this.insertMany([entry]);
      return { committed: true, verdict };
    }
    try {
      // The verdict is the guard's text: it is stored with the environment's secrets redacted.
      this.#q.logRejected.run(phase, guard.id, verdict.decision, entry.store, escapeLoneSurrogates(entry.id), JSON.stringify(entry), JSON.stringify(redactWith(verdict, this.#secrets())));
    } catch (err) {
      throw this.#error('logging a rejected write failed', err);
    }
    return { committed: false, verdict };
  }

  /**
   * Guarded write with a sync guard: runs `guard.check(entry, { phase, store: view })` and
   * commits only on `admit`; a `reject` or `error` verdict is logged (see
   * {@link MemoryStore.rejectedWrites}). A guard that throws, or returns a Promise, yields
   * an `error` verdict and nothing is committed.
   * @throws StoreError when SQLite fails or an admitted entry's id is already stored.
   */
  writeSync(entry: MemoryEntry, guard: Guard, phase: Phase = 'write', options: WriteOptions = {}): WriteResult {
    return this.#afterCheck(entry, guard, phase, checkSync(guard, entry, phase, this.view), options);
  }

  /** {@link MemoryStore.writeSync} for any guard (the verdict is awaited). */
  async writeAsync(entry: MemoryEntry, guard: Guard, phase: Phase = 'write', options: WriteOptions = {}): Promise<WriteResult> {
    const verdict = await checkAsync(guard, entry, phase, this.view);
    return this.#afterCheck(entry, guard, phase, verdict, options);
  }

  /**
   * Guarded write: synchronous for a guard with `mode: 'sync'`, a Promise otherwise.
   * See {@link MemoryStore.writeSync}.
   */
  write(entry: MemoryEntry, guard: SyncGuard, phase?: Phase): WriteResult;
  write(entry: MemoryEntry, guard: Guard, phase?: Phase): WriteResult | Promise<WriteResult>;
  write(entry: MemoryEntry, guard: Guard, phase: Phase = 'write'): WriteResult | Promise<WriteResult> {
    return guard.mode === 'sync' ? this.writeSync(entry, guard, phase) : this.writeAsync(entry, guard, phase);
  }

  /** Writes that were not committed, oldest first (inside a scratch, rolled back with it). */
  rejectedWrites(): RejectedWrite[] {
    try {
      const rows = this.#q.listRejected.all() as Array<{ seq: number; phase: Phase; guard: string; decision: 'reject' | 'error'; entry: string; verdict: string }>;
      return rows.map((r) => ({
        seq: r.seq,
        phase: r.phase,
        guard: r.guard,
        decision: r.decision,
        entry: JSON.parse(r.entry) as MemoryEntry,
        verdict: JSON.parse(r.verdict) as Verdict,
      }));
    } catch (err) {
      throw this.#error('reading rejected writes failed', err);
    }
  }

  /**
   * Top-k stored entries by FTS5 bm25, best first, with no guard. The query is free text:
   * it is reduced to plain terms (see `toFtsQuery`), never parsed as FTS5 syntax. A query
   * without letters or digits, or `k <= 0`, returns `[]`.
   */
  search(query: string, k: number, store?: StoreName): MemoryEntry[] {
    const match = toFtsQuery(query);
    const limit = Math.floor(k);
    if (match === undefined || !(limit > 0)) return [];
    try {
      const rows = (store === undefined ? this.#q.searchAll.all(match, limit) : this.#q.searchOne.all(match, store, limit)) as EntryRow[];
      return rows.map(toEntry);
    } catch (err) {
      throw this.#error('search failed', err);
    }
  }

  /**
   * Unranked, bounded candidates (see `StoreView.termMatches`): for each distinct term of
   * `query`, up to `perTerm` of the newest entries holding it, de-duplicated by store + id in
   * order of first find. No bm25, so no term's whole doclist is scored: the cost grows with
   * terms × perTerm, not with the store size. `perTerm <= 0` or a query with no term gives `[]`.
   * @throws StoreError on SQLite failure.
   */
  termMatches(query: string, perTerm: number, store?: StoreName): MemoryEntry[] {
    const limit = Math.floor(perTerm);
    if (!(limit > 0)) return [];
    const seen = new Set<string>();
    const out: MemoryEntry[] = [];
    try {
      for (const term of queryTerms(query)) {
        const match = `"${term}"`;
        const rows = (store === undefined ? this.#q.termAll.all(match, limit) : this.#q.termOne.all(match, store, limit)) as EntryRow[];
        for (const row of rows) {
          const key = `${row.store}\u0000${row.id}`;
          if (seen.has(key)) continue;
          seen.add(key);
          out.push(toEntry(row));
        }
      }
      return out;
    } catch (err) {
      throw this.#error('termMatches failed', err);
    }
  }

  /**
   * Retrieval as the agent sees it: bm25 top-k, then, with a guard, each entry is checked
   * on the retrieve path (`phase` defaults to `retrieve`). Entries whose verdict is not
   * `admit` are dropped and returned with their verdict; an `error` verdict also drops the
   * entry (the agent never sees an unchecked entry), yet stays an error, not a rejection.
   * Needs a guard with `mode: 'sync'`; use {@link MemoryStore.retrieveAsync} otherwise.
   * @throws StoreError on SQLite failure, or when given an async guard.
   */
  retrieve(query: string, k: number, options: RetrieveOptions = {}): RetrieveResult {
    const found = this.search(query, k, options.store);
    const guard = options.guard;
    if (guard === undefined) return { entries: found, dropped: [] };
    if (guard.mode !== 'sync') throw new StoreError(`${this.path}: retrieve() needs a sync guard; use retrieveAsync() for ${guard.id}`);
    const phase = options.phase ?? 'retrieve';
    const out: RetrieveResult = { entries: [], dropped: [] };
    for (const entry of found) {
      const verdict = checkSync(guard, entry, phase, this.view);
      if (verdict.decision === 'admit') out.entries.push(entry);
      else out.dropped.push({ entry, verdict });
    }
    return out;
  }

  /** {@link MemoryStore.retrieve} for any guard; checks run one after another, in rank order. */
  async retrieveAsync(query: string, k: number, options: RetrieveOptions = {}): Promise<RetrieveResult> {
    const found = this.search(query, k, options.store);
    const guard = options.guard;
    if (guard === undefined) return { entries: found, dropped: [] };
    const phase = options.phase ?? 'retrieve';
    const out: RetrieveResult = { entries: [], dropped: [] };
    for (const entry of found) {
      const verdict = await checkAsync(guard, entry, phase, this.view);
      if (verdict.decision === 'admit') out.entries.push(entry);
      else out.dropped.push({ entry, verdict });
    }
    return out;
  }

  #begin(): string {
    const name = `scratch_${this.#savepoints}`;
    try {
      this.#db.exec(`SAVEPOINT ${name}`);
    } catch (err) {
      throw this.#error('cannot open a scratch savepoint', err);
    }
    this.#savepoints += 1;
    return name;
  }

  #rollback(name: string): void {
    this.#savepoints -= 1;
    this.#emptyMemo = undefined;
    try {
      this.#db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
    } catch (err) {
      throw this.#error('cannot roll a scratch savepoint back', err);
    }
  }

  /**
   * Runs `fn` on top of temporary state: inserts `setup` inside a SAVEPOINT, calls
   * `fn(view)`, then rolls everything back (setup, guarded writes, rejected-write logs),
   * whether `fn` returns or throws. Scratches nest. The store looks exactly as before
   * afterwards, so ids may repeat from one scratch to the next.
   * @throws StoreError when `setup` has a duplicate or already-stored id; errors of `fn`
   *   pass through (after the rollback).
   * @example
   * const verdict = store.scratch(fuzzCase.setup ?? [], (view) => guard.check(fuzzCase.entry, { phase: 'write', store: view }));
   */
  scratch<T>(setup: readonly MemoryEntry[], fn: (view: StoreView) => T): T {
    const name = this.#begin();
    try {
      this.insertMany(setup);
      return fn(this.view);
    } finally {
      this.#rollback(name);
    }
  }

  /**
   * {@link MemoryStore.scratch} with an async `fn`. Async scratches on one store run one at
   * a time (each waits for the previous one to roll back). Other calls made on this store
   * while one is pending see (and are rolled back with) its temporary state.
   */
  scratchAsync<T>(setup: readonly MemoryEntry[], fn: (view: StoreView) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const name = this.#begin();
      try {
        this.insertMany(setup);
        return await fn(this.view);
      } finally {
        this.#rollback(name);
      }
    };
    const result = this.#asyncQueue.then(run, run);
    this.#asyncQueue = result.catch(() => undefined);
    return result;
  }

  /**
   * A copy-on-write layer over the committed store holding `setup` (see {@link StoreOverlay}):
   * reads through `layer.view` behave as if `setup` (and later `layer.insert` calls) were
   * inserted here, but nothing is written, so any number of layers can be open at once and
   * nothing needs rolling back. This is how the fuzz engine sets up each case.
   * @throws StoreError as {@link MemoryStore.insertMany} would for `setup`.
   */
  overlay(setup: readonly MemoryEntry[] = []): StoreOverlay {
    return new StoreOverlay((this.#overlayBase ??= this.#makeOverlayBase()), setup);
  }

  /** What every layer over this store reads; built once. */
  #makeOverlayBase(): OverlayBase {
    const store = this;
    const memory = this.path === ':memory:' || this.path === '';
    return {
      path: this.path,
      view: this.view,
      has: (part, id) => this.get(part, id) !== undefined,
      searchWith: (extra, query, k, part) => this.scratch(extra, () => this.search(query, k, part)),
      termMatchesWith: (extra, query, perTerm, part) => this.scratch(extra, () => this.termMatches(query, perTerm, part)),
      // A private in-memory database can only change through this object, which the engine
      // does not write while a case runs. Read when a layer is made; the last answer is kept
      // until the next insert or rollback.
      get emptyForLayer(): boolean {
        return memory && (store.#emptyMemo ??= store.view.size() === 0);
      },
    };
  }

  /** Closes the database. Further calls throw StoreError. Closing twice is harmless. */
  close(): void {
    try {
      if (!this.#db.open) return;
      if (!this.readonly && this.path !== ':memory:' && this.path !== '') {
        // Leave the file in rollback-journal mode when no other connection has it open, so
        // later read-only opens need no -wal/-shm file. Busy (someone else has it): stay WAL.
        try {
          this.#db.pragma('busy_timeout = 0');
          this.#db.pragma('journal_mode = DELETE');
        } catch {
          // another connection holds the file; its own close will switch the mode
        }
      }
      this.#db.close();
    } catch (err) {
      throw this.#error('close failed', err);
    }
  }
}
