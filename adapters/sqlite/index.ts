/** `doc-chat/adapters/sqlite`: repositories and indexes in one SQLite file (better-sqlite3, FTS5). */
export { openSqliteDatabase, type SqliteDatabase } from './database.js';
export { SqliteSessionRepo } from './sqlite-session-repo.js';
export { SqliteChatRepo } from './sqlite-chat-repo.js';
export { SqliteIngestJobRepo } from './sqlite-ingest-job-repo.js';
export { SqliteFtsIndex } from './sqlite-fts-index.js';
export { SqliteDenseIndex } from './sqlite-dense-index.js';
export { SqliteUploadRepo } from './sqlite-upload-repo.js';
export { SqliteSessionEraser } from './sqlite-session-eraser.js';
