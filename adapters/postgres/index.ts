/** `doc-chat/adapters/postgres`: records, upload records and the lexical (BM25) index in PostgreSQL. */
export { openPostgresDatabase, type PostgresDatabase } from './database.js';
export { PostgresLexicalIndex } from './postgres-lexical-index.js';
export { PostgresSessionEraser } from './postgres-session-eraser.js';
export { PostgresUploadRepo } from './postgres-upload-repo.js';
export { PostgresRecordSearch } from './postgres-record-search.js';
