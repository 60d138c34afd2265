import { randomUUID } from 'node:crypto';
import { preparedQuery } from '../../src/database/prepared-query';
import { createTestApp, TestApp } from '../support/app';

/** Hot reads run as named prepared statements; a schema change under them must not turn into errors. */
describe('prepared hot queries', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('keep answering after a migration changes the type of a column they return', async () => {
    const table = `prepared_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await t.dataSource.query(`CREATE TABLE ${table} (id int PRIMARY KEY, label varchar(10) NOT NULL)`);
    await t.dataSource.query(`INSERT INTO ${table} VALUES (1, 'one')`);
    const sql = `SELECT id, label FROM ${table} WHERE id = $1`;
    // Concurrent calls spread the statement over every pooled connection (the test pool holds 5).
    const everyConnection = () => Promise.all(Array.from({ length: 10 }, () => preparedQuery(t.dataSource, sql, [1])));
    expect(await everyConnection()).toEqual(Array(10).fill([{ id: 1, label: 'one' }]));

    await t.dataSource.query(`ALTER TABLE ${table} ALTER COLUMN label TYPE text`);

    expect(await everyConnection()).toEqual(Array(10).fill([{ id: 1, label: 'one' }]));
    // And later calls run prepared under the new name, without a refusal first.
    expect(await everyConnection()).toEqual(Array(10).fill([{ id: 1, label: 'one' }]));
    await t.dataSource.query(`DROP TABLE ${table}`);
  });

  it('passes other database errors through with their code', async () => {
    await expect(preparedQuery(t.dataSource, 'SELECT 1 FROM no_such_table_here WHERE 1 = $1', [1])).rejects.toMatchObject({
      code: '42P01',
    });
  });
});
