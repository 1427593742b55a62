import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type pg from 'pg';
import type { DatabaseSchema } from '../kysely/schema.js';
import { openConnectionPool, type ConnectionPool, type PoolName } from './connection-pools.js';

/**
 * The records (sessions, messages, ingest jobs) and the lexical index in PostgreSQL, for deployments that run several
 * app instances and workers on one database. The tables carry the same names and columns as the SQLite ones, so the
 * same kysely repositories serve both; chunks add a generated tsvector for full-text search.
 */
export interface PostgresDatabase {
  /** Records and index writes: short statements (a history page, a session, a job update, a chat exchange). */
  db: Kysely<DatabaseSchema>;
  pool: pg.Pool;
  /**
   * Questions' lexical searches, on connections of their own: a burst of questions then waits here, never in front of
   * a history page or a job update, and the searches PostgreSQL runs at once stay bounded.
   */
  search: ConnectionPool;
  /**
   * The history page and the session ownership check, the reads every history request (and every question, for
   * ownership) makes: on connections of their own they never queue behind a question's record reads and appends.
   */
  reads: ConnectionPool;
  /** Every pool, for metrics. */
  pools: ConnectionPool[];
  /** `listener` hears each connection checkout's wait (seconds) and its pool. */
  onConnectionWait(listener: (pool: PoolName, seconds: number) => void): void;
  close(): Promise<void>;
}

/** Migrations in code, applied in name order by kysely's Migrator (which locks, so instances may start together). */
const MIGRATIONS: Record<string, Migration> = {
  '001-records': {
    async up(db) {
      await sql`
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY,
          label TEXT NOT NULL,
          user_id TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE INDEX sessions_by_user ON sessions (user_id, created_at);
        CREATE TABLE chat_messages (
          seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          session_id TEXT NOT NULL,
          role TEXT NOT NULL,
          content TEXT NOT NULL,
          sources_json TEXT,
          created_at TEXT NOT NULL
        );
        CREATE INDEX chat_messages_by_session ON chat_messages (session_id, seq);
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
          progress DOUBLE PRECISION,
          error TEXT,
          pages INTEGER,
          chunks INTEGER,
          sha256 TEXT,
          reused_from TEXT,
          attempts INTEGER NOT NULL DEFAULT 0,
          ocr_skipped_pages INTEGER,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX ingest_jobs_by_session ON ingest_jobs (session_id, sha256);
        CREATE INDEX ingest_jobs_by_status ON ingest_jobs (status, created_at);
        CREATE INDEX ingest_jobs_by_key ON ingest_jobs (blob_key);
        CREATE UNIQUE INDEX ingest_jobs_one_active_per_key ON ingest_jobs (user_id, blob_key)
          WHERE status IN ('queued', 'processing');
        CREATE TABLE uploads (
          blob_key TEXT PRIMARY KEY,
          user_id TEXT NOT NULL,
          content_type TEXT NOT NULL,
          declared_size BIGINT NOT NULL,
          issued_at TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          ingested_at TEXT,
          etag TEXT
        );
        CREATE INDEX uploads_by_user ON uploads (user_id, ingested_at, expires_at);
        CREATE INDEX uploads_pending_by_expiry ON uploads (expires_at) WHERE ingested_at IS NULL;
      `.execute(db);
    },
  },
  '002-lexical-index': {
    async up(db) {
      // btree_gin lets one GIN index hold the session id beside the words, so a search reads only its session's rows.
      await sql`
        CREATE EXTENSION IF NOT EXISTS btree_gin;
        CREATE TABLE chunks (
          rowid BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          session_id TEXT NOT NULL,
          job_id TEXT NOT NULL,
          filename TEXT NOT NULL,
          page INTEGER NOT NULL,
          ordinal INTEGER NOT NULL,
          text TEXT NOT NULL,
          tags_json TEXT NOT NULL,
          institution TEXT,
          tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
          -- Words in the text (BM25's document length), counted by the writer as the query side counts them.
          token_count INTEGER NOT NULL
        );
        CREATE INDEX chunks_search ON chunks USING gin (session_id, tsv);
        CREATE INDEX chunks_by_session ON chunks (session_id);
        CREATE INDEX chunks_by_job ON chunks (job_id);
      `.execute(db);
    },
  },
  '003-session-message-count': {
    // Issue 19: every history request returns the session's message count; counting the rows each time grew with the
    // session (a bitmap heap scan of every message). Statement triggers keep the count on the session row, one update
    // per statement and session, whichever statement inserted or deleted; concurrent appends queue on that row's lock
    // only for their own statement.
    async up(db) {
      await sql`
        ALTER TABLE sessions ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0;
        UPDATE sessions SET message_count = (SELECT count(*) FROM chat_messages WHERE chat_messages.session_id = sessions.id);
        CREATE FUNCTION chat_messages_count_added() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE sessions SET message_count = sessions.message_count + added.n
          FROM (SELECT session_id, count(*) AS n FROM added_messages GROUP BY session_id) AS added
          WHERE sessions.id = added.session_id;
          RETURN NULL;
        END $$;
        CREATE FUNCTION chat_messages_count_removed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          UPDATE sessions SET message_count = sessions.message_count - removed.n
          FROM (SELECT session_id, count(*) AS n FROM removed_messages GROUP BY session_id) AS removed
          WHERE sessions.id = removed.session_id;
          RETURN NULL;
        END $$;
        CREATE TRIGGER chat_messages_count_added AFTER INSERT ON chat_messages
          REFERENCING NEW TABLE AS added_messages FOR EACH STATEMENT EXECUTE FUNCTION chat_messages_count_added();
        CREATE TRIGGER chat_messages_count_removed AFTER DELETE ON chat_messages
          REFERENCING OLD TABLE AS removed_messages FOR EACH STATEMENT EXECUTE FUNCTION chat_messages_count_removed();
      `.execute(db);
    },
  },
  '004-ingest-checkpoints': {
    // Issue 48: a retried job resumes after its last indexed page, and a run that dies on a page is remembered there.
    async up(db) {
      await sql`
        ALTER TABLE ingest_jobs ADD COLUMN checkpoint_json TEXT;
        ALTER TABLE ingest_jobs ADD COLUMN reading_page INTEGER;
        ALTER TABLE ingest_jobs ADD COLUMN died_on_page INTEGER;
      `.execute(db);
    },
  },
  '005-document-library-and-record-search': {
    // Issue 50: the user's document library (completed jobs by user and content, a job copied from another session's)
    // and full-text search over the user's sessions and messages (GIN indexes on the same expressions the search uses).
    async up(db) {
      await sql`
        ALTER TABLE ingest_jobs ADD COLUMN copied_from TEXT;
        CREATE INDEX ingest_jobs_by_user_content ON ingest_jobs (user_id, sha256, created_at) WHERE status = 'completed';
        CREATE INDEX sessions_search ON sessions USING gin (to_tsvector('english', label));
        CREATE INDEX chat_messages_search ON chat_messages USING gin (to_tsvector('english', content));
      `.execute(db);
    },
  },
  '006-document-kind': {
    // Issue 49: a document's kind (receipt, financial report, ...), told at ingestion or given by its `document_kind` tag.
    async up(db) {
      await sql`ALTER TABLE ingest_jobs ADD COLUMN kind TEXT`.execute(db);
    },
  },
  '007-unit-labels': {
    // Issue 51: the unit labels of a document without pages ("Sheet Q3"), IngestJob.units as a JSON array.
    async up(db) {
      await sql`ALTER TABLE ingest_jobs ADD COLUMN units_json TEXT`.execute(db);
    },
  },
  '008-mail-attachments': {
    // Issue 51: an e-mail's attachments are documents of their own, each knowing the mail's job it came with.
    async up(db) {
      await sql`ALTER TABLE ingest_jobs ADD COLUMN attached_to TEXT`.execute(db);
    },
  },
};

