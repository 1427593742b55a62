/**
 * `doc-chat/adapters/kysely`: the session, chat and ingest-job repositories, written once in kysely's query builder
 * and run on either database: pass the `db` of `openSqliteDatabase` (doc-chat/adapters/sqlite) or of
 * `openPostgresDatabase` (doc-chat/adapters/postgres).
 */
export { KyselySessionRepo } from './kysely-session-repo.js';
export { KyselyChatRepo } from './kysely-chat-repo.js';
export { KyselyIngestJobRepo } from './kysely-ingest-job-repo.js';
export type { DatabaseSchema, Db } from './schema.js';
