import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type SqliteStatement } from 'kysely';
import type { DatabaseSchema, Db } from '../kysely/schema.js';
import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE } from '../system/private-files.js';
import { ChunkWriteThread } from './chunk-write-thread.js';
import { WalCheckpointer } from './wal-checkpointer.js';

export interface ChunkVectorsTable {
  chunk_id: string;
  session_id: string;
  job_id: string;
  institution: string | null;
  dimensions: number;
  /** Float32 little-endian, L2-normalised. */
  vector: Buffer;
}

export interface SqliteDatabase {
  db: Db;
  /** The raw handle, for FTS5 statements and synchronous transactions kysely cannot express. */
  raw: BetterSqlite3.Database;
  /** For a database file: the thread that writes chunk rows (see ChunkWriteThread); none in memory. */
  chunkWriter?: ChunkWriteThread;
  /** For a database file: the thread that copies the write-ahead log into the file (see WalCheckpointer). */
  checkpointer?: WalCheckpointer;
  /**
   * Copies the write-ahead log into the file and empties it: the log of a deletion on a full disk otherwise keeps the
   * space the deletion freed. Never blocks the thread: while a reader or the checkpoint thread holds the log it tries
   * again a few times, then leaves the log as it is. Resolves true when emptied.
   */
  truncateLog(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Migrations in code, applied in order at open. Each runs once (tracked in schema_migrations) inside a transaction.
 * Append new ones; never edit one that has shipped.
 */
export const MIGRATIONS: readonly { id: string; sql: string }[] = [
  {
    id: '001-sessions-and-chat',
    sql: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        label TEXT NOT NULL,
        user_id TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX sessions_by_user ON sessions (user_id, created_at);
      CREATE TABLE chat_messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        sources_json TEXT,
        created_at TEXT NOT NULL
      );
      -- History pages read (session_id, seq) ranges: this index makes a page an index range scan.
      CREATE INDEX chat_messages_by_session ON chat_messages (session_id, seq);
    `,
  },
  {
    id: '002-ingestion-and-chunks',
    sql: `
      CREATE TABLE ingest_jobs (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        blob_key TEXT NOT NULL,
        filename TEXT NOT NULL,
        content_type TEXT NOT NULL,
        tags_json TEXT NOT NULL,
        status TEXT NOT NULL,
        stage TEXT,
        progress REAL,
        error TEXT,
        pages INTEGER,
        chunks INTEGER,
        sha256 TEXT,
        reused_from TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX ingest_jobs_by_session ON ingest_jobs (session_id, sha256);
      CREATE INDEX ingest_jobs_by_status ON ingest_jobs (status, created_at);
      CREATE TABLE chunks (
        rowid INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL,
        job_id TEXT NOT NULL,
        filename TEXT NOT NULL,
        page INTEGER NOT NULL,
        ordinal INTEGER NOT NULL,
        text TEXT NOT NULL,
        tags_json TEXT NOT NULL,
        institution TEXT
      );
      CREATE INDEX chunks_by_session ON chunks (session_id, institution);
      CREATE INDEX chunks_by_job ON chunks (job_id);
      -- External-content FTS5 table over chunks.text; porter stemming on top of unicode61 (diacritics folded).
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        text, content='chunks', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
        INSERT INTO chunks_fts(rowid, text) VALUES (new.rowid, new.text);
      END;
      CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
        INSERT INTO chunks_fts(chunks_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
      END;
      CREATE TABLE chunk_vectors (
        chunk_id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL,
        job_id TEXT NOT NULL,
        institution TEXT,
        dimensions INTEGER NOT NULL,
        vector BLOB NOT NULL
      );
      CREATE INDEX chunk_vectors_by_session ON chunk_vectors (session_id, institution);
      CREATE INDEX chunk_vectors_by_job ON chunk_vectors (job_id);
    `,
  },
  {
    // A search must cost what its session holds, not the whole store: the session becomes a term of the full-text
    // index (one token, the id's hex), so MATCH intersects with it inside FTS5 instead of ranking every session's
    // matches and filtering afterwards.
    id: '003-fts-session-scope',
    sql: `
      ALTER TABLE chunks ADD COLUMN scope TEXT GENERATED ALWAYS AS (lower(hex(session_id))) VIRTUAL;
      DROP TRIGGER chunks_ai;
      DROP TRIGGER chunks_ad;
      DROP TABLE chunks_fts;
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        text, scope, content='chunks', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER chunks_ai AFTER INSERT ON chunks BEGIN
        INSERT INTO chunks_fts(rowid, text, scope) VALUES (new.rowid, new.text, new.scope);
      END;
      CREATE TRIGGER chunks_ad AFTER DELETE ON chunks BEGIN
        INSERT INTO chunks_fts(chunks_fts, rowid, text, scope) VALUES ('delete', old.rowid, old.text, old.scope);
      END;
      INSERT INTO chunks_fts(chunks_fts) VALUES ('rebuild');
    `,
  },
  {
    id: '004-upload-records',
    sql: `
      CREATE TABLE uploads (
        blob_key TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        content_type TEXT NOT NULL,
        declared_size INTEGER NOT NULL,
        issued_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        ingested_at TEXT,
        etag TEXT
      );
      CREATE INDEX uploads_by_user ON uploads (user_id, ingested_at, expires_at);
      CREATE INDEX uploads_pending_by_expiry ON uploads (expires_at) WHERE ingested_at IS NULL;
      CREATE INDEX ingest_jobs_by_key ON ingest_jobs (blob_key);
      -- Keys ingested before ownership was recorded belong to the user of their first job (SQLite takes the bare
      -- columns from the row holding the min()); their size is unknown (0).
      INSERT INTO uploads (blob_key, user_id, content_type, declared_size, issued_at, expires_at, ingested_at)
        SELECT blob_key, user_id, content_type, 0, min(created_at), min(created_at), min(created_at)
        FROM ingest_jobs GROUP BY blob_key;
    `,
  },
  {
    // Issue 9: bounded retries, skipped OCR pages, and one active job per user and key (idempotent ingest). Duplicate
    // active jobs an older version may have left are failed first, so that the unique index can be built.
    id: '005-ingest-attempts-and-active-key',
    sql: `
      ALTER TABLE ingest_jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE ingest_jobs ADD COLUMN ocr_skipped_pages INTEGER;
      UPDATE ingest_jobs SET status = 'failed', stage = NULL,
        error = 'Another ingest job for the same file was already queued or processing'
      WHERE status IN ('queued', 'processing') AND EXISTS (
        SELECT 1 FROM ingest_jobs AS earlier
        WHERE earlier.user_id = ingest_jobs.user_id AND earlier.blob_key = ingest_jobs.blob_key
          AND earlier.status IN ('queued', 'processing')
          AND (earlier.created_at < ingest_jobs.created_at OR (earlier.created_at = ingest_jobs.created_at AND earlier.id < ingest_jobs.id))
      );
      CREATE UNIQUE INDEX ingest_jobs_one_active_per_key ON ingest_jobs (user_id, blob_key)
        WHERE status IN ('queued', 'processing');
    `,
  },
  {
    // Issue 19: every history request returns the session's message count; counting the rows each time grew with the
    // session. Triggers keep the count on the session row (every insert and delete, whichever statement made it).
    id: '006-session-message-count',
    sql: `
      ALTER TABLE sessions ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0;
      UPDATE sessions SET message_count = (SELECT count(*) FROM chat_messages WHERE chat_messages.session_id = sessions.id);
      CREATE TRIGGER chat_messages_count_added AFTER INSERT ON chat_messages BEGIN
        UPDATE sessions SET message_count = message_count + 1 WHERE id = NEW.session_id;
      END;
      CREATE TRIGGER chat_messages_count_removed AFTER DELETE ON chat_messages BEGIN
        UPDATE sessions SET message_count = message_count - 1 WHERE id = OLD.session_id;
      END;
    `,
  },
  {
    // Counting a question's words per document (SqliteFtsIndex.documentTerms) reads each chunk's document by session
    // from this index alone, not from the table row by row.
    id: '007-chunks-by-session-and-job',
    sql: `CREATE INDEX chunks_by_session_job ON chunks (session_id, job_id);`,
  },
  {
    // A search ranks by its session's statistics, not the store's (FTS5's bm25() counts every session's chunks, so
    // one user's words moved another user's ranking). Triggers keep each session's chunk count, and the store's is
    // their sum; a session's row goes with its last chunk.
    id: '008-chunk-counts',
    sql: `
      CREATE TABLE chunk_counts (session_id TEXT PRIMARY KEY, chunks INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO chunk_counts SELECT session_id, count(*) FROM chunks GROUP BY session_id;
      CREATE TRIGGER chunks_count_added AFTER INSERT ON chunks BEGIN
        INSERT INTO chunk_counts VALUES (NEW.session_id, 1) ON CONFLICT (session_id) DO UPDATE SET chunks = chunks + 1;
      END;
      CREATE TRIGGER chunks_count_removed AFTER DELETE ON chunks BEGIN
        UPDATE chunk_counts SET chunks = chunks - 1 WHERE session_id = OLD.session_id;
        DELETE FROM chunk_counts WHERE session_id = OLD.session_id AND chunks <= 0;
      END;
    `,
  },
  {
    // Issue 48: a retried job resumes after its last indexed page, and a run that dies on a page is remembered there.
    id: '009-ingest-checkpoints',
    sql: `
      ALTER TABLE ingest_jobs ADD COLUMN checkpoint_json TEXT;
      ALTER TABLE ingest_jobs ADD COLUMN reading_page INTEGER;
      ALTER TABLE ingest_jobs ADD COLUMN died_on_page INTEGER;
    `,
  },
  {
    // Issue 50: the user's document library (completed jobs by user and content, a job copied from another session's)
    // and search over the user's sessions and messages. Session labels are copied into their own FTS5 table by
    // triggers (the sessions table's rowid is not stable enough for external content: it is no INTEGER PRIMARY KEY,
    // so VACUUM may renumber it); messages' text is indexed in place by their seq.
    id: '010-document-library-and-record-search',
    sql: `
      ALTER TABLE ingest_jobs ADD COLUMN copied_from TEXT;
      CREATE INDEX ingest_jobs_by_user_content ON ingest_jobs (user_id, sha256, created_at) WHERE status = 'completed';
      CREATE VIRTUAL TABLE sessions_fts USING fts5(
        label, session_id UNINDEXED, tokenize='porter unicode61 remove_diacritics 2'
      );
      INSERT INTO sessions_fts (label, session_id) SELECT label, id FROM sessions;
      CREATE TRIGGER sessions_fts_added AFTER INSERT ON sessions BEGIN
        INSERT INTO sessions_fts (label, session_id) VALUES (NEW.label, NEW.id);
      END;
      CREATE TRIGGER sessions_fts_renamed AFTER UPDATE OF label ON sessions BEGIN
        DELETE FROM sessions_fts WHERE session_id = OLD.id;
        INSERT INTO sessions_fts (label, session_id) VALUES (NEW.label, NEW.id);
      END;
      CREATE TRIGGER sessions_fts_removed AFTER DELETE ON sessions BEGIN
        DELETE FROM sessions_fts WHERE session_id = OLD.id;
      END;
      CREATE VIRTUAL TABLE chat_messages_fts USING fts5(
        content, content='chat_messages', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2'
      );
      INSERT INTO chat_messages_fts (chat_messages_fts) VALUES ('rebuild');
      CREATE TRIGGER chat_messages_fts_added AFTER INSERT ON chat_messages BEGIN
        INSERT INTO chat_messages_fts (rowid, content) VALUES (NEW.seq, NEW.content);
      END;
      CREATE TRIGGER chat_messages_fts_removed AFTER DELETE ON chat_messages BEGIN
        INSERT INTO chat_messages_fts (chat_messages_fts, rowid, content) VALUES ('delete', OLD.seq, OLD.content);
      END;
      CREATE TRIGGER chat_messages_fts_changed AFTER UPDATE OF content ON chat_messages BEGIN
        INSERT INTO chat_messages_fts (chat_messages_fts, rowid, content) VALUES ('delete', OLD.seq, OLD.content);
        INSERT INTO chat_messages_fts (rowid, content) VALUES (NEW.seq, NEW.content);
      END;
    `,
  },
  {
    // Issue 49: a document's kind (receipt, financial report, ...), told at ingestion or given by its `document_kind` tag.
    id: '011-document-kind',
    sql: 'ALTER TABLE ingest_jobs ADD COLUMN kind TEXT;',
  },
  {
    // Issue 51: the unit labels of a document without pages ("Sheet Q3"), IngestJob.units as a JSON array.
    id: '012-unit-labels',
    sql: 'ALTER TABLE ingest_jobs ADD COLUMN units_json TEXT;',
  },
  {
    // Issue 51: an e-mail's attachments are documents of their own, each knowing the mail's job it came with.
    id: '013-mail-attachments',
    sql: 'ALTER TABLE ingest_jobs ADD COLUMN attached_to TEXT;',
  },
];

/** How the database's background threads (chunk writer, checkpointer) come and go; defaults suit the service. */
export interface SqliteThreadTimings {
  /** A thread with nothing to do for this long stops (it starts again when needed). */
  idleMs?: number;
  /** How often the write-ahead log is looked at and, while a checkpointer runs, copied. */
  checkpointEveryMs?: number;
}

/** Opens (creating if needed) the database file, or ':memory:', and applies pending migrations. */
export function openSqliteDatabase(file: string, threads: SqliteThreadTimings = {}): SqliteDatabase {
  if (file !== ':memory:') createPrivately(path.resolve(file));
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  migrate(raw);
  // Checkpoints run on a thread of their own (see WalCheckpointer), not inside the server's commits.
  let checkpointer: WalCheckpointer | undefined;
  let chunkWriter: ChunkWriteThread | undefined;
  if (file !== ':memory:') {
    raw.pragma('wal_autocheckpoint = 0');
    raw.pragma('journal_size_limit = 16777216'); // a log grown by a long burst of writes shrinks back once copied
    // What the migrations (or a run that crashed) left in the log is copied now, before any request waits on this
    // thread, and the log emptied: an idle server then starts with no checkpoint thread (see WalCheckpointer).
    raw.pragma('wal_checkpoint(TRUNCATE)');
    checkpointer = new WalCheckpointer(path.resolve(file), { everyMs: threads.checkpointEveryMs, idleMs: threads.idleMs });
    chunkWriter = new ChunkWriteThread(path.resolve(file), threads.idleMs);
  }
  const db = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
  return {
    db,
    raw,
    chunkWriter,
    checkpointer,
    truncateLog: async () => {
      for (let attempt = 0; attempt < TRUNCATE_ATTEMPTS; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, TRUNCATE_RETRY_MS));
        if (truncateLogNow(raw)) return true;
      }
      return false;
    },
    // Kysely's destroy closes the underlying better-sqlite3 handle too (the last connection: it checkpoints).
    close: async () => {
      await chunkWriter?.close();
      await checkpointer?.close();
      await db.destroy();
    },
  };
}

const TRUNCATE_ATTEMPTS = 10;
const TRUNCATE_RETRY_MS = 50;

function truncateLogNow(raw: BetterSqlite3.Database): boolean {
  if (raw.memory) return false;
  const waited = raw.pragma('busy_timeout', { simple: true }) as number;
  raw.pragma('busy_timeout = 0'); // on the request thread: a reader or the checkpoint thread busy means not now
  try {
    const [result] = raw.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    return result?.busy === 0;
  } catch {
    return false; // busy, or the file could not take the log's pages: the log stays, as it was
  } finally {
    raw.pragma(`busy_timeout = ${waited}`);
  }
}

/** A read-only connection: for searching the indexes from another thread (adapters/answer-pool). */
export type SqliteReader = Pick<SqliteDatabase, 'raw'>;

/**
 * A read-only connection to a database the service already opened (and migrated): WAL lets it read while the
 * service's connection writes, each query seeing the last commit. Searches only; the caller closes `raw`.
 */
export function openSqliteReader(file: string): SqliteReader {
  const raw = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  raw.pragma('busy_timeout = 5000');
  return { raw };
}

/** Most distinct SQL texts kept prepared; kysely builds few shapes, so this bounds only a pathological caller. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite driver prepares every query anew (a sixth of the time of a history page under load): hand it a
 * database whose prepare() reuses statements by SQL text. Safe because kysely runs one query at a time per connection.
 */
function withStatementCache(raw: BetterSqlite3.Database) {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => raw.close(),
    prepare(text: string): SqliteStatement {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text); // re-inserted below: the Map's order is the recency order
      } else {
        statement = rowsBuiltInJs(raw.prepare(text));
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

/**
 * The same row objects better-sqlite3 would build (column order, a later duplicate name wins), built here from its
 * raw arrays: its native builder looks every column name up again and sets each property through the slow generic
 * path, which made a 20-message history page cost a third more than the query itself.
 */
function rowsBuiltInJs(statement: BetterSqlite3.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  const toRow = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]] = values[i];
    return row;
  };
  statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toRow),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
    },
  };
}

/**
 * The database file is created owner-only before SQLite opens it: SQLite gives the -wal and -shm files the mode of
 * the database file. Files of an older install are narrowed to owner-only.
 */
function createPrivately(file: string): void {
  ensurePrivateDir(path.dirname(file));
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const suffix of ['', '-wal', '-shm', '-journal']) ensurePrivateFile(`${file}${suffix}`);
}

function migrate(raw: BetterSqlite3.Database): void {
  raw.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set(
    (raw.prepare('SELECT id FROM schema_migrations').all() as { id: string }[]).map((r) => r.id),
  );
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.id)) continue;
    raw.transaction(() => {
      raw.exec(migration.sql);
      raw.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)').run(migration.id, new Date().toISOString());
    })();
  }
}

export { sql };
