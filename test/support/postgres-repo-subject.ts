import { KyselyChatRepo } from '../../adapters/kysely/kysely-chat-repo.js';
import { KyselyIngestJobRepo } from '../../adapters/kysely/kysely-ingest-job-repo.js';
import { KyselySessionRepo } from '../../adapters/kysely/kysely-session-repo.js';
import { openPostgresDatabase } from '../../adapters/postgres/database.js';
import { PostgresSessionEraser } from '../../adapters/postgres/postgres-session-eraser.js';
import { PostgresUploadRepo } from '../../adapters/postgres/postgres-upload-repo.js';
import type { RepoSubject } from '../contracts/repos.contract.js';

/**
 * The repositories on a fresh PostgreSQL database at `url`, as the repository contract takes them; `drop` removes the
 * database once the subject is cleaned up. Shared by the suite on the local cluster and the one in a container.
 */
export async function postgresRepoSubject(url: string, drop: () => Promise<void>): Promise<RepoSubject> {
  const database = await openPostgresDatabase(url);
  return {
    // The kysely repositories are dialect-neutral: the same classes as on SQLite.
    sessions: new KyselySessionRepo(database.db),
    chats: new KyselyChatRepo(database.db),
    jobs: new KyselyIngestJobRepo(database.db),
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
