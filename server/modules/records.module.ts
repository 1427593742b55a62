import path from 'node:path';
import { ContainerModule, type ResolutionContext } from 'inversify';
import * as v from 'valibot';
import type { ChatRepo } from '../../core/ports/chat-repo.js';
import type { IngestJobRepo } from '../../core/ports/ingest-job-repo.js';
import type { RecordSearch } from '../../core/ports/record-search.js';
import type { SessionEraser } from '../../core/ports/session-eraser.js';
import type { SessionRepo } from '../../core/ports/session-repo.js';
import type { UploadRepo } from '../../core/ports/upload-repo.js';
import type { VectorIndex } from '../../core/ports/vector-index.js';
import type { Db } from '../../adapters/kysely/index.js';
import type { SqliteDatabase } from '../../adapters/sqlite/index.js';
import { instrumentIndex, type ServiceMetrics } from '../../adapters/prometheus/index.js';
import { optional, setting } from '../config/variables.js';
import { positiveInt } from '../config/schemas.js';
import { TOKENS } from '../tokens.js';
import type { Lifecycle } from './lifecycle.js';
import type { ServiceModule } from './module.js';

export const DATABASE_URL = optional(
  'DATABASE_URL',
  v.pipe(v.string(), v.check((s) => /^postgres(ql)?:\/\/[^\s]+$/.test(s) && URL.canParse(s), 'must be a URL such as postgres://user:password@host:5432/database')),
  'PostgreSQL for records, the lexical index and the shared queue (unset: SQLite in DATA_DIR)',
  { defaultText: '(SQLite)', secret: true },
);
const DATABASE_POOL_SIZE = setting('DATABASE_POOL_SIZE', positiveInt(1000), 10, 'Connections this process opens to PostgreSQL for records (sessions, history, jobs) and index writes');
// Questions' searches have connections of their own, so a burst of questions queues here and never in front of a
// history page; few, because each search is CPU work in PostgreSQL and more at once only share its cores.
const DATABASE_SEARCH_POOL_SIZE = setting('DATABASE_SEARCH_POOL_SIZE', positiveInt(1000), 4, 'Connections this process opens to PostgreSQL for questions\' lexical searches, beside DATABASE_POOL_SIZE');
// History pages and ownership checks (one short statement each) have connections of their own too: on the shared
// records pool they waited behind questions' record reads and appends. Few suffice: each holds a connection ~1 ms.
const DATABASE_READ_POOL_SIZE = setting('DATABASE_READ_POOL_SIZE', positiveInt(1000), 4, 'Connections this process opens to PostgreSQL for history pages and session ownership checks, beside DATABASE_POOL_SIZE');

export interface RecordsSection {
  /** Where records and the lexical index live: SQLite in DATA_DIR, or PostgreSQL (DATABASE_URL) shared by instances. */
  records: { kind: 'sqlite' } | { kind: 'postgres'; url: string; poolSize: number; searchPoolSize: number; readPoolSize: number };
}

/** Its records are in this SQLite database: for a family that keeps its own tables beside them (the dense index). */
export const sqliteDatabaseOf = (ctx: ResolutionContext) => ctx.get<SqliteDatabase>(TOKENS.SqliteDatabase);

/**
 * Records (sessions, messages, ingest jobs, upload records) and the lexical index, which live in the same database:
 * SQLite in DATA_DIR by default, PostgreSQL with DATABASE_URL (shared by every instance). The session, chat and job
 * repositories are the kysely ones on either (SQLite's chat repository reads history pages its own way); the rest is
 * the dialect's own.
 */
export const recordsModule: ServiceModule<RecordsSection> = {
  family: 'records',
  variables: [DATABASE_URL, DATABASE_POOL_SIZE, DATABASE_SEARCH_POOL_SIZE, DATABASE_READ_POOL_SIZE],
  configure(env): RecordsSection {
    const url = env.read(DATABASE_URL);
    if (!url) {
      env.forbidWithout([DATABASE_POOL_SIZE, DATABASE_SEARCH_POOL_SIZE, DATABASE_READ_POOL_SIZE], DATABASE_URL);
      return { records: { kind: 'sqlite' } };
    }
    return {
      records: {
        kind: 'postgres', url, poolSize: env.read(DATABASE_POOL_SIZE), searchPoolSize: env.read(DATABASE_SEARCH_POOL_SIZE),
        readPoolSize: env.read(DATABASE_READ_POOL_SIZE),
      },
    };
  },
  async bindings(config) {
    const kysely = await import('../../adapters/kysely/index.js');
    const dialect = config.records.kind === 'postgres'
      ? await postgresDialect(config.records)
      : await sqliteDialect(sqliteFileOf(config.dataDir));
    return new ContainerModule((options) => {
      const { bind } = options;
      const { db, reads } = dialect.bind(options);
      bind<SessionRepo>(TOKENS.SessionRepo).toDynamicValue((ctx) => new kysely.KyselySessionRepo(db(ctx), reads(ctx)));
      bind<ChatRepo>(TOKENS.ChatRepo).toDynamicValue((ctx) => dialect.chats?.(ctx) ?? new kysely.KyselyChatRepo(db(ctx), reads(ctx)));
      bind<IngestJobRepo>(TOKENS.IngestJobRepo).toDynamicValue((ctx) => new kysely.KyselyIngestJobRepo(db(ctx)));
    });
  },
  started: (config) => ({ records: config.records.kind }),
};

