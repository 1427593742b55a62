/** Inversify service identifiers. One per thing the composition root hands out. */
export const TOKENS = {
  Config: Symbol.for('Config'),
  Logger: Symbol.for('Logger'),
  Clock: Symbol.for('Clock'),
  Ids: Symbol.for('Ids'),
  /** The SQLite handle (embedded records); bound only when records live in SQLite. */
  SqliteDatabase: Symbol.for('SqliteDatabase'),
  /** The PostgreSQL handle; bound only with DATABASE_URL. */
  PostgresDatabase: Symbol.for('PostgresDatabase'),
  /** Every adapter that starts, stops or can be probed (server/modules/lifecycle.ts), in start-up order. */
  Lifecycle: Symbol.for('Lifecycle'),
  SessionRepo: Symbol.for('SessionRepo'),
  ChatRepo: Symbol.for('ChatRepo'),
  IngestJobRepo: Symbol.for('IngestJobRepo'),
  UploadRepo: Symbol.for('UploadRepo'),
  SessionEraser: Symbol.for('SessionEraser'),
  BlobStore: Symbol.for('BlobStore'),
  LexicalIndex: Symbol.for('LexicalIndex'),
  DenseIndex: Symbol.for('DenseIndex'),
  DocumentReader: Symbol.for('DocumentReader'),
  /** Draws a stored document's page as an image (GET /api/v1/ingest/:id/pages/:page). */
  PageRenderer: Symbol.for('PageRenderer'),
  Llm: Symbol.for('Llm'),
  Embedder: Symbol.for('Embedder'),
  IdentityVerifier: Symbol.for('IdentityVerifier'),
  JobQueue: Symbol.for('JobQueue'),
  DocChat: Symbol.for('DocChat'),
  /** This process's Prometheus series (adapters/prometheus), served at GET /metrics. */
  Metrics: Symbol.for('Metrics'),
} as const;
