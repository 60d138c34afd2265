import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { ENTITIES } from '../../src/app.entities';
import { databasePrefix, databaseUrl } from '../support/databases';

/**
 * The migrations own the schema; the entities must describe it exactly. On the migrated
 * template database, TypeORM's schema builder is asked what it would change to make the
 * schema match the entities: nothing, or an entity is out of step with its table.
 */
describe('entities describe the migrated schema', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    const options = dataSourceOptions(
      { url: databaseUrl(`${databasePrefix()}_template`), embedded: false, poolSize: 1, statementTimeoutMs: 0 },
      ENTITIES,
    );
    dataSource = await new DataSource(options).initialize();
  });
  afterAll(() => dataSource.destroy());

  it('leaves TypeORM no statement to propose', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('has an entity for every table', async () => {
    const tables = (await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations' ORDER BY 1`,
    )) as { table_name: string }[];
    const mapped = new Set(ENTITIES.map((entity) => dataSource.getMetadata(entity).tableName));
    expect(tables.map((t) => t.table_name).filter((name) => !mapped.has(name))).toEqual([]);
  });
});