/** The embedded stack's database file (the answer pool's threads open it read-only to search). */
export const sqliteFileOf = (dataDir: string): string => path.join(dataDir, 'doc-chat.sqlite');

type BindOptions = Parameters<ConstructorParameters<typeof ContainerModule>[0]>[0];

/**
 * A dialect binds its handle, upload repo, eraser, record search, lexical index and Lifecycle, and says where its kysely `db` is and
 * where the cheap reads (history page, ownership check) run: the same handle, or a pool of their own.
 */
interface Dialect {
  bind(options: BindOptions): { db: (ctx: ResolutionContext) => Db; reads: (ctx: ResolutionContext) => Db };
  /** The dialect's own chat repository, where it has one (else kysely's on `db` and `reads`). */
  chats?: (ctx: ResolutionContext) => ChatRepo;
}

const lexical = (ctx: ResolutionContext, index: VectorIndex, dependency: string) =>
  instrumentIndex(index, ctx.get<ServiceMetrics>(TOKENS.Metrics), dependency);

async function sqliteDialect(file: string): Promise<Dialect> {
  const sqlite = await import('../../adapters/sqlite/index.js');
  return {
    bind: ({ bind }) => {
      bind<SqliteDatabase>(TOKENS.SqliteDatabase).toDynamicValue(() => sqlite.openSqliteDatabase(file));
      bind<UploadRepo>(TOKENS.UploadRepo).toDynamicValue((ctx) => new sqlite.SqliteUploadRepo(sqliteDatabaseOf(ctx)));
      bind<SessionEraser>(TOKENS.SessionEraser).toDynamicValue((ctx) => new sqlite.SqliteSessionEraser(sqliteDatabaseOf(ctx)));
      bind<RecordSearch>(TOKENS.RecordSearch).toDynamicValue((ctx) => new sqlite.SqliteRecordSearch(sqliteDatabaseOf(ctx)));
      bind<VectorIndex>(TOKENS.LexicalIndex).toDynamicValue((ctx) => lexical(ctx, new sqlite.SqliteFtsIndex(sqliteDatabaseOf(ctx)), 'sqlite'));
      bind<() => Promise<void>>(TOKENS.SpaceReclaimer).toDynamicValue((ctx) => async () => void (await sqliteDatabaseOf(ctx).truncateLog()));
      bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => ({
        name: 'database',
        probe: async () => void sqliteDatabaseOf(ctx).raw.prepare('SELECT 1').get(),
        close: () => sqliteDatabaseOf(ctx).close(),
      }));
      // SQLite answers in-process on the request thread: there is no connection to wait for.
      const db = (ctx: ResolutionContext) => sqliteDatabaseOf(ctx).db;
      return { db, reads: db };
    },
    chats: (ctx) => new sqlite.SqliteChatRepo(sqliteDatabaseOf(ctx)),
  };
}

async function postgresDialect(records: { url: string; poolSize: number; searchPoolSize: number; readPoolSize: number }): Promise<Dialect> {
  const postgres = await import('../../adapters/postgres/index.js');
  // Opened (and migrated) before anything is bound: every PostgreSQL adapter needs the handle synchronously.
  const database = await postgres.openPostgresDatabase(records.url, {
    poolSize: records.poolSize, searchPoolSize: records.searchPoolSize, readPoolSize: records.readPoolSize,
  });
  return {
    bind: ({ bind }) => {
      bind(TOKENS.PostgresDatabase).toConstantValue(database);
      bind<UploadRepo>(TOKENS.UploadRepo).toConstantValue(new postgres.PostgresUploadRepo(database));
      bind<SessionEraser>(TOKENS.SessionEraser).toConstantValue(new postgres.PostgresSessionEraser(database));
      bind<RecordSearch>(TOKENS.RecordSearch).toConstantValue(new postgres.PostgresRecordSearch(database));
      bind<VectorIndex>(TOKENS.LexicalIndex).toDynamicValue((ctx) => lexical(ctx, new postgres.PostgresLexicalIndex(database), 'postgres'));
      bind<Lifecycle>(TOKENS.Lifecycle).toDynamicValue((ctx) => ({
        name: 'database',
        async init() {
          const metrics = ctx.get<ServiceMetrics>(TOKENS.Metrics);
          for (const pool of database.pools) metrics.watchDatabasePool(pool.name, pool.stats);
          database.onConnectionWait((pool, seconds) => metrics.databaseConnectionWait.observe({ pool }, seconds));
        },
        probe: async () => void (await database.pool.query('SELECT 1')),
        close: () => database.close(),
      }));
      return { db: () => database.db, reads: () => database.reads.db };
    },
  };
}