export interface PostgresPoolSizes {
  /** Connections for records and index writes (default 10). */
  poolSize?: number;
  /** Connections for questions' lexical searches (default 4). */
  searchPoolSize?: number;
  /** Connections for history pages and ownership checks (default 4). */
  readPoolSize?: number;
}

/** Connects, applies pending migrations, and returns the handle; each pool opens connections as they are needed. */
export async function openPostgresDatabase(url: string, options: PostgresPoolSizes = {}): Promise<PostgresDatabase> {
  const listeners: ((pool: PoolName, seconds: number) => void)[] = [];
  const waited = (pool: PoolName, seconds: number) => {
    for (const listener of listeners) listener(pool, seconds);
  };
  const records = openConnectionPool('records', url, options.poolSize ?? 10, waited);
  const search = openConnectionPool('search', url, options.searchPoolSize ?? 4, waited);
  const reads = openConnectionPool('reads', url, options.readPoolSize ?? 4, waited);
  const close = async () => {
    // Kysely's destroy ends the pool too.
    await Promise.all([records.db.destroy(), search.db.destroy(), reads.db.destroy()]);
  };
  try {
    const migrator = new Migrator({ db: records.db, provider: { getMigrations: async () => MIGRATIONS } });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  } catch (error) {
    await close();
    throw error;
  }
  return {
    db: records.db,
    pool: records.pool,
    search,
    reads,
    pools: [records, search, reads],
    onConnectionWait: (listener) => void listeners.push(listener),
    close,
  };
}
