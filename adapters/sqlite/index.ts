/**
 * `doc-chat/adapters/sqlite`: one SQLite file (better-sqlite3) with its FTS5 and dense indexes, upload records and
 * session eraser, and its chat repository (kysely's, with the history page's reads on the connection directly). The
 * session and ingest-job repositories on it are doc-chat/adapters/kysely's.
 */
export { openSqliteDatabase, openSqliteReader, type SqliteDatabase, type SqliteReader } from './database.js';
export { SqliteFtsIndex } from './sqlite-fts-index.js';
export { SqliteDenseIndex } from './sqlite-dense-index.js';
export { SqliteUploadRepo } from './sqlite-upload-repo.js';
export { SqliteSessionEraser } from './sqlite-session-eraser.js';
export { SqliteChatRepo } from './sqlite-chat-repo.js';
export { SqliteRecordSearch } from './sqlite-record-search.js';
