import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteDatabase } from '../../adapters/sqlite/database.js';
import { SqliteFtsIndex } from '../../adapters/sqlite/sqlite-fts-index.js';
import { vectorIndexContract } from './vector-index.contract.js';

vectorIndexContract('SqliteFtsIndex (temp-file database)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fts-index-'));
  const database = openSqliteDatabase(path.join(dir, 'test.db'));
  return {
    index: new SqliteFtsIndex(database),
    cleanup: async () => {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
