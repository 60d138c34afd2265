import { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DatabaseTarget {
  url: string;
  embedded: boolean;
  poolSize: number;
  statementTimeoutMs: number;
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
      statement_timeout: target.statementTimeoutMs,
      idle_in_transaction_session_timeout: 60000,
    },
  } as DataSourceOptions;
}
