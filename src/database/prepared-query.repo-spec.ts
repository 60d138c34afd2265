import { randomUUID } from 'node:crypto';
import { bootRepositories, RepositoryHarness } from '../../test/support/repository';
import { executeText } from './prepared-query';

/** Hot reads run as named prepared statements; a schema change under them must not turn into errors. */
describe('prepared hot queries', () => {
  let t: RepositoryHarness;
  beforeAll(async () => (t = await bootRepositories([])));
  afterAll(() => t.close());
  const preparedQuery = (on: RepositoryHarness['dataSource'], sql: string, params: unknown[]) => executeText(on, sql, params);

  it('keep answering after a migration changes the type of a column they return', async () => {
    const table = `prepared_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await t.dataSource.query(`CREATE TABLE ${table} (id int PRIMARY KEY, label varchar(10) NOT NULL)`);
    await t.dataSource.query(`INSERT INTO ${table} VALUES (1, 'one')`);
    const sql = `SELECT id, label FROM ${table} WHERE id = $1`;
    // Concurrent calls spread the statement over every pooled connection (the harness pool holds 3).
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

  it('runs a statement inside the transaction whose connection it is given', async () => {
    const seen = await t.dataSource.transaction(async (tx) => {
      await tx.query(`SET LOCAL application_name = 'prepared-in-tx'`);
      return executeText(tx, `SELECT current_setting('application_name') AS name WHERE $1::int = 1`, [1]);
    });
    expect(seen).toEqual([{ name: 'prepared-in-tx' }]);
  });

  it('hands every connection back to the pool, after a failed statement too', async () => {
    await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => executeText(t.dataSource, i % 2 ? 'SELECT $1::int AS n' : 'SELECT nope($1)', [i])),
    );
    // The harness pool holds 3: three transactions that each hold a connection until all three have one
    // only get there when none was leaked (a leaked one would leave the third waiting until the pool's timeout).
    let started = 0;
    let allStarted!: () => void;
    const together = new Promise<void>((resolve) => (allStarted = resolve));
    const holders = Array.from({ length: 3 }, () =>
      t.dataSource.transaction(async (tx) => {
        await tx.query('SELECT 1');
        if (++started === 3) allStarted();
        await together;
        return executeText(tx, 'SELECT $1::int AS n', [started]);
      }),
    );
    expect(await Promise.all(holders)).toEqual(Array(3).fill([{ n: 3 }]));
  });
});
