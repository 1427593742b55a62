import type { PostgresDatabase } from '../../adapters/postgres/database.js';
import type { SqliteDatabase } from '../../adapters/sqlite/database.js';
import { TOKENS } from '../../server/tokens.js';
import type { TestService } from './test-service.js';

/**
 * Runs a read-only SQL query on the service's records database, SQLite or PostgreSQL, for tests that look behind the
 * API. Parameters are written `?`; for PostgreSQL they become $1, $2, …
 */
export async function queryRecords(t: TestService, sql: string, ...params: unknown[]): Promise<any[]> {
  const container = t.service.container;
  if (container.isBound(TOKENS.SqliteDatabase)) return container.get<SqliteDatabase>(TOKENS.SqliteDatabase).raw.prepare(sql).all(...params);
  let n = 0;
  const { rows } = await container.get<PostgresDatabase>(TOKENS.PostgresDatabase).pool.query(sql.replace(/\?/g, () => `$${++n}`), params);
  return rows;
}
