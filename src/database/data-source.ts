import { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DatabaseTarget {
  url: string;
  embedded: boolean;
  poolSize: number;
  statementTimeoutMs: number;
  /**
   * `transaction`: `url` is a pooler in transaction mode. PgBouncer refuses startup parameters
   * other than a handful (application_name, client_encoding…), so the per-connection timeouts are
   * not sent: they come from the database role or the pooler (docs/scaling.md).
   */
  pooler?: 'none' | 'transaction';
}

/** One description of the database shared by the app, the CLI (ormconfig.ts) and the tests. */
export function dataSourceOptions(target: DatabaseTarget): DataSourceOptions {
  return {
    type: 'postgres',
    url: target.url,
    // TypeORM's default uuid_generate_v4() needs uuid-ossp, which PGlite lacks.
    uuidExtension: 'pgcrypto',
    synchronize: false,
    migrationsRun: false,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    // A 0.3-style findOneBy({ id: undefined }) returns the table's first row; make it throw.
    invalidWhereValuesBehavior: { null: 'throw', undefined: 'throw' },
    extra: {
      max: target.embedded ? 1 : target.poolSize,
      connectionTimeoutMillis: 5000,
      ...(target.pooler === 'transaction'
        ? {}
        : { statement_timeout: target.statementTimeoutMs, idle_in_transaction_session_timeout: 60000 }),
    },
  } as DataSourceOptions;
}
