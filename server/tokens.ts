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
  RecordSearch: Symbol.for('RecordSearch'),
  BlobStore: Symbol.for('BlobStore'),
  /** DATA_DIR's free space and the space held back for deletions (adapters/system/disk-space.ts). */
  StorageSpace: Symbol.for('StorageSpace'),
  /** Gives back the space a store in DATA_DIR freed but keeps (SQLite's write-ahead log); bound by the records' module. */
  SpaceReclaimer: Symbol.for('SpaceReclaimer'),
  LexicalIndex: Symbol.for('LexicalIndex'),
  DenseIndex: Symbol.for('DenseIndex'),
  DocumentReader: Symbol.for('DocumentReader'),
  /** Draws a stored document's page as an image (GET /api/v1/ingest/:id/pages/:page). */
  PageRenderer: Symbol.for('PageRenderer'),
  Llm: Symbol.for('Llm'),
  /** Worker threads for questions' CPU work (adapters/answer-pool); bound unless ANSWER_POOL_THREADS=0. */
  AnswerPool: Symbol.for('AnswerPool'),
  /** Re-orders lexical hits; bound with the answer pool (else the core re-ranks on the request thread). */
  Reranker: Symbol.for('Reranker'),
  /**
   * Retrieval and answer of a question in one task on the answer pool: bound on the embedded stack with the
   * extractive answerer and no dense index (its threads search the SQLite file themselves).
   */
  GroundedAnswerer: Symbol.for('GroundedAnswerer'),
  Embedder: Symbol.for('Embedder'),
  IdentityVerifier: Symbol.for('IdentityVerifier'),
  JobQueue: Symbol.for('JobQueue'),
  /** The same queue as the service starts, stops and waits for it (server/modules/lifecycle.ts QueueRunner). */
  QueueRunner: Symbol.for('QueueRunner'),
  DocChat: Symbol.for('DocChat'),
  /** This process's Prometheus series (adapters/prometheus), served at GET /metrics. */
  Metrics: Symbol.for('Metrics'),
} as const;
