import path from 'node:path';
import { ContainerModule } from 'inversify';
import type { ChatRepo } from '../../core/ports/chat-repo.js';
import type { IngestJobRepo } from '../../core/ports/ingest-job-repo.js';
import type { SessionEraser } from '../../core/ports/session-eraser.js';
import type { SessionRepo } from '../../core/ports/session-repo.js';
import type { UploadRepo } from '../../core/ports/upload-repo.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import type { Config } from '../config.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';

/**
 * Records (sessions, messages, ingest jobs, upload records) and the lexical index, which live in the same database:
 * SQLite in DATA_DIR by default, PostgreSQL with DATABASE_URL (shared by every instance).
 */
export async function recordsModule(config: Config): Promise<ContainerModule> {
  if (config.records.kind === 'postgres') return postgresRecords(config.records);
  const sqlite = await import('../../adapters/sqlite/index.js');
  const kysely = await import('../../adapters/kysely/index.js');
  const file = path.join(config.dataDir, 'doc-chat.sqlite');
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.SqliteDatabase).toDynamicValue(() => sqlite.openSqliteDatabase(file));
    const database = (ctx: { get<T>(token: symbol): T }) => ctx.get<import('../../adapters/sqlite/index.js').SqliteDatabase>(TOKENS.SqliteDatabase);
    bind<SessionRepo>(TOKENS.SessionRepo).toDynamicValue((ctx) => new kysely.KyselySessionRepo(database(ctx).db));
    bind<ChatRepo>(TOKENS.ChatRepo).toDynamicValue((ctx) => new kysely.KyselyChatRepo(database(ctx).db));
    bind<IngestJobRepo>(TOKENS.IngestJobRepo).toDynamicValue((ctx) => new kysely.KyselyIngestJobRepo(database(ctx).db));
    bind<UploadRepo>(TOKENS.UploadRepo).toDynamicValue((ctx) => new sqlite.SqliteUploadRepo(database(ctx)));
    bind<SessionEraser>(TOKENS.SessionEraser).toDynamicValue((ctx) => new sqlite.SqliteSessionEraser(database(ctx)));
    bind<VectorIndex>(TOKENS.LexicalIndex).toDynamicValue((ctx) => new sqlite.SqliteFtsIndex(database(ctx)));
    bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => ({
      name: 'database',
      probe: async () => void database(ctx).raw.prepare('SELECT 1').get(),
      close: () => database(ctx).close(),
    }));
  });
}

async function postgresRecords(records: { url: string; poolSize: number }): Promise<ContainerModule> {
  const postgres = await import('../../adapters/postgres/index.js');
  // The kysely repositories are dialect-neutral: the same classes as on SQLite.
  const kysely = await import('../../adapters/kysely/index.js');
  // Opened (and migrated) before anything is bound: every PostgreSQL adapter needs the handle synchronously.
  const database = await postgres.openPostgresDatabase(records.url, { poolSize: records.poolSize });
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.PostgresDatabase).toConstantValue(database);
    bind<SessionRepo>(TOKENS.SessionRepo).toConstantValue(new kysely.KyselySessionRepo(database.db));
    bind<ChatRepo>(TOKENS.ChatRepo).toConstantValue(new kysely.KyselyChatRepo(database.db));
    bind<IngestJobRepo>(TOKENS.IngestJobRepo).toConstantValue(new kysely.KyselyIngestJobRepo(database.db));
    bind<UploadRepo>(TOKENS.UploadRepo).toConstantValue(new postgres.PostgresUploadRepo(database));
    bind<SessionEraser>(TOKENS.SessionEraser).toConstantValue(new postgres.PostgresSessionEraser(database));
    bind<VectorIndex>(TOKENS.LexicalIndex).toConstantValue(new postgres.PostgresLexicalIndex(database));
    bind<Lifecycle>(TOKENS.Lifecycle).toConstantValue({
      name: 'database',
      probe: async () => void (await database.pool.query('SELECT 1')),
      close: () => database.close(),
    });
  });
}
