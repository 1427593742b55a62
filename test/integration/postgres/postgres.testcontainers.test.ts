import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import pg from 'pg';
import { openPostgresDatabase } from '../../../adapters/postgres/database.js';
import { PostgresLexicalIndex } from '../../../adapters/postgres/postgres-lexical-index.js';
import { PostgresUploadRepo } from '../../../adapters/postgres/postgres-upload-repo.js';
import { repoContract } from '../../contracts/repos.contract.js';
import { uploadRepoContract } from '../../contracts/upload-repo.contract.js';
import { vectorIndexContract } from '../../contracts/vector-index.contract.js';
import { POSTGRES_IMAGE } from '../../support/container-images.js';
import { skipWithoutContainerRuntime } from '../../support/container-runtime.js';
import { postgresRepoSubject } from '../../support/postgres-repo-subject.js';

/**
 * The repository, upload-record and lexical-index contracts against the PostgreSQL image docker-compose.yml deploys
 * (the local-cluster suites run on the machine's own server version). Needs a container runtime (Docker/Podman);
 * without one every test here is skipped.
 */
const IMAGE = process.env.TEST_POSTGRES_IMAGE ?? POSTGRES_IMAGE;
const PASSWORD = 'doc-chat-test';

let container: StartedTestContainer | undefined;
let databases = 0;

/** A new empty database in the container; its URL, and how to drop it. */
async function newDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = `postgres://postgres:${PASSWORD}@${container!.getHost()}:${container!.getMappedPort(5432)}`;
  const name = `${prefix}_${++databases}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: `${admin}/postgres` });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  return { url: `${admin}/${name}`, drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

describe('PostgreSQL adapters against PostgreSQL in a container (Testcontainers)', function () {
  this.timeout(180_000);

  before(async function () {
    await skipWithoutContainerRuntime(this, 'PostgreSQL');
    container = await new GenericContainer(IMAGE)
      .withEnvironment({ POSTGRES_PASSWORD: PASSWORD })
      .withExposedPorts(5432)
      // The entrypoint starts the server twice (once to initialise): ready is the second "ready" line.
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
  });

  after(async function () {
    await container?.stop();
  });

  repoContract('repositories on the deployed PostgreSQL image', async () => {
    const { url, drop } = await newDatabase('repos');
    return postgresRepoSubject(url, drop);
  });

  uploadRepoContract('upload records on the deployed PostgreSQL image', async () => {
    const { url, drop } = await newDatabase('uploads');
    const database = await openPostgresDatabase(url);
    return { uploads: new PostgresUploadRepo(database), cleanup: () => database.close().then(drop) };
  });

  vectorIndexContract('PostgresLexicalIndex on the deployed PostgreSQL image', async () => {
    const { url, drop } = await newDatabase('lexical');
    const database = await openPostgresDatabase(url);
    return { index: new PostgresLexicalIndex(database), cleanup: () => database.close().then(drop) };
  });
});
