import { expect } from 'chai';
import { sql } from 'kysely';
import { preparedQuery } from '../../../adapters/kysely/prepared-query.js';
import { openSqliteDatabase, type SqliteDatabase } from '../../../adapters/sqlite/database.js';

describe('preparedQuery (kysely, on SQLite)', () => {
  let database: SqliteDatabase;
  beforeEach(async () => {
    database = openSqliteDatabase(':memory:');
    await database.db
      .insertInto('sessions')
      .values(['a', 'b', 'c'].flatMap((user) => [1, 2].map((n) => ({ id: `${user}${n}`, label: `${user} ${n}`, user_id: user, created_at: `2026-01-0${n}` }))))
      .execute();
  });
  afterEach(() => database.close());

  it('answers each call with its own values, as the query built for them would, in any order of arguments', async () => {
    const { db } = database;
    const build = (user: string, after: string) =>
      db.selectFrom('sessions').selectAll().where('created_at', '>', after).where('user_id', '=', user).orderBy('id');
    // Arguments bound in another order than they are given: the SQL binds `after` first.
    const query = preparedQuery(2, build);
    for (const [user, after] of [['a', '2026-01-00'], ['b', '2026-01-01'], ['nobody', '2026-01-00'], ['c', '2026-01-02']]) {
      const { rows } = await db.executeQuery(query(user, after));
      expect(rows, `${user} ${after}`).to.deep.equal(await build(user, after).execute());
    }
    expect((await db.executeQuery(query('b', '2026-01-01'))).rows.map((row) => row.id)).to.deep.equal(['b2']);
    expect(query('a', 'x').sql).to.equal(query('b', 'y').sql); // one SQL text: one prepared statement
  });

  it('refuses a build that does not bind each argument as a value, or binds a value of its own', () => {
    const { db } = database;
    expect(() => preparedQuery(1, (id: string) => db.selectFrom('sessions').selectAll().where('id', '=', sql.lit(id)))).to.throw(Error, 'preparedQuery');
    expect(() => preparedQuery(2, (id: string, _unused: string) => db.selectFrom('sessions').selectAll().where('id', '=', id))).to.throw(Error, 'preparedQuery');
    expect(() => preparedQuery(1, (id: string) => db.selectFrom('sessions').selectAll().where('id', '=', id).where('label', '=', 'fixed'))).to.throw(Error, 'preparedQuery');
  });
});
