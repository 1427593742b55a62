import type { Generated, Kysely } from 'kysely';

/**
 * The tables both dialects share, with the same names and columns in SQLite and PostgreSQL, so that one set of kysely
 * repositories serves both. Each dialect's migrations create them (adapters/sqlite, adapters/postgres); tables only
 * one dialect has (SQLite's chunk_vectors, FTS5's chunks_fts) stay out of this schema.
 */
export interface SessionsTable {
  id: string;
  label: string;
  user_id: string;
  created_at: string;
  /** Messages in the session, kept by triggers on chat_messages (the history's total, read without counting). */
  message_count: Generated<number>;
}

export interface ChatMessagesTable {
  /** Insertion order: history pages by it (created_at can tie within a millisecond). */
  seq: Generated<number>;
  id: string;
  session_id: string;
  role: string;
  content: string;
  sources_json: string | null;
  created_at: string;
}

export interface IngestJobsTable {
  id: string;
  user_id: string;
  session_id: string;
  blob_key: string;
  filename: string;
  content_type: string;
  tags_json: string;
  status: string;
  stage: string | null;
  progress: number | null;
  error: string | null;
  pages: number | null;
  chunks: number | null;
  sha256: string | null;
  reused_from: string | null;
  /** Added by migration 003 (default 0). */
  attempts: number;
  ocr_skipped_pages: number | null;
  /** Added by migration 009 (SQLite) / 004 (PostgreSQL): IngestJob.checkpoint as JSON, readingPage, diedOnPage. */
  checkpoint_json: string | null;
  reading_page: number | null;
  died_on_page: number | null;
  /** Added by migration 011 (SQLite) / 006 (PostgreSQL): IngestJob.kind. */
  kind: string | null;
  /** Added by migration 012 (SQLite) / 007 (PostgreSQL): IngestJob.units as a JSON array. */
  units_json: string | null;
  /** Added by migration 010 (SQLite) / 005 (PostgreSQL): IngestJob.copiedFrom. */
  copied_from: string | null;
  /** Added by migration 012 (SQLite) / 007 (PostgreSQL): IngestJob.attachedTo. */
  attached_to: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChunksTable {
  /** The FTS5 rowid of the chunk's text in SQLite, an identity column in PostgreSQL. */
  rowid: Generated<number>;
  id: string;
  session_id: string;
  job_id: string;
  filename: string;
  page: number;
  ordinal: number;
  text: string;
  tags_json: string;
  institution: string | null;
}

export interface UploadsTable {
  blob_key: string;
  user_id: string;
  content_type: string;
  declared_size: number;
  issued_at: string;
  expires_at: string;
  ingested_at: string | null;
  etag: string | null;
}

export interface DatabaseSchema {
  uploads: UploadsTable;
  sessions: SessionsTable;
  chat_messages: ChatMessagesTable;
  ingest_jobs: IngestJobsTable;
  chunks: ChunksTable;
}

export type Db = Kysely<DatabaseSchema>;
