import { Kysely, Migrator, PostgresDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import type { DatabaseSchema } from '../kysely/schema.js';

/**
 * The records (sessions, messages, ingest jobs) and the lexical index in PostgreSQL, for deployments that run several
 * app instances and workers on one database. The tables carry the same names and columns as the SQLite ones, so the
 * same kysely repositories serve both; chunks add a generated tsvector for full-text search.
 */
export interface PostgresDatabase {
  db: Kysely<DatabaseSchema>;
  pool: pg.Pool;
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
};

/** Connects, applies pending migrations, and returns the handle. `poolSize`: connections this process may hold. */
export async function openPostgresDatabase(url: string, options: { poolSize?: number } = {}): Promise<PostgresDatabase> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // An idle client that loses its connection (server restart) emits 'error' on the pool; without a listener it would
  // crash the process. The next query gets a fresh connection.
  pool.on('error', () => {});
  const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool }) });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // Kysely's destroy ends the pool too.
  return { db, pool, close: () => db.destroy() };
}
