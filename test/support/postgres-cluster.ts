import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';

/**
 * A throwaway PostgreSQL cluster for the tests: initdb into a temp folder, a free port on 127.0.0.1, durability off
 * (tests do not survive power cuts), stopped when the test process exits. One cluster per test process, one database
 * per suite. The server refuses to run as root, so as root it runs as the `postgres` user.
 */
export interface PostgresCluster {
  /** A new empty database; its connection URL. */
  createDatabase(prefix?: string): Promise<string>;
  dropDatabase(url: string): Promise<void>;
}

/** Why PostgreSQL suites cannot run here, or null when they can. */
export function postgresUnavailableReason(): string | null {
  if (binDir()) return null;
  // CI installs the server (.ci/run): there a missing binary is a failure, never a silent skip.
  if (process.env.DOC_CHAT_REQUIRE_POSTGRES) throw new Error('DOC_CHAT_REQUIRE_POSTGRES is set but no PostgreSQL server binaries were found');
  return 'PostgreSQL server binaries not found (initdb, pg_ctl): install Debian\'s postgresql package to run the PostgreSQL suites';
}

/** A cluster a test can stop and start again (same port, same data) to see what the service does meanwhile. */
export interface StoppablePostgresCluster extends PostgresCluster {
  /** Stops the server the fast way (connections are terminated, as at a restart); its data stays. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data. */
  start(): Promise<void>;
}

interface Server {
  port: number;
  /** pg_ctl with these arguments, as the server's user. */
  pgCtl(args: string[]): void;
}

let shared: Promise<Server> | undefined;
let databases = 0;

export function sharedPostgresCluster(): PostgresCluster {
  shared ??= start();
  return clusterOn(shared);
}

/**
 * A cluster of its own with extra server settings (`name=value`, e.g. shared_preload_libraries=pg_stat_statements for
 * a benchmark that reads statement times); stopped when the process exits, like the shared one.
 */
export function privatePostgresCluster(settings: string[]): PostgresCluster {
  return clusterOn(start(settings));
}

/** A cluster of its own that the test may stop and start; stopped when the process exits, like the shared one. */
export function stoppablePostgresCluster(): StoppablePostgresCluster {
  const server = start();
  return {
    ...clusterOn(server),
    async stop() {
      (await server).pgCtl(['-m', 'fast', '-w', 'stop']);
    },
    async start() {
      (await server).pgCtl(['-w', '-t', '60', 'start']);
    },
  };
}

function clusterOn(server: Promise<Server>): PostgresCluster {
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const { port } = await server;
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    async createDatabase(prefix = 'test') {
      const { port } = await server;
      const name = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}_${++databases}`;
      await admin((client) => client.query(`CREATE DATABASE "${name}"`));
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async dropDatabase(url) {
      const name = new URL(url).pathname.slice(1);
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

function binDir(): string | null {
  const candidates: string[] = [];
  const fromPgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromPgConfig.status === 0) candidates.push(fromPgConfig.stdout.trim());
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    for (const version of fs.readdirSync(debian).sort((a, b) => Number(b) - Number(a))) candidates.push(path.join(debian, version, 'bin'));
  }
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl'))) ?? null;
}

async function start(settings: string[] = []): Promise<Server> {
  const bin = binDir();
  if (!bin) throw new Error(postgresUnavailableReason()!);
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doc-chat-pg-'));
  const dataDir = path.join(dir, 'data');
  if (asRoot) {
    fs.chmodSync(dir, 0o700);
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  // As root, every server command runs as `postgres` (runuser: no shell, arguments passed as they are).
  const run = (command: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(bin, command), args, { stdio: 'pipe' });
  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200${settings.map((setting) => ` -c ${setting}`).join('')}`;
  const pgCtl = (args: string[]) => run('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dir, 'server.log'), ...args]);
  pgCtl(['-w', '-t', '60', 'start']);
  process.once('exit', () => {
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already gone
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { port, pgCtl };
}

/** A suite that needs PostgreSQL: runs `body` when the server binaries are here, else one skipped test saying why. */
export function describeWithPostgres(title: string, body: () => void): void {
  const unavailable = postgresUnavailableReason();
  if (!unavailable) return body();
  describe(title, () => {
    it('needs a PostgreSQL server', function () {
      console.log(`    skipped: ${unavailable}`);
      this.skip();
    });
  });
}
