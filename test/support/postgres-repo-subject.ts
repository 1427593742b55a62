import { openPostgresDatabase } from '../../adapters/postgres/database.js';
import { PostgresSessionEraser } from '../../adapters/postgres/postgres-session-eraser.js';
import { PostgresUploadRepo } from '../../adapters/postgres/postgres-upload-repo.js';
import { SqliteChatRepo } from '../../adapters/sqlite/sqlite-chat-repo.js';
import { SqliteIngestJobRepo } from '../../adapters/sqlite/sqlite-ingest-job-repo.js';
import { SqliteSessionRepo } from '../../adapters/sqlite/sqlite-session-repo.js';
import type { RepoSubject } from '../contracts/repos.contract.js';

/**
 * The repositories on a fresh PostgreSQL database at `url`, as the repository contract takes them; `drop` removes the
 * database once the subject is cleaned up. Shared by the suite on the local cluster and the one in a container.
 */
export async function postgresRepoSubject(url: string, drop: () => Promise<void>): Promise<RepoSubject> {
  const database = await openPostgresDatabase(url);
  return {
    // The kysely repositories are dialect-neutral: the same classes run on the PostgreSQL schema.
    sessions: new SqliteSessionRepo(database.db),
    chats: new SqliteChatRepo(database.db),
    jobs: new SqliteIngestJobRepo(database.db),
    uploads: new PostgresUploadRepo(database),
    eraser: new PostgresSessionEraser(database),
    // Messages are deleted before jobs: a failing job delete proves the transaction undoes what it already did.
    breakEraser: async () => {
      await database.pool.query(`
        CREATE FUNCTION break_eraser() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
        CREATE TRIGGER break_eraser BEFORE DELETE ON ingest_jobs FOR EACH ROW EXECUTE FUNCTION break_eraser();`);
      return () => database.pool.query('DROP TRIGGER break_eraser ON ingest_jobs; DROP FUNCTION break_eraser();');
    },
    cleanup: async () => {
      await database.close();
      await drop();
    },
  };
}
